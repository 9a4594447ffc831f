"""The evaluator's net: inputs -> one sigmoid hidden layer -> three sigmoid outputs, the
side to move's chances of winning, of winning with mars and of losing with mars (L8),
and its weights file: a numpy ``.npz`` with a JSON header that loading checks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.errors import EngineError
from engine.evaluator import lurc_encoding
from engine.evaluator.encoding import ENCODER_VERSION, INPUTS, as_boards, encode, widen
from engine.evaluator.npzfile import save_npz

Floats = npt.NDArray[np.floating]  # the weights are float32 (twice as fast as float64)
FORMAT = "nardy-net"
# each game's encoder: its version, its inputs and the net's outputs (three for long
# nardy's win, win mars and lose mars; one for a game without mars)
ENCODERS: dict[str, tuple[int, int, int]] = {
    "long": (ENCODER_VERSION, INPUTS, 3),
    "lurc": (lurc_encoding.ENCODER_VERSION, lurc_encoding.INPUTS, lurc_encoding.OUTPUTS),
}
INPUTS_OF: dict[str, Callable[[list[tuple[tuple[int, ...], tuple[int, ...]]]], Floats]] = {
    "long": lambda pairs: encode(as_boards(pairs)),
    "lurc": lambda pairs: lurc_encoding.encode(lurc_encoding.as_boards(pairs)),
}

# how a game's net trained under an older encoder is read by the current one
WIDEN: dict[str, Callable[[npt.NDArray[np.float32], int], npt.NDArray[np.float32] | None]] = {
    "long": widen,
    "lurc": lurc_encoding.widen,
}


class WeightsError(EngineError):
    """A weights file that cannot be used: unreadable, or made for another encoder."""

    code = "bad-weights"


def equity(out: Floats) -> Floats:
    """Equity in points for the side to move from the outputs (win, win mars, lose mars):
    an oin is 1 point, a mars 2 (L8); from a single output (the chance of winning: a
    game without mars, Lurč's Z11), 2 win - 1."""
    if out.shape[-1] == 1:
        return 2 * out[..., 0] - 1
    win, win_mars, lose_mars = out[..., 0], out[..., 1], out[..., 2]
    return 2 * win - 1 + win_mars - lose_mars


def flip(out: Floats) -> Floats:
    """The outputs seen by the other side: its win is our loss, mars for mars."""
    if out.shape[-1] == 1:
        return 1 - out
    return np.stack([1 - out[..., 0], out[..., 2], out[..., 1]], axis=-1)


class Net:
    """The weights and the header they were trained under (``header``: encoder version,
    inputs, hidden size, games, seed, commit and the training settings)."""

    def __init__(self, w1: Floats, b1: Floats, w2: Floats, b2: Floats, header: dict[str, object]):
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.header = header

    @classmethod
    def fresh(cls, hidden: int, seed: int, *, variant: str = "long", **header: object) -> Net:
        """A net with small random weights (the start of training) for the encoder of
        ``variant`` (:data:`ENCODERS`)."""
        version, inputs, outputs = ENCODERS[variant]
        rng = np.random.default_rng(seed)
        w1 = rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32)
        w2 = rng.normal(0, 1 / np.sqrt(hidden), (hidden, outputs)).astype(np.float32)
        head = {"encoder": version, "inputs": inputs, "hidden": hidden, "games": 0,
                "seed": seed, **header}  # fmt: skip
        head["variant"] = variant
        return cls(w1, np.zeros(hidden, np.float32), w2, np.zeros(outputs, np.float32), head)

    def with_hidden(self, hidden: int, seed: int) -> Net:
        """The same net with ``hidden`` hidden units (no fewer than it has): the new ones
        read the inputs with small random weights (``seed``) and weigh nothing in the
        outputs yet, so its values are this net's until it is trained further."""
        have = self.w1.shape[1]
        if hidden < have:
            raise ValueError(f"a net of {have} hidden units cannot be narrowed to {hidden}")
        rng = np.random.default_rng(seed)
        inputs, outputs = self.w1.shape[0], self.w2.shape[1]
        new = rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden - have)).astype(np.float32)
        head = {**self.header, "hidden": hidden}
        if hidden > have:
            head["widened_hidden_from"] = have
        return Net(np.hstack([self.w1, new]),
                   np.concatenate([self.b1, np.zeros(hidden - have, np.float32)]),
                   np.vstack([self.w2, np.zeros((hidden - have, outputs), np.float32)]),
                   self.b2.copy(), head)  # fmt: skip

    @property
    def variant(self) -> str:
        """The game whose encoder the net reads (``long`` for files without the key)."""
        name = self.header.get("variant", "long")
        return name if isinstance(name, str) else "long"

    def inputs_of(self, pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Floats:
        """The inputs of the (mover's, opponent's) board pairs by this net's encoder."""
        return INPUTS_OF[self.variant](pairs)

    @property
    def label(self) -> str:
        """The weights' name, as analyses store it: the variant, the self-play games and
        the commit of the last training (a net trained further toward its 1-ply values
        keeps its TD header and adds ``distill_commit``): "long (50000 games, beb7154)"."""
        commit = self.header.get("distill_commit") or self.header.get("commit", "")
        return f"{self.variant} ({self.header.get('games', '?')} games, {commit})"

    @property
    def games(self) -> int:
        games = self.header.get("games", 0)
        return games if isinstance(games, int) else 0

    def note_training(self, **keys: object) -> None:
        """Write a training's keys into the header. The weights are then the current
        encoder's own and the training's: a net read from an older encoder's file
        (``widened_from``) that has been trained further is no longer only widened, nor
        a mean of checkpoints (``averaged``) the mean it was, nor one given more hidden
        units (``widened_hidden_from``) only that."""
        self.header.pop("widened_from", None)
        self.header.pop("widened_hidden_from", None)
        self.header.pop("averaged", None)
        self.header.update(keys)

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
        head = np.frombuffer(json.dumps({"format": FORMAT, **self.header}).encode(), np.uint8)
        save_npz(path, header=head, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)

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
        variant = header.get("variant", "long")
        version, inputs, outputs = ENCODERS.get(variant, (-1, -1, -1))
        found = header.get("encoder")
        widen_from = WIDEN.get(variant) if isinstance(variant, str) else None
        if widen_from is not None and isinstance(found, int) and found < version:
            wider = widen_from(arrays[0], found)
            if wider is not None:  # an older encoder's net: the new inputs weigh nothing
                arrays[0] = wider
                header.update(encoder=version, inputs=inputs, widened_from=found)
        if header.get("encoder") != version or header.get("inputs") != inputs:
            raise WeightsError(
                f"{path}: made for encoder version {header.get('encoder')!r} with "
                f"{header.get('inputs')!r} inputs; this engine's encoder is version "
                f"{version} with {inputs} inputs (retrain, or use the engine it came with)",
                code="weights-encoder",
                params={
                    "path": str(path),
                    "found": header.get("encoder"),
                    "expected": version,
                    "inputs": inputs,
                },
            )
        w1, b1, w2, b2 = arrays
        hidden = header.get("hidden")
        if (
            w1.shape != (inputs, hidden)
            or b1.shape != (hidden,)
            or w2.shape != (hidden, outputs)
            or b2.shape != (outputs,)
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
