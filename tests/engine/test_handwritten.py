"""Records as players write them (engine/handwritten.py): the rewrite of a canonical
record is the same game, written one die a move, in another order, hits unmarked; and
``python -m engine verify`` accepts a file of them."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import read_records, replay, verify
from engine.bench import sample_games
from engine.handwritten import as_players_write

ROOT = Path(__file__).resolve().parents[2]
MOVE = re.compile(r"^(bar|[0-9]+)/(off|[0-9]+)$")


def _moves(text: str) -> list[str]:
    """The move words of a record's movetext (no tags, numbers or dice)."""
    body = text.split("\n\n", 1)[1]
    return [w for w in body.split() if "/" in w]


@pytest.mark.parametrize("variant", ["long", "short"])
def test_rewrite_is_the_same_game_written_as_players_do(variant: str) -> None:
    canonical = sample_games(variant, 12, seed=5)
    rng = random.Random(1)
    reordered = 0
    for text in canonical:
        written = as_players_write(text, rng)
        original, again = replay(read_records(text)[0]), replay(read_records(written)[0])
        assert again.ok and again.positions == original.positions
        assert again.outcome == original.outcome
        moves = _moves(written)
        # one die a move: no chains, no repeats, no hit marks
        assert all(MOVE.match(m) for m in moves), moves
        steps = sum(len(p.steps) for p in original.played)
        assert len(moves) == steps
        reordered += sum(
            [s.frm for s in p.steps] != [s.frm for s in q.steps]
            for p, q in zip(original.played, again.played, strict=True)
        )
    assert reordered > 0  # some turns are written in another order than the canonical one


def test_short_hits_are_unmarked_and_still_hit() -> None:
    texts = sample_games("short", 6, seed=9)
    written = [as_players_write(t, random.Random(2)) for t in texts]
    hits = sum(s.hit for t in written for p in replay(read_records(t)[0]).played for s in p.steps)
    assert hits > 0 and not any("*" in t for t in written)


def test_rewrite_is_seeded() -> None:
    text = sample_games("long", 1, seed=11)[0]
    assert as_players_write(text, random.Random(3)) == as_players_write(text, random.Random(3))


def test_cli_verifies_a_file_of_records_as_written(tmp_path: Path) -> None:
    texts = sample_games("long", 5, seed=13) + sample_games("short", 5, seed=13)
    rng = random.Random(4)
    path = tmp_path / "written.nrd"
    path.write_text("\n".join(as_players_write(t, rng) for t in texts), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 10 and all(": ok, " in line for line in lines)
    for text in texts:
        assert verify(read_records(text)[0]).ok
