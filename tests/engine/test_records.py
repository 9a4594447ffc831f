"""The record format of NOTATION.md section 1: tags, movetext, several games in a file,
malformed input (a precise error with line and column, never a traceback) and the
canonical writer (``format_text`` is stable)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    EngineError,
    RecordSyntaxError,
    Replay,
    VerificationError,
    format_text,
    read_records,
    replay,
    verify_text,
)

LONG = '[Variant "long"]\n\n'
SHORT = '[Variant "short"]\n\n'
# short backgammon: black leaves a blot on its 18 (white's 7), white hits it
HIT = SHORT + "1. 31: 8/5 6/5 62: 24/18 13/11\n2. 61: 13/7* 8/7"


def plain(message: str) -> bool:
    return (
        len(message) > 10
        and "Traceback" not in message
        and "None" not in message
        and re.search(r"[A-Za-z]+Error", message) is None
    )


def one(text: str) -> Replay | RecordSyntaxError:
    results = verify_text(text)
    assert len(results) == 1
    return results[0]


def ok(text: str) -> Replay:
    result = one(text)
    assert isinstance(result, Replay), str(result)
    assert result.ok, result.error.describe() if result.error else ""
    return result


def syntax_error(text: str) -> RecordSyntaxError:
    result = one(text)
    assert isinstance(result, RecordSyntaxError), result
    with pytest.raises(RecordSyntaxError):
        read_records(text)
    assert plain(result.message), result.message
    return result


def replay_error(text: str) -> VerificationError:
    result = one(text)
    assert isinstance(result, Replay), str(result)
    assert result.error is not None
    assert plain(result.error.message), result.error.message
    return result.error


def played(text: str) -> int:
    return len(replay(read_records(text)[0]).played)


def movetext(formatted: str) -> str:
    """The canonical movetext of a one-game file, without tags."""
    return "\n".join(line for line in formatted.splitlines() if line and not line.startswith("["))


# tags ---------------------------------------------------------------------------------


def test_tag_values_are_unescaped_and_written_escaped() -> None:
    text = (
        '[Variant "long"]\n[White "Jan \\"Honza\\" Novák"]\n[Event "C:\\\\club"]\n\n'
        "1. 65: 24/18/13\n"
    )
    record = read_records(text)[0]
    assert record.tag("White") == 'Jan "Honza" Novák'
    assert record.tag("Event") == "C:\\club"
    formatted = format_text(text)
    assert '[White "Jan \\"Honza\\" Novák"]' in formatted
    assert '[Event "C:\\\\club"]' in formatted
    assert read_records(formatted)[0].tag("White") == 'Jan "Honza" Novák'


def test_unknown_tags_are_kept() -> None:
    text = '[Variant "long"]\n[Annotator "Petr"]\n\n1. 65: 24/18/13\n'
    assert read_records(text)[0].tag("Annotator") == "Petr"
    assert '[Annotator "Petr"]' in format_text(text)


def test_a_tag_given_twice_is_an_error() -> None:
    err = syntax_error('[Variant "long"]\n[White "a"]\n[White "b"]\n\n1. 65: 24/18/13\n')
    assert (err.line, err.col) == (3, 1)
    assert "White" in err.message


@pytest.mark.parametrize(
    ("tag", "line", "col"),
    [
        ('[Variant "chess"]', 1, 1),
        ('[Variant "long"]\n[Mars "maybe"]', 2, 1),
        ('[Variant "long"]\n  [LastRoll "yes"]', 2, 3),
        ('[Variant "long"]\n[BlockCheck "always"]', 2, 1),
        ('[Variant "long"]\n[BlockAhead "home"]', 2, 1),
        ('[Variant "short"]\n[Cube "yes"]', 2, 1),
        ('[Variant "long"]\n[Result "white wins"]', 2, 1),
    ],
)
def test_an_unknown_tag_value_is_an_error_with_line_and_column(
    tag: str, line: int, col: int
) -> None:
    err = syntax_error(tag + "\n\n1. 65: 24/18/13\n")
    assert (err.line, err.col) == (line, col)
    name = re.search(r"\[(\w+)", tag.splitlines()[-1])
    assert name is not None and name.group(1) in err.message


def test_a_game_needs_a_variant() -> None:
    err = syntax_error('[White "x"]\n\n1. 65: 24/18/13\n')
    assert "Variant" in err.message
    assert err.line == 1


def test_a_malformed_tag_line_is_an_error() -> None:
    err = syntax_error("[Variant long]\n\n1. 65: 24/18/13\n")
    assert (err.line, err.col) == (1, 1)


# movetext -------------------------------------------------------------------------------


def test_turn_numbers_may_stand_anywhere_and_are_ignored() -> None:
    text = LONG + "1. 65: 24/18/13 7. 2... 65: 24/18/13 99. 21: 24/22/21 5.\n"
    ok(text)
    assert played(text) == 3
    assert movetext(format_text(text)) == "1. 65: 24/18/13 65: 24/18/13\n2. 21: 24/22/21"


def test_comments_in_braces_and_to_the_end_of_the_line() -> None:
    text = (
        LONG + "{opening} 1. 65: 24/18/13 {a comment with 24/18 and ; inside} 65: 24/18/13"
        " ; to the end 66: x {\n2. 21: 24/22/21\n"
    )
    ok(text)
    assert played(text) == 3


def test_an_unclosed_comment_is_an_error() -> None:
    err = syntax_error(LONG + "1. 65: 24/18/13 {unclosed\n65: 24/18/13\n")
    assert (err.line, err.col) == (3, 17)


def test_side_letters_must_match_the_side_to_move() -> None:
    ok(LONG + "1. W65: 24/18/13 B65: 24/18/13\n")
    ok(LONG + "1. W 65: 24/18/13 B 65: 24/18/13\n")
    err = replay_error(LONG + "1. 65: 24/18/13 W65: 24/18/13\n")
    assert (err.line, err.col) == (3, 17)
    assert "black" in err.message


def test_two_side_letters_for_one_turn_are_an_error() -> None:
    result = one(LONG + "1. 65: 24/18/13 B B65: 24/18/13\n")
    assert isinstance(result, RecordSyntaxError) or not result.ok


def test_dice_with_a_dash_and_either_order() -> None:
    text = LONG + "1. 6-4: 24/18/14 46: 24/18/14\n"
    ok(text)
    assert movetext(format_text(text)) == "1. 64: 24/18/14 64: 24/18/14"


def test_a_compound_move_is_resolved_and_written_as_a_chain() -> None:
    text = LONG + "1. 64: 24/14 64: 24/20 20/14\n"
    ok(text)
    assert movetext(format_text(text)) == "1. 64: 24/18/14 64: 24/20/14"


def test_repeats_are_read_and_written() -> None:
    text = LONG + "1. 66: 24/18 24/18 66: 24/18(2)\n"
    ok(text)
    assert played(text) == 2
    assert movetext(format_text(text)) == "1. 66: 24/18(2) 66: 24/18(2)"


def test_bar_and_an_empty_turn() -> None:
    text = HIT + " 66: 3. 64: 24/18 13/9 43: bar/21 24/21\n"
    ok(text)
    assert movetext(format_text(text)).endswith(
        "2. 61: 13/7* 8/7 66:\n3. 64: 24/18 13/9 43: bar/21 24/21"
    )


def test_bearing_off_is_written_off(autoplay) -> None:
    game = autoplay("long", (6, 5), (5, 3))
    formatted = format_text('[Variant "long"]\n[Result "white mars"]\n\n' + game.movetext)
    assert "/off" in formatted
    assert movetext(formatted) == game.movetext


def test_a_move_with_no_dice_before_it_is_an_error() -> None:
    err = syntax_error(LONG + "24/18/13\n")
    assert (err.line, err.col) == (3, 1)


# several games ------------------------------------------------------------------------------


def test_a_file_holds_several_games() -> None:
    text = (
        LONG + "1. 65: 24/18/13\n\n"
        '[Variant "short"]\n[White "A"]\n\n1. 31: 8/5 6/5\n\n'
        '[Variant "long"]\n\n1. 65: 24/18\n'
    )
    assert [r.variant for r in read_records(text)] == ["long", "short", "long"]
    results = verify_text(text)
    assert [isinstance(r, Replay) and r.ok for r in results] == [True, True, False]
    third = results[2]
    assert isinstance(third, Replay) and third.error is not None
    assert (third.error.game, third.error.line, third.error.col) == (3, 12, 4)


def test_a_syntax_error_stops_only_its_own_game() -> None:
    text = LONG + "1. 75: 24/17\n\n" + LONG + "1. 65: 24/18/13\n"
    results = verify_text(text)
    assert isinstance(results[0], RecordSyntaxError)
    assert results[0].game == 1
    assert isinstance(results[1], Replay) and results[1].ok


# malformed input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "col", "words"),
    [
        ("1. 75: 24/17/12", 4, "1 to 6"),
        ("1. 65 24/18/13", 4, "colon"),
        ("1. 6544: 24/18", 4, "two dice"),
        ("1. 65: 25/19/14", 8, "25"),
        ("1. 65: 0/6", 8, "0"),
        ("1. 65: 24-18", 8, "24-18"),
        ("1. 65: 24/18//13", 8, "24/18//13"),
        ("1. 65: 24/18(5)", 8, "5"),
        ("1. 65: 24/18/13 xyz", 17, "xyz"),
        ("1. 65: 24/18/13 W", 17, "side"),
    ],
)
def test_malformed_movetext_is_a_syntax_error_with_line_and_column(
    moves: str, col: int, words: str
) -> None:
    err = syntax_error(LONG + moves + "\n")
    assert (err.line, err.col) == (3, col)
    assert words in err.message


@pytest.mark.parametrize(
    ("moves", "col", "words", "rule"),
    [
        ("1. 65: 13/7/2", 4, "13", None),  # no checker there
        ("1. 65: 13/19", 4, "13/19", None),  # backwards
        ("1. 65: off/19", 4, "off/19", None),
        ("1. 65: 24/18/13 24/13", 4, "used", ("L3", "L6", None)),
        ("1. 65: 24/18/13 B resigns 2. 65: 24/18/13", 30, "over", "L8"),
    ],
)
def test_impossible_moves_are_refused_with_line_and_column(
    moves: str, col: int, words: str, rule: str | tuple[str | None, ...] | None
) -> None:
    first, second = verify_text(LONG + moves + "\n\n" + LONG + "1. 65: 24/18/13\n")
    assert isinstance(second, Replay) and second.ok
    assert isinstance(first, Replay) and first.error is not None
    err = first.error
    assert plain(err.message), err.message
    assert (err.game, err.line, err.col) == (1, 3, col)
    assert words in err.message
    assert err.rule in (rule if isinstance(rule, tuple) else (rule,))


def test_a_move_whose_die_is_used_is_not_blamed_on_bearing_off() -> None:
    """6/5 needs the 1, which 8/7 took: the message is about the dice."""
    err = replay_error(SHORT + "1. 31: 8/5 6/5 62: 24/18 13/11\n2. 61: 8/7 6/5\n")
    assert "bear" not in err.message


def test_a_result_tag_that_disagrees_with_the_outcome() -> None:
    err = replay_error('[Variant "long"]\n[Event "x"]\n[Result "white mars"]\n\n1. 65: 24/18/13\n')
    assert (err.line, err.col) == (3, 1)
    assert err.rule == "L8"
    err = replay_error('[Variant "long"]\n[Result "black mars"]\n\n1. 65: 24/18/13 B resigns\n')
    assert err.line == 2 and "white mars" in err.message


def test_a_star_result_for_a_finished_game() -> None:
    err = replay_error('[Variant "long"]\n[Result "*"]\n\n1. 65: 24/18/13 B resigns\n')
    assert err.line == 2 and err.rule == "L8"
    assert "*" in err.message


def test_an_error_names_game_line_column_turn_side_dice_and_text() -> None:
    text = LONG + "1. 65: 24/18/13\n\n" + LONG + "1. 65: 24/18/13 21: 24/22/21\n2. 65: 24/18\n"
    result = verify_text(text)[1]
    assert isinstance(result, Replay) and result.error is not None
    err = result.error
    assert (err.game, err.line, err.col, err.turn, err.side, err.dice, err.text) == (
        2,
        8,
        4,
        2,
        "white",
        "6-5",
        "24/18",
    )
    assert err.rule == "L6"
    assert err.describe().startswith("line 8, col 4: turn 2 (white 6-5: 24/18): ")


def test_a_cube_action_is_located_in_its_turn() -> None:
    """The double before white's second roll belongs to turn 2 (the writer numbers it so)."""
    err = replay_error(SHORT + "1. 31: 8/5 6/5 62: 24/18 13/11\n2. double\n")
    assert (err.line, err.col, err.turn, err.side) == (4, 4, 2, "white")


