"""The ``accepted`` action (NOTATION 1, docs/notation.md): an irregular turn the opponent
accepted as played. Only the physical checks stay for that turn; dice use, must-play,
the head (L4), the block (L5) and the bearing-off rules (L7, Z9) are waived."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import BLACK, WHITE, format_text, read_records, replay, verify_text
from engine.replay import Replay

ROOT = Path(__file__).resolve().parents[2]


def one(text: str) -> Replay:
    result = verify_text(text)[0]
    assert isinstance(result, Replay)
    return result


def game(variant: str, movetext: str, result: str = "*") -> str:
    return f'[Variant "{variant}"]\n[Result "{result}"]\n\n{movetext}\n'


# long nardy: 6-6 written as one 11-pip move breaks the dice (L3) and L4.2
LONG_IRREGULAR = "1. 64: 24/18/14 53: 24/19/16\n2. 66: 24/13 {accepted} 31: 16/13 24/23\n"


def test_long_irregular_turn_accepted_goes_on_from_the_written_position():
    text = game("long", LONG_IRREGULAR.replace("{accepted}", "accepted"))
    result = one(text)
    assert result.ok, result.error
    assert result.irregular == [(2, WHITE)]
    assert result.irregular_text() == "turn 2 white accepted"
    # the game goes on from where 24/13 put the checker
    r = replay(read_records(text)[0])
    assert r.position is not None and r.position.white[13] == 1 and r.position.white[24] == 13
    assert [p.irregular for p in r.played] == [False, False, True, False]


def test_long_the_same_turn_without_accepted_is_the_usual_error():
    result = one(game("long", LONG_IRREGULAR.replace("{accepted}", "")))
    assert result.error is not None and result.error.turn == 2
    assert result.irregular == []


def test_accepted_after_a_legal_turn_is_an_error():
    result = one(game("long", "1. 64: 24/18/14 accepted 53: 24/19/16\n"))
    assert result.error is not None
    assert "accepted follows a legal turn (6-4: 24/18/14)" in result.error.message
    assert (result.error.line, result.error.col) == (4, 17)


def test_accepted_with_no_turn_before_it_is_an_error():
    result = one(game("long", "accepted 1. 64: 24/18/14\n"))
    assert result.error is not None and "must follow the irregular turn" in result.error.message


def test_only_the_opponent_accepts():
    text = game("long", LONG_IRREGULAR.replace("{accepted}", "W accepted"))
    result = one(text)
    assert result.error is not None and "only black" in result.error.message
    assert one(game("long", LONG_IRREGULAR.replace("{accepted}", "B accepted"))).ok


@pytest.mark.parametrize(
    ("turn", "why"),
    [
        ("66: 24/12", "point 12 is closed by black"),  # L3: the opponent's head
        ("66: 14/16", "forward only"),
        ("66: 20/14", "there is no white checker on point 20"),
        ("66: 24/13*", "no single black checker to hit"),  # no hitting in long nardy
    ],
)
def test_long_physical_checks_stay_in_an_accepted_turn(turn, why):
    result = one(game("long", f"1. 64: 24/18/14 53: 24/19/16\n2. {turn} accepted\n"))
    assert result.error is not None and why in result.error.message
    assert result.error.turn == 2


def test_short_accepted_turn_hits_as_the_variant_allows():
    """S3: an accepted 13/11 (6-6 played as a 2) still hits black's blot on 11."""
    text = game("short", "1. 31: 8/5 6/5 64: 24/18/14\n2. 66: 13/11* accepted\n")
    r = replay(read_records(text)[0])
    assert r.ok, r.error
    assert r.irregular == [(2, WHITE)]
    assert r.position is not None and r.position.black[25] == 1  # on the bar


def test_short_accepted_turn_cannot_land_on_a_closed_point():
    result = one(game("short", "1. 64: 24/19 accepted\n"))  # black's 6 holds five (S3)
    assert result.error is not None and result.error.rule == "S3"
    assert "closed" in result.error.message


def test_lurc_accepted_placement():
    """Z3 places one checker a die on 25-d; the accepted bar/18 (no die of 6-4) stands."""
    text = game("lurc", "1. 64: bar/19 bar/18 accepted 31: bar/22 bar/24\n")
    r = replay(read_records(text)[0])
    assert r.ok, r.error
    assert r.irregular == [(1, BLACK)]
    assert r.position is not None and r.position.black[18] == 1
    bad = one(game("lurc", "1. 64: bar/19 bar/18 31: bar/22 bar/24\n"))
    assert bad.error is not None and bad.error.turn == 1


def test_format_writes_accepted_and_is_stable():
    text = game("long", LONG_IRREGULAR.replace("{accepted}", "accepted"))
    canonical = format_text(text)
    assert "2. 66: 24/13 accepted 31: 16/13 24/23" in canonical
    assert format_text(canonical) == canonical


def test_cli_verify_names_the_irregular_turn(tmp_path, autoplay):
    """A finished game whose white turn 12 is written with dice that cannot play it:
    accepted, the game still ends as it did."""
    played = autoplay("long", (6, 5), (5, 3))
    turns = list(played.turns)
    assert turns[22].startswith("65: ")
    original = replay(read_records(game("long", played.movetext))[0], check_result=False)
    assert original.ok and original.outcome is not None
    result = original.outcome.result
    turns[22] = "21: " + turns[22][4:]
    without = "\n".join(" ".join(turns[i : i + 2]) for i in range(0, len(turns), 2))
    bad = one(game("long", without, result))
    assert bad.error is not None and bad.error.turn == 12
    turns[22] += " accepted"
    movetext = "\n".join(" ".join(turns[i : i + 2]) for i in range(0, len(turns), 2))
    path = tmp_path / "irregular.nrd"
    path.write_text(game("long", movetext, result), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == f"game 1: ok, {result} (irregular: turn 12 white accepted)\n"
