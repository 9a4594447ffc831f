"""The engine's rule options (engine/rules.py ``RULE_OPTIONS``) as the app stores and
shows them: which are tournament settings, and the one table of their labels in the
reader's language (as tournaments/wording/engine_errors.py is for the engine's errors).

The engine declares each option once - values, default, record tag, rule id and English
labels; here each English label is written again only as the msgid that gettext
translates, and tests/tournaments/test_rule_options.py fails when an engine option
lacks a model field, a label or a translation of one, or when a msgid here differs from
the engine's English text."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.engine import BLACK, RULE_OPTIONS, AnyRuleOption, GameVariant, variant_named

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise  # a dev dependency: for mypy only

    from tournaments.models import Tournament

# Set for each game from its series (services.records.match_tags), not by the
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


# The tournament page's rules, said in sentences (templates/tournaments/_settings.html
# loops over them): first what the game's variant declares where it differs from the
# family's usual (white starts, a win can be a mars) - an attribute of the engine's
# ``Variant``, the value that calls for a sentence, the sentence -, then one sentence
# per setting the game has (``RuleOption.applies_to``). A new variant needs no template
# change; a new engine option needs a sentence here (tests/tournaments/test_rule_options.py).
VARIANT_FACTS: tuple[tuple[str, object, StrPromise], ...] = (
    ("first_side", BLACK, _("Black moves first.")),
    ("gammons", False, _("Every win is 1 point (no mars).")),
)

Sentence = Callable[["Tournament", GameVariant], "str | None"]


def _mars(t: Tournament, variant: GameVariant) -> str:
    if variant.koks:
        if t.mars:
            return gettext("Mars counts double, koks triple.")
        return gettext("Every win counts 1 point (no mars, no koks).")
    return gettext("Mars counts double.") if t.mars else gettext("Mars counts as an oin.")


def _opening_roll(t: Tournament, variant: GameVariant) -> str:
    if t.opening_roll == "fresh":
        return gettext("After the lot white rolls afresh (an opening double is allowed).")
    return gettext("The lot is white's first roll (no opening double).")


def _last_roll(t: Tournament, variant: GameVariant) -> str | None:
    if not t.last_roll:
        return None
    return gettext("The right of last roll applies: a game can be drawn.")


def _cube(t: Tournament, variant: GameVariant) -> str | None:
    if not t.cube:
        return None
    return gettext("The doubling cube is used; in series to N points the Crawford rule applies.")


def _block(t: Tournament, variant: GameVariant) -> str:
    return gettext(
        "A six-point block is checked %(when)s; it needs an opponent checker %(where)s."
    ) % {
        "when": VALUE_LABELS["block_check", t.block_check],
        "where": VALUE_LABELS["block_ahead", t.block_ahead],
    }


# in the order they are said; None: nothing to say for the setting's value
SETTING_SENTENCES: dict[str, Sentence] = {
    "mars": _mars,
    "opening_roll": _opening_roll,
    "last_roll": _last_roll,
    "cube": _cube,
    "block_check": _block,
}
# options said within another's sentence
SAID_WITH = {"block_ahead": "block_check"}


def rule_sentences(tournament: Tournament) -> list[str]:
    """The sentences that say the rules of ``tournament``'s game, in the active language:
    its variant's facts, then its settings."""
    variant = variant_named(tournament.variant)
    facts = [str(text) for attr, value, text in VARIANT_FACTS if getattr(variant, attr) == value]
    settings = [
        say(tournament, variant)
        for name, say in SETTING_SENTENCES.items()
        if RULE_OPTIONS[name].applies_to(variant)
    ]
    return facts + [s for s in settings if s]
