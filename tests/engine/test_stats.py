"""Statistics from records (engine/stats.py), checked against games counted by hand.

The three records in fixtures/stats/ are short and unfinished; the comments below count
every figure from the movetext, turn by turn."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from engine import read_records
from engine.__main__ import main
from engine.stats import PlayerStats, expected_pips, record_stats, roll_dice
from engine.variants import LONG, LURC, SHORT, START

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stats"


def stats_of(name: str):
    return record_stats(read_records((FIXTURES / name).read_text(encoding="utf-8"))[0])


def test_expected_pips_follow_from_the_rules():
    """L3: 36 rolls, doubles played four times: (252 - 42 + 4 * 42) / 36 = 49/6 = 8.1667.
    S2: the opening lot is never a double: 210 / 30 = 7. Z7/Z8: a paš plays 4n + 4(7-n)
    = 28 pips, a houšek 3 + 28 = 31: (252 - 42 + 6 * 28 - 6 + 2 * 31) / 36 = 434/36;
    Z3: while placing every roll is two dice, doubles included: 252/36 = 7."""
    assert expected_pips(LONG) == expected_pips(SHORT) == Fraction(49, 6)
    assert expected_pips(SHORT, lot=True) == 7
    assert expected_pips(LURC) == Fraction(434, 36)
    assert expected_pips(LURC, placing=True) == 7


def test_roll_dice_as_each_variant_declares():
    board = [0] * 27
    assert roll_dice(LONG, board, (3, 3)) == (3, 3, 3, 3)
    assert roll_dice(LURC, board, (3, 3)) == (3, 3, 3, 3, 4, 4, 4, 4)  # Z7
    board[START] = 2
    assert roll_dice(LURC, board, (3, 3)) == (3, 3)  # Z3: placing, no paš


def test_long_hand_counted_blocked_turn_and_lost_die():
    """fixtures/stats/long.nrd, RULES L3, L4.1, L6.

    1. W 54 (9 pips): 360 -> 351        B 63 (9): 360 -> 351
    2. W 51 (6): 351 -> 345             B 33 (12): no move - 24/21 lands on white's 9
       (black's 21) and 15/12 on white's head: 2 dice x 2 = 4 dice, 12 pips lost
    3. W 62 (8): 345 -> 337             B 66 (24): 24/18 15/9/3, 18/12 is white's head
       and only one checker leaves the head (L4.1): one 6 lost; 351 - 18 = 333
    White 9+6+8 = 23 pips, black 9+12+24 = 45; expected 3 x 49/6 = 24.5 each.
    Leader: white after 1 (351 < 360), tie after 2, white again (no change), black
    after turn 3 black (333 < 337): the last change."""
    s = stats_of("long.nrd")
    w, b = s.white, s.black
    assert (w.rolls, w.pips_rolled, w.doubles, w.no_move_turns, w.dice_lost) == (3, 23, 0, 0, 0)
    assert (b.rolls, b.pips_rolled, b.doubles, b.no_move_turns) == (3, 45, 2, 1)
    assert (b.dice_lost, b.pips_lost) == (4 + 1, 12 + 6)
    assert w.pips_expected == b.pips_expected == pytest.approx(24.5)
    assert w.luck == pytest.approx(-1.5) and b.luck == pytest.approx(20.5)
    assert w.faces == (1, 1, 0, 1, 2, 1)  # 5 4, 5 1, 6 2
    assert b.faces == (0, 0, 3, 0, 0, 3)  # 6 3, 3 3, 6 6
    assert w.totals[9 - 2] == w.totals[6 - 2] == w.totals[8 - 2] == 1
    assert s.start == (360, 360)
    assert [(t.white, t.black) for t in s.turns] == [
        (351, 360), (351, 351), (345, 351), (345, 351), (337, 351), (337, 333),
    ]  # fmt: skip
    assert s.last_lead_change is not None
    assert (s.last_lead_change.index, s.last_lead_change.number) == (6, 3)
    assert s.last_lead_change.side == 1 and (w.hits, b.sent_back) == (0, 0)


def test_short_hand_counted_hits_blocked_bar_and_lost_die():
    """fixtures/stats/short.nrd, RULES S2, S3, S4.

    1. W 31 (the lot, S2: expected 7, left out of the dice test): 8/5 6/5, 167 -> 163
       B 64: 24/18/14, 167 -> 157 (black leads)
    2. W 62: 13/11*/5 hits black's 14 (11 pips back to the bar): W 155, B 168
       B 66: no move - the bar enters on white's 6, four white checkers (S4):
       4 dice, 24 pips lost
    3. W 44: 5/1*(2) 13/9(2) hits black's 24 (1 pip back): W 139, B 169
       B 63: bar/22, the second checker cannot enter with the 6: one die, 6 pips lost
    White 4+8+16 = 28 pips, expected 7 + 2 x 49/6 = 23.33; black 10+24+9 = 43, 24.5.
    Last lead change: white after turn 2 white (155 < 168)."""
    s = stats_of("short.nrd")
    w, b = s.white, s.black
    assert (w.pips_rolled, w.doubles, w.hits, w.sent_back) == (28, 1, 2, 0)
    assert w.pips_expected == pytest.approx(7 + 2 * 49 / 6)
    assert (b.pips_rolled, b.doubles, b.no_move_turns, b.hits) == (43, 1, 1, 0)
    assert (b.dice_lost, b.pips_lost) == (5, 30)
    assert (b.sent_back, b.pips_sent_back) == (2, 11 + 1)
    assert w.faces == (0, 1, 0, 2, 0, 1)  # 6 2 and 4 4: the lot 3 1 is not counted
    assert sum(w.faces) == 4 and sum(w.totals) == 2
    assert b.faces == (0, 0, 1, 1, 0, 4)
    assert [(t.white, t.black) for t in s.turns] == [
        (163, 167), (163, 157), (155, 168), (155, 168), (139, 169), (139, 166),
    ]  # fmt: skip
    assert s.last_lead_change is not None and s.last_lead_change.index == 3


def test_lurc_hand_counted_pas_blocked_turn_and_lost_die():
    """fixtures/stats/lurc.nrd, RULES Z1, Z3, Z7, Z8, Z10. Black starts; 15 checkers
    each at 25 pips: 375. Placing (Z3) plays two dice, doubles included: expected 7.

    Black: 55 44 42 62 44 33 53 = 7 rolls placing 14 checkers (10+8+6+8+8+6+8 = 54);
    8. 65: bar/19 enters the last checker, the 5 is lost (placing still, expected 7);
    9. 65: no move (bridges everywhere), not placing: expected 434/36; 2 dice, 11 lost.
    Rolled 54 + 11 + 11 = 77, expected 8 x 7 + 434/36; doubles 55 44 33 = 3;
    lost 1 + 2 = 3 dice, 5 + 11 = 16 pips.
    White: 44 66 21 63 51 52 32 = 8+12+3+9+6+7+5 = 50 placing (the 2-1 is no houšek
    while placing), 8. 64: bar/21 19/13 (placing: 10); 9. 21+66 a houšek with the paš
    6-6: 1 + 2 + 4 x 6 + 4 x 1 = 31, ten moves, nothing lost. Rolled 50 + 10 + 31 = 91,
    expected 8 x 7 + 434/36; doubles 44 66 = 2.
    Pips: white leads after 2. W (355 < 356), black from 3. B, white again only after
    the houšek (284 < 314): the last change, index 18."""
    s = stats_of("lurc.nrd")
    w, b = s.white, s.black
    assert s.start == (375, 375)
    assert (b.rolls, b.pips_rolled, b.doubles, b.no_move_turns) == (9, 77, 3, 1)
    assert (b.dice_lost, b.pips_lost) == (3, 16)
    assert (w.rolls, w.pips_rolled, w.doubles, w.no_move_turns, w.dice_lost) == (9, 91, 2, 0, 0)
    assert w.pips_expected == b.pips_expected == pytest.approx(8 * 7 + 434 / 36)
    assert b.faces == (0, 2, 3, 4, 6, 3)
    assert w.faces == (3, 4, 2, 3, 2, 4)  # the chosen paš 6-6 is not rolled
    assert s.turns[-1].white == 375 - 91 and s.turns[-1].black == 375 - (77 - 16)
    assert s.last_lead_change is not None
    assert (s.last_lead_change.index, s.last_lead_change.dice) == (18, "2-1+6-6")


def test_player_stats_add_up():
    a = stats_of("long.nrd").black
    b = stats_of("short.nrd").black
    total = a + b
    assert total.pips_rolled == 45 + 43 and total.no_move_turns == 2
    assert total.faces == tuple(x + y for x, y in zip(a.faces, b.faces, strict=True))
    assert PlayerStats() + a == a


def test_stats_figures_stop_at_an_illegal_turn():
    record = read_records('[Variant "long"]\n\n1. 64: 24/18/14 53: 24/19/16\n2. 66: 24/12\n')[0]
    s = record_stats(record)
    assert s.error is not None and s.white.rolls == 1 and s.black.rolls == 1


def test_cli_prints_one_json_line_a_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    both = tmp_path / "both.nrd"
    both.write_text(
        (FIXTURES / "long.nrd").read_text(encoding="utf-8")
        + "\n"
        + (FIXTURES / "short.nrd").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    assert main(["stats", str(both), str(FIXTURES / "lurc.nrd")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(x["game"], x["variant"]) for x in lines] == [(1, "long"), (2, "short"), (1, "lurc")]
    assert lines[0]["black"]["name"] == "Bohouš" and lines[0]["black"]["pips_lost"] == 18
    assert lines[1]["white"]["hits"] == 2 and lines[1]["turns"][2]["black"] == 168
    bad = tmp_path / "bad.nrd"
    bad.write_text('[Variant "chess"]\n\n1. 64: 24/18\n', encoding="utf-8")
    assert main(["stats", str(bad)]) == 1
    assert "error" in json.loads(capsys.readouterr().out)
    assert main(["stats", str(tmp_path / "missing.nrd")]) == 2
