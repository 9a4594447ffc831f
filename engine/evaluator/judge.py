"""The one place a position's value comes from (docs/analysis.md): the bear-off
databases where both sides are bearing off (:mod:`engine.evaluator.bearoff`), the race
net where the sides have passed each other (:mod:`engine.evaluator.race`), the contact
net elsewhere. Every player, the analysis (errors and luck), ``eval`` and ``hint`` ask
here through :func:`engine.evaluator.play.outcomes`."""

from __future__ import annotations

import numpy as np

from engine.evaluator.bearoff import is_bearoff, load_bearoff
from engine.evaluator.encoding import as_boards, encode
from engine.evaluator.net import Floats, Net
from engine.evaluator.race import is_race, load_race

Pair = tuple[tuple[int, ...], tuple[int, ...]]

BEAROFF, RACE, CONTACT = "bearoff", "race", "contact"
# plays this close to the best (mp) are equal: below what the evaluator tells apart (the
# 0-ply and 1-ply values of one play differ by more; docs/analysis.md, "Equal plays").
# The analyses of long nardy and Lurč both read it.
EQUAL_MP = 5


def kind_of(me: tuple[int, ...], opp: tuple[int, ...]) -> str:
    """Which evaluator judges a live position (mover's board first)."""
    if is_bearoff(me, opp):
        return BEAROFF
    if is_race(me, opp):
        return RACE
    return CONTACT


def position_outputs(net: Net, pairs: list[Pair]) -> Floats:
    """(win, win mars, lose mars) for the side to move of each live position (mover's
    board, opponent's; neither side has finished): table > race net > contact net."""
    out = np.empty((len(pairs), 3))
    groups: dict[str, list[int]] = {BEAROFF: [], RACE: [], CONTACT: []}
    for i, (me, opp) in enumerate(pairs):
        groups[kind_of(me, opp)].append(i)
    if groups[BEAROFF]:
        out[groups[BEAROFF]] = load_bearoff().outputs([pairs[i] for i in groups[BEAROFF]])
    race = load_race() if groups[RACE] else None
    if race is None:
        groups[CONTACT] += groups[RACE]
    elif groups[RACE]:
        out[groups[RACE]] = race.outputs([pairs[i] for i in groups[RACE]])
    if groups[CONTACT]:
        rows = groups[CONTACT]
        out[rows] = net.outputs(encode(as_boards([pairs[i] for i in rows])))
    return out
