"""``python -m engine.evaluator.average``: the mean of a run's checkpoints, as a user runs
it; checkpoints of different runs refused with a message, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.evaluator.net import Net

ROOT = Path(__file__).resolve().parents[2]


def average_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.evaluator.average", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def checkpoint(tmp_path: Path, games: int, seed: int = 3, *, variant: str = "lurc",
               hidden: int = 6) -> Path:  # fmt: skip
    """A net of run ``seed`` whose weights moved away from its start, as training does."""
    net = Net.fresh(hidden, seed, variant=variant, alpha=0.1, **{"lambda": 0.7})
    rng = np.random.default_rng(games)
    for name in ("w1", "b1", "w2", "b2"):
        w = getattr(net, name)
        setattr(net, name, (w + rng.normal(0, 0.3, w.shape)).astype(np.float32))
    net.note_training(games=games)
    path = tmp_path / f"c{games}-{seed}-{variant}.net"
    net.save(path)
    return path


def test_the_mean_of_three_checkpoints(tmp_path: Path) -> None:
    paths = [checkpoint(tmp_path, g) for g in (500, 1500, 1000)]
    out = tmp_path / "avg.net"
    done = average_cli(str(out), *map(str, paths))
    assert done.returncode == 0, done.stderr
    assert "the mean of 3 checkpoints" in done.stdout
    got = Net.load(out)
    nets = [Net.load(p) for p in paths]
    for name in ("w1", "b1", "w2", "b2"):
        want = sum(getattr(n, name).astype(np.float64) for n in nets) / 3
        assert getattr(got, name) == pytest.approx(want, abs=1e-6)
    # the latest checkpoint's header, with what was averaged
    assert got.games == 1500 and got.header["averaged"] == [500, 1500, 1000]
    assert got.variant == "lurc"


def test_a_mean_trained_further_is_no_longer_that_mean(tmp_path: Path) -> None:
    """TD self-play resumed from an averaged file (as a run goes on from a shipped mean)
    keeps the run's seed and counts on from its games, and the header no longer says
    the weights are the mean of those checkpoints."""
    paths = [checkpoint(tmp_path, g, variant="long") for g in (500, 1000)]
    out = tmp_path / "avg.net"
    assert average_cli(str(out), *map(str, paths)).returncode == 0
    assert Net.load(out).header["averaged"] == [500, 1000]
    done = subprocess.run(
        [sys.executable, "-m", "engine", "train", "--out", str(out), "--games", "1001",
         "--resume", "--report", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("games 1001 ")
    net = Net.load(out)
    assert net.games == 1001 and net.header["seed"] == 3
    assert "averaged" not in net.header


@pytest.mark.parametrize("other", [{"seed": 4}, {"variant": "long"}, {"hidden": 7}])
def test_checkpoints_of_other_runs_are_refused(tmp_path: Path, other: dict[str, object]) -> None:
    first = checkpoint(tmp_path, 500)
    second = checkpoint(tmp_path, 1000, **other)  # type: ignore[arg-type]
    out = tmp_path / "avg.net"
    done = average_cli(str(out), str(first), str(second))
    assert done.returncode == 2 and done.stdout == ""
    assert f"{second}: not a checkpoint of the same run" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()


def test_a_file_that_is_not_weights(tmp_path: Path) -> None:
    junk = tmp_path / "junk.net"
    junk.write_bytes(b"not weights")
    done = average_cli(str(tmp_path / "avg.net"), str(junk))
    assert done.returncode == 2 and "not a weights file of the evaluator" in done.stderr
    assert "Traceback" not in done.stderr
