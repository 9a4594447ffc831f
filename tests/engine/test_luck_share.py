"""``python -m engine luck-share`` run as a user runs it (docs/analysis.md, "How much is
luck"): a long sample is played in parts that append to one pairs file and resume from
it; the figure over the file is the figure of the games it holds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.evaluator.luck_share import LuckShare, game_luck, read_pairs, share

ROOT = Path(__file__).resolve().parents[2]


def luck_share_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "luck-share", "--variant", "long", "--seed", "5", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_luck_share_runs_in_parts_and_resumes_from_its_pairs_file(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    done = luck_share_cli("--games", "3", "--pairs", str(pairs), "--part", "0/2")
    assert done.returncode == 0, done.stderr
    assert sorted(read_pairs(pairs, "long", 5)) == [0, 2]  # its part only: k mod m
    pairs.write_text(pairs.read_text() + '{"variant": "long", "seed": 5, "ga')  # a run stopped
    done = luck_share_cli("--games", "3", "--pairs", str(pairs), "--part", "1/2")
    assert done.returncode == 0, done.stderr
    found = read_pairs(pairs, "long", 5)
    assert sorted(found) == [0, 1, 2]
    assert found[1] == pytest.approx(game_luck("long", 5, 1))  # the game itself, not a copy
    rows = [x for x in pairs.read_text().splitlines() if x.startswith("{")]
    assert len(rows) == 4  # three games and the cut line, which the next line did not join
    # the whole sample again: nothing is played (the file has every game), the same figure
    before = pairs.read_bytes()
    done = luck_share_cli("--games", "3", "--pairs", str(pairs))
    assert done.returncode == 0, done.stderr
    assert pairs.read_bytes() == before
    xs, ys = zip(*(found[g] for g in range(3)), strict=True)
    assert done.stdout.strip() == share(list(xs), list(ys)).line("long")
    assert done.stdout.startswith("long: 3 self-play games")


def test_the_pairs_file_keeps_each_variant_and_seed_apart(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    rows = [{"variant": "long", "seed": 5, "game": 0, "luck": 0.5, "result": 1},
            {"variant": "lurc", "seed": 5, "game": 0, "luck": 9.0, "result": -1},
            {"variant": "long", "seed": 6, "game": 0, "luck": 9.0, "result": -1},
            {"variant": "long", "seed": 5, "game": "x"}]  # fmt: skip
    pairs.write_text("\n".join(json.dumps(r) for r in rows) + "\n[1, 2]\nnot json\n")
    assert read_pairs(pairs, "long", 5) == {0: (0.5, 1.0)}


def test_a_part_that_is_not_k_of_m_is_refused() -> None:
    for part in ("2/2", "x/3", "1", "-1/2"):
        done = luck_share_cli("--games", "3", "--part", part)
        assert done.returncode == 2 and "--part" in done.stderr


def test_the_standard_error_of_r2() -> None:
    assert LuckShare(100, 0.5, 0.0, 0.0).se == pytest.approx(0.0683, abs=1e-4)
    assert LuckShare(100, 1.0, 0.0, 0.0).se == 0.0
    assert LuckShare(2, 0.5, 0.0, 0.0).se == 0.0
