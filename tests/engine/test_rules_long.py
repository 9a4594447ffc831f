"""Long nardy: one or more tests per rule of RULES.md (L1-L12), each covering both sides
of the rule's edge, with hand-built positions (``legal_turns``) and small records
(``replay``). Positions are written in each side's own numbering: my point ``p`` is the
opponent's ``p + 12`` (``p <= 12``) or ``p - 12``; along the opponent's route my points
run 12..1 and then 24..13."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import (
    BLACK,
    WHITE,
    IllegalTurnError,
    Position,
    PositionError,
    Replay,
    Rules,
    legal_turns,
    play,
    read_records,
    replay,
)

Board = frozenset[tuple[str, int]]


def pts(points: dict[int, int]) -> Board:
    """A mover's board as ``ends`` returns it."""
    return frozenset((str(p), n) for p, n in points.items())


def long_pos(turn: str, mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A long nardy position with ``turn`` to move; ``mine`` are the mover's checkers."""
    white, black = (mine, theirs) if turn == "white" else (theirs, mine)
    return Position.from_json(
        {
            "variant": "long",
            "turn": turn,
            "white": {str(p): n for p, n in white.items()},
            "black": {str(p): n for p, n in black.items()},
        }
    )


def ends(pos: Position, dice: list[int], rules: Rules | None = None) -> set[Board]:
    """The mover's boards after every legal turn (long nardy: nothing is hit, so the
    opponent's board never changes)."""
    side = pos.to_json()["turn"]
    other = "black" if side == "white" else "white"
    out = set()
    for turn in legal_turns(pos, dice, rules):
        after = turn.position.to_json()
        assert after[other] == pos.to_json()[other], "long nardy has no hitting (L3)"
        assert after["turn"] == other
        out.add(frozenset(after[side].items()))
    return out


def game(movetext: str, **tags: str) -> str:
    lines = ['[Variant "long"]', *(f'[{k} "{v}"]' for k, v in tags.items())]
    return "\n".join(lines) + "\n\n" + movetext + "\n"


def verify(movetext: str, **tags: str) -> Replay:
    return replay(read_records(game(movetext, **tags))[0])


def plain(message: str) -> bool:
    """A message a club player can read: words, no Python internals."""
    return (
        len(message) > 10
        and "Traceback" not in message
        and "None" not in message
        and re.search(r"[A-Za-z]+Error", message) is None
        and "_" not in message
    )


def refused(movetext: str, rule: str | tuple[str, ...], **tags: str) -> str:
    """Replay a record that must fail on ``rule``; return the error message."""
    result = verify(movetext, **tags)
    assert not result.ok, f"{movetext!r} was accepted"
    assert result.error is not None
    rules = (rule,) if isinstance(rule, str) else rule
    assert result.error.rule in rules, result.error.describe()
    assert plain(result.error.message), result.error.message
    return result.error.message


def written_refused(pos: Position, text: str, rule: str, rules: Rules | None = None) -> str:
    """Play one written turn from a position; it must break ``rule``."""
    with pytest.raises(IllegalTurnError) as info:
        play(pos, text, rules)
    assert info.value.rule == rule, str(info.value)
    assert plain(info.value.message), info.value.message
    return info.value.message


def accepted(movetext: str, **tags: str) -> Replay:
    result = verify(movetext, **tags)
    assert result.ok, result.error.describe() if result.error else ""
    return result


START = Position.start("long")
# White opens 5-5 (L4.3): one checker runs 24/19/14/9/4 and stands on black's 16.
AFTER_5_5 = long_pos("black", {24: 15}, {24: 14, 4: 1})


# L1 set-up -----------------------------------------------------------------------


def test_L1_all_fifteen_checkers_start_on_the_head() -> None:
    assert START.to_json() == {
        "variant": "long",
        "turn": "white",
        "white": {"24": 15},
        "black": {"24": 15},
    }
    assert START.pips(WHITE) == START.pips(BLACK) == 15 * 24


@pytest.mark.parametrize(
    ("white", "black"),
    [
        ({"12": 1, "24": 14}, {"24": 15}),  # white 12 is black's head
        ({"24": 15}, {"12": 1, "24": 14}),  # black 12 is white's head
        ({"24": 14, "1": 1}, {"24": 14, "13": 1}),  # white 1 is black 13
        ({"24": 14, "18": 1}, {"24": 14, "6": 1}),  # white 18 is black 6
    ],
)
def test_L1_the_same_field_is_my_p_and_the_opponents_p_plus_minus_12(
    white: dict[str, int], black: dict[str, int]
) -> None:
    """L1: the opponent's head is the mover's point 12; a field cannot hold both colours."""
    with pytest.raises(PositionError) as info:
        Position.from_json({"variant": "long", "white": white, "black": black})
    assert plain(str(info.value))


def test_L1_fields_that_are_different_points_can_hold_both_colours() -> None:
    """L1: white 13 is black 1, not black 13 (that would be the short game's 25 - p)."""
    pos = long_pos("white", {24: 14, 13: 1}, {24: 14, 13: 1})
    # 6-6: 24/18 (one head checker) and 13/7; 18/12 is black's head, 7/1 is black's 13
    assert ends(pos, [6, 6]) == {pts({24: 13, 18: 1, 7: 1})}


def test_L1_the_opponents_head_is_closed_from_the_start() -> None:
    """L1 with L3: white's 12 is black's head, so 24/18/12 is never possible at the start."""
    assert all(("12", 1) not in b and ("12", 2) not in b for b in ends(START, [6, 6]))


# L2 who starts ----------------------------------------------------------------------


def test_L2_white_moves_first() -> None:
    assert START.turn == WHITE
    accepted("1. 65: 24/18/13 65: 24/18/13")
    accepted("1. W65: 24/18/13 B65: 24/18/13")


def test_L2_a_record_where_black_moves_first_is_refused() -> None:
    """L2: the lot decides who is white, and white moves first."""
    message = refused("1. B65: 24/18/13", "L2")
    assert "white" in message


def test_L2_the_first_roll_may_be_a_double_in_long_nardy() -> None:
    """L2: the lot is not the first roll, so white's first roll may be a double."""
    accepted("1. 66: 24/18(2) 55: 24/19/14/9/4")
    accepted("1. 11: 24/23/22/21/20")


# L3 moving ------------------------------------------------------------------------


def test_L3_a_point_with_one_opponent_checker_is_closed() -> None:
    # black's 6 is white's 18: 24/18 and 20/18 are closed; 14/12 is black's head
    pos = long_pos("white", {24: 14, 20: 1}, {24: 14, 6: 1})
    assert ends(pos, [6, 2]) == {
        pts({24: 13, 22: 1, 14: 1}),  # 24/22 20/14
        pts({24: 13, 20: 1, 16: 1}),  # 24/22/16: the 2 first avoids 18
    }


def test_L3_both_steps_of_one_checker_need_open_landings() -> None:
    """L3: 24/16 with 6-2 needs 18 or 22 open; both are closed here (black 6 and 10)."""
    pos = long_pos("white", {24: 14, 20: 1}, {24: 13, 6: 1, 10: 1})
    # 20/14 is the only step: 24/18, 24/22 and 20/18 are closed, and 14/12 is black's head
    assert ends(pos, [6, 2]) == {pts({24: 14, 14: 1})}


def test_L3_own_checkers_share_a_point_without_limit() -> None:
    pos = long_pos("white", {24: 13, 18: 2}, {24: 15})
    assert ends(pos, [6, 6]) == {pts({24: 12, 18: 3})}


def test_L3_a_double_is_four_moves() -> None:
    pos = long_pos("white", {24: 14, 18: 1}, {24: 15})
    boards = ends(pos, [2, 2])
    assert boards
    for b in boards:
        pips = sum(int(p) * n for p, n in b)
        assert pips == 14 * 24 + 18 - 8


def test_L3_no_hitting_in_long_nardy() -> None:
    message = refused("1. 65: 24/18*/13", "L3")
    assert "hit" in message


def test_L3_landing_on_a_closed_point_is_refused_in_a_record() -> None:
    # black's first checker ends on black 13, which is white's 1
    message = refused("1. 65: 24/18/13 65: 24/18/13 2. 66: 13/7/1", "L3")
    assert "1" in message and "closed" in message


CLOSED_7_AND_8 = (
    "1. 65: 24/18/13 41: 24/20/19\n"  # black 19 is white 7
    "2. 21: 24/22/21 11: 24/23/22/21/20\n"  # black 20 is white 8
)


def test_L3_a_compound_move_is_refused_when_every_way_is_closed() -> None:
    """L3: 13/2 with 6-5 lands on 7 or on 8, both held by black."""
    refused(CLOSED_7_AND_8 + "3. 65: 13/2", "L3")
    refused(CLOSED_7_AND_8 + "3. 65: 13/8/2", "L3")
    refused(CLOSED_7_AND_8 + "3. 65: 13/7/2", "L3")


def test_L3_a_compound_move_through_an_open_point_is_accepted() -> None:
    accepted(CLOSED_7_AND_8 + "3. 65: 24/13")
    accepted("1. 65: 24/13")


# L4 the head ------------------------------------------------------------------------


def test_L4_1_only_one_checker_leaves_the_head() -> None:
    boards = ends(START, [6, 5])
    assert boards
    assert all(dict(b)["24"] == 14 for b in boards)


def test_L4_1_not_first_turn_doubles_take_one_head_checker_only() -> None:
    """L4.1: 6-6 after the first turn: 24/18 only (18/12 is black's head)."""
    pos = long_pos("white", {24: 14, 4: 1}, {24: 15})
    assert ends(pos, [6, 6]) == {pts({24: 13, 18: 1, 4: 1})}
    turns = legal_turns(pos, [6, 6])
    assert [t.notation for t in turns] == ["24/18"]


def test_L4_1_second_head_checker_refused() -> None:
    message = refused("1. 65: 24/18 24/19", "L4.1")
    assert "head" in message
    message = refused("1. 65: 24/18/13 65: 24/18/13 2. 65: 24/18 24/19", "L4.1")
    assert "head" in message


def test_L4_1_second_head_checker_refused_with_a_later_double() -> None:
    refused("1. 66: 24/18(2) 66: 24/18(2) 2. 66: 24/18(2)", "L4.1")
    accepted("1. 66: 24/18(2) 66: 24/18(2) 2. 66: 24/18")


def test_L4_2_first_turn_6_6_takes_two_checkers() -> None:
    assert ends(START, [6, 6]) == {pts({24: 13, 18: 2})}
    assert [t.notation for t in legal_turns(START, [6, 6])] == ["24/18(2)"]
    accepted("1. 66: 24/18(2)")


def test_L4_2_first_turn_4_4_takes_two_checkers() -> None:
    """L4.2: 24/20/16/12 is blocked by black's head, so two checkers go to 16."""
    assert ends(START, [4, 4]) == {pts({24: 13, 16: 2})}
    accepted("1. 44: 24/20/16(2)")
    accepted("1. 44: 24/16(2)")


def test_L4_2_first_turn_3_3_takes_two_checkers() -> None:
    assert ends(START, [3, 3]) == {pts({24: 13, 18: 2}), pts({24: 13, 21: 1, 15: 1})}
    accepted("1. 33: 24/21/18(2)")
    accepted("1. 33: 24/21/18/15 24/21")


def test_L4_2_black_first_turn_double_after_white_played() -> None:
    """L4.2 holds for black's first turn too (all 15 still on black's head)."""
    pos = long_pos("black", {24: 15}, {24: 14, 13: 1})
    assert ends(pos, [6, 6]) == {pts({24: 13, 18: 2})}
    assert ends(pos, [4, 4]) == {pts({24: 13, 16: 2})}
    accepted("1. 65: 24/18/13 66: 24/18(2)")


@pytest.mark.parametrize(
    ("dice", "board"),
    [
        ([5, 5], {24: 14, 4: 1}),
        ([2, 2], {24: 14, 16: 1}),
        ([1, 1], {24: 14, 20: 1}),
    ],
)
def test_L4_2_other_first_turn_doubles_take_one_checker(
    dice: list[int], board: dict[int, int]
) -> None:
    assert ends(START, dice) == {pts(board)}


def test_L4_2_a_third_head_checker_is_refused_on_the_first_turn() -> None:
    refused("1. 33: 24/21(3) 21/18", ("L4.1", "L4.2"))
    refused("1. 66: 24/18(3)", ("L4.1", "L4.2"))


def test_L4_2_second_turn_is_not_the_first_turn() -> None:
    refused("1. 65: 24/18/13 65: 24/18/13 2. 44: 24/20/16(2)", "L4.1")


def test_L4_3_black_4_4_after_white_5_5_plays_a_single_4() -> None:
    """L4.3: the white checker on black's 16 blocks 20/16; black takes one checker
    from the head and plays one 4."""
    turns = legal_turns(AFTER_5_5, [4, 4])
    assert [t.notation for t in turns] == ["24/20"]
    assert ends(AFTER_5_5, [4, 4]) == {pts({24: 14, 20: 1})}
    accepted("1. 55: 24/19/14/9/4 44: 24/20")


def test_L4_3_black_may_not_take_a_second_head_checker() -> None:
    message = refused("1. 55: 24/19/14/9/4 44: 24/20(2)", "L4.3")
    assert "third" not in message  # it is the second checker that may not leave
    refused("1. 55: 24/19/14/9/4 44: 24/20/16", "L3")


def test_L4_3_written_from_the_position() -> None:
    assert play(AFTER_5_5, "44: 24/20").notation == "24/20"
    written_refused(AFTER_5_5, "44: 24/20(2)", "L4.3")


def test_L4_3_black_must_still_play_the_single_4() -> None:
    message = refused("1. 55: 24/19/14/9/4 44:", "L6")
    assert "1 moves" not in message


def test_L4_3_other_first_doubles_of_black_after_5_5_take_two_checkers() -> None:
    """L4.3 is about 4-4 only: 6-6 and 3-3 keep the L4.2 exception."""
    assert ends(AFTER_5_5, [6, 6]) == {pts({24: 13, 18: 2})}
    assert pts({24: 13, 18: 2}) in ends(AFTER_5_5, [3, 3])
    accepted("1. 55: 24/19/14/9/4 66: 24/18(2)")


def test_L4_3_black_4_4_after_another_white_opening_takes_two_checkers() -> None:
    pos = long_pos("black", {24: 15}, {24: 14, 13: 1})
    assert ends(pos, [4, 4]) == {pts({24: 13, 16: 2})}
    accepted("1. 65: 24/18/13 44: 24/20/16(2)")


# L5 six-point block --------------------------------------------------------------------

# The mover holds 11, 10, 9, 8 (two) and 7; 8/6 with the 2 makes six points 11-6, which
# along the opponent's route are its 23-18. 24/23 plays the 1.
FIVE = {24: 9, 11: 1, 10: 1, 9: 1, 8: 2, 7: 1}
BLOCK = pts({24: 8, 23: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1})
NO_BLOCK = pts({24: 8, 21: 1, 11: 1, 10: 1, 9: 1, 8: 2, 7: 1})  # 24/23/21


@pytest.mark.parametrize("turn", ["white", "black"])
def test_L5_block_without_an_opponent_checker_ahead_is_refused(turn: str) -> None:
    boards = ends(long_pos(turn, FIVE, {24: 15}), [2, 1])
    assert BLOCK not in boards
    assert NO_BLOCK in boards


@pytest.mark.parametrize("turn", ["white", "black"])
def test_L5_block_with_an_opponent_checker_ahead_is_allowed(turn: str) -> None:
    # the opponent's 10 is the mover's 22: past the block's last point (its 18)
    assert BLOCK in ends(long_pos(turn, FIVE, {24: 14, 10: 1}), [2, 1])
    # the opponent's 17 is the mover's 5: right after the block
    assert BLOCK in ends(long_pos(turn, FIVE, {24: 14, 17: 1}), [2, 1])


def test_L5_option_in_home_needs_the_opponent_checker_in_its_home() -> None:
    in_home = Rules(block_ahead="in-home")
    assert in_home == Rules.from_options({"block_ahead": "in-home"})
    outside = long_pos("white", FIVE, {24: 14, 10: 1})  # black 10: ahead, not home
    assert BLOCK in ends(outside, [2, 1])
    assert BLOCK not in ends(outside, [2, 1], in_home)
    home = long_pos("white", FIVE, {24: 14, 5: 1})  # black 5 is white 17
    assert BLOCK in ends(home, [2, 1], in_home)
    assert BLOCK in ends(home, [2, 1])


def test_L5_a_run_of_seven_is_a_block_too() -> None:
    seven = {24: 8, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2, 6: 1}
    run7 = pts({24: 7, 23: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1})
    assert run7 not in ends(long_pos("white", seven, {24: 15}), [2, 1])
    # black 16 is white 4, just past the seventh point
    assert run7 in ends(long_pos("white", seven, {24: 14, 16: 1}), [2, 1])
    assert run7 not in ends(
        long_pos("white", seven, {24: 14, 16: 1}), [2, 1], Rules(block_ahead="in-home")
    )


# White 3, 2, 1 and 24, 23, 22 are black's 15-10: six consecutive points along black's
# route, wrapping past white's head. 6/3 with the 3 closes the ring of six.
WRAP_BEFORE = {24: 10, 23: 1, 22: 1, 6: 1, 2: 1, 1: 1}
WRAP = pts({24: 9, 23: 2, 22: 1, 3: 1, 2: 1, 1: 1})  # 6/3 24/23


def test_L5_block_wrapping_past_the_movers_head_is_refused() -> None:
    boards = ends(long_pos("white", WRAP_BEFORE, {24: 15}), [3, 1])
    assert WRAP not in boards
    assert pts({24: 10, 23: 1, 22: 1, 3: 1, 1: 2}) in boards  # 6/3 2/1: no block


def test_L5_an_opponent_checker_behind_the_block_does_not_count() -> None:
    # black 16 is white 4: behind black 15-10
    assert WRAP not in ends(long_pos("white", WRAP_BEFORE, {24: 14, 16: 1}), [3, 1])


def test_L5_block_wrapping_past_the_head_with_a_checker_ahead_is_allowed() -> None:
    # black 9 is white 21: just past black 10
    assert WRAP in ends(long_pos("white", WRAP_BEFORE, {24: 14, 9: 1}), [3, 1])
    assert WRAP in ends(long_pos("black", WRAP_BEFORE, {24: 14, 9: 1}), [3, 1])


def test_L5_the_movers_13_and_12_are_not_consecutive_for_the_opponent() -> None:
    """L5: white 15-10 are black 3, 2, 1 and 24, 23, 22: the opponent's route ends at
    its 1 and starts at its 24, so these six points are no block."""
    pos = long_pos("white", {24: 9, 16: 1, 15: 1, 14: 1, 13: 1, 11: 1, 10: 1}, {20: 15})
    six = pts({24: 8, 23: 1, 15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1})  # 16/12 24/23
    assert six in ends(pos, [4, 1])


# 17/11/6 with 6-5: the checker makes 11-6 (a block) on the way and breaks it at once
# (17/12/6 is impossible: 12 is black's head).
PASSING = long_pos("white", {24: 9, 17: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}, {24: 15})
PASSED = pts({24: 9, 10: 1, 9: 1, 8: 1, 7: 1, 6: 2})


def test_L5_block_formed_and_broken_within_the_turn_is_fine_at_turn_end() -> None:
    """L5 Decision: the check is on the position at the end of the turn."""
    assert Rules().block_check == "turn-end"
    boards = ends(PASSING, [6, 5])
    assert PASSED in boards
    assert pts({24: 8, 19: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}) not in boards


def test_L5_block_formed_and_broken_within_the_turn_is_refused_every_step() -> None:
    every = Rules.from_options({"block_check": "every-step"})
    assert every == Rules(block_check="every-step")
    boards = ends(PASSING, [6, 5], every)
    assert boards
    assert PASSED not in boards


def test_L5_written_turns_from_the_position() -> None:
    every = Rules(block_check="every-step")
    assert play(PASSING, "65: 17/11/6").notation == "17/11/6"
    assert play(PASSING, "65: 17/6").notation == "17/11/6"
    written_refused(PASSING, "65: 17/11/6", "L5", every)
    written_refused(PASSING, "65: 17/6", "L5", every)
    written_refused(PASSING, "65: 17/11 24/19", "L5")
    written_refused(PASSING, "65: 17/11 24/19", "L5", every)


# Records: white builds 24, 23, 22, 21, 20, 19 (black's 12-7) in five turns.
BLOCK_GAME = (
    "1. 21: 24/22/21 21: 24/22/21\n"
    "2. 21: 24/22/21 21: 24/22/21\n"
    "3. 21: 24/22/21 21: 24/22/21\n"
    "4. 21: 24/22 21/20 21: 24/22 21/20\n"
    "5. 21: 24/23 21/19"
)
# The same white play; black runs one checker to its 2 first (24/18/13, 13/7/2).
BLOCK_GAME_BLACK_AHEAD = (
    "1. 21: 24/22/21 65: 24/18/13\n"
    "2. 21: 24/22/21 65: 13/7/2\n"
    "3. 21: 24/22/21 21: 24/22/21\n"
    "4. 21: 24/22 21/20 21: 24/22/21\n"
    "5. 21: 24/23 21/19"
)


def test_L5_record_ending_a_turn_with_a_forbidden_block_is_refused() -> None:
    message = refused(BLOCK_GAME, "L5")
    assert "block" in message
    accepted(BLOCK_GAME.replace("5. 21: 24/23 21/19", "5. 21: 24/22/21"))


def test_L5_record_block_with_a_black_checker_ahead_is_accepted() -> None:
    accepted(BLOCK_GAME_BLACK_AHEAD)
    accepted(BLOCK_GAME_BLACK_AHEAD, BlockAhead="in-home")  # black's 2 is in its home


# White holds 24, 22, 21, 20, 19; 24/23/20 makes 24-19 on the way and breaks it.
TRANSIENT_GAME = (
    "1. 21: 24/22/21 21: 24/22/21\n"
    "2. 31: 24/21/20 31: 24/21/20\n"
    "3. 31: 24/21/20 31: 24/21/20\n"
    "4. 21: 24/22 20/19 21: 24/22 20/19\n"
)


def test_L5_record_transient_block_fine_at_turn_end() -> None:
    accepted(TRANSIENT_GAME + "5. 31: 24/23/20")


def test_L5_record_transient_block_refused_every_step() -> None:
    message = refused(TRANSIENT_GAME + "5. 31: 24/23/20", "L5", BlockCheck="every-step")
    assert "block" in message
    # the other order never makes the block; a compound move may take it
    accepted(TRANSIENT_GAME + "5. 31: 24/21/20", BlockCheck="every-step")
    accepted(TRANSIENT_GAME + "5. 31: 24/20", BlockCheck="every-step")


# L6 must play -------------------------------------------------------------------------


def test_L6_both_dice_must_be_played() -> None:
    boards = ends(START, [6, 5])
    for b in boards:
        assert sum(int(p) * n for p, n in b) == 15 * 24 - 11
    message = refused("1. 65: 24/18", "L6")
    assert "both" in message
    accepted("1. 65: 24/18/13")


@pytest.mark.parametrize("turn", ["white", "black"])
def test_L6_the_higher_die_when_only_one_can_be_played(turn: str) -> None:
    """L6: 20/14 or 20/15 alone, but 9 (the opponent's 21) stops the second die."""
    pos = long_pos(turn, {20: 1}, {24: 14, 21: 1})
    turns = legal_turns(pos, [6, 5])
    assert [t.notation for t in turns] == ["20/14"]
    assert ends(pos, [5, 6]) == {pts({14: 1})}


def test_L6_written_lower_die_is_refused_when_the_higher_can_be_played() -> None:
    pos = long_pos("white", {20: 1}, {24: 14, 21: 1})
    message = written_refused(pos, "65: 20/15", "L6")
    assert "higher" in message
    assert play(pos, "65: 20/14").notation == "20/14"


def test_L6_the_lower_die_when_the_higher_cannot_be_played() -> None:
    # white 14 is black 2 (the 6 is closed); after 20/15 the 6 would land on 9 (black 21)
    pos = long_pos("white", {20: 1}, {24: 13, 2: 1, 21: 1})
    assert ends(pos, [6, 5]) == {pts({15: 1})}


def test_L6_record_playing_the_lower_die_is_refused(autoplay) -> None:
    game_ = autoplay(
        "long",
        (4, 3),
        (6, 5),
        stop=lambda p: p.turn == BLACK and p.black[12] == 1 and p.black[2] == 13,
    )
    assert game_.position.to_json()["black"] == {"12": 1, "3": 1, "2": 13}
    assert game_.position.white[13] == 1  # black's 1 is closed
    # 12/6 or 12/7 alone; then 6/1 and 7/1 are closed and 3/off needs the 6 point empty
    message = refused(game_.movetext + " 65: 12/7", "L6")
    assert "higher" in message
    accepted(game_.movetext + " 65: 12/6")


def test_L6_doubles_play_as_many_moves_as_possible() -> None:
    """L6: 20/15/10 stops at black's 22; 14/9/4 and 20/15 are three moves, the most."""
    pos = long_pos("white", {20: 1, 14: 1}, {24: 14, 22: 1})
    assert ends(pos, [5, 5]) == {pts({15: 1, 4: 1})}


def test_L6_no_legal_move_is_the_single_empty_turn() -> None:
    # black 6 and 10 are white 18 and 22
    pos = long_pos("white", {24: 15}, {24: 13, 6: 1, 10: 1})
    turns = legal_turns(pos, [6, 2])
    assert len(turns) == 1
    assert turns[0].notation == ""
    assert turns[0].position == Position(pos.variant, BLACK, pos.white, pos.black, pos.cube)


def test_L6_record_with_empty_turns_where_nothing_can_be_played(autoplay) -> None:
    game_ = autoplay("long", (6, 5), (6, 5))
    assert "65:" in game_.turns  # white is stuck for some turns
    assert game_.position.off(BLACK) == 15 and game_.position.off(WHITE) == 0
    accepted(game_.movetext, Result="black mars")


def test_L6_an_empty_turn_is_refused_when_a_move_exists() -> None:
    message = refused("1. 65:", "L6")
    assert "must" in message


# L7 bearing off -----------------------------------------------------------------------


def test_L7_a_die_bears_off_from_its_own_point() -> None:
    pos = long_pos("white", {6: 1, 4: 1, 1: 1}, {24: 15})
    assert pts({6: 1}) in ends(pos, [4, 1])
    # 6/off 4/off, or 6/2 and then the 6 bears off from the highest point, 4
    assert ends(pos, [6, 4]) == {pts({1: 1}), pts({2: 1, 1: 1})}


def test_L7_a_higher_die_bears_off_from_the_highest_point_only() -> None:
    assert ends(long_pos("white", {3: 1, 2: 1}, {24: 15}), [6, 5]) == {pts({})}
    # 4-1: point 4 is empty and 5 is higher: the 4 must be played 5/1
    assert ends(long_pos("white", {5: 1, 3: 1}, {24: 15}), [4, 1]) == {
        pts({3: 1}),  # 5/1/off or 5/4/off
        pts({2: 1, 1: 1}),  # 5/1 3/2
    }


def test_L7_moving_inside_home_instead_of_bearing_off_is_allowed() -> None:
    boards = ends(long_pos("white", {6: 1, 4: 1}, {24: 15}), [4, 2])
    assert boards == {pts({4: 1}), pts({2: 2})}


def test_L7_no_bearing_off_before_all_checkers_are_home() -> None:
    assert ends(long_pos("white", {8: 1, 2: 1}, {24: 15}), [2, 1]) == {
        pts({6: 1, 1: 1}),
        pts({5: 1, 2: 1}),
    }
    # the 1 brings the last checker home, then the 2 may bear off
    assert pts({6: 1}) in ends(long_pos("white", {7: 1, 2: 1}, {24: 15}), [2, 1])


def test_L7_written_order_bears_off_only_after_the_last_checker_is_home() -> None:
    pos = long_pos("white", {7: 1, 2: 1}, {24: 15})
    assert play(pos, "21: 7/6 2/off").position.to_json()["white"] == {"6": 1}
    message = written_refused(pos, "21: 2/off 7/6", "L7")
    assert "home" in message


def test_L7_must_play_holds_while_bearing_off() -> None:
    """L7: L6 applies throughout: both dice are played with 6-5 (6/1 and then the 6
    from the highest point, 5, is a legal choice too)."""
    pos = long_pos("white", {6: 1, 5: 1}, {24: 15})
    assert ends(pos, [6, 5]) == {pts({}), pts({1: 1})}
    written_refused(pos, "65: 6/off", "L6")
    assert play(pos, "65: 6/off 5/off").position.off(WHITE) == 15


def test_L7_black_bears_off_in_its_own_numbering() -> None:
    pos = long_pos("black", {5: 1, 3: 1}, {24: 15})
    assert ends(pos, [4, 1]) == {pts({3: 1}), pts({2: 1, 1: 1})}


def _all_home(p: Position) -> bool:
    return p.turn == WHITE and not any(p.white[7:25])


def test_L7_records_at_the_bear_off(autoplay) -> None:
    game_ = autoplay("long", (6, 5), (5, 3), stop=_all_home)
    assert game_.position.to_json()["white"] == {"6": 1, "3": 1, "2": 13}
    moves = game_.movetext + " "
    message = refused(moves + "54: 3/off 2/off", "L7")  # the 5 must move 6/1 or 6/...
    assert "6" in message
    refused(moves + "54: 6/2 2/off", "L7")  # after 6/2 the 5 bears off from 3, not 2
    accepted(moves + "54: 6/2 3/off")
    accepted(moves + "61: 6/off 3/2")
    accepted(moves + "21: 6/4 3/2")  # the 2 moves inside instead of bearing off
    accepted(moves + "21: 2/off 6/5")  # 2/1 would land on black's 13


def test_L7_record_bearing_off_before_all_are_home_is_refused(autoplay) -> None:
    game_ = autoplay(
        "long", (6, 5), (6, 5), stop=lambda p: p.turn == WHITE and p.white[19] and p.white[6]
    )
    assert game_.position.to_json()["white"] == {"19": 1, "6": 1, "3": 1, "2": 12}
    message = refused(game_.movetext + " 21: 2/off 19/18", "L7")
    assert "home" in message
    accepted(game_.movetext + " 21: 19/17/16")


# L8 end and scoring ---------------------------------------------------------------------


def finished(autoplay, white: tuple[int, int], black: tuple[int, int], **kw) -> tuple[Any, ...]:
    game_ = autoplay("long", white, black, **kw)
    pos = game_.position
    assert 15 in (pos.off(WHITE), pos.off(BLACK))
    return game_, pos


def test_L8_mars_when_the_loser_bore_off_none(autoplay) -> None:
    game_, pos = finished(autoplay, (6, 5), (5, 3))
    assert pos.off(WHITE) == 15 and pos.off(BLACK) == 0
    result = accepted(game_.movetext, Result="white mars")
    assert result.outcome is not None
    assert (result.outcome.winner, result.outcome.kind) == (WHITE, "mars")
    assert result.outcome.result == "white mars"
    refused(game_.movetext, "L8", Result="white oin")


def test_L8_oin_when_the_loser_bore_off_at_least_one(autoplay) -> None:
    game_, pos = finished(autoplay, (6, 5), (6, 3))
    assert pos.off(WHITE) == 15 and 0 < pos.off(BLACK) < 15
    result = accepted(game_.movetext, Result="white oin")
    assert result.outcome is not None and result.outcome.kind == "oin"
    refused(game_.movetext, "L8", Result="white mars")


def test_L8_black_wins_mars_and_oin(autoplay) -> None:
    game_, pos = finished(autoplay, (4, 3), (6, 5))
    assert pos.off(BLACK) == 15 and pos.off(WHITE) == 0
    assert accepted(game_.movetext, Result="black mars").outcome.winner == BLACK
    game_, pos = finished(autoplay, (6, 5), (6, 4))
    assert pos.off(BLACK) == 15 and pos.off(WHITE) == 14
    accepted(game_.movetext, Result="black oin")


def test_L8_with_mars_off_every_win_is_an_oin(autoplay) -> None:
    game_, pos = finished(autoplay, (6, 5), (5, 3), rules=Rules(mars=False))
    assert pos.off(BLACK) == 0
    result = accepted(game_.movetext, Mars="off", Result="white oin")
    assert result.outcome is not None and result.outcome.kind == "oin"
    refused(game_.movetext, "L8", Mars="off", Result="white mars")


def test_L8_nothing_may_follow_the_end(autoplay) -> None:
    game_, _ = finished(autoplay, (6, 5), (5, 3))
    message = refused(game_.movetext + " 21: 11/9/8", "L8", Result="white mars")
    assert "over" in message


def test_L8_the_result_of_an_unfinished_game_is_a_star() -> None:
    refused("1. 65: 24/18/13", "L8", Result="white oin")
    assert accepted("1. 65: 24/18/13", Result="*").outcome is None


# L9 resignation -------------------------------------------------------------------------


def test_L9_resigning_with_nothing_borne_off_is_a_mars() -> None:
    result = accepted("W resigns", Result="black mars")
    assert result.outcome is not None
    assert (result.outcome.winner, result.outcome.kind) == (BLACK, "mars")
    assert result.outcome.resigned
    assert accepted("1. 65: 24/18/13 resigns", Result="white mars").outcome.winner == WHITE
    assert accepted("1. 65: 24/18/13 B resigns", Result="white mars").outcome.resigned
    refused("1. 65: 24/18/13 B resigns", "L8", Result="white oin")


def test_L9_resigning_after_bearing_off_is_an_oin(autoplay) -> None:
    game_ = autoplay("long", (6, 5), (6, 3), stop=lambda p: p.turn == WHITE and p.off(WHITE))
    assert 0 < game_.position.off(WHITE) < 15
    assert game_.position.off(BLACK) == 0
    result = accepted(game_.movetext + " W resigns", Result="black oin")
    assert result.outcome is not None and result.outcome.resigned
    # the same moment, black resigns: white wins, and black bore off none
    accepted(game_.movetext + " B resigns", Result="white mars")


def test_L9_resignation_with_mars_off_is_an_oin() -> None:
    accepted("W resigns", Mars="off", Result="black oin")
    refused("W resigns", "L8", Mars="off", Result="black mars")


def test_L9_nothing_may_follow_a_resignation() -> None:
    refused("1. 65: 24/18/13 B resigns 65: 24/18/13", "L8", Result="white mars")


# L10 right of last roll -------------------------------------------------------------------

LAST = Rules(last_roll=True)


def test_L10_black_bears_off_all_with_the_last_roll_a_draw(autoplay) -> None:
    game_, pos = finished(autoplay, (6, 4), (6, 5), rules=LAST)
    assert pos.off(WHITE) == 15 and pos.to_json()["black"] == {"1": 2}
    result = accepted(game_.movetext + " 21: 1/off(2)", LastRoll="on", Result="draw")
    assert result.outcome is not None
    assert (result.outcome.winner, result.outcome.kind) == (None, "draw")
    assert result.outcome.result == "draw"
    refused(game_.movetext + " 21: 1/off(2)", "L8", LastRoll="on", Result="white oin")


def test_L10_the_game_waits_for_the_last_roll(autoplay) -> None:
    game_, _ = finished(autoplay, (6, 4), (6, 5), rules=LAST)
    assert accepted(game_.movetext, LastRoll="on").outcome is None


def test_L10_otherwise_white_wins(autoplay) -> None:
    game_, pos = finished(autoplay, (6, 4), (5, 4), rules=LAST)
    assert pos.to_json()["black"] == {"2": 4, "1": 7}
    result = accepted(game_.movetext + " 66: 2/off(4)", LastRoll="on", Result="white oin")
    assert result.outcome is not None and result.outcome.winner == WHITE


def test_L10_oin_or_mars_is_judged_after_the_last_roll(autoplay) -> None:
    game_, pos = finished(autoplay, (6, 5), (5, 3), rules=LAST)
    assert pos.off(BLACK) == 0
    assert pos.to_json()["black"] == {"11": 1, "10": 1, "5": 2, "4": 1, "3": 9, "2": 1}
    # black's last roll brings everything home and bears off two: an oin, not a mars
    accepted(game_.movetext + " 66: 11/5 10/4 5/off(2)", LastRoll="on", Result="white oin")
    refused(game_.movetext + " 66: 11/5 10/4 5/off(2)", "L8", LastRoll="on", Result="white mars")
    accepted(game_.movetext + " 21: 11/9/8", LastRoll="on", Result="white mars")


def test_L10_the_last_roll_is_one_roll_only(autoplay) -> None:
    game_, _ = finished(autoplay, (6, 4), (5, 4), rules=LAST)
    refused(game_.movetext + " 66: 2/off(4) 3. 21:", "L8", LastRoll="on", Result="white oin")


def test_L10_without_the_option_black_gets_no_last_roll(autoplay) -> None:
    game_, _ = finished(autoplay, (6, 4), (6, 5))
    accepted(game_.movetext, Result="white oin")
    refused(game_.movetext + " 21: 1/off(2)", "L8", Result="white oin")


def test_L10_no_last_roll_for_white_when_black_finishes_first(autoplay) -> None:
    game_, pos = finished(autoplay, (6, 5), (6, 4), rules=LAST)
    assert pos.off(BLACK) == 15
    accepted(game_.movetext, LastRoll="on", Result="black oin")
    refused(game_.movetext + " 21: 1/off", "L8", LastRoll="on", Result="black oin")


# L11, L12: tournament settings, not engine rules ------------------------------------------


def test_L11_a_draw_exists_only_with_the_last_roll(autoplay) -> None:
    """L11 and L12 (draw scoring, series and who starts the next game) are tournament
    settings outside the engine; the engine only knows whether a game was drawn, which
    needs the right of last roll (L10)."""
    game_, _ = finished(autoplay, (6, 4), (6, 5))
    message = refused(game_.movetext, "L8", Result="draw")
    assert "draw" in message
    accepted(game_.movetext + " 21: 1/off(2)", LastRoll="on", Result="draw")
