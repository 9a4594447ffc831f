"""The engine's one reader of query lines (engine/queries.py): ``legal``/``bot``,
``eval``/``hint`` and ``rollout`` read the same JSON, keys and position the same way, and
each refusal keeps its own code."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.position import Position
from engine.queries import (
    QueryError,
    play_text,
    read_advice_query,
    read_query,
    read_rollout_query,
)

START = Position.start("long").to_json()


def _code(read: object, line: object) -> str:
    with pytest.raises(EngineError) as info:
        read(line)  # type: ignore[operator]
    return str(info.value.code)


def _advice(line: str) -> object:
    return read_advice_query(line, need_dice=True)


READERS = {"legal": read_query, "advice": _advice, "rollout": read_rollout_query}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_the_shared_refusals_have_one_code_whichever_command(reader: str) -> None:
    read = READERS[reader]
    assert _code(read, "not json") == "query-not-json"
    assert _code(read, "[" * 100_000) == "query-too-deep"
    assert _code(read, json.dumps({"position": START, "dice": [1, 2], "cube": 2})) == (
        "query-unknown-key"
    )
    bad = {"position": {"variant": "nope"}} | ({} if reader == "rollout" else {"dice": [6, 4]})
    assert _code(read, json.dumps(bad)) == _code(Position.from_json, {"variant": "nope"})


def test_each_command_keeps_its_own_codes() -> None:
    assert _code(read_query, "[1]") == "query-not-object"
    assert _code(_advice, "[1]") == "advice-not-object"
    assert _code(read_rollout_query, "[1]") == "rollout-not-object"
    assert _code(read_query, json.dumps({"position": START})) == "query-missing-key"
    assert _code(_advice, json.dumps({"position": START})) == "advice-missing-key"
    assert _code(read_rollout_query, "{}") == "rollout-missing-key"
    line = json.dumps({"position": START, "dice": [6, 4]})
    assert _code(read_rollout_query, line) == "query-play"


def test_what_each_reader_gives() -> None:
    position, dice, _rules = read_query(json.dumps({"position": START, "dice": [6, 4]}))
    assert position == Position.start("long") and dice == [6, 4]
    position, dice, _rules = read_advice_query(json.dumps(START), need_dice=False)
    assert position == Position.start("long") and dice is None
    query = read_rollout_query(json.dumps({"position": START, "dice": [6, 4],
                                           "moves": "24/18/14"}))  # fmt: skip
    assert query.has_play and play_text(query.dice, query.moves) == "64: 24/18/14"
    query = read_rollout_query(json.dumps({"position": START, "dice": None, "moves": None}))
    assert query.has_play  # then refused by play_text: null is not a roll
    with pytest.raises(QueryError, match="dice") as info:
        play_text(query.dice, query.moves)
    assert info.value.code == "query-dice"
    with pytest.raises(QueryError) as info:
        play_text([6, 4], "x" * 201)
    assert info.value.code == "query-moves"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60) | st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["position", "dice", "moves", "rules", "variant", "x"]), inner,
        max_size=4),
    max_leaves=12,
).map(json.dumps))  # fmt: skip
def test_hostile_lines_are_engine_errors_never_crashes(line: str) -> None:
    for read in READERS.values():
        try:
            read(line)
        except EngineError as exc:
            assert exc.code and str(exc)
