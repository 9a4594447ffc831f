"""Analysis of a long-nardy game as GNU Backgammon analyses backgammon (docs/analysis.md): for
each turn the error of the play (the best play's equity for that roll minus the played
one's, in millipoints) and the luck of the roll (the best equity for the roll rolled
minus the mean over the 36 rolls), and for each side its error rate and luck.

Equities are in points for the side that moved (an oin 1, a mars 2; RULES L8), from the
net the variant declares (``Variant.evaluator``); a variant without one raises
:class:`NoEvaluatorError`. ``ply=1`` judges plays with a look-ahead over the opponent's
21 rolls, and the luck at the same depth (each roll's best play by 0-ply, valued at
1-ply). A play within :data:`EQUAL_MP` of the best is one of the best (no error), and
with ``confirm`` a play the analysis calls bad or worse is rolled out against the best
on the same dice (duplicate dice: the variance reduction that pays here, measured in
docs/analysis.md) and keeps its mark only as far as the rollout agrees
(:data:`CONFIRM_GAMES`, :data:`CONFIRM_TURNS`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine.errors import EngineError
from engine.evaluator.judge import EQUAL_MP
from engine.evaluator.lurc_analysis import lurc_turns
from engine.evaluator.net import Floats, Net, load_net, net_path
from engine.evaluator.play import (
    ROLL_WEIGHTS,
    ROLLS,
    BoardPair,
    Memo,
    equities0,
    equities1,
)
from engine.evaluator.rollout import rollout_boards
from engine.movegen import Turn, legal_turns
from engine.moves import write_steps
from engine.notation import GameRecord, read_records
from engine.position import Position
from engine.replay import PlayedAction, Replay, replay
from engine.rules import Rules
from engine.variants import CHECKERS, SIDE_NAMES, variant_named

# gnubg's thresholds (doubtful, bad, very bad) in mp; docs/analysis.md says why they stay
THRESHOLDS = (40, 80, 160)
WIDTH = 4  # the plays looked at again at 1-ply: the best by 0-ply (and the played one)
# the confirming rollout of a bad play: games on the same dice for the best and the
# played play (their difference's noise mostly cancels), each truncated after this many
# turns and valued by the net there: a standard error of about 20 mp, 1-3 CPU s a play
CONFIRM_GAMES = 288
CONFIRM_TURNS = 6
# at most this many plays of a game are confirmed, the largest errors first: a beginner's
# game has dozens of bad plays, and its job must end in seconds, not minutes
CONFIRM_MOST = 8


class NoEvaluatorError(EngineError):
    """Analysis asked of a variant that declares no evaluator (short backgammon, Lurč)."""

    code = "no-evaluator"


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One turn: ``turn`` is its number as written (both sides share it), ``index`` its
    place among the game's turns (0 first); ``played`` and ``best`` are movetext
    (NOTATION.md), ``best_position`` the position the best play leads to."""

    index: int
    turn: int
    side: int
    dice: tuple[int, int]
    played: str
    best: str
    error_mp: int
    luck_mp: int
    equity_before_mp: int  # the mean over the 36 rolls of each roll's best play (0-ply)
    equity_after_mp: int  # the played play's equity (at the analysis's ply)
    forced: bool  # one legal end only: no choice, no error
    best_position: Position
    rollout_mp: int | None = None  # a bad play's error by the confirming rollout

    @property
    def mark(self) -> str | None:
        """The error's class (:func:`error_class`); a bad play whose rollout found less
        gets the rollout's class: the lesser of the two."""
        if self.rollout_mp is None:
            return error_class(self.error_mp)
        return error_class(min(self.error_mp, self.rollout_mp))

    def to_json(self) -> dict[str, object]:
        """The turn as ``python -m engine analyse`` prints it."""
        return {"turn": self.turn, "side": SIDE_NAMES[self.side], "dice": list(self.dice),
                "played": self.played, "best": self.best, "error": self.error_mp,
                "luck": self.luck_mp}  # fmt: skip


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side's figures: error rate in mp per unforced move, the errors by size, the
    luck in mp over the game and per turn."""

    error_rate: float
    unforced: int
    doubtful: int
    bad: int
    very_bad: int
    luck: int
    luck_rate: float
    turns: int

    def to_json(self) -> dict[str, object]:
        return {"error_rate": round(self.error_rate, 1), "unforced": self.unforced,
                "errors": {"doubtful": self.doubtful, "bad": self.bad,
                           "very_bad": self.very_bad},
                "luck": self.luck, "luck_rate": round(self.luck_rate, 1)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    turns: tuple[TurnAnalysis, ...]
    white: SideSummary
    black: SideSummary
    ply: int

    def side(self, side: int) -> SideSummary:
        return self.white if side == 0 else self.black

    def to_json(self, game: int = 1) -> dict[str, object]:
        return {"game": game, "white": self.white.to_json(), "black": self.black.to_json(),
                "turns": [t.to_json() for t in self.turns]}  # fmt: skip


def error_class(error_mp: int) -> str | None:
    """``doubtful``, ``bad``, ``very_bad`` or None for an error in mp (:data:`THRESHOLDS`)."""
    doubtful, bad, very_bad = THRESHOLDS
    if error_mp >= very_bad:
        return "very_bad"
    if error_mp >= bad:
        return "bad"
    if error_mp >= doubtful:
        return "doubtful"
    return None


def summarise(turns: Sequence[TurnAnalysis], side: int) -> SideSummary:
    """The figures of one side from its analysed turns."""
    mine = [t for t in turns if t.side == side]
    unforced = [t for t in mine if not t.forced]
    classes = [t.mark for t in unforced]
    luck = sum(t.luck_mp for t in mine)
    return SideSummary(
        error_rate=sum(t.error_mp for t in unforced) / len(unforced) if unforced else 0.0,
        unforced=len(unforced),
        doubtful=classes.count("doubtful"),
        bad=classes.count("bad"),
        very_bad=classes.count("very_bad"),
        luck=luck,
        luck_rate=luck / len(mine) if mine else 0.0,
        turns=len(mine),
    )


def roll_luck(net: Net, me: tuple[int, ...], opp: tuple[int, ...], side: int,
              rules: Rules, ply: int = 0, memo: Memo | None = None,
              ) -> tuple[Floats, float]:  # fmt: skip
    """The equity of each of the 21 rolls' best play (:data:`ROLLS`; chosen at 0-ply,
    valued at ``ply``) and their mean over the 36 rolls; ``memo`` remembers the searches
    and values of a game's last turns."""
    memo = memo or Memo()
    per_roll = memo.rolls(net, [(me, opp, side)], rules)
    if ply:
        top = [found[int(np.argmax(eq))] for found, eq in per_roll]
        best = equities1(net, top, side, rules, memo)
    else:
        best = np.array([eq.max() for _found, eq in per_roll])
    return best, float(best @ ROLL_WEIGHTS)


