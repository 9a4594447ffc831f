"""One error family (STYLE 13, docs/architecture.md): every engine error carries a code, its
parameters, its rule id and its place beside the unchanged English text, so that the
app can translate it."""

from __future__ import annotations

import pytest

from engine import (
    DiceError,
    EngineError,
    IllegalTurnError,
    Position,
    PositionError,
    RecordSyntaxError,
    Rules,
    RulesError,
    legal_turns,
    play,
    read_records,
    replay,
    verify_text,
)
from engine.errors import ConversionError
from engine.matfile import write_mat

LONG_CLOSED = """[Variant "long"]

1. 64: 24/18/14 65: 24/18/13
2. 66: 24/18/12
"""


def test_a_closed_point_in_a_record_has_code_params_rule_and_place() -> None:
    """L3: white's 24/18/12 lands on black's head (black's 24 is white's 12), found by
    the verifier with its line and column."""
    error = replay(read_records(LONG_CLOSED)[0]).error
    assert error is not None
    assert error.code == "point-closed"
    assert error.rule == "L3"
    assert error.params["by"] == "black"
    assert error.params == {"point": 12, "by": "black", "count": 14}
    assert (error.line, error.col, error.turn) == (4, 4, 2)
    data = error.to_dict()
    assert data["code"] == "point-closed" and data["params"] == error.params
    assert data["message"] == error.message and str(error) == error.describe()


def test_the_game_number_is_the_place_of_an_error_in_a_file() -> None:
    results = verify_text(LONG_CLOSED + "\n" + LONG_CLOSED)
    assert [r.error.game for r in results if not isinstance(r, Exception) and r.error] == [1, 2]


@pytest.mark.parametrize(
    ("call", "kind", "code"),
    [
        (lambda: legal_turns(Position.start("long"), [7, 1]), DiceError, "bad-die"),
        (lambda: legal_turns(Position.start("long"), [6]), DiceError, "roll-not-two-dice"),
        (lambda: Rules.from_options({"speed": "on"}), RulesError, "unknown-option"),
        (lambda: Position.from_json({"variant": "chess"}), PositionError, "bad-position"),
        (lambda: play(Position.start("long"), "64: 24/18/13"), IllegalTurnError, None),
        (lambda: play(Position.start("long"), "64: 24/18 24/20"), IllegalTurnError, "head"),
        (lambda: read_records('[Variant "long"]\n\n1. 6x: 24/18'), RecordSyntaxError, "syntax"),
        (lambda: write_mat(read_records('[Variant "long"]\n')), ConversionError, "not-mat-variant"),
    ],
)
def test_every_error_has_a_code_and_params(call, kind, code) -> None:
    with pytest.raises(kind) as caught:
        call()
    error = caught.value
    assert isinstance(error, EngineError) and isinstance(error, ValueError)
    assert isinstance(error.code, str) and error.code
    if code is not None:
        assert error.code == code
    assert isinstance(error.params, dict)
    assert set(error.to_dict()) >= {"code", "rule", "params", "message", "game", "line", "col"}


def test_the_head_rule_error_cites_its_rule() -> None:
    """L4.1: a second checker may not leave the head."""
    with pytest.raises(IllegalTurnError) as caught:
        play(Position.start("long"), "64: 24/18 24/20")
    assert caught.value.rule == "L4.1" and caught.value.params == {"allowed": 1}
    assert str(caught.value) == "a second checker may not leave the head (L4.1)"
