"""The rule options of RULES.md that change play or scoring, each declared once: its
values as a record writes them, its default, the record tag that carries it, the rule
that defines it and English labels (data for an app to translate). ``Rules`` has one
field per option; the record reader, ``rules_from_record``, the ``legal`` command and
the app's settings all derive from :data:`RULE_OPTIONS`. Also the points of each way
of winning (:data:`WIN_POINTS`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.errors import RulesError
from engine.values import Value

# Plain classes, not dataclasses, and no ``typing`` at run time: importing those and
# building a dataclass were most of ``python -m engine verify``'s start-up (docs/performance.md).
# Their instances are values: never changed after they are made.

# L8, S6: the game points of each way of winning, in order of value (times the cube);
# a draw (L10) scores no game points, its scoring is a tournament setting (L11).
WIN_POINTS: dict[str, int] = {"oin": 1, "mars": 2, "koks": 3}

ON_OFF = (("on", "on"), ("off", "off"))
_COUNT = re.compile(r"[1-9][0-9]{0,5}")  # ASCII digits, bounded: 1 to 999999

Choices = tuple[tuple[str, str], ...]  # (value as written, English label); (): a number


class RuleOption:
    """One option: ``name`` is the ``Rules`` field and the ``legal`` command's key,
    ``tag`` the record tag, ``rule`` the rule id of RULES.md, ``title`` and the labels of
    ``choices`` English text; ``variant_has`` names the :class:`Variant` switch that says
    whether a game has the option at all (long nardy has no cube). Each kind of option
    (:class:`OnOff`, :class:`OneOf`, :class:`Points`) adds its ``default`` value, of its
    own type, and reads values of that type."""

    __slots__ = ("choices", "name", "rule", "tag", "title", "variant_has")

    def __init__(
        self, name: str, tag: str, rule: str, title: str, choices: Choices, variant_has: str
    ) -> None:
        self.name = name
        self.tag = tag
        self.rule = rule
        self.title = title
        self.choices = choices
        self.variant_has = variant_has

    @property
    def values(self) -> tuple[str, ...]:
        """The values as a record writes them (empty for a number)."""
        return tuple(value for value, _label in self.choices)

    def applies_to(self, variant: object) -> bool:
        """Whether games of ``variant`` (an ``engine.variants.Variant``, which imports
        this module) have this option; the others ignore its tag."""
        return bool(getattr(variant, self.variant_has))

    def written(self, value: object) -> str:
        """``value`` (of the option's type) as the record's tag writes it."""
        return str(value)

    def _refuse(self, raw: object) -> RulesError:
        allowed = ", ".join(self.values)
        return RulesError(
            f"{self.name} must be one of {allowed}, not {raw!r}",
            code="bad-option-value",
            params={"option": self.name, "value": repr(raw), "allowed": allowed},
        )


class OnOff(RuleOption):
    """An option switched ``on`` or ``off`` (``True``/``False`` in ``Rules``)."""

    __slots__ = ("default",)

    def __init__(
        self,
        name: str,
        tag: str,
        rule: str,
        title: str,
        choices: Choices,
        default: bool,
        variant_has: str,
    ) -> None:
        super().__init__(name, tag, rule, title, choices, variant_has)
        self.default = default

    def written(self, value: object) -> str:
        return "on" if value else "off"

    def read(self, text: str) -> bool:
        """The value of a tag the record reader accepted (``""``: absent, the default)."""
        return text == "on" if text else self.default

    def value_of(self, raw: object) -> bool:
        """The value of an option as the ``legal`` command takes it; RulesError if none."""
        if isinstance(raw, bool):
            return raw
        if raw not in self.values:
            raise self._refuse(raw)
        return raw == "on"


class OneOf(RuleOption):
    """An option with named values (``turn-end``, ``every-step``)."""

    __slots__ = ("default",)

    def __init__(
        self,
        name: str,
        tag: str,
        rule: str,
        title: str,
        choices: Choices,
        default: str,
        variant_has: str,
    ) -> None:
        super().__init__(name, tag, rule, title, choices, variant_has)
        self.default = default

    def read(self, text: str) -> str:
        return text or self.default

    def value_of(self, raw: object) -> str:
        if not isinstance(raw, str) or raw not in self.values:
            raise self._refuse(raw)
        return raw


class Points(RuleOption):
    """A number of points, or none (``None``)."""

    __slots__ = ("default",)

    def __init__(
        self,
        name: str,
        tag: str,
        rule: str,
        title: str,
        choices: Choices,
        default: int | None,
        variant_has: str,
    ) -> None:
        super().__init__(name, tag, rule, title, choices, variant_has)
        self.default = default

    def written(self, value: object) -> str:
        return "" if value is None else str(value)

    def read(self, text: str) -> int | None:
        return int(text) if text else self.default

    def value_of(self, raw: object) -> int | None:
        if raw is None:
            return None
        if isinstance(raw, bool) or not isinstance(raw, (int, str)):
            raise RulesError(
                "match_length must be a whole number of points", code="match-length-type"
            )
        text = str(raw)
        if not _COUNT.fullmatch(text):
            raise RulesError(
                f"match_length must be a whole number of points, not {raw!r}",
                code="bad-match-length",
                params={"value": repr(raw)},
            )
        return int(text)


MARS = OnOff("mars", "Mars", "L8", "mars counts double", ON_OFF, True, "gammons")
LAST_ROLL = OnOff("last_roll", "LastRoll", "L10", "right of last roll", ON_OFF, False, "last_roll")
BLOCK_CHECK = OneOf(
    "block_check", "BlockCheck", "L5", "six-point block checked",
    (("turn-end", "at the end of the turn"), ("every-step", "after every step")),
    "turn-end", "block_rule",
)  # fmt: skip
BLOCK_AHEAD = OneOf(
    "block_ahead", "BlockAhead", "L5", "block needs an opponent checker",
    (("anywhere", "anywhere ahead"), ("in-home", "in the opponent's home")),
    "anywhere", "block_rule",
)  # fmt: skip
CUBE = OnOff("cube", "Cube", "S7", "doubling cube (short backgammon)", ON_OFF, False, "cube")
MATCH_LENGTH = Points("match_length", "MatchLength", "S7", "match length", (), None, "cube")
OPENING_ROLL = OneOf(
    "opening_roll", "OpeningRoll", "S2", "opening roll (short backgammon)",
    (("lot", "the lot is white's first roll (no double)"),
     ("fresh", "white rolls afresh after the lot")),
    "lot", "lot_is_first_roll",
)  # fmt: skip
# S7: this game is a match's Crawford game, played without the cube
CRAWFORD = OnOff("crawford", "Crawford", "S7", "Crawford game", ON_OFF, False, "cube")

AnyRuleOption = OnOff | OneOf | Points
RULE_OPTIONS: dict[str, AnyRuleOption] = {
    o.name: o
    for o in (MARS, LAST_ROLL, BLOCK_CHECK, BLOCK_AHEAD, CUBE, MATCH_LENGTH, OPENING_ROLL, CRAWFORD)
}


class Rules(Value):
    """The options of RULES.md that change play or scoring (all default as there); one
    field per entry of :data:`RULE_OPTIONS`, in its order (a test keeps them so). A value
    (engine.values): its hash keys the shared turn tables (engine.steps)."""

    mars: bool = MARS.default
    last_roll: bool = LAST_ROLL.default
    block_check: str = BLOCK_CHECK.default
    block_ahead: str = BLOCK_AHEAD.default
    cube: bool = CUBE.default
    match_length: int | None = MATCH_LENGTH.default
    opening_roll: str = OPENING_ROLL.default
    crawford: bool = CRAWFORD.default

    @classmethod
    def from_options(cls, options: dict[str, object]) -> Rules:
        """Rules from snake-case options as the ``legal`` command takes them:
        ``{"mars": "off", "block_check": "every-step"}``."""
        if not isinstance(options, dict):
            raise RulesError(
                'rules must be an object such as {"mars": "off"}', code="rules-not-object"
            )
        values: dict[str, object] = {}
        for key, raw in options.items():
            option = RULE_OPTIONS.get(key) if isinstance(key, str) else None
            if option is None:
                known = ", ".join(RULE_OPTIONS)
                raise RulesError(
                    f"unknown rule option {key!r} (known: {known})",
                    code="unknown-option",
                    params={"option": repr(key), "known": known},
                )
            values[key] = option.value_of(raw)
        return cls(**values)  # type: ignore[arg-type]

    @classmethod
    def from_tags(cls, tag: Callable[[str], str]) -> Rules:
        """The rules that a record's tags set: ``tag(name)`` is the tag's value, ``""``
        when absent (the option's default)."""
        values = {o.name: o.read(tag(o.tag)) for o in RULE_OPTIONS.values()}
        return cls(**values)  # type: ignore[arg-type]
