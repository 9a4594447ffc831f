"""``python -m engine dice-check FILE``: every roll of a game room's records re-derived.

A game played in a room carries the dice tags (docs/notation.md, "Dice anyone can check"):

- ``DiceHash``: the SHA-256 of the series' server seed, shown before its first roll;
- ``DiceClient``: the client seed (white's and black's browser seeds, engine.dice);
- ``DiceRoll``: the number of the game's first roll in the series (from 0);
- ``DiceLot``: how many rolls the opening lot took (L2, S2), ``0`` or absent when the game
  had none (Lurč, Z1, or a starter set by the series' rule): every lot roll but the last
  is a tie;
- ``DiceSeed``: the server seed, once the series has ended.

The game's rolls follow one another from ``DiceRoll``: the lot's, then one a turn in the
order written (a Lurč extra roll after a paš is a turn of its own; a houšek's paš, Z8, is
chosen, not rolled). In short backgammon with ``OpeningRoll "lot"`` (S2) white's first turn
plays the lot's last roll instead of a roll of its own. Cube actions and resignations roll
nothing. A check compares each turn's dice, in either order, with :func:`engine.dice.fair_roll`
and the seed with the committed hash; games of one series (one hash) may not share a roll.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.dice import fair_roll, seed_matches
from engine.errors import EngineError
from engine.limits import DEFAULT_LIMITS
from engine.notation import GameRecord, read_records
from engine.rules import Rules
from engine.values import Value
from engine.variants import variant_named

__all__ = [
    "DICE_TAGS",
    "DiceVerdict",
    "check_dice",
    "check_dice_text",
    "cmd_dice_check",
    "dice_tags",
]

DICE_TAGS = ("DiceHash", "DiceClient", "DiceRoll", "DiceLot", "DiceSeed")
_INDEX = re.compile(r"[0-9]{1,9}")
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def dice_tags(
    *, hash_: str, client_seed: str, first_roll: int, lot: int = 0, server_seed: str | None = None
) -> list[tuple[str, str]]:
    """The dice tags of one game, in their canonical order, for a record's writer.

    >>> dice_tags(hash_="ab", client_seed="x:", first_roll=7)
    [('DiceHash', 'ab'), ('DiceClient', 'x:'), ('DiceRoll', '7')]
    """
    tags = [("DiceHash", hash_), ("DiceClient", client_seed), ("DiceRoll", str(first_roll))]
    if lot:
        tags.append(("DiceLot", str(lot)))
    if server_seed is not None:
        tags.append(("DiceSeed", server_seed))
    return tags


class DiceVerdict(Value):
    """One game's verdict: ``ok``, a stable ``code`` with its ``params`` and the English
    ``message``; ``rolls`` the roll numbers checked (first, last) when any."""

    game: int
    ok: bool
    code: str
    message: str
    params: tuple[tuple[str, str], ...] = ()
    rolls: tuple[int, int] | None = None

    def describe(self) -> str:
        return f"game {self.game}: {self.message}"


def _fail(game: int, code: str, message: str, **params: object) -> DiceVerdict:
    shown = tuple((k, str(v)) for k, v in params.items())
    return DiceVerdict(game, False, code, message, shown)


def _index(record: GameRecord, name: str, default: str | None = None) -> int | None:
    value = record.tag(name, default or "")
    if not value and default is None:
        return None
    return int(value) if _INDEX.fullmatch(value) else -1


def _check_seed(record: GameRecord, game: int) -> DiceVerdict | None:
    """A failing verdict when the tags are missing or the seed is not the committed one."""
    seed, committed = record.tag("DiceSeed"), record.tag("DiceHash")
    if not committed or "DiceClient" not in dict(record.tags):
        return _fail(game, "dice-no-tags", "no dice tags: the game was not played in a room")
    if not _HEX64.fullmatch(committed):
        return _fail(game, "dice-bad-tag", "DiceHash is not a SHA-256 in hex", tag="DiceHash")
    if not seed:
        return _fail(
            game, "dice-unrevealed", "the server seed is not revealed yet (the series goes on)"
        )
    if not seed_matches(seed, committed):
        return _fail(
            game, "dice-seed-mismatch", "the revealed seed does not match the committed hash"
        )
    return None


def _check_lot(seed: str, client: str, first: int, lot: int, game: int) -> DiceVerdict | None:
    """L2, S2: every roll of the lot but the last is a tie."""
    for k in range(lot):
        n = first + k
        a, b = fair_roll(seed, client, n)
        if (a == b) != (k < lot - 1):
            what = "ends on a tie" if a == b else "goes on after a decisive roll"
            return _fail(game, "dice-bad-lot", f"the lot {what} (roll {n}: {a}-{b})", roll=n)
    return None


def check_dice(record: GameRecord, game: int = 1, after: int = -1) -> DiceVerdict:
    """The dice verdict of one game; ``after`` is the last roll an earlier game of the
    same series used (their rolls may not overlap)."""
    failed = _check_seed(record, game)
    if failed is not None:
        return failed
    seed, client = record.tag("DiceSeed"), record.tag("DiceClient")
    first, lot = _index(record, "DiceRoll"), _index(record, "DiceLot", "0")
    for name, value in (("DiceRoll", first), ("DiceLot", lot)):
        if value is None or value < 0:
            return _fail(game, "dice-bad-tag", f"{name} is not a roll number", tag=name)
    assert first is not None and lot is not None
    if first <= after:
        return _fail(game, "dice-reused", f"roll {first} was used by an earlier game", roll=first)
    failed = _check_lot(seed, client, first, lot, game)
    if failed is not None:
        return failed
    # S2: with the lot as white's first roll, the first turn plays the lot's last roll
    lot_first = lot > 0 and variant_named(record.variant).lot_is_first_roll
    n = first + lot - (1 if lot_first and Rules.from_tags(record.tag).opening_roll == "lot" else 0)
    turns = 0
    for action in record.actions:
        if action.kind != "turn" or action.dice is None:
            continue
        turns += 1
        expected = fair_roll(seed, client, n)
        if sorted(action.dice) != sorted(expected):
            written, rolled = f"{action.dice[0]}-{action.dice[1]}", f"{expected[0]}-{expected[1]}"
            return _fail(
                game,
                "dice-mismatch",
                f"line {action.line}, col {action.col}: turn {turns} has {written}, "
                f"roll {n} gives {rolled}",
                roll=n, written=written, expected=rolled, line=action.line,
            )  # fmt: skip
        n += 1
    if not turns and not lot:
        return DiceVerdict(game, True, "dice-ok", "dice ok, no rolls", (("count", "0"),))
    last = max(n - 1, first + lot - 1)
    count = last - first + 1
    message = f"dice ok, {count} rolls ({first}-{last})"
    return DiceVerdict(game, True, "dice-ok", message, (("count", str(count)),), (first, last))


def check_dice_text(text: str) -> list[DiceVerdict]:
    """The verdicts of every game of a record file's text (read within the reader's
    default limits: the app passes a stranger's text). Raises :class:`EngineError` when
    the text cannot be read as records."""
    records = read_records(text, DEFAULT_LIMITS)
    out: list[DiceVerdict] = []
    last_by_hash: dict[str, int] = {}
    for number, record in enumerate(records, start=1):
        try:
            variant_named(record.variant)
        except EngineError as exc:
            out.append(_fail(number, "dice-bad-record", exc.describe()))
            continue
        key = record.tag("DiceHash")
        verdict = check_dice(record, number, last_by_hash.get(key, -1))
        if verdict.rolls is not None:
            last_by_hash[key] = verdict.rolls[1]
        out.append(verdict)
    return out


def cmd_dice_check(paths: Sequence[str], out: TextIO) -> int:
    """Print each game's dice verdict; 0 when every roll matches, 1 otherwise, 2 when a
    file cannot be read."""
    status = 0
    for path in paths:
        prefix = f"{path}: " if len(paths) > 1 else ""
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{prefix}cannot read {path}: {exc}", file=sys.stderr)
            return 2
        try:
            verdicts = check_dice_text(text)
        except EngineError as exc:
            where = f"game {exc.game}: " if exc.game else ""
            print(f"{prefix}{where}{exc.describe()}", file=out)
            status = 1
            continue
        if not verdicts:
            print(f"{prefix}no games found", file=out)
            status = 1
        for verdict in verdicts:
            print(f"{prefix}{verdict.describe()}", file=out)
            if not verdict.ok:
                status = 1
    return status
