"""Immutable positions, their JSON form (NOTATION.md section 2) and a text diagram."""

from __future__ import annotations

from engine.errors import PositionError, RulesError
from engine.values import Value
from engine.variants import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    SIDE_NAMES,
    SIZE,
    START,
    WHITE,
    Variant,
    variant_named,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any

Board = tuple[int, ...]

# Both are values (engine.values): equal when their fields are, never changed after
# they are made.


# The cube's highest value (S7 names none): GNU Backgammon's (its MAX_CUBE, 1 << 12),
# which the games' tables keep in a small integer. A double past it is refused.
MAX_CUBE = 4096


class Cube(Value):
    """The doubling cube: its value and who owns it (``None``: in the middle)."""

    value: int = 1
    owner: int | None = None

    def refusal(self, side: int) -> RulesError | None:
        """Why ``side`` may not double this cube (S7), or None where it may: it must own
        the cube or nobody does, and the cube must be below its highest value."""
        if self.owner not in (None, side):
            return RulesError(
                f"{SIDE_NAMES[side]} does not own the cube",
                rule="S7",
                code="cube-owner",
                params={"side": SIDE_NAMES[side]},
            )
        if self.value >= MAX_CUBE:
            return RulesError(
                f"the cube is at its highest value, {self.value}",
                rule="S7",
                code="cube-max",
                params={"value": self.value},
            )
        return None

    def may_double(self, side: int) -> bool:
        """Whether ``side`` may double this cube (S7): :meth:`refusal` finds nothing."""
        return self.refusal(side) is None


class Position(Value):
    """A position: the variant, the side to move and both boards, each a tuple of 27
    counts in its owner's numbering (0 = borne off, 1-24, 25 = bar, 26 = start)."""

    variant: str
    turn: int
    white: Board
    black: Board
    cube: Cube | None = None

    @classmethod
    def start(cls, variant: str, *, cube: bool = False) -> Position:
        """The position before the first turn of a game.

        >>> Position.start("long").board(0)[24]
        15
        """
        v = variant_named(variant)
        return cls(v.name, v.first_side, v.start, v.start, Cube() if cube else None)

    @property
    def rules_variant(self) -> Variant:
        return variant_named(self.variant)

    def board(self, side: int) -> Board:
        return self.white if side == WHITE else self.black

    def off(self, side: int) -> int:
        return self.board(side)[OFF]

    def pips(self, side: int) -> int:
        """Pips the side needs to bear everything off (bar and start count 25)."""
        b = self.board(side)
        return sum(p * b[p] for p in range(1, 25)) + 25 * (b[BAR] + b[START])

    def with_turn(self, side: int) -> Position:
        return Position(self.variant, side, self.white, self.black, self.cube)

    # JSON ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The position as NOTATION.md section 2 writes it."""
        out: dict[str, Any] = {
            "variant": self.variant,
            "turn": SIDE_NAMES[self.turn],
            "white": _side_json(self.white),
            "black": _side_json(self.black),
        }
        if self.cube is not None:
            owner = None if self.cube.owner is None else SIDE_NAMES[self.cube.owner]
            out["cube"] = {"value": self.cube.value, "owner": owner}
        return out

    @classmethod
    def from_json(cls, data: object) -> Position:
        """Read and check a position; a bad one raises :class:`PositionError`."""
        if not isinstance(data, dict):
            raise PositionError("a position must be a JSON object", code="position-not-object")
        unknown = set(data) - {"variant", "turn", "white", "black", "cube"}
        if unknown:
            raise PositionError(
                f"unknown key {sorted(unknown)[0]!r} in the position",
                code="position-unknown-key",
                params={"key": sorted(unknown)[0]},
            )
        name = data.get("variant")
        if not isinstance(name, str):
            raise PositionError(
                'the position needs a "variant": long, short or lurc', code="position-no-variant"
            )
        try:
            v = variant_named(name)
        except RulesError as exc:
            # the code predates the per-message codes; tests and clients rely on it
            raise PositionError(exc.message, code="bad-position", params=exc.params) from None
        turn = data.get("turn", SIDE_NAMES[v.first_side])
        if turn not in SIDE_NAMES:
            raise PositionError(
                f'"turn" must be "white" or "black", not {turn!r}',
                code="position-bad-turn",
                params={"value": repr(turn)},
            )
        white = _side_board(v, "white", data.get("white"))
        black = _side_board(v, "black", data.get("black"))
        _check_overlap(v, white, black)
        pos = cls(v.name, SIDE_NAMES.index(turn), white, black, _cube(v, data.get("cube")))
        return pos

    def render(self) -> str:
        """A text diagram in the numbering of the side to move."""
        return render(self)


def _side_json(board: Board) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in range(24, 0, -1):
        if board[p]:
            out[str(p)] = board[p]
    if board[BAR]:
        out["bar"] = board[BAR]
    if board[START]:
        out["start"] = board[START]
    return out


