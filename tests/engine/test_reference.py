"""An independent, deliberately plain implementation of RULES L3-L7 and S3-S5 (no code
shared with the engine's move generator), compared with ``legal_turns`` on positions
from random games and on hand-made edge positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Position, Rules, legal_turns, read_records, replay
from engine.selfplay import random_game

Board = dict  # point -> count; 0 = off, 25 = bar


def _opp_point(variant: str, p: int) -> int:
    if variant == "short":
        return 25 - p
    return p + 12 if p <= 12 else p - 12


def _boards(pos: Position) -> tuple[dict[int, int], dict[int, int]]:
    def conv(t: tuple[int, ...]) -> dict[int, int]:
        return {i: n for i, n in enumerate(t[:26]) if n}

    me, opp = (pos.white, pos.black) if pos.turn == 0 else (pos.black, pos.white)
    return conv(me), conv(opp)


def _step(variant, me, opp, frm, die):
    """The boards after one step, or None when RULES forbid it."""
    if me.get(frm, 0) == 0:
        return None
    if variant == "short" and me.get(25, 0) and frm != 25:
        return None  # S4: enter first
    to = 25 - die if frm == 25 else frm - die
    me2, opp2 = dict(me), dict(opp)
    me2[frm] -= 1
    if to <= 0:
        if any(n for p, n in me.items() if 7 <= p <= 25):
            return None  # L7: not all home
        if to < 0 and any(me.get(p, 0) for p in range(frm + 1, 7)):
            return None  # L7: a checker stands higher
        me2[0] = me2.get(0, 0) + 1
        return me2, opp2
    q = _opp_point(variant, to)
    there = opp.get(q, 0)
    if variant == "long" and there:
        return None  # L3: closed
    if variant == "short" and there >= 2:
        return None  # S3: closed
    if variant == "short" and there == 1:
        opp2[q] = 0
        opp2[25] = opp2.get(25, 0) + 1
    me2[to] = me2.get(to, 0) + 1
    return me2, opp2


def _lawful(variant, me, opp, rules):
    """L5 on the final position: six of the mover's points in a row along the
    opponent's route need an opponent checker ahead (in its home with in-home)."""
    if variant != "long":
        return True
    held = {q for q in range(1, 25) if me.get(_opp_point("long", q), 0)}  # opponent numbering
    for top in range(24, 5, -1):
        if all(q in held for q in range(top, top - 6, -1)):
            ahead = [q for q in range(1, top - 5) if opp.get(q, 0)]
            if rules.block_ahead == "in-home":
                ahead = [q for q in ahead if q <= 6]
            if not ahead:
                return False
    return True


def _key(me, opp):
    return tuple(sorted((p, n) for p, n in me.items() if n)), tuple(
        sorted((p, n) for p, n in opp.items() if n)
    )


def _head_limit(variant, me, opp, a, b):
    """How many checkers may leave the head this turn (L4)."""
    if variant != "long":
        return 99
    limit = 1
    if me.get(24, 0) == 15 and a == b and a in (6, 4, 3):
        limit = 2  # L4.2
        if a == 4 and opp.get(_opp_point("long", 16), 0):
            limit = 1  # L4.3
    return limit


def _note_end(found, key, used, higher):
    """Keep, per end position, the most dice used and whether the higher die alone did."""
    best = found.get(key)
    high_alone = len(used) == 1 and used[0] == higher
    if best is None or len(used) > best[0]:
        found[key] = (len(used), high_alone)
    elif len(used) == best[0] and high_alone:
        found[key] = (best[0], True)


def _next_steps(variant, rules, limit, item):
    """Every lawful single step from a search node."""
    me_, opp_, left, heads, used = item
    out = []
    for i, die in enumerate(left):
        for frm in list(me_):
            if variant == "long" and frm == 24 and heads >= limit:
                continue
            moved = _step(variant, me_, opp_, frm, die)
            if moved is None:
                continue
            if rules.block_check == "every-step" and not _lawful(
                variant, moved[0], moved[1], rules
            ):
                continue
            out.append((*moved, left[:i] + left[i + 1 :], heads + (frm == 24), (*used, die)))
    return out


