"""What a record shows about the dice and the race: per player, the pips rolled against
their expectation, doubles, turns with no legal move, dice lost to the must-play rule,
hits and checkers sent back, and the pip count after every turn.

Everything follows from the engine's replay and from what a variant declares (a Lurč
double is a paš, S2's lot is a roll without doubles), never from a variant's name:

>>> from engine import read_records
>>> game = read_records('[Variant "long"]\\n\\n1. 64: 24/18/14 53: 24/19/16\\n')[0]
>>> s = record_stats(game)
>>> s.white.pips_rolled, s.black.pips_rolled, round(s.white.pips_expected, 4)
(10, 8, 8.1667)
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import lru_cache
from typing import TextIO

from engine.errors import EngineError
from engine.notation import GameRecord, read_game, split_games
from engine.replay import Replay, replay
from engine.variants import BLACK, SIDE_NAMES, SIZE, START, WHITE, Variant, variant_named

FACES = 6
TOTALS = 11  # the totals of two dice, 2 to 12


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures over one game or, added up with ``+``, over many.

    ``faces`` counts each face rolled (index 0 is a one), ``totals`` each total of the
    two dice (index 0 is a two); the opening lot of S2 is left out of both, as it is
    never a double. ``pips_lost`` are the pips of the dice lost (rolled but unplayable
    under the must-play rule); ``pips_sent_back`` what this player's hit checkers lost.
    """

    rolls: int = 0
    pips_rolled: int = 0
    pips_expected: float = 0.0
    doubles: int = 0
    no_move_turns: int = 0
    dice_lost: int = 0
    pips_lost: int = 0
    hits: int = 0
    sent_back: int = 0
    pips_sent_back: int = 0
    faces: tuple[int, ...] = (0,) * FACES
    totals: tuple[int, ...] = (0,) * TOTALS

    @property
    def luck(self) -> float:
        """Pips rolled above (or below, negative) their expectation."""
        return self.pips_rolled - self.pips_expected

    def __add__(self, other: PlayerStats) -> PlayerStats:
        values: dict[str, object] = {}
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            values[f.name] = tuple(x + y for x, y in zip(a, b, strict=True)) if isinstance(
                a, tuple) else a + b  # fmt: skip
        return PlayerStats(**values)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["pips_expected"] = round(self.pips_expected, 4)
        out["luck"] = round(self.luck, 4)
        out["faces"], out["totals"] = list(self.faces), list(self.totals)
        return out


@dataclass(frozen=True, slots=True)
class TurnPips:
    """The pip counts after a turn: ``index`` counts the record's actions from 1, as a
    replay's positions do (0 is the start)."""

    index: int
    number: int
    side: int
    dice: str
    white: int
    black: int

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index, "number": self.number, "side": SIDE_NAMES[self.side],
            "dice": self.dice, "white": self.white, "black": self.black,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class GameStats:
    """The figures of one game: both players, the pip counts at the start and after
    every turn, and the turn after which the pip-count leader changed for the last
    time (``None`` when nobody ever led). ``error`` is the replay's problem, if the
    record stops at one (the figures then cover the turns before it)."""

    variant: str
    white: PlayerStats
    black: PlayerStats
    start: tuple[int, int]
    turns: tuple[TurnPips, ...] = ()
    last_lead_change: TurnPips | None = None
    error: str | None = None
    names: tuple[str, str] = field(default=("?", "?"))

    def player(self, side: int) -> PlayerStats:
        return self.white if side == WHITE else self.black

    def to_json(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "white": {"name": self.names[WHITE], **self.white.to_json()},
            "black": {"name": self.names[BLACK], **self.black.to_json()},
            "start": {"white": self.start[WHITE], "black": self.start[BLACK]},
            "turns": [t.to_json() for t in self.turns],
            "last_lead_change": self.last_lead_change.to_json() if self.last_lead_change else None,
            "error": self.error,
        }


def roll_dice(
    variant: Variant, board: tuple[int, ...] | list[int], dice: tuple[int, int],
    pas: tuple[int, int] | None = None,
) -> tuple[int, ...]:  # fmt: skip
    """The die values a roll gives to play as the variant's rules play it: four of a
    double (L3), or in Lurč two while placing (Z3), a paš's eight (Z7), the houšek's 1
    and 2 and its chosen paš (Z8).

    >>> from engine.variants import LONG, LURC
    >>> roll_dice(LONG, LONG.start, (5, 5))
    (5, 5, 5, 5)
    >>> roll_dice(LURC, (0,) * 26 + (0,), (2, 1), (6, 6))
    (2, 1, 6, 6, 6, 6, 1, 1, 1, 1)
    """
    phases, _ = variant.roll_phases(board, dice, pas)
    return tuple(d for phase in phases for d in phase)


