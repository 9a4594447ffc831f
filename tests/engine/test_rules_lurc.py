"""Lurč, rule by rule (RULES Z1-Z11), and random Lurč games as properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalTurnError, Position, format_text, legal_turns, play, verify_text
from engine.selfplay import random_game
from engine.variants import BAR, BLACK, LURC, START, WHITE, Rules
from engine.variants.lurc import lurc_phases, paš


def pos(turn: str, black: dict[str, int], white: dict[str, int]) -> Position:
    return Position.from_json({"variant": "lurc", "turn": turn, "black": black, "white": white})


def test_Z1_empty_board_and_black_starts():
    start = Position.start("lurc")
    assert start.turn == 1 and start.black[START] == 15 and start.white[START] == 15
    assert verify_text('[Variant "lurc"]\n\n1. 64: bar/19 bar/21\n')[0].ok  # type: ignore[union-attr]
    bad = verify_text('[Variant "lurc"]\n\n1. W 64: bar/19 bar/21\n')[0]
    assert bad.error is not None and bad.error.rule == "Z1"  # type: ignore[union-attr]


def test_Z2_the_routes_meet_twice_running_against_each_other():
    """Black's point p is field 25-p; white's point p is field p-12 (p > 12) or p+12:
    black's 24 (field 1) is white's 13; black's 13 (field 12) is white's 24; black's 12
    (field 13) is white's 1; black's 1 (field 24) is white's 12."""
    black_to_white = LURC.opp_map[BLACK]
    assert [black_to_white[p] for p in (24, 13, 12, 1)] == [13, 24, 1, 12]
    assert all(LURC.opp_map[WHITE][black_to_white[p]] == p for p in range(1, 25))
    # both start on their 24: black on field 1, white on field 12 - far apart
    p = pos("black", {"24": 1}, {"24": 1})
    assert play(p, "64: 24/14").position.black[14] == 1


def test_Z3_placing_one_checker_a_die_doubles_included_no_pas():
    start = Position.start("lurc")
    turns = legal_turns(start, [3, 3])
    assert [t.notation for t in turns] == ["bar/22(2)"]
    assert turns[0].position.turn == 0  # no extra roll while placing
    assert lurc_phases(start.black, (3, 3), None) == (((3, 3),), False)
    with pytest.raises(IllegalTurnError) as err:
        play(start, "21+55: bar/23 bar/24")
    assert err.value.rule == "Z3"


def test_Z3_the_last_checker_enters_then_the_second_die_moves():
    p = pos("black", {"start": 1, "20": 14}, {"start": 15})
    assert "bar/21 20/18" in {t.notation for t in legal_turns(p, [4, 2])}


def test_Z4_bridges_close_a_point_and_a_lone_checker_is_hit():
    # white's 14 is black's 23 (fields 2): two white checkers make a bridge there
    p = pos("black", {"24": 15}, {"14": 2, "15": 1})
    with pytest.raises(IllegalTurnError) as err:
        play(p, "61: 24/23 24/18")
    assert err.value.rule == "Z4"
    hit = play(p, "62: 24/22* 24/18")  # black 22 = field 3 = white 15: a lone checker
    assert hit.position.white[BAR] == 1


def test_Z5_a_hit_checker_re_enters_first():
    p = pos("black", {"bar": 1, "10": 14}, {"1": 15})
    with pytest.raises(IllegalTurnError) as err:
        play(p, "64: 10/4 10/6")
    assert err.value.rule == "Z5"
    assert play(p, "64: bar/19 10/6").position.black[BAR] == 0


def test_Z6_one_checker_takes_both_dice_through_an_open_point():
    p = pos("black", {"24": 15}, {"10": 15})
    assert play(p, "64: 24/14").notation in ("24/18/14", "24/20/14")


def test_Z7_pas_plays_four_and_four_opposite_then_rolls_again():
    assert paš(2) == (2, 2, 2, 2, 5, 5, 5, 5)
    p = pos("black", {"24": 15}, {"20": 15})  # white's 20 is black's 17: a bridge
    turns = legal_turns(p, [2, 2])
    assert all(len(t.steps) == 8 for t in turns)
    assert all(t.position.turn == 1 for t in turns)  # black rolls again
    full = turns[0].notation
    with pytest.raises(IllegalTurnError) as err:  # only four of the eight moves
        play(p, "22: 24/22(4)")
    assert err.value.rule == "Z10"
    assert play(p, "22: " + full).position == turns[0].position


def test_Z8_housek_plays_the_1_2_then_the_chosen_pas():
    p = pos("black", {"24": 15}, {"20": 15})
    turns = legal_turns(p, [2, 1, 6, 6])
    assert all(len(t.steps) == 10 and t.pas == (6, 6) for t in turns)
    assert all(t.position.turn == 1 for t in turns)
    with pytest.raises(IllegalTurnError) as err:
        play(p, "21: 24/22 24/23")
    assert err.value.rule == "Z8"


