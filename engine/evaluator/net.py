"""The evaluator's net: inputs -> one sigmoid hidden layer -> three sigmoid outputs, the
side to move's chances of winning, of winning with mars and of losing with mars (L8),
and its weights file: a numpy ``.npz`` with a JSON header that loading checks."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.errors import EngineError
from engine.evaluator.encoding import ENCODER_VERSION, INPUTS

Floats = npt.NDArray[np.floating]  # the weights are float32 (twice as fast as float64)
FORMAT = "nardy-net"


class WeightsError(EngineError):
    """A weights file that cannot be used: unreadable, or made for another encoder."""

    code = "bad-weights"


def equity(out: Floats) -> Floats:
    """Equity in points for the side to move from the outputs (win, win mars, lose mars):
    an oin is 1 point, a mars 2 (L8)."""
    win, win_mars, lose_mars = out[..., 0], out[..., 1], out[..., 2]
    return 2 * win - 1 + win_mars - lose_mars


def flip(out: Floats) -> Floats:
    """The outputs seen by the other side: its win is our loss, mars for mars."""
    return np.stack([1 - out[..., 0], out[..., 2], out[..., 1]], axis=-1)


class Net:
    """The weights and the header they were trained under (``header``: encoder version,
    inputs, hidden size, games, seed, commit and the training settings)."""

    def __init__(self, w1: Floats, b1: Floats, w2: Floats, b2: Floats, header: dict[str, object]):
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.header = header

    @classmethod
    def fresh(cls, hidden: int, seed: int, **header: object) -> Net:
        """A net with small random weights (the start of training)."""
        rng = np.random.default_rng(seed)
        w1 = rng.normal(0, 1 / np.sqrt(INPUTS), (INPUTS, hidden)).astype(np.float32)
        w2 = rng.normal(0, 1 / np.sqrt(hidden), (hidden, 3)).astype(np.float32)
        head = {"encoder": ENCODER_VERSION, "inputs": INPUTS, "hidden": hidden, "games": 0,
                "seed": seed, **header}  # fmt: skip
        return cls(w1, np.zeros(hidden, np.float32), w2, np.zeros(3, np.float32), head)

    @property
    def games(self) -> int:
        games = self.header.get("games", 0)
        return games if isinstance(games, int) else 0

    def forward(self, x: Floats) -> tuple[Floats, Floats]:
        """The outputs and the hidden activations for inputs ``x`` (n, INPUTS)."""
        hidden = 1 / (1 + np.exp(-(x @ self.w1 + self.b1)))
        out = 1 / (1 + np.exp(-(hidden @ self.w2 + self.b2)))
        return out, hidden

    def outputs(self, x: Floats) -> Floats:
        return self.forward(x)[0]

    # the file ------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the weights with the header (atomically: a checkpoint is never half)."""
        path = Path(path)
        buf = io.BytesIO()
        head = np.frombuffer(json.dumps({"format": FORMAT, **self.header}).encode(), np.uint8)
        np.savez_compressed(buf, header=head, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(buf.getvalue())
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> Net:
        """Read a weights file; :class:`WeightsError` when it is not one this encoder
        can use (another format, encoder version or input count)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(bytes(data["header"]).decode())
                arrays = [np.asarray(data[k], dtype=np.float32) for k in ("w1", "b1", "w2", "b2")]
        except (OSError, ValueError, KeyError) as exc:
            raise WeightsError(
                f"{path}: not a weights file of the evaluator ({exc})",
                code="weights-unreadable",
                params={"path": str(path), "reason": str(exc)},
            ) from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise WeightsError(f"{path}: not a {FORMAT} file", code="weights-format",
                               params={"path": str(path)})  # fmt: skip
        if header.get("encoder") != ENCODER_VERSION or header.get("inputs") != INPUTS:
            raise WeightsError(
                f"{path}: made for encoder version {header.get('encoder')!r} with "
                f"{header.get('inputs')!r} inputs; this engine's encoder is version "
                f"{ENCODER_VERSION} with {INPUTS} inputs (retrain, or use the engine it came with)",
                code="weights-encoder",
                params={
                    "path": str(path),
                    "found": header.get("encoder"),
                    "expected": ENCODER_VERSION,
                },
            )
        w1, b1, w2, b2 = arrays
        hidden = header.get("hidden")
        if (
            w1.shape != (INPUTS, hidden)
            or b1.shape != (hidden,)
            or w2.shape != (hidden, 3)
            or b2.shape != (3,)
        ):
            raise WeightsError(f"{path}: the weights do not match the header's sizes",
                               code="weights-shape", params={"path": str(path)})  # fmt: skip
        header.pop("format")
        return cls(w1, b1, w2, b2, header)


SHIPPED = Path(__file__).with_name("long.net")
_LOADED: dict[str, Net] = {}


def net_path(name: str) -> Path:
    """The shipped weights a variant declares (``Variant.evaluator``): ``NAME.net`` here."""
    return Path(__file__).with_name(f"{name}.net")


def load_net(path: str | Path | None = None) -> Net:
    """The net in ``path`` (the shipped ``long.net`` by default), loaded once a process."""
    key = str(SHIPPED if path is None else path)
    net = _LOADED.get(key)
    if net is None:
        net = _LOADED[key] = Net.load(key)
    return net