def _distinct(nodes):
    seen, kept = set(), []
    for item in nodes:
        k = (_key(item[0], item[1]), item[2], item[3], item[4][:1])
        if k not in seen:
            seen.add(k)
            kept.append(item)
    return kept


def reference_ends(pos: Position, dice: tuple[int, int], rules: Rules) -> set[Any]:
    variant = pos.variant
    me, opp = _boards(pos)
    a, b = dice
    rolls = [a] * 4 if a == b else [a, b]
    limit = _head_limit(variant, me, opp, a, b)
    found: dict[Any, Any] = {}  # key -> (dice used, used the higher die alone)
    frontier = [(me, opp, tuple(rolls), 0, ())]
    while frontier:
        nxt = []
        for item in frontier:
            me_, opp_, _left, _heads, used = item
            if rules.block_check == "every-step" or _lawful(variant, me_, opp_, rules):
                _note_end(found, _key(me_, opp_), used, max(a, b))
            nxt.extend(_next_steps(variant, rules, limit, item))
        frontier = _distinct(nxt)
    most = max(n for n, _ in found.values())
    ends = {k for k, (n, _) in found.items() if n == most}
    if most == 1 and a != b and any(found[k][1] for k in ends):
        ends = {k for k in ends if found[k][1]}  # L6: the higher die
    return ends


def engine_ends(pos: Position, dice: tuple[int, int], rules: Rules) -> set[Any]:
    out = set()
    for t in legal_turns(pos, list(dice), rules):
        after = t.position.with_turn(pos.turn)
        out.add(_key(*_boards(after)))
    return out


def _sample(variant: str, seed: int, rules: Rules, count: int) -> list[Position]:
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        result = replay(read_records(random_game(variant, rng, rules))[0])
        positions.extend(rng.sample([p.before for p in result.played], 12))
    return positions[:count]


CASES = [
    ("long", Rules()),
    ("long", Rules(block_check="every-step")),
    ("long", Rules(block_ahead="in-home")),
    ("short", Rules()),
]


@pytest.mark.parametrize(("variant", "rules"), CASES)
def test_engine_agrees_with_the_reference_on_random_positions(variant, rules):
    rng = random.Random(f"reference-{variant}-{rules.block_check}-{rules.block_ahead}")
    for pos in _sample(variant, rng.randint(0, 10**6), rules, 60):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        dice = (max(dice), min(dice))
        assert engine_ends(pos, dice, rules) == reference_ends(pos, dice, rules), (
            pos.to_json(),
            dice,
        )


EDGES = [
    # L4.2 / L4.3: first turns with doubles
    ({"white": {"24": 15}, "black": {"24": 15}}, (6, 6)),
    ({"white": {"24": 15}, "black": {"24": 15}}, (4, 4)),
    ({"white": {"24": 15}, "black": {"24": 15}}, (3, 3)),
    ({"turn": "black", "white": {"24": 14, "4": 1}, "black": {"24": 15}}, (4, 4)),
    ({"turn": "black", "white": {"24": 14, "4": 1}, "black": {"24": 15}}, (6, 6)),
    # L5: a run of five with the sixth point to fill, wrapping past the mover's head
    ({"white": {"24": 10, "2": 1, "1": 1, "23": 1, "22": 1, "20": 1}, "black": {"24": 15}}, (2, 1)),
    ({"white": {"24": 10, "2": 1, "1": 1, "23": 1, "22": 1, "20": 1}, "black": {"1": 1, "24": 14}},
     (2, 1)),
    # L6/L7: bearing off with a higher die, the higher die alone
    ({"white": {"3": 1, "2": 2, "1": 10}, "black": {"1": 15}}, (3, 1)),
    ({"white": {"5": 1, "4": 2}, "black": {"1": 15}}, (6, 5)),
    ({"white": {"6": 1, "1": 2}, "black": {"19": 15}}, (6, 5)),
]  # fmt: skip


@pytest.mark.parametrize(("sides", "dice"), EDGES)
def test_engine_agrees_with_the_reference_on_edge_positions(sides, dice):
    pos = Position.from_json({"variant": "long", "turn": "white", **sides})
    for rules in (Rules(), Rules(block_check="every-step"), Rules(block_ahead="in-home")):
        assert engine_ends(pos, dice, rules) == reference_ends(pos, dice, rules)