def test_take_without_a_side_letter_is_the_doubled_player() -> None:
    """The side letter is optional; a take answers the double of the other side."""
    ok('[Variant "short"]\n[Cube "on"]\n\n1. 31: 8/5 6/5 62: 24/18 13/11\n2. double take\n')


BAD_INPUTS = [
    "",
    "\n\n",
    "[",
    '[Variant "long"',
    '[Variant "long"]\n\n{',
    '[Variant "long"]\n\n1. 65: 24/18/13 }',
    '[Variant "long"]\n\n1. 21+55: 24/23/21',
    '[Variant "long"]\n\n1. 65: bar/20',
    '[Variant "long"]\n\n1. 65: 24/18*/13',
    '[Variant "lurc"]\n\n1. 65: bar/20',
    '[Variant "short"]\n\n1. 31: 8/5 6/5 double take drop',
    '[Variant "short"]\n[Cube "on"]\n\n1. double double',
    '[Variant "short"]\n[MatchLength "x"]\n\n1. 31: 8/5 6/5',
    '[Variant "long"]\n[Date "2026-13-45"]\n\n1. 65: 24/18/13',
    '[Variant "long"]\n\n1. 65: 24/18/13 resigns resigns',
    '[Variant "long"]\n\n\x00 1. 65:',
    '[Variant "long"]\n\n1. 66: 24/18(4)',
]


