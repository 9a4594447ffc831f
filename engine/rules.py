"""The rule options of RULES.md that change play or scoring (one per ``Rules`` field)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import RulesError

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
            raise RulesError(
                'rules must be an object such as {"mars": "off"}', code="rules-not-object"
            )
        values: dict[str, object] = {}
        for key, raw in options.items():
            if key not in _OPTION_VALUES:
                known = ", ".join(_OPTION_VALUES)
                raise RulesError(
                    f"unknown rule option {key!r} (known: {known})",
                    code="unknown-option",
                    params={"option": repr(key), "known": known},
                )
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
            raise RulesError(
                "match_length must be a whole number of points", code="match-length-type"
            )
        text = str(raw)
        if not re.fullmatch(r"[1-9][0-9]{0,5}", text):  # ASCII digits, bounded
            raise RulesError(
                f"match_length must be a whole number of points, not {raw!r}",
                code="bad-match-length",
                params={"value": repr(raw)},
            )
        return int(text)
    if isinstance(raw, bool) and _OPTION_VALUES[key] == ("on", "off"):
        return raw
    allowed = _OPTION_VALUES[key]
    if raw not in allowed:
        raise RulesError(
            f"{key} must be one of {', '.join(allowed)}, not {raw!r}",
            code="bad-option-value",
            params={"option": key, "value": repr(raw), "allowed": ", ".join(allowed)},
        )
    assert isinstance(raw, str)
    return _ON_OFF.get(raw, raw)
