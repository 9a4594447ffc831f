"""What ``python -m engine eval`` and ``hint`` answer, as GNU Backgammon's commands of
the same names do (docs/analysis.md): a position's chances for the side to move before
its roll, and a roll's plays ranked by equity. Values come from
:func:`engine.evaluator.play.outcomes` (bear-off table, race net or contact net).

- **0-ply**: a play's chances are the evaluator's for the position it reaches.
- **1-ply**: the mean over the opponent's 21 rolls (1/36 or 2/36) of the chances after
  its best answer by 0-ply.
- A position **before its roll** is the mean over the mover's 21 rolls of the best
  play's chances (the best by the ply asked; at 1-ply among the :data:`WIDTH` best by
  0-ply, as the bot looks)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.errors import EngineError
from engine.evaluator.lurc_advice import LurcPlay, lurc_plays, lurc_position_value
from engine.evaluator.net import Floats, Net, equity, flip, load_net, net_path
from engine.evaluator.play import LONG, ROLL_WEIGHTS, ROLLS, BoardPair, ends, outcomes
from engine.movegen import legal_turns
from engine.position import Position
from engine.variants import CHECKERS, Rules

WIDTH = 4  # the plays of a roll looked at again at 1-ply (the best by 0-ply)
PLIES = (0, 1)


class AdviceError(EngineError):
    """A position the evaluator cannot judge (a finished game, a variant without a net,
    a ply it does not search)."""

    code = "bad-advice"


@dataclass(frozen=True, slots=True)
class Chances:
    """(win, win mars, lose mars) for one side and their equity in points (L8)."""

    win: float
    win_mars: float
    lose_mars: float

    @classmethod
    def of(cls, row: Floats) -> Chances:
        return cls(float(row[0]), float(row[1]), float(row[2]))

    @property
    def equity(self) -> float:
        return 2 * self.win - 1 + self.win_mars - self.lose_mars

    def to_json(self) -> dict[str, float]:
        return {"win": round(self.win, 4), "win_mars": round(self.win_mars, 4),
                "lose_mars": round(self.lose_mars, 4), "equity": round(self.equity, 4)}  # fmt: skip


def _scored(out: Floats, rules: Rules) -> Floats:
    """The chances as the rules score them: with ``mars = off`` (L8) no win is a mars."""
    if not rules.mars:
        out[:, 1:] = 0.0
    return out


def outcomes_at(net: Net, cands: list[BoardPair], side: int, ply: int, rules: Rules) -> Floats:
    """(win, win mars, lose mars) of each end for the side that played it (``side``),
    at ``ply`` 0 or 1."""
    out = _scored(outcomes(net, cands), rules)
    if ply == 0:
        return out
    for i, (me, opp) in enumerate(cands):
        if me[0] == CHECKERS:
            continue  # finished: outcomes() has its certain result
        replies: list[BoardPair] = []
        starts = []
        for roll in ROLLS:
            starts.append(len(replies))
            replies.extend(ends(opp, me, 1 - side, roll, rules=rules))
        theirs = _scored(outcomes(net, replies), rules)  # for the opponent
        eq = equity(theirs)
        picked = [
            s + int(np.argmax(eq[s:e])) for s, e in zip(starts, [*starts[1:], len(eq)], strict=True)
        ]
        out[i] = flip(ROLL_WEIGHTS @ theirs[picked])
    return out


def best_of_roll(net: Net, cands: list[BoardPair], side: int, ply: int, rules: Rules) -> Floats:
    """The chances of the best end of one roll at ``ply`` (at 1-ply, of the :data:`WIDTH`
    best by 0-ply)."""
    out0 = _scored(outcomes(net, cands), rules)
    if ply == 0 or len(cands) == 1:
        best: Floats = out0[int(np.argmax(equity(out0)))]
        return best
    top = np.argsort(-equity(out0))[:WIDTH]
    deep = outcomes_at(net, [cands[i] for i in top], side, ply, rules)
    best = deep[int(np.argmax(equity(deep)))]
    return best


def _checked(position: Position, ply: int) -> Net:
    if ply not in PLIES:
        raise AdviceError(f"ply is 0 or 1, not {ply!r}", code="bad-ply", params={"ply": ply})
    variant = position.rules_variant
    # play.ends searches long nardy; Lurč's rolls (paš, houšek) have their own search
    if variant.evaluator is None or not (variant is LONG or variant.rolls_again):
        raise AdviceError(
            f"eval and hint judge long nardy and Lurč: {variant.title} has no evaluator here",
            code="advice-no-evaluator",
            params={"variant": variant.name},
        )
    if position.off(0) == CHECKERS or position.off(1) == CHECKERS:
        raise AdviceError("the game is over: a side has borne off every checker",
                          code="advice-game-over")  # fmt: skip
    return load_net(net_path(variant.evaluator))


def evaluate_position(position: Position, *, ply: int = 0, rules: Rules | None = None,
                      net: Net | None = None) -> Chances:  # fmt: skip
    """The chances of the side to move before its roll: the mean over its 21 rolls of
    the best play's, at ``ply``. The shared entry point of ``eval`` (and of anything
    that needs a position's value for the side to move)."""
    net = net or _checked(position, ply)
    if position.rules_variant.rolls_again:  # Lurč (engine.evaluator.lurc_advice)
        return _lurc_chances(lurc_position_value(net, position, ply))
    rules = rules or Rules()
    side = position.turn
    me, opp = position.board(side), position.board(1 - side)
    rows = [best_of_roll(net, ends(me, opp, side, roll, rules=rules), side, ply, rules)
            for roll in ROLLS]  # fmt: skip
    return Chances.of(ROLL_WEIGHTS @ np.array(rows))