def _side_board(v: Variant, side: str, raw: object) -> Board:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise PositionError(
            f'"{side}" must map points to checker counts',
            code="position-side-not-object",
            params={"side": side},
        )
    board = [0] * SIZE
    declared_off: int | None = None
    for key, count in raw.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise PositionError(
                f"{side} point {key}: the count must be a whole number >= 0",
                code="position-bad-count",
                params={"side": side, "point": str(key)},
            )
        if key == "off":
            declared_off = count
            continue
        index = _point_index(v, side, key)
        board[index] = count
    on_board = sum(board)
    if on_board > CHECKERS:
        raise PositionError(
            f"{side} has {on_board} checkers; a side has {CHECKERS}",
            code="position-too-many",
            params={"side": side, "count": on_board, "checkers": CHECKERS},
        )
    board[OFF] = CHECKERS - on_board
    if declared_off is not None and declared_off != board[OFF]:
        raise PositionError(
            f"{side}: off is {declared_off} but {on_board} checkers are listed on the board",
            code="position-off-mismatch",
            params={"side": side, "off": declared_off, "count": on_board},
        )
    return tuple(board)


def _point_index(v: Variant, side: str, key: object) -> int:
    if key == "bar":
        if not v.hits:
            raise PositionError(
                f"{side}: {v.title} has no bar (there is no hitting)",
                code="position-no-bar",
                params={"side": side, "variant": v.name},
            )
        return BAR
    if key == "start":
        if not v.has_start:
            raise PositionError(
                f"{side}: only Lurč has a start (checkers not yet entered)",
                code="position-no-start",
                params={"side": side},
            )
        return START
    if isinstance(key, str) and key in _POINT_KEYS:  # ASCII digits only ("²" is no point)
        return int(key)
    raise PositionError(
        f"{side}: {key!r} is not a point (1-24, bar, start)",
        code="position-bad-point",
        params={"side": side, "key": repr(key)},
    )


def _check_overlap(v: Variant, white: Board, black: Board) -> None:
    wmap = v.opp_map[WHITE]
    for p in range(1, 25):
        if white[p] and black[wmap[p]]:
            raise PositionError(
                f"white point {p} and black point {wmap[p]} are the same field "
                "and cannot hold checkers of both sides",
                code="position-overlap",
                params={"white": p, "black": wmap[p]},
            )


def _cube(v: Variant, raw: object) -> Cube | None:
    if raw is None:
        return None
    if not v.cube:
        raise PositionError("only short backgammon has a doubling cube", code="position-no-cube")
    if not isinstance(raw, dict):
        raise PositionError(
            '"cube" must be an object like {"value": 2, "owner": "white"}',
            code="position-cube-not-object",
        )
    value = raw.get("value", 1)
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 1 <= value <= MAX_CUBE
        or value & (value - 1)
    ):
        raise PositionError(
            f"the cube value must be 1, 2, 4, 8, ..., 4096 (MAX_CUBE), not {value!r}",
            code="position-cube-value",
            params={"value": repr(value)},
        )
    owner = raw.get("owner")
    if owner is not None and owner not in SIDE_NAMES:
        raise PositionError(
            f'the cube owner must be "white", "black" or null, not {owner!r}',
            code="position-cube-owner",
            params={"value": repr(owner)},
        )
    return Cube(value, None if owner is None else SIDE_NAMES.index(owner))


def _cell(count: int, letter: str) -> str:
    return f"{letter}{count}".rjust(4) if count else "   ."


def render(pos: Position) -> str:
    """Draw the board as text, numbered for the side to move (``X`` its checkers,
    ``O`` the opponent's), with bar, off and pip counts.

    >>> print(render(Position.start("long")).splitlines()[0])
    long nardy, white to move (points in white's numbering)
    """
    v = pos.rules_variant
    me = pos.board(pos.turn)
    opp = pos.board(1 - pos.turn)
    omap = v.opp_map[pos.turn]

    def cell(p: int) -> str:
        if me[p]:
            return _cell(me[p], "X")
        return _cell(opp[omap[p]], "O")

    name = SIDE_NAMES[pos.turn]
    other = SIDE_NAMES[1 - pos.turn]
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    lines = [
        f"{v.title}, {name} to move (points in {name}'s numbering)",
        "".join(f"{p:4d}" for p in top),
        "".join(cell(p) for p in top),
        "".join(cell(p) for p in bottom),
        "".join(f"{p:4d}" for p in bottom),
        f"X = {name}: off {me[OFF]}, bar {me[BAR]}, pips {pos.pips(pos.turn)}"
        + (f", start {me[START]}" if v.has_start else ""),
        f"O = {other}: off {opp[OFF]}, bar {opp[BAR]}, pips {pos.pips(1 - pos.turn)}"
        + (f", start {opp[START]}" if v.has_start else ""),
    ]
    if pos.cube is not None:
        owner = "middle" if pos.cube.owner is None else SIDE_NAMES[pos.cube.owner]
        lines.append(f"cube {pos.cube.value} ({owner})")
    return "\n".join(lines)


__all__ = ["BLACK", "WHITE", "Board", "Cube", "Position", "render"]


_POINT_KEYS = frozenset(str(p) for p in range(1, 25))
