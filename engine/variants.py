"""The three games as data: geometry, start position and a few rule switches.

Every board is a list of 27 counts in its owner's own numbering: index 0 holds the
checkers borne off, 1..24 the points, 25 the bar and 26 (Lurč only) the checkers that
never entered. One move generator serves all variants; they differ only in the
switches declared here, as python-chess variants do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import RulesError

WHITE = 0
BLACK = 1
SIDE_NAMES = ("white", "black")
OFF = 0
BAR = 25
START = 26
SIZE = 27
CHECKERS = 15


def _long_map(point: int) -> int:
    return point + 12 if point <= 12 else point - 12


def _short_map(point: int) -> int:
    return 25 - point


def _lurc_field(side: int, point: int) -> int:
    if side == BLACK:
        return 25 - point
    return point - 12 if point > 12 else point + 12


def _lurc_point(side: int, field: int) -> int:
    if side == BLACK:
        return 25 - field
    return field + 12 if field <= 12 else field - 12


def _table(side: int, variant: str) -> tuple[int, ...]:
    """Mover's point -> the same field in the opponent's numbering (0 elsewhere)."""
    out = [0] * SIZE
    for p in range(1, 25):
        if variant == "long":
            out[p] = _long_map(p)
        elif variant == "short":
            out[p] = _short_map(p)
        else:
            out[p] = _lurc_point(1 - side, _lurc_field(side, p))
    return tuple(out)


def _board(points: dict[int, int]) -> tuple[int, ...]:
    out = [0] * SIZE
    for p, n in points.items():
        out[p] = n
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Variant:
    """A game of the family, declared by the rules that make it different."""

    name: str
    title: str
    start: tuple[int, ...]
    opp_map: tuple[tuple[int, ...], tuple[int, ...]]
    closed_at: int  # opponent checkers that close a point: 1 (long nardy) or 2
    hits: bool  # a lone opponent checker can be hit (S3, Z4)
    head: int  # the head point limited by L4 (0: no head rule)
    block_rule: bool  # the six-point block rule L5
    exact_bear_off: bool  # Z9: no bearing off with a higher die
    koks: bool  # S6: the triple win exists
    first_side: int  # who moves first in a game: the colour the starter takes (L12)
    lot_is_first_roll: bool  # S2: the opening lot is white's first roll (no doubles)
    pas: bool = False  # Z7, Z8: a double is a paš and 1-2 a houšek (with an extra roll)


LONG = Variant(
    name="long",
    title="long nardy",
    start=_board({24: CHECKERS}),
    opp_map=(_table(WHITE, "long"), _table(BLACK, "long")),
    closed_at=1,
    hits=False,
    head=24,
    block_rule=True,
    exact_bear_off=False,
    koks=False,
    first_side=WHITE,
    lot_is_first_roll=False,
)
SHORT = Variant(
    name="short",
    title="short backgammon",
    start=_board({24: 2, 13: 5, 8: 3, 6: 5}),
    opp_map=(_table(WHITE, "short"), _table(BLACK, "short")),
    closed_at=2,
    hits=True,
    head=0,
    block_rule=False,
    exact_bear_off=False,
    koks=True,
    first_side=WHITE,
    lot_is_first_roll=True,
)
LURC = Variant(
    name="lurc",
    title="Lurč",
    start=_board({START: CHECKERS}),
    opp_map=(_table(WHITE, "lurc"), _table(BLACK, "lurc")),
    closed_at=2,
    hits=True,
    head=0,
    block_rule=False,
    exact_bear_off=True,
    koks=False,
    first_side=BLACK,
    lot_is_first_roll=False,
    pas=True,
)
VARIANTS = {v.name: v for v in (LONG, SHORT, LURC)}


def variant_named(name: str) -> Variant:
    """The variant called ``name`` (``long``, ``short`` or ``lurc``)."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise RulesError(f"unknown variant {name!r} (known: {known})") from None


def first_mover(name: str) -> int:
    """The colour that moves first in the variant ``name``, which the player who starts a
    game takes (RULES L12, Z1): white in long nardy and short backgammon, black in Lurč.

    >>> SIDE_NAMES[first_mover("lurc")], SIDE_NAMES[first_mover("long")]
    ('black', 'white')
    """
    return variant_named(name).first_side


_ON_OFF = {"on": True, "off": False}


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of RULES.md that change play or scoring (all default as there)."""

    mars: bool = True
    last_roll: bool = False
    block_check: str = "turn-end"
    block_ahead: str = "anywhere"
    cube: bool = False
    match_length: int | None = None
    opening_roll: str = "lot"
    crawford: bool = False  # S7: this game is a match's Crawford game, played without cube

    @classmethod
    def from_options(cls, options: dict[str, object]) -> Rules:
        """Rules from snake-case options as the ``legal`` command takes them:
        ``{"mars": "off", "block_check": "every-step"}``."""
        if not isinstance(options, dict):
            raise RulesError('rules must be an object such as {"mars": "off"}')
        values: dict[str, object] = {}
        for key, raw in options.items():
            if key not in _OPTION_VALUES:
                known = ", ".join(_OPTION_VALUES)
                raise RulesError(f"unknown rule option {key!r} (known: {known})")
            values[key] = _option_value(key, raw)
        return cls(**values)  # type: ignore[arg-type]


_OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "mars": ("on", "off"),
    "last_roll": ("on", "off"),
    "block_check": ("turn-end", "every-step"),
    "block_ahead": ("anywhere", "in-home"),
    "cube": ("on", "off"),
    "match_length": (),
    "opening_roll": ("lot", "fresh"),
    "crawford": ("on", "off"),
}


def _option_value(key: str, raw: object) -> object:
    if key == "match_length":
        if raw is None:
            return None
        if isinstance(raw, bool) or not isinstance(raw, (int, str)):
            raise RulesError("match_length must be a whole number of points")
        text = str(raw)
        if not re.fullmatch(r"[1-9][0-9]{0,5}", text):  # ASCII digits, bounded
            raise RulesError(f"match_length must be a whole number of points, not {raw!r}")
        return int(text)
    if isinstance(raw, bool) and _OPTION_VALUES[key] == ("on", "off"):
        return raw
    allowed = _OPTION_VALUES[key]
    if raw not in allowed:
        raise RulesError(f"{key} must be one of {', '.join(allowed)}, not {raw!r}")
    assert isinstance(raw, str)
    return _ON_OFF.get(raw, raw)
