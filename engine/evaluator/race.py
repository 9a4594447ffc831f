"""The race evaluator (docs/analysis.md): a position where the two sides have passed
each other (RULES L3: no checker of one side can ever land where one of the other's
stands or must pass) is judged as the bear-off is, from each side's own distributions
of the rolls to finish and to bear off the first checker (L8's mars), the sides taken
as independent. A side still outside its home gets its distributions from a small net
(``race.net``, trained by :mod:`engine.evaluator.race_train` toward the one-sided
bear-off database and its own look-ahead); a side at home, from the database."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.errors import EngineError
from engine.evaluator.bearoff import ROLLS_MAX, Bearoff, Floats, load_bearoff, win_chances
from engine.evaluator.npzfile import save_npz

SHIPPED = Path(__file__).with_name("race.net")
FORMAT = "nardy-race"
POINTS = 12  # a racing side's checkers are on its points 1-12
INPUTS = 4 * POINTS + 4
FIRST_MAX = 32  # bins of the rolls to the first checker off (a race of 15 outside: ~15)


class RaceError(EngineError):
    code = "bad-race-net"


def is_race(me: tuple[int, ...], opp: tuple[int, ...]) -> bool:
    """Each side's checkers all in its own points 1-12 (or borne off): each has passed
    every checker of the other (both travel 24 -> 1 and a side's point p is the other's
    p + 12), so neither can block or be blocked again. Bear-offs are races too."""
    return not any(me[13:]) and not any(opp[13:])


def encode_sides(sides: npt.NDArray[np.int64]) -> Floats:
    """The net's inputs for one-sided race positions, rows of 13 counts (off, points
    1-12): four units a point (at least 1, 2, 3 checkers, the count above 3 over 4),
    the borne-off count, the pips, the checkers outside home, nothing off yet."""
    pts = sides[:, 1:].astype(np.float64)
    out = np.empty((len(sides), INPUTS))
    out[:, 0:12] = pts >= 1
    out[:, 12:24] = pts >= 2
    out[:, 24:36] = pts >= 3
    out[:, 36:48] = np.maximum(pts - 3, 0) / 4
    out[:, 48] = sides[:, 0] / 15
    out[:, 49] = pts @ np.arange(1, 13) / 90
    out[:, 50] = pts[:, 6:].sum(axis=1) / 15
    out[:, 51] = sides[:, 0] == 0
    return out


def _softmax(z: Floats) -> Floats:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    s: Floats = e / e.sum(axis=1, keepdims=True)
    return s


class RaceNet:
    """One hidden layer (sigmoid) and two softmax heads: the distribution of the rolls
    to finish (:data:`ROLLS_MAX` bins) and to bear off the first checker
    (:data:`FIRST_MAX` bins; read only while nothing is off)."""

    def __init__(self, weights: dict[str, Floats], header: dict[str, object]) -> None:
        self.w = weights
        self.header = header

    @classmethod
    def fresh(cls, hidden: int, seed: int) -> RaceNet:
        rng = np.random.default_rng(seed)
        scale = 1 / np.sqrt(hidden)
        w = {"w1": rng.normal(0, 1 / np.sqrt(INPUTS), (INPUTS, hidden)),
             "b1": np.zeros(hidden),
             "wf": rng.normal(0, scale, (hidden, ROLLS_MAX)), "bf": np.zeros(ROLLS_MAX),
             "wg": rng.normal(0, scale, (hidden, FIRST_MAX)),
             "bg": np.zeros(FIRST_MAX)}  # fmt: skip
        return cls(w, {"hidden": hidden, "seed": seed})

    def forward(self, x: Floats) -> tuple[Floats, Floats, Floats]:
        """The hidden layer, the finish and the first distributions."""
        w = self.w
        h = 1 / (1 + np.exp(-(x @ w["w1"] + w["b1"])))
        return h, _softmax(h @ w["wf"] + w["bf"]), _softmax(h @ w["wg"] + w["bg"])

    def distributions(self, sides: npt.NDArray[np.int64], table: Bearoff) -> tuple[Floats, Floats]:
        """(finish, first) of each one-sided position (rows of 13 counts): the database's
        for a side at home, the net's for one still outside."""
        finish = np.zeros((len(sides), ROLLS_MAX))
        first = np.zeros((len(sides), ROLLS_MAX))
        home = sides[:, 7:].sum(axis=1) == 0
        for k in np.flatnonzero(home):
            i = table.index[tuple(int(n) for n in sides[k, 1:7])]
            finish[k], first[k] = table.finish[i], table.first[i]
        out = np.flatnonzero(~home)
        if len(out):
            _, f, g = self.forward(encode_sides(sides[out]))
            finish[out] = f
            first[out, :FIRST_MAX] = g
            off = sides[out, 0] > 0
            first[out[off]] = 0.0
            first[out[off], 0] = 1.0
        return finish, first

    def outputs(self, pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Floats:
        """(win, win mars, lose mars) for the side to move of each race position."""
        table = load_bearoff()
        sides = np.array([b[:13] for pair in pairs for b in pair], dtype=np.int64)
        finish, first = self.distributions(sides, table)
        return win_chances(finish[0::2], first[0::2], finish[1::2], first[1::2])

    def save(self, path: Path) -> None:
        head = np.frombuffer(json.dumps({"format": FORMAT, **self.header}).encode(), np.uint8)
        save_npz(path, header=head, **{k: v.astype(np.float32) for k, v in self.w.items()})

    @classmethod
    def load(cls, path: Path) -> RaceNet:
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(bytes(data["header"]).decode())
                w = {k: data[k].astype(np.float64) for k in ("w1", "b1", "wf", "bf", "wg", "bg")}
        except (OSError, ValueError, KeyError) as exc:
            raise RaceError(f"{path}: not a race net ({exc})", code="race-unreadable",
                            params={"path": str(path), "exc": str(exc)}) from None  # fmt: skip
        if header.get("format") != FORMAT or w["w1"].shape[0] != INPUTS:
            raise RaceError(f"{path}: not a {FORMAT} file of {INPUTS} inputs", code="race-format",
                            params={"path": str(path)})  # fmt: skip
        return cls(w, header)


_LOADED: dict[str, RaceNet | None] = {}


def load_race(path: Path | None = None) -> RaceNet | None:
    """The race net (the shipped one by default), or None while none is shipped: the
    contact net then judges races."""
    key = str(path or SHIPPED)
    if key not in _LOADED:
        _LOADED[key] = RaceNet.load(Path(key)) if Path(key).exists() else None
    return _LOADED[key]
