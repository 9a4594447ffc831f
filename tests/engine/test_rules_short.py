"""Short backgammon: tests per rule of RULES.md (S1-S7), both sides of each edge, with
hand-built positions and small records. The players move in opposite directions: my
point ``p`` is the opponent's ``25 - p``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest

from engine import (
    BLACK,
    WHITE,
    Position,
    PositionError,
    Replay,
    Rules,
    format_text,
    legal_turns,
    read_records,
    replay,
)

Board = frozenset[tuple[str, int]]


def pts(points: dict[int | str, int]) -> Board:
    return frozenset((str(p), n) for p, n in points.items())


def short_pos(turn: str, mine: Mapping[Any, int], theirs: Mapping[Any, int]) -> Position:
    white, black = (mine, theirs) if turn == "white" else (theirs, mine)
    return Position.from_json(
        {
            "variant": "short",
            "turn": turn,
            "white": {str(p): n for p, n in white.items()},
            "black": {str(p): n for p, n in black.items()},
        }
    )


def ends(pos: Position, dice: list[int]) -> set[tuple[Board, Board]]:
    """(mover's board, opponent's board) after every legal turn."""
    side = pos.to_json()["turn"]
    other = "black" if side == "white" else "white"
    out = set()
    for turn in legal_turns(pos, dice):
        after = turn.position.to_json()
        out.add((frozenset(after[side].items()), frozenset(after[other].items())))
    return out


def movers(pos: Position, dice: list[int]) -> set[Board]:
    return {mine for mine, _ in ends(pos, dice)}


def game(movetext: str, **tags: str) -> str:
    lines = ['[Variant "short"]', *(f'[{k} "{v}"]' for k, v in tags.items())]
    return "\n".join(lines) + "\n\n" + movetext + "\n"


def verify(movetext: str, **tags: str) -> Replay:
    return replay(read_records(game(movetext, **tags))[0])


def plain(message: str) -> bool:
    return (
        len(message) > 10
        and "Traceback" not in message
        and "None" not in message
        and re.search(r"[A-Za-z]+Error", message) is None
        and "_" not in message
    )


def refused(movetext: str, rule: str | tuple[str, ...], **tags: str) -> str:
    result = verify(movetext, **tags)
    assert not result.ok, f"{movetext!r} was accepted"
    assert result.error is not None
    rules = (rule,) if isinstance(rule, str) else rule
    assert result.error.rule in rules, result.error.describe()
    assert plain(result.error.message), result.error.message
    return result.error.message


def accepted(movetext: str, **tags: str) -> Replay:
    result = verify(movetext, **tags)
    assert result.ok, result.error.describe() if result.error else ""
    return result


START = Position.start("short")
# Black leaves blots on its 18 (white's 7) and its 11 (white's 14).
OPENING = "1. 31: 8/5 6/5 62: 24/18 13/11\n"
# White hits the blot on its 7; black is on the bar.
HIT = OPENING + "2. 61: 13/7* 8/7"


# S1 set-up ---------------------------------------------------------------------------


def test_S1_start_position() -> None:
    both = {"24": 2, "13": 5, "8": 3, "6": 5}
    assert START.to_json() == {"variant": "short", "turn": "white", "white": both, "black": both}
    assert START.pips(WHITE) == START.pips(BLACK) == 167


@pytest.mark.parametrize(
    ("white", "black"),
    [({"24": 1}, {"1": 1}), ({"13": 1}, {"12": 1}), ({"6": 1}, {"19": 1})],
)
def test_S1_my_point_p_is_the_opponents_25_minus_p(
    white: dict[str, int], black: dict[str, int]
) -> None:
    with pytest.raises(PositionError):
        Position.from_json({"variant": "short", "white": white, "black": black})


def test_S1_the_players_move_in_opposite_directions() -> None:
    # white 13 is black 12, not black 13 or 1
    pos = short_pos("white", {13: 1}, {13: 1, 1: 1})
    assert pos.to_json()["black"] == {"13": 1, "1": 1}
    # black at the start: 6/1 with a 5 would land on white's 24, held by two
    black_start = Position(START.variant, BLACK, START.white, START.black)
    assert all(("1", 1) not in mine for mine in movers(black_start, [5, 2]))
    # white's 24/18/13 lands on its 13, black's 12, where it meets no black checker
    run = pts({24: 1, 13: 6, 8: 3, 6: 5})
    assert (run, pts({24: 2, 13: 5, 8: 3, 6: 5})) in ends(START, [6, 5])


# S2 who starts -----------------------------------------------------------------------


def test_S2_the_opening_roll_is_the_lot_and_never_a_double() -> None:
    message = refused("1. 66: 24/18(2) 13/7(2)", "S2")
    assert "double" in message
    accepted("1. 65: 24/18/13")


def test_S2_opening_roll_fresh_allows_a_double() -> None:
    assert Rules.from_options({"opening_roll": "fresh"}) == Rules(opening_roll="fresh")
    accepted("1. 66: 24/18(2) 13/7(2)", OpeningRoll="fresh")


def test_S2_black_may_answer_with_a_double() -> None:
    accepted("1. 31: 8/5 6/5 66: 24/18(2) 13/7(2)")


def test_S2_white_moves_first() -> None:
    refused("1. B31: 8/5 6/5", ("S2", "L2"))


# S3 landing and hitting --------------------------------------------------------------


def test_S3_a_blot_is_hit_and_goes_to_the_bar() -> None:
    # black's 18 is white's 7
    pos = short_pos("white", {13: 15}, {18: 1, 1: 14})
    hits = [t for t in legal_turns(pos, [6, 1]) if t.position.white[7]]
    assert hits
    for turn in hits:
        assert turn.position.to_json()["black"].get("bar") == 1
        assert "7*" in turn.notation


def test_S3_two_opponent_checkers_close_a_point() -> None:
    pos = short_pos("white", {13: 15}, {18: 2, 1: 13})
    assert ends(pos, [6, 1])
    assert all(("7", 1) not in mine for mine in movers(pos, [6, 1]))
    # 13/7/6 is blocked on the way too; 13/12/6 is open
    assert pts({13: 14, 6: 1}) in movers(pos, [6, 1])


def test_S3_landing_on_an_empty_or_own_point() -> None:
    # 13/8 lands on white's own 8, 6/5 on an empty point
    assert pts({24: 2, 13: 4, 8: 4, 6: 4, 5: 1}) in movers(START, [5, 1])


def test_S3_record_hit_marked_and_unmarked() -> None:
    result = accepted(HIT)
    assert result.position is not None
    assert result.position.to_json()["black"]["bar"] == 1
    unmarked = accepted(OPENING + "2. 61: 13/7 8/7")
    assert unmarked.position == result.position
    assert "2. 61: 13/7* 8/7" in format_text(game(OPENING + "2. 61: 13/7 8/7"))


def test_S3_a_star_where_nothing_is_hit_is_refused() -> None:
    message = refused(OPENING + "2. 61: 13/7* 6/5*", "S3")
    assert "5" in message
    refused(OPENING + "2. 64: 24/18* 13/9", "S3")  # black's 7: empty


def test_S3_a_hit_on_the_way_must_be_written_as_a_chain() -> None:
    """S3 and NOTATION: 13/6 with 6-1 can only go 13/7*/6 (13/12 is closed)."""
    message = refused(OPENING + "2. 61: 13/6", "S3")
    assert "13/7*/6" in message
    accepted(OPENING + "2. 61: 13/7*/6")


def test_S3_a_closed_point_is_refused_in_a_record() -> None:
    message = refused(OPENING + "2. 61: 13/12 13/7*", "S3")
    assert "12" in message and "closed" in message


# S4 the bar ---------------------------------------------------------------------------


def test_S4_checkers_on_the_bar_enter_first() -> None:
    message = refused(HIT + " 43: 13/9 13/10", "S4")
    assert "bar" in message
    accepted(HIT + " 43: bar/21 24/21")
    accepted(HIT + " 43: bar/22 13/9")


def test_S4_a_die_enters_on_25_minus_the_die() -> None:
    message = refused(HIT + " 43: bar/20 24/21", ("S4", "S3", "S5"))
    assert "point 18" not in message  # 18 has nothing to do with bar/20


def test_S4_no_entry_is_an_empty_turn() -> None:
    """Black's 19 (a 6) is white's 6, held by four: 6-6 cannot enter."""
    accepted(HIT + " 66:")
    refused(HIT + " 66: bar/19", ("S3", "S4"))


def test_S4_positions_entering() -> None:
    # black's 19 is white's 6 (closed); black's 20 is white's 5 (open)
    pos = short_pos("black", {"bar": 2, 13: 13}, {6: 2, 24: 13})
    assert movers(pos, [6, 5]) == {pts({"bar": 1, 20: 1, 13: 13})}
    pos = short_pos("black", {"bar": 1, 13: 14}, {6: 2, 24: 13})
    boards = movers(pos, [6, 5])
    assert boards
    assert all(dict(b).get("bar", 0) == 0 for b in boards)
    assert all(dict(b).get("19", 0) == 0 for b in boards)


def test_S4_a_closed_board_is_the_single_empty_turn() -> None:
    home = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    pos = short_pos("white", {"bar": 1, 13: 14}, home)
    turns = legal_turns(pos, [6, 5])
    assert [t.notation for t in turns] == [""]
    assert turns[0].position.turn == BLACK


def test_S3_six_points_in_a_row_are_allowed_in_short_backgammon() -> None:
    """The six-point block rule is long nardy's (L5); a prime is legal here."""
    pos = short_pos("white", {13: 9, 11: 1, 10: 1, 9: 1, 8: 2, 7: 1}, {24: 15})
    prime = pts({13: 8, 12: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1})  # 8/6 13/12
    assert prime in movers(pos, [2, 1])


