"""The engine's values are declared once on engine.values.Value, not as dataclasses
(``python -m engine verify``'s start-up, docs/performance.md): they compare, hash and show
by their fields."""

from __future__ import annotations

import inspect

import pytest

from engine import GameRecord, Outcome, Position, Rules, read_records
from engine.limits import DEFAULT_LIMITS, LIMIT_NAMES, UNLIMITED, ReadLimits
from engine.position import Cube
from engine.variants import Variant, variant_named


def test_equal_fields_make_equal_values_with_one_hash() -> None:
    pairs = [
        (Position.start("short", cube=True), Position.start("short", cube=True)),
        (Cube(2, 1), Cube(2, 1)),
        (Rules(mars=False), Rules(mars=False)),
        (Outcome(0, "mars", cube=2), Outcome(0, "mars", cube=2)),
        (ReadLimits(max_tags=5), ReadLimits(max_tags=5)),
    ]
    for a, b in pairs:
        assert a is not b and a == b and hash(a) == hash(b)
        assert repr(a) == repr(b) and repr(a).startswith(f"{type(a).__name__}(")


def test_a_different_field_makes_a_different_value() -> None:
    start = Position.start("long")
    assert start != start.with_turn(1)
    assert Cube(2, 1) != Cube(2, 0)
    assert Rules() != Rules(block_check="every-step")
    assert Outcome(0, "mars") != Outcome(0, "mars", resigned=True)
    assert ReadLimits() != UNLIMITED and ReadLimits() == DEFAULT_LIMITS
    assert start != (start.variant, start.turn, start.white, start.black, start.cube)


def test_records_compare_by_their_tags_and_actions() -> None:
    text = '[Variant "long"]\n\n1. 64: 24/18/14\n'
    a, b = read_records(text)[0], read_records(text)[0]
    assert a == b and hash(a) == hash(b)
    assert a != GameRecord(a.tags, a.actions[:0], a.line, a.preamble)


def test_the_limit_names_are_the_arguments_of_read_limits() -> None:
    assert tuple(inspect.signature(ReadLimits).parameters) == LIMIT_NAMES
    assert ReadLimits(**dict.fromkeys(LIMIT_NAMES)) == UNLIMITED
    assert repr(UNLIMITED) == (
        "ReadLimits(max_record_chars=None, max_tags=None, max_line_chars=None, max_games=None)"
    )


def test_fields_are_declared_once_and_slotted() -> None:
    assert Position._fields == ("variant", "turn", "white", "black", "cube")
    assert tuple(inspect.signature(Rules).parameters) == Rules._fields
    start = Position.start("long")
    assert not hasattr(start, "__dict__")
    with pytest.raises(AttributeError):
        start.colour = 1  # type: ignore[attr-defined]


def test_a_variant_is_keyword_only_and_equal_only_to_itself() -> None:
    long = variant_named("long")
    fields = {name: getattr(long, name) for name in long._fields}
    again = Variant(**fields)
    assert again.head == 24 and again.rule_ids == long.rule_ids
    assert again != long and long == variant_named("long") and repr(long) == "<Variant long>"
    with pytest.raises(TypeError):
        Variant(*fields.values())  # type: ignore[call-arg]
    # A variant's subclass (Lurč's rolls) keeps the identity: its fields are the base's.
    lurc = variant_named("lurc")
    twin = type(lurc)(**{name: getattr(lurc, name) for name in lurc._fields})
    assert twin != lurc and lurc == variant_named("lurc") and hash(twin) != hash(lurc)
