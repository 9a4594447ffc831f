"""The diagnostic of docs/analysis.md "Round 5" (tools/training/target_kinds.py): each kind
of target is what it says, and the command fits a net from a distill run's state."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from engine.evaluator.net import Net
from tools.training.target_kinds import kind_targets

ROOT = Path(__file__).resolve().parents[2]


def _data(n: int = 400) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = (rng.random((n, 12)) < 0.3).astype(np.float32)
    ply1 = 0.2 + 0.6 * rng.random((n, 3))
    roll = np.clip(ply1 + 0.1 * x[:, :3] - 0.03 + rng.normal(0, 0.05, (n, 3)), 0, 1)
    return roll, ply1, x


def test_each_kind_is_what_it_says() -> None:
    roll, ply1, x = _data()
    rng = np.random.default_rng(1)
    residual = roll - ply1
    assert np.array_equal(kind_targets("rollout", roll, ply1, x, 1.0, 0.0, rng), roll)
    assert np.array_equal(kind_targets("ply1", roll, ply1, x, 1.0, 0.0, rng), ply1)
    shuffled = kind_targets("shuffled", roll, ply1, x, 1.0, 0.0, rng) - ply1
    # the same residuals (none clipped here), dealt to other positions
    assert np.allclose(np.sort(shuffled, axis=0), np.sort(residual, axis=0))
    assert not np.allclose(shuffled, residual)
    const = kind_targets("const", roll, ply1, x, 1.0, 0.0, rng) - ply1
    assert np.allclose(const, residual.mean(axis=0))
    # a ridge fit explains the residual's part that the inputs carry; a huge penalty
    # leaves only its mean (the constant is not penalised)
    fitted = kind_targets("ridge", roll, ply1, x, 1.0, 0.0, rng) - ply1
    assert ((residual - fitted) ** 2).mean() < 0.6 * residual.var()  # the noise (0.05^2) left
    flat = kind_targets("ridge", roll, ply1, x, 1e9, 0.0, rng) - ply1
    assert np.allclose(flat, residual.mean(axis=0), atol=1e-4)
    noise = kind_targets("noise", roll, ply1, x, 1.0, 0.05, rng) - ply1
    assert 0.04 < noise.std() < 0.06


def test_the_command_fits_a_runs_positions(tmp_path: Path) -> None:
    run = tmp_path / "rolled.net"
    subprocess.run(
        [sys.executable, "-m", "engine.evaluator.distill", "--out", str(run), "--games", "1",
         "--sweeps", "0", "--steps", "0", "--rollout", "2", "--truncate", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    out = tmp_path / "fitted.net"
    done = subprocess.run(
        [sys.executable, "tools/training/target_kinds.py", str(run), "shuffled",
         "--positions", "50", "--steps", "5", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert done.stdout.startswith("50 positions; rollout - 1-ply: mean")
    assert Path(str(run) + ".ply1.npy").exists()
    net = Net.load(out)
    assert net.header["trained"] == "target_kinds shuffled, 50 positions of rolled.net"
    assert not np.allclose(net.w1, Net.load(run).w1)
