"""``python -m engine dice-check``: the rolls of game-room records re-derived from the
revealed seed (engine/dicecheck.py; the rolls' numbering L2, S2, Z7, Z8)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.dice import fair_roll, seed_hash
from engine.dicecheck import check_dice_text, dice_tags
from engine.notation import read_records
from engine.rules import Rules
from engine.selfplay import random_game

SEED = "ab" * 32
CLIENT = "f00d:beef"


class FairDice(random.Random):
    """Random choices of play, but the dice of the room's rolls from ``first`` on."""

    def __init__(self, seed: int, first: int) -> None:
        super().__init__(seed)
        self.n = first
        self.pending: list[int] = []

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        if not self.pending:
            self.pending = list(fair_roll(SEED, CLIENT, self.n))
            self.n += 1
        return self.pending.pop(0)


def room_game(variant: str, first: int, *, play_seed: int = 1, rules: Rules | None = None,
              revealed: bool = True) -> tuple[str, int]:  # fmt: skip
    """A random game whose dice are the room's rolls from ``first``: its record with the
    dice tags, and the next free roll number."""
    rng = FairDice(play_seed, first)
    text = random_game(variant, rng, rules)
    turns = sum(1 for a in read_records(text)[0].actions if a.kind == "turn")
    # S2: in short backgammon the lot (its ties re-rolled) is white's first roll
    lot = rng.n - first - turns + (1 if variant == "short" else 0)
    tags = dice_tags(
        hash_=seed_hash(SEED), client_seed=CLIENT, first_roll=first, lot=lot,
        server_seed=SEED if revealed else None,
    )  # fmt: skip
    lines = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    head, _, rest = text.partition("\n")
    return f"{head}\n{lines}{rest}", rng.n


def series(variant: str, games: int = 3) -> str:
    out, n = [], 0
    for g in range(games):
        text, n = room_game(variant, n, play_seed=g + 7)
        out.append(text)
    return "\n".join(out)


@pytest.mark.parametrize("variant", ["long", "short", "lurc"])
def test_every_roll_of_a_series_checks(variant: str) -> None:
    verdicts = check_dice_text(series(variant))
    assert [v.ok for v in verdicts] == [True, True, True], [v.describe() for v in verdicts]
    assert verdicts[1].rolls is not None and verdicts[0].rolls is not None
    assert verdicts[1].rolls[0] == verdicts[0].rolls[1] + 1


def test_short_lot_is_white_first_roll() -> None:
    # S2: the lot's ties are rolls of their own; its last roll is white's first turn
    for first in range(60):
        text, _ = room_game("short", first)
        if 'DiceLot "' in text and 'DiceLot "1"' not in text:
            break
    else:
        pytest.fail("no lot with a tie in 60 tries")
    assert check_dice_text(text)[0].ok


def test_lurc_paš_extra_rolls_are_rolls() -> None:
    # Z7, Z8: a paš's extra roll is a turn of the same side, with a roll of its own
    text = series("lurc", 3)
    records = read_records(text)
    sides = [a.side for r in records for a in r.actions if a.kind == "turn"]
    assert any(p.dice and p.dice[0] == p.dice[1] for r in records for p in r.actions)
    assert check_dice_text(text)[0].ok
    assert len(sides) > 0


def _changed_dice(text: str) -> str:
    """The record with one turn's dice changed (the 5th turn of the first game)."""
    record = read_records(text)[0]
    action = [a for a in record.actions if a.kind == "turn" and a.dice][4]
    lines = text.split("\n")
    line = lines[action.line - 1]
    col = action.col - 1
    assert action.dice is not None
    a, b = action.dice
    other = f"{(a % 6) + 1}{(b % 6) + 1}" if a != b else f"{a}{(b % 6) + 1}"
    while line[col] not in "123456":
        col += 1
    lines[action.line - 1] = line[:col] + other + line[col + 2 :]
    return "\n".join(lines)


def test_changed_dice_fail_with_the_first_mismatching_roll() -> None:
    changed = _changed_dice(series("long", 1))
    verdict = check_dice_text(changed)[0]
    assert not verdict.ok
    assert verdict.code == "dice-mismatch"
    assert "turn 5 has" in verdict.message


def test_a_seed_that_does_not_match_its_hash_fails() -> None:
    text = series("long", 1).replace(f'[DiceSeed "{SEED}"]', f'[DiceSeed "{"cd" * 32}"]')
    assert check_dice_text(text)[0].code == "dice-seed-mismatch"


def test_unrevealed_seed_and_missing_tags_say_so() -> None:
    text, _ = room_game("long", 0, revealed=False)
    assert check_dice_text(text)[0].code == "dice-unrevealed"
    plain = random_game("long", random.Random(3))
    assert check_dice_text(plain)[0].code == "dice-no-tags"


def test_games_may_not_share_rolls() -> None:
    first, _ = room_game("long", 0, play_seed=1)
    again, _ = room_game("long", 0, play_seed=1)
    verdicts = check_dice_text(first + "\n" + again)
    assert verdicts[0].ok and verdicts[1].code == "dice-reused"


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.nrd"
    good.write_text(series("short", 2), encoding="utf-8")
    assert main(["dice-check", str(good)]) == 0
    out = capsys.readouterr().out
    assert out.count("dice ok") == 2
    bad = tmp_path / "bad.nrd"
    bad.write_text(_changed_dice(series("long", 1)), encoding="utf-8")
    assert main(["dice-check", str(bad)]) == 1
    assert "roll" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe garbage",
        b'[Variant "chess"]\n\n1. 64: 24/18\n',
        b'[Variant "long"]\n[DiceHash "zz"]\n[DiceClient ""]\n\n1. 64: 24/18/14\n',
        b'[Variant "long"]\n[DiceHash "'
        + b"a" * 64
        + b'"]\n[DiceClient ""]\n[DiceSeed "x"]\n[DiceRoll "-3"]\n\n64: 24/14\n',
        b'[Variant "long"\n\x00\n',
        b"",
        b"((((" * 1000,
    ],
)
def test_hostile_files_are_refused_with_a_message(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.nrd"
    path.write_bytes(content)
    done = subprocess.run(
        [sys.executable, "-m", "engine", "dice-check", str(path)],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode in (1, 2)
    assert "Traceback" not in done.stderr + done.stdout
    assert (done.stdout + done.stderr).strip()


def test_dice_tags_are_kept_by_the_canonical_writer() -> None:
    from engine.replay import replay

    text = series("long", 1)
    canonical = replay(read_records(text)[0]).canonical()
    assert check_dice_text(canonical)[0].ok