@pytest.mark.parametrize("text", BAD_INPUTS)
def test_bad_input_never_raises_from_verify(text: str) -> None:
    for result in verify_text(text):
        if isinstance(result, RecordSyntaxError):
            assert result.line >= 1 and result.col >= 1
            assert plain(result.message), result.message
        elif result.error is not None:
            assert plain(result.error.message), result.error.message


TOKENS = [
    "1.",
    "2...",
    "65:",
    "6-4:",
    "66:",
    "11:",
    "31:",
    "24/18",
    "24/18/13",
    "24/14",
    "13/7*",
    "13/7*/6",
    "8/5",
    "6/5",
    "bar/21",
    "6/off",
    "24/18(2)",
    "{c}",
    "{",
    "}",
    ";x\n",
    "W",
    "B",
    "resigns",
    "double",
    "take",
    "drop",
    "\n",
    '[Result "*"]\n',
    '[Mars "off"]\n',
    '[Variant "short"]\n',
    "7",
    "99/1",
    "0:",
    "\\",
    '"',
]


@settings(
    max_examples=150,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    st.sampled_from(["long", "short"]),
    st.lists(st.sampled_from(TOKENS) | st.text(max_size=4), max_size=20),
)
def test_any_text_gives_errors_never_a_traceback(variant: str, words: list[str]) -> None:
    text = f'[Variant "{variant}"]\n\n' + " ".join(words)
    results = verify_text(text)
    for result in results:
        assert isinstance(result, RecordSyntaxError | Replay)
    try:
        formatted = format_text(text)
    except EngineError:
        return
    assert format_text(formatted) == formatted