@lru_cache(maxsize=32)
def expected_pips(variant: Variant, placing: bool = False, lot: bool = False) -> Fraction:
    """The mean pips of one roll under the variant's rules, over the 36 equally likely
    rolls (the 30 non-doubles for S2's opening lot); a houšek's chosen paš is averaged
    over the six the player may choose (all give 28 pips).

    >>> from engine.variants import LONG, LURC, SHORT
    >>> expected_pips(LONG), expected_pips(SHORT, lot=True)
    (Fraction(49, 6), Fraction(7, 1))
    >>> expected_pips(LURC), expected_pips(LURC, placing=True)
    (Fraction(217, 18), Fraction(7, 1))
    """
    board = [0] * SIZE
    board[START] = 1 if placing else 0
    total, count = Fraction(0), 0
    for a in range(1, FACES + 1):
        for b in range(1, FACES + 1):
            if lot and a == b:
                continue
            roll = (max(a, b), min(a, b))
            if variant.rolls_again and not placing and roll == (2, 1):
                choices = [sum(roll_dice(variant, board, roll, (n, n))) for n in range(1, 7)]
                total += Fraction(sum(choices), len(choices))
            else:
                total += sum(roll_dice(variant, board, roll))
            count += 1
    return total / count


def _leader(white: int, black: int) -> int | None:
    return None if white == black else WHITE if white < black else BLACK


class _Player:
    """Mutable tallies while a game is walked (frozen into PlayerStats at the end)."""

    def __init__(self) -> None:
        self.expected = Fraction(0)
        self.counts: Counter[str] = Counter()
        self.faces = [0] * FACES
        self.totals = [0] * TOTALS

    def frozen(self) -> PlayerStats:
        c = self.counts
        return PlayerStats(
            rolls=c["rolls"], pips_rolled=c["pips_rolled"], pips_expected=float(self.expected),
            doubles=c["doubles"], no_move_turns=c["no_move_turns"], dice_lost=c["dice_lost"],
            pips_lost=c["pips_lost"], hits=c["hits"], sent_back=c["sent_back"],
            pips_sent_back=c["pips_sent_back"], faces=tuple(self.faces),
            totals=tuple(self.totals),
        )  # fmt: skip


def game_stats(result: Replay) -> GameStats:
    """The figures of a replayed game (replayed with ``keep=True``, the default)."""
    variant = variant_named(result.record.variant)
    lot_rule = variant.lot_is_first_roll and result.rules.opening_roll == "lot"
    players = (_Player(), _Player())
    first = result.positions[0] if result.positions else None
    start = (first.pips(WHITE), first.pips(BLACK)) if first else (0, 0)
    turns: list[TurnPips] = []
    leader, change = _leader(*start), None
    seen_turn = False
    for index, p in enumerate(result.played, start=1):
        if p.action.kind != "turn" or p.action.dice is None:
            continue
        lot = lot_rule and not seen_turn
        seen_turn = True
        dice = p.action.dice
        me, opp = players[p.side], players[1 - p.side]
        board = p.before.board(p.side)
        given = roll_dice(variant, board, dice, p.action.pas)
        lost = Counter(given) - Counter(step.die for step in p.steps)
        hits = sum(step.hit for step in p.steps)
        sent = max(0, p.after.pips(1 - p.side) - p.before.pips(1 - p.side))
        me.counts.update(
            rolls=1, pips_rolled=sum(given), doubles=dice[0] == dice[1],
            no_move_turns=not p.steps, dice_lost=lost.total(),
            pips_lost=sum(d * n for d, n in lost.items()), hits=hits,
        )  # fmt: skip
        opp.counts.update(sent_back=hits, pips_sent_back=sent)
        me.expected += expected_pips(variant, placing=board[START] > 0, lot=lot)
        if not lot:
            me.faces[dice[0] - 1] += 1
            me.faces[dice[1] - 1] += 1
            me.totals[dice[0] + dice[1] - 2] += 1
        point = TurnPips(
            index, p.number, p.side, p.action.dice_text,
            p.after.pips(WHITE), p.after.pips(BLACK),
        )  # fmt: skip
        turns.append(point)
        now = _leader(point.white, point.black)
        if now is not None and now != leader:
            leader, change = now, point
    return GameStats(
        variant=variant.name,
        white=players[WHITE].frozen(),
        black=players[BLACK].frozen(),
        start=start,
        turns=tuple(turns),
        last_lead_change=change,
        error=result.error.describe() if result.error is not None else None,
        names=(result.record.tag("White", "?"), result.record.tag("Black", "?")),
    )


def record_stats(record: GameRecord) -> GameStats:
    """The figures of a game record (replayed up to its first problem, if any)."""
    return game_stats(replay(record, check_result=False))


def stats_text(text: str) -> list[GameStats | EngineError]:
    """The figures of every game of a record file, or the error that stops a game from
    being read (bad syntax, an unknown variant)."""
    out: list[GameStats | EngineError] = []
    for _, lines in split_games(text):
        try:
            out.append(record_stats(read_game(lines)))
        except EngineError as exc:
            out.append(exc)
    return out


def cmd_stats(paths: Sequence[str], out: TextIO) -> int:
    """``python -m engine stats FILE...``: one JSON line a game, with its file and its
    number in the file; a game that cannot be read gets ``{"error": ...}``. Exit 0 when
    every game was read and replays to its end, 1 otherwise, 2 when a file is unreadable."""
    status = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            print(f"cannot read {path}: {exc}", file=sys.stderr)
            return 2
        for number, game in enumerate(stats_text(text), start=1):
            line: dict[str, object] = {"file": path, "game": number}
            if isinstance(game, GameStats):
                line |= game.to_json()
                status = status or int(game.error is not None)
            else:
                line["error"] = game.describe() if hasattr(game, "describe") else str(game)
                status = 1
            print(json.dumps(line, ensure_ascii=False, separators=(",", ":")), file=out)
    return status
