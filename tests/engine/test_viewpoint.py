"""Moves written in the other side's numbering (engine/viewpoint.py; RULES "Point
numbering", S1, L1, Z2)."""

from __future__ import annotations

import random

import pytest

from engine import BLACK, WHITE, read_records
from engine.selfplay import random_game
from engine.viewpoint import movetext_for, point_for


def test_short_backgammon_is_25_minus_p() -> None:
    # S1: point p for one player is 25-p for the other
    assert movetext_for("64: 24/18 13/9", "short", mover=WHITE, viewer=BLACK) == "64: 1/7 12/16"
    assert (
        movetext_for("bar/20* 6/off(2)", "short", mover=BLACK, viewer=WHITE) == "bar/5* 19/off(2)"
    )


def test_long_nardy_is_p_plus_or_minus_12() -> None:
    # L1: the same field is point p for one player and p±12 for the other
    assert (
        movetext_for("66: 24/18(2) 13/1", "long", mover=BLACK, viewer=WHITE) == "66: 12/6(2) 1/13"
    )


def test_lurc_routes_cross() -> None:
    # Z2: white point p is field p-12 (p > 12) or p+12; black point q is field 25-q
    for p in range(1, 25):
        field = p - 12 if p > 12 else p + 12
        assert point_for("lurc", p, mover=WHITE, viewer=BLACK) == 25 - field
    assert movetext_for("21+55: bar/23 bar/24", "lurc", mover=WHITE, viewer=BLACK) == (
        "21+55: bar/14 bar/13"
    )


def test_own_numbering_is_unchanged() -> None:
    assert movetext_for("64: 24/18/14", "long", mover=BLACK, viewer=BLACK) == "64: 24/18/14"
    assert point_for("long", 7, mover=WHITE, viewer=WHITE) == 7


@pytest.mark.parametrize("variant", ["long", "short", "lurc"])
def test_there_and_back_gives_the_record(variant: str) -> None:
    text = random_game(variant, random.Random(5))
    for action in read_records(text)[0].actions:
        if action.kind != "turn":
            continue
        written = action.text
        for mover, viewer in ((WHITE, BLACK), (BLACK, WHITE)):
            other = movetext_for(written, variant, mover=mover, viewer=viewer)
            assert movetext_for(other, variant, mover=viewer, viewer=mover) == written
    for p in range(1, 25):
        q = point_for(variant, p, mover=WHITE, viewer=BLACK)
        assert point_for(variant, q, mover=BLACK, viewer=WHITE) == p
    assert point_for(variant, 25, mover=WHITE, viewer=BLACK) == 25


def test_words_and_dice_are_kept() -> None:
    assert movetext_for("B 53: double take resigns", "short", mover=BLACK, viewer=WHITE) == (
        "B 53: double take resigns"
    )