# S5 must play and bearing off ---------------------------------------------------------


def test_S5_the_higher_die_when_only_one_can_be_played() -> None:
    # black's 16 is white's 9: 20/14/9 and 20/15/9 are closed
    pos = short_pos("white", {20: 1}, {16: 2, 13: 13})
    assert [t.notation for t in legal_turns(pos, [6, 5])] == ["20/14"]


def test_S5_both_dice_must_be_played() -> None:
    refused("1. 31: 8/5", "S5")
    refused("1. 31:", "S5")


def test_S5_bearing_off_as_in_long_nardy() -> None:
    theirs = {13: 15}  # white's 12
    assert movers(short_pos("white", {5: 1, 3: 1}, theirs), [4, 1]) == {
        pts({3: 1}),
        pts({2: 1, 1: 1}),
    }
    assert movers(short_pos("white", {6: 1, 4: 1}, theirs), [4, 2]) == {
        pts({4: 1}),
        pts({2: 2}),
    }
    assert movers(short_pos("white", {8: 1, 2: 1}, theirs), [2, 1]) == {
        pts({6: 1, 1: 1}),
        pts({5: 1, 2: 1}),
    }
    assert movers(short_pos("white", {3: 1, 2: 1}, theirs), [6, 5]) == {pts({})}


# S6 scoring ------------------------------------------------------------------------------