# the canonical writer ---------------------------------------------------------------------------

MESSY = (
    '[White "Jana"]\n[Variant "long"]\n\n'
    "{opening} 1. 6-4: 24/14 66: 24/18 24/18 ; black's double\n"
    "2. W 46: 24/20 20/14 B 11: 24/23/22/21/20 3.\n"
)


def test_format_writes_the_canonical_form() -> None:
    formatted = format_text(MESSY)
    assert '[Variant "long"]' in formatted and '[White "Jana"]' in formatted
    assert '[Result "*"]' in formatted
    lines = movetext(formatted).splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("1. 64: 24/18/14 66: 24/18(2) {black's double}")
    assert lines[0].startswith("{opening}")
    assert lines[1] == "2. 64: 24/20/14 11: 24/23/22/21/20"


def test_format_adds_hit_marks() -> None:
    text = SHORT + "1. 31: 8/5 6/5 62: 24/18 13/11\n2. 61: 13/7 8/7\n"
    assert movetext(format_text(text)).endswith("2. 61: 13/7* 8/7")


@pytest.mark.parametrize(
    "text",
    [
        MESSY,
        HIT + " 66: 3. 64: 24/18 13/9 43: bar/21 24/21\n",
        LONG + "1. 65: 24/18/13\n\n" + SHORT + "1. 31: 8/5 6/5\n",
        LONG + "W resigns\n",
        LONG + "1. 55: 24/19/14/9/4 44: 24/20 {L4.3}\n",
    ],
)
def test_format_is_stable(text: str) -> None:
    once = format_text(text)
    assert format_text(once) == once
    assert [r.ok for r in verify_text(once) if isinstance(r, Replay)] == [
        r.ok for r in verify_text(text) if isinstance(r, Replay)
    ]


@pytest.mark.parametrize(
    ("variant", "white", "black"),
    [("long", (6, 5), (5, 3)), ("long", (4, 3), (6, 5)), ("short", (6, 5), (2, 1))],
)
def test_format_is_stable_on_whole_games(autoplay, variant, white, black) -> None:
    game = autoplay(variant, white, black)
    text = f'[Variant "{variant}"]\n\n{game.movetext}\n'
    once = format_text(text)
    assert format_text(once) == once
    assert movetext(once) == game.movetext


def test_format_raises_the_first_error_as_an_engine_error() -> None:
    with pytest.raises(RecordSyntaxError) as syntax:
        format_text(LONG + "1. 75: 24/17\n")
    assert syntax.value.line == 3
    with pytest.raises(VerificationError) as illegal:
        format_text(LONG + "1. 65: 24/18\n")
    assert illegal.value.line == 3 and illegal.value.rule == "L6"
