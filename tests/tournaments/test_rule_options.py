"""The engine declares each rule option once (engine/rules.py); the app's model fields,
label table, record tags, forms, API and OpenAPI enums follow it. These tests fail when
the engine gains an option (or a value) that the app does not cover."""

from __future__ import annotations

import pytest
from django.db import models
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator

from tournaments.api.serializers import TournamentSerializer
from tournaments.engine import RULE_OPTIONS, WIN_POINTS, AnyRuleOption, OneOf, OnOff, variant_named
from tournaments.forms import RULE_FIELDS, TOURNAMENT_FIELDS
from tournaments.models import Game, GameKind, Tournament
from tournaments.services.directing import LOCKED_ONCE_PAIRED
from tournaments.services.records import match_tags, tournament_tags
from tournaments.wording.rule_options import (
    SERIES_OPTIONS,
    TITLES,
    TOURNAMENT_OPTION_NAMES,
    TOURNAMENT_OPTIONS,
    VALUE_LABELS,
)

ON_OFF = (("on", "on"), ("off", "off"))


def _field_gap(option: AnyRuleOption) -> str | None:
    """What the Tournament field of ``option`` lacks, or None."""
    fields = {f.name: f for f in Tournament._meta.concrete_fields}
    field = fields.get(option.name)
    if field is None:
        return f"{option.name}: no Tournament field"
    if isinstance(option, OnOff):
        ok = isinstance(field, models.BooleanField)
    else:
        ok = [value for value, _label in field.choices or []] == list(option.values)
    if not ok or field.default != option.default:
        return f"{option.name}: the field's values or default differ from the engine's"
    return None


def _label_gaps(option: AnyRuleOption) -> list[str]:
    """The labels of ``option`` missing from the app's table or not the engine's text."""
    gaps = [] if option.name in TITLES else [f"{option.name}: no title"]
    with translation.override("en"):
        if option.name in TITLES and str(TITLES[option.name]) != option.title:
            gaps.append(f"{option.name}: the title is not the engine's")
        for value, label in option.choices if not isinstance(option, OnOff) else ():
            if str(VALUE_LABELS.get((option.name, value), "")) != label:
                gaps.append(f"{option.name}={value}: no label, or not the engine's")
    return gaps


def gaps(options: dict[str, AnyRuleOption]) -> list[str]:
    """Every engine option the app does not cover: a series option is set from the series
    (match_tags), any other is a Tournament field with the engine's values and default
    and labelled in the app's table."""
    found = []
    for name, option in options.items():
        if name in SERIES_OPTIONS:
            if option.tag not in match_tags(length=5, crawford=False):
                found.append(f"{name}: not among the series' tags")
            continue
        found.extend(_label_gaps(option))
        if (gap := _field_gap(option)) is not None:
            found.append(gap)
    return found


def test_the_app_covers_every_option_the_engine_declares() -> None:
    assert gaps(RULE_OPTIONS) == []
    assert set(SERIES_OPTIONS) <= set(RULE_OPTIONS)
    assert [o.name for o in TOURNAMENT_OPTIONS] == [
        n for n in RULE_OPTIONS if n not in SERIES_OPTIONS
    ]


@pytest.mark.parametrize(
    "option",
    [
        OneOf("speed", "Speed", "L0", "speed", (("fast", "fast"),), "fast", "cube"),
        OnOff("jacoby", "Jacoby", "S7", "Jacoby rule", ON_OFF, False, "cube"),
        OneOf(
            "block_check", "BlockCheck", "L5", "six-point block checked",
            (("turn-end", "at the end of the turn"), ("every-step", "after every step"),
             ("never", "never")),
            "turn-end", "block_rule",
        ),
    ],
    ids=["new option", "new switch", "new value"],
)  # fmt: skip
def test_an_option_or_value_the_app_lacks_is_found(option: AnyRuleOption) -> None:
    """The check above can fail: an engine with one more option or value."""
    assert gaps({**RULE_OPTIONS, option.name: option}) != []


def test_the_labels_are_translated() -> None:
    """Each label has its Czech text (the msgids the pages showed before, kept)."""
    labels = [*TITLES.values(), *VALUE_LABELS.values()]
    with translation.override("en"):
        english = [str(label) for label in labels]
    with translation.override("cs"):
        czech = [str(label) for label in labels]
    assert [e for e, c in zip(english, czech, strict=True) if e == c] == []


def test_a_choice_shows_its_label_from_the_table() -> None:
    t = Tournament(block_check="every-step", block_ahead="in-home", opening_roll="fresh")
    with translation.override("en"):
        assert t.get_block_check_display() == "after every step"
        assert t.get_block_ahead_display() == "in the opponent's home"
        assert t.get_opening_roll_display() == "white rolls afresh after the lot"
        assert Tournament._meta.get_field("cube").verbose_name == "doubling cube (short backgammon)"


@pytest.mark.parametrize(
    ("variant", "tags"),
    [
        ("long", {"Mars": "off", "LastRoll": "on", "BlockCheck": "every-step",
                  "BlockAhead": "in-home"}),
        ("short", {"Mars": "off", "Cube": "on", "OpeningRoll": "fresh"}),
        ("lurc", {}),
    ],
)  # fmt: skip
def test_the_tournament_tags_are_the_options_its_game_has(
    variant: str, tags: dict[str, str]
) -> None:
    t = Tournament(
        variant=variant, mars=False, last_roll=True, block_check="every-step",
        block_ahead="in-home", cube=True, opening_roll="fresh",
    )  # fmt: skip
    assert tournament_tags(t) == tags
    has = {o.tag for o in TOURNAMENT_OPTIONS if o.applies_to(variant_named(variant))}
    assert set(tags) == has


def test_the_series_sets_match_length_and_crawford() -> None:
    assert match_tags(length=7, crawford=True) == {"MatchLength": "7", "Crawford": "on"}
    assert match_tags(length=3, crawford=False) == {"MatchLength": "3", "Crawford": "off"}


def test_forms_api_and_locks_list_every_tournament_option() -> None:
    names = list(TOURNAMENT_OPTION_NAMES)
    assert [f for f in TOURNAMENT_FIELDS if f in names] == names
    assert set(names) <= set(TournamentSerializer.Meta.fields)
    assert set(names) <= set(LOCKED_ONCE_PAIRED)
    assert {RULE_OPTIONS[n].tag: n for n in names} == RULE_FIELDS


def test_the_openapi_enums_are_the_engines_values() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    properties = components["Tournament"]["properties"]
    for option in TOURNAMENT_OPTIONS:
        prop = properties[option.name]
        if isinstance(option, OnOff):
            assert prop["type"] == "boolean"
            continue
        ref = next(p["$ref"] for p in prop.get("allOf", prop.get("oneOf", [prop])) if "$ref" in p)
        enum = components[ref.rsplit("/", 1)[-1]]["enum"]
        assert enum == list(option.values), option.name


def test_game_kinds_and_their_points_are_the_engines() -> None:
    assert GameKind.values == [*WIN_POINTS, "draw"]
    for kind, points in WIN_POINTS.items():
        assert Game(kind=kind, cube=4).value == points * 4
    assert Game(kind="draw").value == 0