def test_S6_koks_loser_has_a_checker_in_the_winners_home(autoplay) -> None:
    game_ = autoplay("short", (6, 5), (2, 1))
    pos = game_.position
    assert pos.off(WHITE) == 15 and pos.off(BLACK) == 0
    assert any(pos.black[19:25])  # black 19-24 is white's home
    result = accepted(game_.movetext, Result="white koks")
    assert result.outcome is not None
    assert (result.outcome.kind, result.outcome.points) == ("koks", 3)
    refused(game_.movetext, "L8", Result="white mars")


def test_S6_koks_with_a_checker_on_the_bar(autoplay) -> None:
    game_ = autoplay("short", (4, 3), (2, 1))
    assert game_.position.to_json()["black"].get("bar")
    assert game_.position.off(BLACK) == 0
    accepted(game_.movetext, Result="white koks")


def test_S6_mars_loser_bore_off_none(autoplay) -> None:
    game_ = autoplay("short", (6, 5), (4, 3))
    pos = game_.position
    assert pos.off(WHITE) == 15 and pos.off(BLACK) == 0
    assert not any(pos.black[19:26])
    result = accepted(game_.movetext, Result="white mars")
    assert result.outcome is not None
    assert (result.outcome.kind, result.outcome.points) == ("mars", 2)
    refused(game_.movetext, "L8", Result="white koks")


def test_S6_oin(autoplay) -> None:
    game_ = autoplay("short", (6, 5), (5, 4))
    assert 0 < game_.position.off(BLACK) < 15
    result = accepted(game_.movetext, Result="white oin")
    assert result.outcome is not None and result.outcome.points == 1
    game_ = autoplay("short", (6, 5), (6, 5))
    assert game_.position.off(BLACK) == 15 and game_.position.off(WHITE) > 0
    accepted(game_.movetext, Result="black oin")