def _replayed(game: Replay | GameRecord | str) -> Replay:
    if isinstance(game, str):
        records = read_records(game)
        if not records:
            raise EngineError("no game found in the record", code="no-game")
        game = records[0]
    if isinstance(game, GameRecord):
        game = replay(game, check_result=False)
    if game.error is not None:
        raise game.error
    return game


def analyse_game(game: Replay | GameRecord | str, *, ply: int = 0, net: Net | None = None,
                 confirm: bool = False) -> GameAnalysis:  # fmt: skip
    """Analyse every turn of a game: a :class:`Replay` (what ``engine.replay`` gives), a
    parsed :class:`GameRecord` or the record's text (its first game). The replay's
    errors are raised; :class:`NoEvaluatorError` when the variant has no net. With
    ``confirm`` each bad play is rolled out (the module's docstring): seconds a play,
    for a background job."""
    if ply not in (0, 1):
        raise EngineError(f"ply is 0 or 1, not {ply!r}", code="bad-ply", params={"ply": ply})
    played = _replayed(game)
    variant = variant_named(played.record.variant)
    if variant.evaluator is None:
        raise NoEvaluatorError(
            f"{variant.title} has no evaluator: its games cannot be analysed here",
            code="no-evaluator",
            params={"variant": variant.name},
        )
    net = net or load_net(net_path(variant.evaluator))
    if variant.rolls_again:  # Lurč's paš and houšek (docs/analysis_lurc.md): 0-ply
        lurc = [TurnAnalysis(**fields) for fields in lurc_turns(played, net)]  # type: ignore[arg-type]
        return GameAnalysis(tuple(lurc), summarise(lurc, 0), summarise(lurc, 1), 0)
    turns = [p for p in played.played if p.action.kind == "turn" and p.action.dice is not None]
    memo = Memo()  # searches and values of the last two turns (play.Memo)
    out = []
    for i, p in enumerate(turns):
        memo.next_turn()
        out.append(_turn(net, i, p, played.rules, ply, memo))
    if confirm:
        bad = [i for i, t in enumerate(out) if error_class(t.error_mp) in ("bad", "very_bad")]
        worst = set(sorted(bad, key=lambda i: -out[i].error_mp)[:CONFIRM_MOST])
        out = [_confirmed(net, t, p, played.rules) if i in worst else t
               for i, (t, p) in enumerate(zip(out, turns, strict=True))]  # fmt: skip
    return GameAnalysis(tuple(out), summarise(out, 0), summarise(out, 1), ply)