def test_Z9_bearing_off_only_exactly_and_lost_dice():
    p = pos("black", {"3": 1, "1": 1}, {"20": 15})
    assert {t.notation for t in legal_turns(p, [6, 5])} == {""}  # no exact die: lost
    assert play(p, "31: 3/off 1/off").position.black[0] == 15
    with pytest.raises(IllegalTurnError) as err:
        play(p, "64: 3/off")
    assert err.value.rule == "Z9"


def test_Z11_the_first_to_bear_off_wins_one_point():
    text = random_game("lurc", random.Random(11), Rules())
    result = verify_text(text)[0]
    assert result.outcome is not None and result.outcome.kind == "oin"  # type: ignore[union-attr]
    assert result.outcome.points == 1  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", range(12))
def test_random_lurc_games_verify_and_round_trip(seed):
    text = random_game("lurc", random.Random(seed), Rules())
    result = verify_text(text)[0]
    assert getattr(result, "error", None) is None, result
    assert format_text(text) == text


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(st.integers(0, 10**9), st.integers(1, 6), st.integers(1, 6), st.data())
def test_property_every_listed_lurc_turn_re_verifies_and_checkers_are_conserved(seed, a, b, data):
    from engine import read_records, replay

    result = replay(read_records(random_game("lurc", random.Random(seed), Rules()))[0])
    assert result.ok
    for p in result.positions:
        for side in (0, 1):
            assert sum(p.board(side)) == 15 and min(p.board(side)) >= 0
    position = data.draw(st.sampled_from([p.before for p in result.played]))
    placing = position.board(position.turn)[START] > 0
    housek = (max(a, b), min(a, b)) == (2, 1) and not placing
    dice = [2, 1, a, a] if housek else [a, b]
    turns = legal_turns(position, dice)
    roll = f"{max(a, b)}{min(a, b)}" + (f"+{a}{a}" if len(dice) == 4 else "")
    for turn in turns[:40]:
        again = play(position, f"{roll}: {turn.notation}")
        assert again.position == turn.position


# Z7 and Z8 with their decisions (docs/rules.md) -------------------------------------------

# white bridges on black's 19, 17, 15, 13 and 11: no 5 can be played from black's route
BLOCKED_FIVES = {"18": 2, "20": 2, "22": 2, "24": 2, "2": 2}


def test_Z7_a_pas_partly_unplayed_ends_the_turn_and_the_opponent_rolls():
    p = pos("black", {"24": 15}, BLOCKED_FIVES)
    turns = legal_turns(p, [2, 2])
    assert turns and all(len(t.steps) == 4 for t in turns)  # the four 5s are lost (Z10)
    assert all(t.position.turn == WHITE for t in turns)
    assert play(p, "22: 24/22/20/18/16").position.turn == WHITE


def test_Z7_all_eight_moves_played_gives_the_extra_roll():
    p = pos("black", {"24": 15}, {"20": 15})
    assert play(p, "22: 24/22(4) 24/19(4)").position.turn == BLACK


def test_Z8_the_extra_roll_after_a_housek_needs_the_1_2_and_all_eight_moves():
    full = pos("black", {"24": 15}, {"20": 15})
    turns = legal_turns(full, [2, 1, 6, 6])
    assert all(len(t.steps) == 10 and t.position.turn == BLACK for t in turns)
    partial = pos("black", {"24": 15}, BLOCKED_FIVES)
    turns = legal_turns(partial, [2, 1, 2, 2])
    assert turns and all(len(t.steps) == 9 and t.position.turn == WHITE for t in turns)
    assert play(partial, "21+22: " + turns[0].notation).position.turn == WHITE


def test_Z8_the_1_and_the_2_are_written_before_the_pas():
    p = pos("black", {"24": 15}, {"20": 15})
    ok = play(p, "21+66: 24/23 24/22 24/18(4) 24/23(4)")
    assert ok.position.turn == BLACK and ok.pas == (6, 6)
    for late in ("24/18(4) 24/23(4) 24/23 24/22", "24/23 24/18(4) 24/23(4) 24/22"):
        with pytest.raises(IllegalTurnError) as err:
            play(p, f"21+66: {late}")
        assert err.value.rule == "Z8"
        assert "before the moves of its paš" in err.value.message


def test_L12_Z1_the_starter_takes_the_colour_that_moves_first():
    from engine import first_mover

    assert [first_mover(v) for v in ("long", "short", "lurc")] == [WHITE, WHITE, BLACK]
    assert all(Position.start(v).turn == first_mover(v) for v in ("long", "short", "lurc"))
