"""The board's frame is drawn once per variant, viewer's side and language and kept
(tournaments/board.py, docs/online.md "Benchmark"): a room's move draws two boards."""

from __future__ import annotations

from django.utils import translation

from tournaments.board import _variant_name, board_frame, board_svg
from tournaments.engine import BLACK, WHITE, Position


def test_the_frame_is_kept_by_variant_side_and_language() -> None:
    with translation.override("en"):
        first = board_frame("long", WHITE)
        assert board_frame("long", WHITE) is first  # kept, not drawn again
        assert board_frame("long", BLACK) != first  # the trays swap sides
        assert board_frame("short", WHITE) != first  # its name in <desc>
        english = board_frame("short", WHITE)
    with translation.override("cs"):
        czech = board_frame("short", WHITE)
        assert czech != english  # "pips" and the variant's name in Czech
        assert board_frame("short", WHITE) is czech
    with translation.override("en"):
        assert board_frame("short", WHITE) is english


def test_a_whole_board_carries_the_frame_of_its_language() -> None:
    pos = Position.start("long")
    with translation.override("cs"):
        czech, czech_frame = board_svg(pos), board_frame("long", WHITE)
    with translation.override("en"):
        english, english_frame = board_svg(pos), board_frame("long", WHITE)
    assert czech_frame in czech and english_frame in english
    assert english_frame not in czech and czech_frame not in english


def test_the_variants_name_in_every_boards_label_is_kept_by_language() -> None:
    with translation.override("en"):
        english = _variant_name("long")
        assert _variant_name("long") is english
    with translation.override("cs"):
        assert _variant_name("long") != english
        assert _variant_name("long") is _variant_name("long")


def test_the_trays_count_says_what_it_counts() -> None:
    """A Lurč side's "0+15" (none borne off, fifteen still to enter, Z3) is explained in
    the reader's language; a side with none to enter says only what it bore off."""
    lurc, long = Position.start("lurc"), Position.start("long")
    with translation.override("en"):
        assert "<title>white: 0 borne off, 15 still to enter</title>0+15<" in board_svg(lurc)
        assert "<title>black: 0 borne off</title>0<" in board_svg(long)
    with translation.override("cs"):
        czech = board_svg(lurc)
        assert "0+15<" in czech and "still to enter" not in czech
        assert "zbývá nasadit 15" in czech
