"""The app says the engine's errors, pairing reasons, bracket stages and results in the
reader's language (docs/architecture.md): one table per kind of text, with named parameters, and a
test that fails when the engine declares a code the table lacks. No database."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from engine import read_records, replay
from engine.errors import CODES, EngineError
from engine.limits import LIMIT_NAMES
from tests.tournaments.refusal_corpus import LONG_CLOSED, hostile_errors
from tournaments.pairing import double_elimination, pair_swiss_round, single_elimination
from tournaments.pairing.types import SwissPlayer
from tournaments.wording.engine_errors import (
    LIMIT_MESSAGES,
    MESSAGES,
    SPECIAL,
    engine_message,
    engine_text,
    has_translation,
)
from tournaments.wording.names import pairing_reason, result_tag_text, result_text, stage_name


def test_every_code_the_engine_declares_has_a_translation_entry() -> None:
    """Adding a code to the engine without a message here fails (the catalogue then
    gets the message through makemessages)."""
    missing = sorted(c for c in CODES if c != "record_too_large" and not has_translation(c))
    assert missing == []
    limits = set(LIMIT_NAMES)
    assert limits <= set(LIMIT_MESSAGES), sorted(limits - set(LIMIT_MESSAGES))
    assert not (set(MESSAGES) | set(SPECIAL)) - CODES, "translations of codes no longer raised"


ERRORS = hostile_errors()


def test_the_hostile_inputs_reach_many_codes() -> None:
    codes = {e.code for e in ERRORS}
    assert len(codes) >= 50, sorted(codes)


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: e.code)
def test_every_error_renders_with_its_params(error: EngineError) -> None:
    """The table's message takes the error's params (no fallback to the English text),
    and says, in English, what the engine says."""
    assert has_translation(error.code) or error.code == "record_too_large"
    with translation.override("en"):
        text = engine_text(error)
        assert "%(" not in text
        words = {w.strip("'\".,:;()") for w in error.message.split()}
        shown = {w.strip("'\".,:;()") for w in text.split()}
        # the values (points, dice, moves, tags) the engine names are named here too
        values = {w for w in words if any(ch.isdigit() for ch in w) or "/" in w}
        assert values <= shown | {""}, (error.code, error.message, text)


def test_rule_id_turn_and_place_stay_visible_in_czech() -> None:
    error = replay(read_records(LONG_CLOSED)[0]).error
    assert error is not None
    with translation.override("cs"):
        text = engine_message(error, located=True)
    assert text.endswith("(L3)")
    assert "6-6: 24/18/12" in text and " 12 " in text
    assert "4" in text.split(":")[0]  # line 4, column 4 in the reader's words


def swiss_players(points: list[str]) -> list[SwissPlayer[int]]:
    return [SwissPlayer(i, Decimal(p), i) for i, p in enumerate(points, start=1)]


def test_pairing_reasons_name_the_players_not_their_ids() -> None:
    names = {1: "Jana Nová", 2: "Petr Malý", 3: "Karel Dvořák", 4: "Eva Svobodová", 5: "Ota Bílý"}
    pairing = pair_swiss_round(swiss_players(["2", "1", "1", "1", "0"]))
    shown = [pairing_reason({"why": p.why.as_dict()}, names) for p in pairing.pairs if p.why]
    assert pairing.bye_why is not None
    shown.append(pairing_reason({"why": pairing.bye_why.as_dict()}, names))
    assert len(shown) == 3
    for text in shown:
        assert any(name in text for name in names.values()), text
        assert not any(f"{i} and" in text or f"{i} (" in text for i in names), text
    # a pairing stored before there were codes keeps its text
    assert pairing_reason({"reason": "4 and 12 both have 0"}, names) == "4 and 12 both have 0"


def test_stage_names_are_translated_and_the_reset_is_told_apart() -> None:
    double = double_elimination(list(range(1, 9)))
    single = single_elimination(list(range(1, 9)), third_place=True, consolation=True)
    with translation.override("en"):
        labels = {
            m.id: stage_name(bracket=m.bracket, round=m.round, stage=m.stage)
            for m in (*double.matches, *single.matches)
        }
    assert labels["GF-1"] == "final" and labels["GF-2"] == "final (reset)"
    assert labels["W1-1"] in ("winners' round 1", "quarterfinal")
    assert labels["P3"] == "3rd place"
    assert labels["L1-1"] == "losers' round 1"
    assert not any("-" in label and "round" not in label for label in labels.values()), labels
    with translation.override("en"):
        single_labels = {
            m.id: stage_name(bracket=m.bracket, round=m.round, stage=m.stage)
            for m in single.matches
        }
    assert single_labels["W1-1"] == "quarterfinal" and single_labels["W3-1"] == "final"


def test_one_result_text() -> None:
    with translation.override("en"):
        assert result_text(winner="Jana", kind="mars", ended="resigned", cube=2) == (
            "Jana won (mars), cube 2, resignation"
        )
        assert result_text(winner=None, kind="draw") == "draw"
        assert result_tag_text("black oin") == "black won (oin)"
        assert result_text(winner="Jana", kind="koks", with_winner=False) == "koks"
