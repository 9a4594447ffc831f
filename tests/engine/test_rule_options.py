"""The rule options, declared once in engine/rules.py: ``Rules``, the record reader's tag
values, ``rules_from_record`` and the ``legal`` command's options all follow the one
declaration."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from engine import RULE_OPTIONS, WIN_POINTS, Outcome, Rules, RulesError, read_records, replay
from engine.notation import TAG_ORDER, TAG_VALUES
from engine.rules import OnOff, Points
from engine.variants import VARIANTS, WHITE


def test_rules_has_one_field_per_option_with_its_default() -> None:
    assert list(inspect.signature(Rules).parameters) == list(RULE_OPTIONS)
    defaults: dict[str, Any] = {name: o.default for name, o in RULE_OPTIONS.items()}
    assert Rules() == Rules(**defaults)
    assert [getattr(Rules(), name) for name in RULE_OPTIONS] == list(defaults.values())


def test_every_option_is_a_known_record_tag_with_its_values() -> None:
    for option in RULE_OPTIONS.values():
        assert option.tag in TAG_ORDER
        assert TAG_VALUES.get(option.tag, ()) == option.values
        assert option.rule[:1] in "LSZ" and option.rule[1:].isdigit()
        assert option.title and all(label for _value, label in option.choices)


@pytest.mark.parametrize("name", list(RULE_OPTIONS))
def test_a_tag_sets_its_option_and_the_legal_command_takes_the_same(name: str) -> None:
    option = RULE_OPTIONS[name]
    values = option.values or ("7",)
    for written in values:
        text = f'[Variant "short"]\n[{option.tag} "{written}"]\n\n'
        rules = replay(read_records(text)[0]).rules
        assert getattr(rules, name) == option.read(written) == option.value_of(written)
        assert option.written(getattr(rules, name)) == written
        changed: dict[str, Any] = {name: option.read(written)}
        assert Rules.from_options({name: written}) == Rules(**changed)


def test_an_absent_tag_is_the_default() -> None:
    assert replay(read_records('[Variant "long"]\n\n')[0]).rules == Rules()


@pytest.mark.parametrize("name", [n for n, o in RULE_OPTIONS.items() if not isinstance(o, Points)])
def test_a_value_the_option_lacks_is_refused(name: str) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_options({name: "sometimes"})
    assert err.value.code == "bad-option-value"
    assert err.value.params["allowed"] == ", ".join(RULE_OPTIONS[name].values)
    bad = f'[Variant "long"]\n[{RULE_OPTIONS[name].tag} "sometimes"]\n\n'
    with pytest.raises(ValueError, match="sometimes"):
        read_records(bad)


def test_on_off_options_take_booleans_too() -> None:
    for name, option in RULE_OPTIONS.items():
        if isinstance(option, OnOff):
            assert getattr(Rules.from_options({name: True}), name) is True


def test_which_variants_have_which_options() -> None:
    has = {v: [n for n, o in RULE_OPTIONS.items() if o.applies_to(VARIANTS[v])] for v in VARIANTS}
    assert has == {
        "long": ["mars", "last_roll", "block_check", "block_ahead"],
        "short": ["mars", "cube", "match_length", "opening_roll", "crawford"],
        "lurc": [],
    }


def test_points_per_outcome_come_from_the_one_table() -> None:
    assert WIN_POINTS == {"oin": 1, "mars": 2, "koks": 3}
    for kind, points in WIN_POINTS.items():
        assert Outcome(WHITE, kind, cube=2).points == 2 * points
    assert Outcome(None, "draw").points == 0
    results = [f"{side} {kind}" for side in ("white", "black") for kind in WIN_POINTS]
    assert TAG_VALUES["Result"] == (*results, "draw", "*")
