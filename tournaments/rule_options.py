"""The engine's rule options (engine/rules.py ``RULE_OPTIONS``) as the app stores and
shows them: which are tournament settings, and the one table of their labels in the
reader's language (as tournaments/engine_messages.py is for the engine's errors).

The engine declares each option once - values, default, record tag, rule id and English
labels; here each English label is written again only as the msgid that gettext
translates, and tests/tournaments/test_rule_options.py fails when an engine option
lacks a model field, a label or a translation of one, or when a msgid here differs from
the engine's English text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from tournaments.engine import RULE_OPTIONS, AnyRuleOption

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise  # a dev dependency: for mypy only

# Set for each game from its series (services.engine_bridge.match_tags), not by the
# tournament: the length of a series to N points and whether this is its Crawford game.
SERIES_OPTIONS = ("match_length", "crawford")

# The others are tournament settings: a ``Tournament`` field each, of the same name.
TOURNAMENT_OPTIONS: tuple[AnyRuleOption, ...] = tuple(
    o for name, o in RULE_OPTIONS.items() if name not in SERIES_OPTIONS
)
TOURNAMENT_OPTION_NAMES = tuple(o.name for o in TOURNAMENT_OPTIONS)

TITLES: dict[str, StrPromise] = {
    "mars": _("mars counts double"),
    "last_roll": _("right of last roll"),
    "block_check": _("six-point block checked"),
    "block_ahead": _("block needs an opponent checker"),
    "cube": _("doubling cube (short backgammon)"),
    "opening_roll": _("opening roll (short backgammon)"),
}
VALUE_LABELS: dict[tuple[str, str], StrPromise] = {
    ("block_check", "turn-end"): _("at the end of the turn"),
    ("block_check", "every-step"): _("after every step"),
    ("block_ahead", "anywhere"): _("anywhere ahead"),
    ("block_ahead", "in-home"): _("in the opponent's home"),
    ("opening_roll", "lot"): _("the lot is white's first roll (no double)"),
    ("opening_roll", "fresh"): _("white rolls afresh after the lot"),
}
HELP_TEXTS: dict[str, StrPromise] = {
    "cube": _("Series to N points count the cube's value; the Crawford rule applies."),
    "opening_roll": _("RULES S2: every record of the tournament carries it as its OpeningRoll."),
}


def option_choices(option: AnyRuleOption) -> list[tuple[str, StrPromise]]:
    """The values of an option with named values and their labels, for a field's
    ``choices`` (an on/off option is a checkbox: none)."""
    return [(value, VALUE_LABELS[option.name, value]) for value in option.values]