def _turn(
    net: Net, index: int, p: PlayedAction, rules: Rules, ply: int, memo: Memo
) -> TurnAnalysis:
    side = p.side
    assert p.action.dice is not None
    a, b = p.action.dice
    roll = (max(a, b), min(a, b))
    me, opp = p.before.board(side), p.before.board(1 - side)
    found, found_eq = memo.rolls(net, [(me, opp, side)], rules)[ROLLS.index(roll)]
    cands = list(found)
    done = (p.after.board(side), p.after.board(1 - side))
    eq0 = found_eq
    if done not in cands:  # an irregular turn accepted as played (NOTATION 1)
        cands.append(done)
        eq0 = np.append(found_eq, equities0(net, [done]))
    k = cands.index(done)
    eq = eq0.copy()
    best = int(np.argmax(eq0))
    if ply and len(cands) > 1:
        look = sorted({*np.argsort(-eq0)[:WIDTH].tolist(), k})
        eq[look] = equities1(net, [cands[i] for i in look], side, rules, memo)
        best = look[int(np.argmax(eq[look]))]
    per_roll, mean = roll_luck(net, me, opp, side, rules, ply, memo)
    rolled = per_roll[ROLLS.index(roll)]
    forced = len(cands) == 1
    if eq[best] - eq[k] < EQUAL_MP / 1000:  # one of the best plays (EQUAL_MP)
        best = k
    best_turn = _best_turn(p.before, roll, rules, cands[best]) if best != k else None
    return TurnAnalysis(
        index=index,
        turn=p.number,
        side=side,
        dice=(a, b),
        played=write_steps(p.steps),
        best=best_turn.notation if best_turn else write_steps(p.steps),
        error_mp=0 if forced else max(0, round(1000 * (eq[best] - eq[k]))),
        luck_mp=round(1000 * (rolled - mean)),
        equity_before_mp=round(1000 * mean),
        equity_after_mp=round(1000 * eq[k]),
        forced=forced,
        best_position=best_turn.position if best_turn else p.after,
    )


def _confirmed(net: Net, t: TurnAnalysis, p: PlayedAction, rules: Rules) -> TurnAnalysis:
    """``t`` with the confirming rollout's error when the analysis calls it bad or worse."""
    if error_class(t.error_mp) not in ("bad", "very_bad"):
        return t
    side = t.side
    seed = 1_000 * t.index + t.dice[0] * 7 + t.dice[1]
    values = []
    for pos in (t.best_position, p.after):
        if pos.off(side) == CHECKERS:  # the play ended the game (L8)
            values.append(2.0 if rules.mars and pos.off(1 - side) == 0 else 1.0)
            continue
        # the rollout is of the opponent's turn: its equity, negated, is the play's
        done = rollout_boards(pos.board(1 - side), pos.board(side), side=1 - side,
                              games=CONFIRM_GAMES, seed=seed, truncate=CONFIRM_TURNS,
                              reduce=False, net=net, rules=rules)  # fmt: skip
        values.append(-done.equity)
    return replace(t, rollout_mp=max(0, round(1000 * (values[0] - values[1]))))


def _best_turn(
    before: Position, roll: tuple[int, int], rules: Rules, boards: BoardPair
) -> Turn | None:
    """The legal turn (with its canonical movetext) that ends on ``boards``."""
    side = before.turn
    for t in legal_turns(before, list(roll), rules):
        if (t.position.board(side), t.position.board(1 - side)) == boards:
            return t
    return None