def test_S6_with_mars_off_a_koks_is_an_oin(autoplay) -> None:
    game_ = autoplay("short", (6, 5), (2, 1), rules=Rules(mars=False))
    accepted(game_.movetext, Mars="off", Result="white oin")
    refused(game_.movetext, "L8", Mars="off", Result="white koks")


def test_S6_the_last_roll_is_a_long_nardy_rule(autoplay) -> None:
    """L10 is long nardy's: in short backgammon the game ends with white's last checker."""
    game_ = autoplay("short", (6, 5), (5, 4))
    accepted(game_.movetext, LastRoll="on", Result="white oin")
    refused(game_.movetext + " 21: 1/off(2)", "L8", LastRoll="on", Result="white oin")


def test_S6_resignation_is_scored_by_the_position(autoplay) -> None:
    accepted(HIT + " B resigns", Result="white koks")  # black on the bar
    accepted("W resigns", Result="black koks")  # white's 24 is black's home
    game_ = autoplay(
        "short",
        (6, 5),
        (4, 3),
        stop=lambda p: p.turn == BLACK and p.off(WHITE) and not any(p.black[19:26]),
    )
    assert game_.position.off(BLACK) == 0
    accepted(game_.movetext + " B resigns", Result="white mars")


# S7 doubling cube ---------------------------------------------------------------------------


def test_S7_cube_actions_are_refused_when_the_cube_is_off() -> None:
    for action in ("double", "W double", "double B take"):
        message = refused(OPENING + f"2. {action}", "S7")
        assert "cube" in message.lower()
    refused(OPENING + "2. double B take 61: 13/7* 8/7", "S7", Cube="off")


def test_S7_cube_actions_are_read_when_the_cube_is_on() -> None:
    result = accepted(OPENING + "2. double B take 61: 13/7* 8/7", Cube="on")
    assert result.position is not None and result.position.cube is not None
    assert (result.position.cube.value, result.position.cube.owner) == (2, BLACK)
    dropped = accepted(OPENING + "2. W double B drop", Cube="on", Result="white oin")
    assert dropped.outcome is not None and dropped.outcome.dropped


def test_S7_the_cube_doubles_the_points_and_a_drop_loses_the_current_value() -> None:
    from engine import read_records, replay

    head = '[Variant "short"]\n[Cube "on"]\n[Result "black oin"]\n\n'
    # white doubles, black takes (cube 2, black owns it); black redoubles, white drops
    text = head + "1. 31: 8/5 6/5 21: 13/11 6/5\n2. double take 64: 24/18 13/9 B double W drop\n"
    result = replay(read_records(text)[0])
    assert result.error is None, result.error
    assert result.outcome is not None and result.outcome.dropped
    assert result.outcome.points == 2  # the cube stood at 2 when white dropped
    wrong = head + "1. 31: 8/5 6/5 21: 13/11 6/5\n2. double take 64: 24/18 13/9 53: 8/3 6/3\n"
    wrong += "3. double\n"
    err = replay(read_records(wrong)[0]).error
    assert err is not None and err.rule == "S7"  # black owns the cube: white may not double


def test_S7_no_cube_in_the_Crawford_game() -> None:
    from engine import read_records, replay

    text = '[Variant "short"]\n[Cube "on"]\n[MatchLength "5"]\n[Score "4-2"]\n'
    text += '[Crawford "on"]\n\n1. 31: 8/5 6/5 double take\n'
    err = replay(read_records(text)[0]).error
    assert err is not None and err.rule == "S7" and "Crawford" in err.message
    ok = text.replace('[Crawford "on"]', '[Crawford "off"]').replace("[Result", "[R")
    assert replay(read_records(ok)[0], check_result=False).error is None


def test_S7_the_cube_stops_at_4096_and_a_double_past_it_is_refused() -> None:
    from engine import MAX_CUBE, read_records, replay
    from tests.engine.cube_records import doubling_war

    assert MAX_CUBE == 4096  # GNU Backgammon's highest cube
    # the cube reached 2**31 in a game against gnubg, which cannot take it any more
    done = replay(read_records(doubling_war(12))[0], check_result=False)
    assert done.error is None, done.error
    assert done.position is not None and done.position.cube is not None
    assert done.position.cube.value == MAX_CUBE
    err = replay(read_records(doubling_war(13))[0], check_result=False).error
    assert err is not None and (err.rule, err.code) == ("S7", "cube-max")
    assert err.params == {"value": MAX_CUBE}
