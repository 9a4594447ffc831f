"""The games of the family, each declared in its own module (``long``, ``short``,
``lurc``): adding a variant is a module that declares a :class:`Variant` and a line in
:data:`VARIANTS`. Code outside these modules asks a variant what it declares
(``variant.hits``, ``variant.rule_ids.closed``), never its name."""

from __future__ import annotations

from engine.errors import RulesError
from engine.rules import Rules
from engine.variants.base import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    SIDE_NAMES,
    SIZE,
    START,
    WHITE,
    Phases,
    RuleIds,
    Variant,
    check_dice,
    dice_to_play,
)
from engine.variants.long import LONG
from engine.variants.lurc import LURC
from engine.variants.short import SHORT

VARIANTS: dict[str, Variant] = {v.name: v for v in (LONG, SHORT, LURC)}


def variant_named(name: str) -> Variant:
    """The variant called ``name`` (``long``, ``short`` or ``lurc``)."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise RulesError(
            f"unknown variant {name!r} (known: {known})",
            code="unknown-variant",
            params={"variant": repr(name), "known": known},
        ) from None


def first_mover(name: str) -> int:
    """The colour that moves first in the variant ``name``, which the player who starts a
    game takes (RULES L12, Z1): white in long nardy and short backgammon, black in Lurč.

    >>> SIDE_NAMES[first_mover("lurc")], SIDE_NAMES[first_mover("long")]
    ('black', 'white')
    """
    return variant_named(name).first_side


__all__ = [
    "BAR",
    "BLACK",
    "CHECKERS",
    "LONG",
    "LURC",
    "OFF",
    "SHORT",
    "SIDE_NAMES",
    "SIZE",
    "START",
    "VARIANTS",
    "WHITE",
    "Phases",
    "RuleIds",
    "Rules",
    "Variant",
    "check_dice",
    "dice_to_play",
    "first_mover",
    "variant_named",
]
