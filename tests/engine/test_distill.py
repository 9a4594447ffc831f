"""Training a net toward its own 1-ply values (engine/evaluator/distill.py,
docs/analysis.md "Training toward 1-ply values"): the positions, the targets against
the engine's own legal turns, the fit, and the command as a user runs it (resumable)."""

from __future__ import annotations

import itertools
import multiprocessing as mp
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.evaluator.bearoff import load_bearoff
from engine.evaluator.bench_positions import CANDIDATES, read_lines
from engine.evaluator.distill import (
    Target,
    cpu_seconds,
    fit,
    long_positions,
    lurc_positions,
    play_groups,
    targets,
    weights,
)
from engine.evaluator.distill import main as distill_main
from engine.evaluator.encoding import V1_INPUTS
from engine.evaluator.judge import CONTACT, kind_of, position_outputs
from engine.evaluator.net import Net, equity, flip, load_net, net_path
from engine.evaluator.npzfile import save_npz
from engine.evaluator.play import ROLLS, ends, outcomes, terminal
from engine.evaluator.race_train import Adam
from engine.movegen import legal_turns
from engine.position import Position
from engine.variants import BLACK, WHITE

from .boards import board

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("sources", ["selfplay", "mixed"])
def test_long_positions_are_contact_positions_and_none_of_the_benchmark(sources: str) -> None:
    net = load_net(net_path("long"))
    spots = long_positions(3, 5, net, sources)
    bench = set()
    for line in read_lines(CANDIDATES):
        pos = Position.from_json(line["position"])
        bench.add((pos.board(pos.turn), pos.board(1 - pos.turn)))
    assert len(spots) > 60
    assert len({s[:2] for s in spots}) == len(spots)
    assert all(kind_of(me, opp) == CONTACT for me, opp, _ in spots)
    assert not bench & {s[:2] for s in spots}
    assert {side for *_, side in spots} == {0, 1}


def chances_by_legal_turns(pos: Position) -> np.ndarray:
    """The mean over the 36 rolls of the best legal turn's chances for the side to move,
    from the engine's legal turns (not the evaluator's fast move search)."""
    net = load_net(net_path("long"))
    side = pos.turn
    total = np.zeros(3)
    for a in range(1, 7):
        for b in range(1, 7):
            rows = []
            for t in legal_turns(pos, [a, b]):
                me, opp = t.position.board(side), t.position.board(1 - side)
                won = terminal(me, opp)
                if won is not None:
                    rows.append(np.array([1.0, float(won == 2.0), 0.0]))
                else:
                    rows.append(flip(position_outputs(net, [(opp, me)]))[0])
            rows_a = np.array(rows)
            total += rows_a[int(np.argmax(equity(rows_a)))] / 36
    return total


def test_a_long_target_is_the_mean_over_the_rolls_of_the_best_turn() -> None:
    net = load_net(net_path("long"))
    spots = long_positions(1, 9, net)[10:13]
    got = targets(net, "long", spots)
    for (me, opp, side), row in zip(spots, got, strict=True):
        white, black = (me, opp) if side == WHITE else (opp, me)
        want = chances_by_legal_turns(Position("long", side, white, black))
        assert np.allclose(row, want, atol=1e-6), (row, want)


def test_a_rollout_truncated_after_one_turn_is_the_1_ply_value() -> None:
    """36 games play each first roll once (engine.evaluator.rollout): stopped after that
    roll's play and valued there, their mean is the 1-ply value, by another road."""
    net = load_net(net_path("long"))
    spots = long_positions(2, 6, net)[30:33]
    rolled = targets(net, "long", spots, Target(36, 1), seed=11)
    assert np.allclose(rolled, targets(net, "long", spots), atol=1e-6)
    longer = targets(net, "long", spots, Target(36, 4), seed=11)
    assert not np.allclose(longer, rolled, atol=1e-3)