def evaluate_roll(position: Position, dice: object, *, ply: int = 0, rules: Rules | None = None,
                  net: Net | None = None) -> Chances:  # fmt: skip
    """The chances of the side to move after it rolled ``dice`` (checked by the move
    generator): its best play's, at ``ply``."""
    net = net or _checked(position, ply)
    if position.rules_variant.rolls_again:
        return _lurc_chances(_lurc_plays(net, position, dice, ply)[0].equity)
    rules = rules or Rules()
    side = position.turn
    turns = legal_turns(position, dice, rules)
    cands = list({(t.position.board(side), t.position.board(1 - side)): 0 for t in turns})
    return Chances.of(best_of_roll(net, cands, side, ply, rules))


@dataclass(frozen=True, slots=True)
class Hint:
    """One play of a roll: its movetext (NOTATION.md), the position it reaches and its
    chances for the side that plays it."""

    moves: str
    position: Position
    chances: Chances
    pas: tuple[int, int] | None = None  # Lurč: the paš chosen after a houšek (Z8)
    again: bool = False  # Lurč: a paš played in full, the mover rolls again (Z7)


def hint_plays(position: Position, dice: object, *, ply: int = 0, rules: Rules | None = None,
               net: Net | None = None) -> list[Hint]:  # fmt: skip
    """Every legal play of ``dice`` (checked by the move generator), best first (ties
    in the move generator's order)."""
    net = net or _checked(position, ply)
    if position.rules_variant.rolls_again:
        return [Hint(p.turn.notation, p.turn.position, _lurc_chances(p.equity), p.turn.pas,
                     p.again) for p in _lurc_plays(net, position, dice, ply)]  # fmt: skip
    rules = rules or Rules()
    side = position.turn
    turns = legal_turns(position, dice, rules)
    cands = [(t.position.board(side), t.position.board(1 - side)) for t in turns]
    out = outcomes_at(net, cands, side, ply, rules)
    order = sorted(range(len(turns)), key=lambda i: -float(equity(out[i])))
    return [Hint(turns[i].notation, turns[i].position, Chances.of(out[i])) for i in order]


def hint_json(hints: list[Hint]) -> dict[str, object]:
    """``hint``'s answer: the plays ranked, each with its equity's difference from the
    best (0 or negative)."""
    best = hints[0].chances.equity if hints else 0.0
    return {"plays": [{"moves": h.moves, **h.chances.to_json(),
                       "diff": round(h.chances.equity - best, 4), **_lurc_fields(h)}
                      for h in hints]}  # fmt: skip


def _lurc_fields(hint: Hint) -> dict[str, object]:
    """A Lurč play's paš chosen after a houšek and whether the mover rolls again."""
    if hint.pas is None and not hint.again:
        return {}
    return {"pas": list(hint.pas) if hint.pas else None, "again": hint.again}


def _lurc_chances(eq: float) -> Chances:
    """A Lurč equity (2p - 1, no mars: Z11) as chances."""
    return Chances((eq + 1) / 2, 0.0, 0.0)


def _lurc_plays(net: Net, position: Position, dice: object, ply: int) -> list[LurcPlay]:
    """A Lurč roll's plays, best first (the dice checked as ``legal`` checks them)."""
    position.rules_variant.roll_choices(dice, position.board(position.turn))
    return lurc_plays(net, position, list(dice), ply)  # type: ignore[call-overload]