def test_a_played_out_target_stops_at_the_bear_off_table() -> None:
    """A game of a rollout target that reaches a bear-off counts the exact table's
    chances there, as the benchmark's rollouts do: a bear-off position's target is the
    table's value itself, not the 0-or-1 results of games played to the end."""
    net = load_net(net_path("long"))
    me, opp = board({4: 2, 3: 1}), board({2: 1, 5: 2})
    want = load_bearoff().outputs([(me, opp)])[0][: net.w2.shape[1]]
    got = targets(net, "long", [(me, opp, WHITE)], Target(36, 0), seed=3)
    assert np.allclose(got[0], want, atol=1e-9), (got, want)
    assert 0.05 < got[0, 0] < 0.95


def test_the_targets_are_the_same_however_many_workers_share_them() -> None:
    net = load_net(net_path("long"))
    spots = long_positions(1, 9, net)[20:25]
    alone = targets(net, "long", spots, Target(4, 0), seed=5)
    shared = targets(net, "long", spots, Target(4, 0), seed=5, workers=2)
    assert np.array_equal(alone, shared)
    assert len({tuple(r) for r in alone}) > 1  # each position's own dice and games
    assert np.array_equal(targets(net, "long", spots), targets(net, "long", spots, workers=3))


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_the_cpu_seconds_count_the_workers() -> None:
    """A run's CPU seconds (the log, the header) include what the worker processes
    spent, not only the parent's waiting."""
    before = cpu_seconds()
    parent = time.process_time()
    with mp.get_context("spawn").Pool(2) as pool:
        pool.map(_spin, [0.4, 0.4])
    assert time.process_time() - parent < 0.3
    assert cpu_seconds() - before > 0.7


def test_lurc_targets_are_the_chance_of_winning() -> None:
    """Z11: one output. The last checker on point 1 is borne off only by a 1 (Z9: only
    exactly): 11 rolls of 36 hold one (the houšek's 1 among them, Z8) and the paš 6-6
    plays four 1s too (Z7: the opposite faces); with any other roll the dice are lost
    and the opponent moves in the same position."""
    net = load_net(net_path("lurc"))
    me, opp = board({1: 1}), board({20: 5})
    sure = (me, opp, WHITE)
    theirs = float(net.outputs(net.inputs_of([(opp, me)]))[0, 0])
    spots = lurc_positions(1, 4, net)
    start = Position.start("lurc")
    assert spots[0] == (start.board(BLACK), start.board(WHITE), BLACK)  # Z1: black starts
    # after a paš played in full the same side rolls again (Z7)
    assert any(a[2] == b[2] for a, b in itertools.pairwise(spots))
    got = targets(net, "lurc", [sure, *spots[20:24]])
    assert got.shape == (5, 1)
    assert got[0, 0] == pytest.approx(12 / 36 + 24 / 36 * (1 - theirs))
    assert ((got > 0) & (got < 1))[1:].all()


def test_the_fit_takes_a_net_toward_its_targets() -> None:
    teacher, pupil = Net.fresh(16, 1), Net.fresh(16, 2)
    rng = np.random.default_rng(0)
    x = (rng.random((600, teacher.w1.shape[0])) < 0.2).astype(np.float32)
    t = teacher.outputs(x)
    before = float(np.abs(pupil.outputs(x) - t).mean())
    fit(pupil, x, t, 400, Adam(weights(pupil), 1e-2), rng)
    after = float(np.abs(pupil.outputs(x) - t).mean())
    assert after < before / 3, (before, after)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.evaluator.distill", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip


def test_the_command_trains_checkpoints_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "contact.net"
    first = run("--variant", "long", "--out", str(out), "--games", "1", "--seed", "3",
                "--sweeps", "0", "--steps", "20")  # fmt: skip
    head, *lines = first.stdout.splitlines()
    n = int(head.split(":")[1].split()[0])
    assert head.startswith(
        f"long: {n} positions (1 games, mixed), seed 3, 1-ply targets, from long.net"
    )
    assert lines[-1].startswith(f"{n} of {n}  loss ")
    net = Net.load(out)
    shipped = load_net(net_path("long"))
    assert net.header["distill_done"] == n and net.header["trained"] == "1-ply targets"
    assert net.header["distill_seed"] == 3 and net.header["seed"] == shipped.header["seed"]
    assert net.header["sources"] == "mixed" and net.header["target_games"] == 0
    assert net.header["base_games"] == shipped.games
    assert not np.allclose(net.w1, shipped.w1)
    # a sweep more: every target again by the trained net, and trained again
    more = run("--variant", "long", "--out", str(out), "--games", "1", "--seed", "3",
               "--sweeps", "1", "--steps", "20", "--resume")  # fmt: skip
    assert more.stdout.splitlines()[-1].startswith(f"{2 * n} of {2 * n}  loss ")
    swept = Net.load(out)
    assert swept.header["distill_done"] == 2 * n and not np.allclose(swept.w1, net.w1)
    # a finished run resumed does nothing
    again = run("--variant", "long", "--out", str(out), "--sweeps", "1", "--resume")
    assert again.stdout == ""
    assert np.array_equal(Net.load(out).w1, swept.w1)


class _Stopped(BaseException):
    """A stop in the middle of a write (a kill, a full disk)."""


@pytest.mark.parametrize("stopped", [1, 2], ids=["the state", "the weights"])
def test_a_run_stopped_while_it_writes_resumes_from_whole_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stopped: int
) -> None:
    """A run's state holds its targets (hours of rollouts): a stop while the state or
    the weights are written leaves whole files, never half a one, and the resume
    finishes the run (after a chunk, the state is written first, then the weights)."""
    out = tmp_path / "contact.net"
    run("--out", str(out), "--games", "1", "--seed", "3", "--sweeps", "0", "--steps", "5")
    state = Path(str(out) + ".state.npz")
    with np.load(state) as st:
        n, targets_before = len(st["sides"]), st["targets"].copy()
    calls: list[object] = []
    real = np.savez_compressed

    def half(file: Any, **arrays: Any) -> None:  # writes a little, then is stopped
        calls.append(file)
        if len(calls) == stopped:
            if isinstance(file, (str, Path)):  # numpy opens a path itself
                Path(file).write_bytes(b"PK\x03\x04")
            else:
                file.write(b"PK\x03\x04")
            raise _Stopped
        real(file, **arrays)

    monkeypatch.setattr(np, "savez_compressed", half)
    with pytest.raises(_Stopped):
        distill_main(["--out", str(out), "--sweeps", "1", "--resume"])
    monkeypatch.undo()
    assert len(calls) == stopped
    with np.load(state) as st:  # whole: the first pass's, or the sweep's when it was written
        assert int(st["done"]) == stopped * n
        assert np.array_equal(st["targets"], targets_before) == (stopped == 1)
    assert Net.load(out).header["distill_done"] == n  # the weights stay the first pass's
    resumed = run("--out", str(out), "--sweeps", "1", "--resume")
    assert resumed.stdout.splitlines()[-1].startswith(f"{2 * n} of {2 * n}  loss ")
    assert Net.load(out).header["distill_done"] == 2 * n


def test_a_resumed_run_keeps_its_own_seed_and_settings(tmp_path: Path) -> None:
    """The seed, the learning rate and the steps of a resumed run are the first run's
    (its header), not the command line's: two resumes of one checkpoint, one with other
    settings, train the same weights."""
    first = tmp_path / "a.net"
    run("--out", str(first), "--games", "1", "--seed", "3", "--sweeps", "0", "--steps", "20")
    second = tmp_path / "b.net"
    for suffix in ("", ".state.npz"):
        Path(str(second) + suffix).write_bytes(Path(str(first) + suffix).read_bytes())
    run("--out", str(first), "--sweeps", "1", "--resume")
    run("--out", str(second), "--sweeps", "1", "--resume", "--seed", "9", "--lr", "0.01",
        "--steps", "3", "--games", "5")  # fmt: skip
    a, b = Net.load(first), Net.load(second)
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert (b.header["distill_seed"], b.header["distill_lr"], b.header["distill_steps"]) == (
        3, 1e-4, 20)  # fmt: skip


def test_rollout_targets_from_the_command(tmp_path: Path) -> None:
    out = tmp_path / "rolled.net"
    done = run("--out", str(out), "--games", "1", "--seed", "4", "--sweeps", "0", "--steps", "5",
               "--sources", "selfplay", "--rollout", "36", "--truncate", "2")  # fmt: skip
    head = done.stdout.splitlines()[0]
    assert "(1 games, selfplay)" in head and "rollouts of 36 games truncated after 2 turns" in head
    net = Net.load(out)
    assert (net.header["target_games"], net.header["truncate"]) == (36, 2)
    refused = subprocess.run(
        [sys.executable, "-m", "engine.evaluator.distill", "--variant", "lurc", "--out",
         str(tmp_path / "l.net"), "--rollout", "36"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert refused.returncode != 0 and "Lurč has no rollouts" in refused.stderr


def test_a_run_starts_from_the_weights_given(tmp_path: Path) -> None:
    small = tmp_path / "small.net"
    Net.fresh(8, 1).save(small)
    out = tmp_path / "from-small.net"
    done = run("--out", str(out), "--games", "1", "--sweeps", "0", "--steps", "5",
               "--start", str(small))  # fmt: skip
    assert "from small.net (0 games)" in done.stdout.splitlines()[0]
    assert Net.load(out).w1.shape == (Net.load(small).w1.shape[0], 8)
    lurc = tmp_path / "lurc-small.net"
    Net.fresh(8, 1, variant="lurc").save(lurc)
    refused = subprocess.run(
        [sys.executable, "-m", "engine.evaluator.distill", "--out", str(tmp_path / "x.net"),
         "--start", str(lurc)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert refused.returncode != 0 and "is a lurc net, not long" in refused.stderr
    junk = tmp_path / "junk.net"
    junk.write_bytes(b"not weights")
    said = subprocess.run(
        [sys.executable, "-m", "engine.evaluator.distill", "--out", str(tmp_path / "y.net"),
         "--start", str(junk)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert said.returncode == 2 and "not a weights file" in said.stderr
    assert "Traceback" not in said.stderr


def test_a_version_1_net_trained_further_uses_the_priming_inputs(tmp_path: Path) -> None:
    """A run started from a net of encoder version 1 (read widened, no weight on the
    inputs version 2 added) trains those inputs too, and its header no longer says
    ``widened_from``."""
    old = Net.fresh(8, 1)
    old.w1 = old.w1[:V1_INPUTS].copy()
    old.header.update(encoder=1, inputs=V1_INPUTS)
    old.save(tmp_path / "v1.net")
    assert Net.load(tmp_path / "v1.net").header["widened_from"] == 1
    out = tmp_path / "v2.net"
    run("--out", str(out), "--games", "1", "--sweeps", "0", "--steps", "20",
        "--start", str(tmp_path / "v1.net"))  # fmt: skip
    net = Net.load(out)
    assert "widened_from" not in net.header and net.header["encoder"] == 2
    assert float(np.abs(net.w1[V1_INPUTS:]).sum()) > 0


def test_the_benchmarks_own_self_play_games_are_refused(tmp_path: Path) -> None:
    """Seed 33 drew the benchmark's self-play games: training on their other positions
    would leak the benchmark into the net."""
    refused = subprocess.run(
        [sys.executable, "-m", "engine.evaluator.distill", "--out", str(tmp_path / "x.net"),
         "--sources", "selfplay", "--seed", "33", "--games", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert refused.returncode != 0
    assert "seed 33 plays the benchmark's self-play games" in refused.stderr


def test_a_run_fits_earlier_runs_targets_without_computing_them(tmp_path: Path) -> None:
    """``--targets-from``: the positions and the (costly) rollout targets of earlier
    runs, one after the other, fitted again with other steps; not one computed again
    (a new run's dice would give other rollouts), the kind and the sources named in the
    header; runs of different target kinds are refused."""
    earlier = [tmp_path / "rolled-4.net", tmp_path / "rolled-5.net"]
    for seed, out in zip((4, 5), earlier, strict=True):
        run("--out", str(out), "--games", "1", "--sweeps", "0", "--steps", "5",
            "--rollout", "2", "--truncate", "3", "--seed", str(seed))  # fmt: skip
    again = tmp_path / "refit.net"
    done = run("--out", str(again), "--targets-from", *map(str, earlier), "--sweeps", "0",
               "--steps", "40", "--seed", "9")  # fmt: skip
    assert "the targets of rolled-4.net, rolled-5.net" in done.stdout.splitlines()[0]
    states = [np.load(str(f) + ".state.npz") for f in earlier]
    with np.load(str(again) + ".state.npz") as b:
        for key in ("boards", "sides", "targets"):
            assert np.array_equal(np.concatenate([st[key] for st in states]), b[key])
        n = len(b["sides"])
    assert n == sum(len(st["sides"]) for st in states)
    net = Net.load(again)
    assert net.header["targets_from"] == "rolled-4.net, rolled-5.net"
    assert net.header["targets_given"] == n and net.header["distill_games"] == 2
    assert (net.header["target_games"], net.header["truncate"]) == (2, 3)
    assert net.header["distill_steps"] == 40 and net.header["distill_done"] == n
    assert not np.allclose(net.w1, Net.load(earlier[0]).w1)
    plain = tmp_path / "plain.net"
    run("--out", str(plain), "--games", "1", "--sweeps", "0", "--steps", "5")
    lurc = tmp_path / "lurc-small.net"
    Net.fresh(8, 1, variant="lurc").save(lurc)
    mixed = "the runs' targets are of different kinds"
    stateless = tmp_path / "stateless.net"
    stateless.write_bytes(plain.read_bytes())
    for given, said in (
        ([lurc], "is not a long run of distill"),
        ([plain, earlier[0]], mixed),
        ([stateless], "has no stateless.net.state.npz beside it"),
    ):
        refused = subprocess.run(
            [sys.executable, "-m", "engine.evaluator.distill", "--out", str(tmp_path / "x.net"),
             "--targets-from", *map(str, given)],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert refused.returncode != 0 and said in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr


def test_the_best_plays_of_a_roll_are_grouped_and_rolled_out_on_the_same_dice() -> None:
    """``--plays K``: each position gives the K best contact plays (by the net at 0-ply)
    of one of its rolls, as the opponent's positions before its roll; a group's
    rollouts share their dice, so two equal positions of one group get equal targets
    where, ungrouped, each has dice of its own."""
    net = load_net(net_path("long"))
    source = long_positions(1, 9, net)[20:26]
    spots = play_groups(source, 2, 4, net)
    assert len(spots) >= 6 and len(spots) % 2 == 0
    for a, b in zip(spots[::2], spots[1::2], strict=True):
        assert a[2] == b[2] and a[:2] != b[:2]
        found = False
        for me, opp, side in source:
            for roll in ROLLS if side != a[2] else ():
                cands = ends(me, opp, side, roll)
                if (a[1], a[0]) not in cands or (b[1], b[0]) not in cands:
                    continue
                eqs = equity(outcomes(net, cands))
                contact = [e for e, c in zip(eqs, cands, strict=True)
                           if kind_of(c[1], c[0]) == CONTACT]  # fmt: skip
                got = [eqs[cands.index((s[1], s[0]))] for s in (a, b)]
                # another roll can reach the same two ends among others: the group's
                # roll is one where they are the two best
                found = found or bool(np.allclose(got, sorted(contact, reverse=True)[:2]))
        assert found, (a, b)
    x, y = spots[0], spots[2]
    same = targets(net, "long", [x, x, y, y], Target(8, 0, 2), seed=7)
    assert np.array_equal(same[0], same[1]) and np.array_equal(same[2], same[3])
    assert np.array_equal(same, targets(net, "long", [x, x, y, y], Target(8, 0, 2), 7, 3))
    apart = targets(net, "long", [x, x, y, y], Target(8, 0, 0), seed=7)
    assert not np.array_equal(apart[0], apart[1]) or not np.array_equal(apart[2], apart[3])


def test_the_command_groups_plays_only_for_rollouts(tmp_path: Path) -> None:
    out = tmp_path / "plays.net"
    run("--out", str(out), "--games", "1", "--sweeps", "0", "--steps", "0", "--rollout", "2",
        "--truncate", "2", "--plays", "4")  # fmt: skip
    net = Net.load(out)
    assert net.header["plays"] == 4 and "the 4 best plays of a roll" in str(net.header["trained"])
    with np.load(str(out) + ".state.npz") as st:
        assert len(st["sides"]) % 4 == 0 and len(st["sides"]) > 0
    for args in (
        ["--plays", "3", "--rollout", "2"],
        ["--plays", "2"],
        ["--plays", "-4", "--rollout", "2"],
    ):
        refused = subprocess.run(
            [sys.executable, "-m", "engine.evaluator.distill", "--out", str(tmp_path / "x.net"),
             "--games", "1", *args],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert refused.returncode != 0 and "--plays is for rollout targets" in refused.stderr


def _squared_error(net: Net, state: Path, prefix: str) -> float:
    """The mean squared error of ``net`` against a state's targets (or its anchors')."""
    with np.load(state) as st:
        boards, sides = st[f"{prefix}boards"], st[f"{prefix}sides"]
        t = st[f"{prefix}targets"]
    x = net.inputs_of([(tuple(b[0]), tuple(b[1])) for b in boards]).astype(np.float32)
    assert len(sides) == len(t) > 0
    return float(((net.forward(x)[0] - t) ** 2).mean())


def test_anchors_are_fitted_beside_the_targets_and_kept_for_the_resume(tmp_path: Path) -> None:
    """``--anchors``: an earlier run's 1-ply targets of self-play positions, fitted beside
    the rollout targets (``--ratio`` of them a target seen): the anchored net stays
    nearer to them than the same fit without them; they are kept in the state (in an
    order of their own, none lost), so the resume fits them without the run's file.
    Anchors of two kinds of target, and ratios out of (0, 100], are refused."""
    rolled, anchor = tmp_path / "rolled.net", tmp_path / "anchor.net"
    run("--out", str(rolled), "--games", "1", "--sweeps", "0", "--steps", "0",
        "--rollout", "2", "--truncate", "3", "--seed", "4")  # fmt: skip
    run("--out", str(anchor), "--games", "1", "--sweeps", "0", "--steps", "0",
        "--sources", "selfplay", "--seed", "6")  # fmt: skip
    plain, anchored = tmp_path / "plain.net", tmp_path / "anchored.net"
    common = ("--targets-from", str(rolled), "--sweeps", "0", "--steps", "60", "--seed", "9",
              "--lr", "1e-3")  # fmt: skip
    run("--out", str(plain), *common)
    done = run("--out", str(anchored), *common, "--anchors", str(anchor), "--ratio", "2")
    assert done.returncode == 0
    head = Net.load(anchored).header
    with np.load(str(anchor) + ".state.npz") as a, np.load(str(anchored) + ".state.npz") as b:
        n = len(a["sides"])
        assert head["anchors_from"] == "anchor.net" and head["anchors_given"] == n
        assert head["anchor_ratio"] == 2.0 and len(b["anchor_sides"]) == n
        for key in ("boards", "targets"):
            assert not np.array_equal(a[key], b[f"anchor_{key}"])  # drawn in another order
            rows = np.sort(a[key].reshape(n, -1), axis=0)
            assert np.array_equal(rows, np.sort(b[f"anchor_{key}"].reshape(n, -1), axis=0))
    state = Path(str(anchor) + ".state.npz")
    assert _squared_error(Net.load(anchored), state, "") < _squared_error(
        Net.load(plain), state, ""
    )
    # the resume (a sweep more) fits the anchors the state keeps: made all 0 there,
    # the resumed net's chances on them fall, with the anchors' run gone
    twin = tmp_path / "twin.net"
    twin.write_bytes(anchored.read_bytes())
    with np.load(str(anchored) + ".state.npz") as st:
        kept = {k: st[k] for k in st.files}
    kept["anchor_targets"] = np.zeros_like(kept["anchor_targets"])
    save_npz(Path(str(twin) + ".state.npz"), **kept)
    moved = tmp_path / "moved.net"
    anchor.rename(moved)
    Path(str(anchor) + ".state.npz").rename(str(moved) + ".state.npz")
    for out in (anchored, twin):
        run("--out", str(out), "--sweeps", "1", "--resume")
    with np.load(str(anchored) + ".state.npz") as st:
        x = (
            Net.load(anchored)
            .inputs_of([(tuple(b[0]), tuple(b[1])) for b in st["anchor_boards"]])
            .astype(np.float32)
        )
    assert Net.load(twin).forward(x)[0].mean() < Net.load(anchored).forward(x)[0].mean() - 0.01
    for args, said in (
        (["--anchors", str(rolled), str(moved)], "the runs' targets are of different kinds"),
        (["--anchors", str(moved), "--ratio", "0"], "--ratio 0.0: anchors a target"),
        (["--anchors", str(moved), "--ratio", "nan"], "--ratio nan: anchors a target"),
        (["--anchors", str(moved), "--ratio", "101"], "--ratio 101.0: anchors a target"),
    ):
        refused = subprocess.run(
            [sys.executable, "-m", "engine.evaluator.distill", "--out", str(tmp_path / "x.net"),
             "--targets-from", str(rolled), *args],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert refused.returncode != 0 and said in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr


def test_a_net_given_more_hidden_units_keeps_its_values_until_trained(tmp_path: Path) -> None:
    """``--hidden H``: the starting net with H hidden units, the new ones weighing nothing
    in the outputs at first (the same values on any position), all of them trained;
    fewer units than it has are refused."""
    shipped = load_net(net_path("long"))
    have = shipped.w1.shape[1]
    wide = shipped.with_hidden(have + 32, 5)
    x = shipped.inputs_of([s[:2] for s in long_positions(1, 8, shipped)]).astype(np.float32)
    assert np.allclose(wide.forward(x)[0], shipped.forward(x)[0], atol=1e-6)
    assert wide.w1.shape == (shipped.w1.shape[0], have + 32)
    assert np.abs(wide.w1[:, have:]).sum() > 0 and not wide.w2[have:].any()
    assert wide.header["hidden"] == have + 32 and wide.header["widened_hidden_from"] == have
    out = tmp_path / "wide.net"
    run("--out", str(out), "--games", "1", "--sweeps", "0", "--steps", "30", "--hidden",
        str(have + 32), "--lr", "1e-3")  # fmt: skip
    net = Net.load(out)
    assert net.header["hidden"] == have + 32 and "widened_hidden_from" not in net.header
    assert net.w2[have:].any() and not np.allclose(net.w1[:, :have], shipped.w1)
    for hidden, said in ((have - 1, "cannot be narrowed"), (10**9, "at most 4096 hidden")):
        refused = subprocess.run(
            [sys.executable, "-m", "engine.evaluator.distill", "--out", str(tmp_path / "x.net"),
             "--games", "1", "--hidden", str(hidden)],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert refused.returncode != 0 and said in refused.stderr
        assert "Traceback" not in refused.stderr


def test_a_run_started_from_another_runs_net_takes_none_of_its_targets(tmp_path: Path) -> None:
    """A net trained with ``--targets-from`` and ``--anchors`` keeps them in its header
    (how it was made); a new run started from it has its own: its header names neither,
    and its resumed sweep computes every target again (read as given, none would be)."""
    rolled, anchor, refit = (tmp_path / f"{n}.net" for n in ("rolled", "anchor", "refit"))
    run("--out", str(rolled), "--games", "1", "--sweeps", "0", "--steps", "0",
        "--rollout", "2", "--truncate", "3", "--seed", "4")  # fmt: skip
    run("--out", str(anchor), "--games", "1", "--sweeps", "0", "--steps", "0", "--seed", "6")
    run("--out", str(refit), "--targets-from", str(rolled), "--anchors", str(anchor),
        "--sweeps", "0", "--steps", "5")  # fmt: skip
    assert {"targets_given", "anchors_given"} <= set(Net.load(refit).header)
    out = tmp_path / "next.net"
    run("--out", str(out), "--start", str(refit), "--games", "1", "--seed", "3",
        "--sweeps", "0", "--steps", "5", "--lr", "1e-3")  # fmt: skip
    head = Net.load(out).header
    assert not {"targets_from", "targets_given", "anchors_from", "anchor_ratio"} & set(head)
    with np.load(str(out) + ".state.npz") as st:
        first = st["targets"].copy()
    run("--out", str(out), "--sweeps", "1", "--resume")
    with np.load(str(out) + ".state.npz") as st:
        assert int(st["done"]) == 2 * len(first)
        assert not np.allclose(st["targets"], first)
