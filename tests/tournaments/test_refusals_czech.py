"""The catalogue check: a Czech page shows no refusal left in English.

Refusals are collected from hostile input (tests/tournaments/refusal_corpus.py: records,
positions, dice, rule options, .mat files, limits) and rendered as the app shows them, in
Czech and in English; each must differ (a message whose Czech is missing from the
catalogue renders as its English msgid, so the two are equal) and no English word of the
engine's may be left in the Czech text. The same through the API with
``Accept-Language: cs``, for the tables' every entry, pairing reasons, bracket stages,
results and the database constraints' messages.

It fails until locale/cs holds the translations of the new msgids (the lead applies
/work/notes/tr-*.json and compiles); it is meant to fail whenever a message is added
without its Czech.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from engine.errors import EngineError
from tests.tournaments.refusal_corpus import LONG, LONG_CLOSED, SHORT, hostile_errors
from tournaments.wording.engine_errors import CUBE_ACTIONS, LIMIT_MESSAGES, MESSAGES, engine_message
from tournaments.wording.names import (
    ENDINGS,
    KINDS,
    PAIRING_REASONS,
    SIDES,
    VARIANTS,
    pairing_reason,
    result_text,
    stage_name,
)

# English words of the engine's texts that must not survive in a Czech rendering (the
# record's own words, like "double" or "accepted" in a quoted move, are quoted there).
ENGLISH = re.compile(
    r"\b(is closed|checker|cannot|must|there is|the game|turn \d|white|black|point \d|"
    r"line \d|not possible|expected|write it|a roll|bear off)\b"
)


def _quoted_removed(text: str) -> str:
    """The text without what the reader wrote (quoted values, record words)."""
    return re.sub(r"'[^']*'|\"[^\"]*\"", "", text)


ERRORS = hostile_errors()


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: e.code)
def test_every_engine_refusal_is_czech_on_a_czech_page(error: EngineError) -> None:
    with translation.override("en"):
        english = engine_message(error, located=True)
    with translation.override("cs"):
        czech = engine_message(error, located=True)
    assert czech != english, f"{error.code}: untranslated: {czech}"
    left = ENGLISH.findall(_quoted_removed(czech))
    assert not left, f"{error.code}: English left in {czech!r}: {left}"


def _tables() -> list[tuple[str, object]]:
    entries: list[tuple[str, object]] = []
    for table in (MESSAGES, LIMIT_MESSAGES, PAIRING_REASONS, CUBE_ACTIONS):
        entries.extend(table.items())
    for table in (SIDES, VARIANTS, KINDS, ENDINGS):
        entries.extend((k, v) for k, v in table.items() if k not in ("oin", "mars", "koks", "lurc"))
    return entries


@pytest.mark.parametrize(("key", "message"), _tables(), ids=[k for k, _ in _tables()])
def test_every_table_entry_has_its_czech(key: str, message: object) -> None:
    """Each msgid of the engine, pairing and result tables is a translated catalogue
    entry (msgstr != msgid): also those the hostile inputs above do not reach."""
    with translation.override("en"):
        msgid = str(message)
    with translation.override("cs"):
        msgstr = str(message)
    assert msgstr != msgid, f"{key}: {msgid!r} has no Czech"


def test_stages_pairings_and_results_in_czech() -> None:
    with translation.override("cs"):
        assert stage_name(bracket="winners", round=2, stage="quarterfinal") == "čtvrtfinále"
        assert stage_name(bracket="final", round=2, stage="final") == "finále \u2013 opakování"
        assert stage_name(bracket="third_place", round=3, stage="third-place") == "o 3. místo"
        assert stage_name(bracket="winners", round=1, stage="winners-round-1") == "1. kolo vítězů"
        assert stage_name(bracket="losers", round=1, stage="losers-round-1") == (
            "1. kolo poražených"
        )
        why = {"code": "same-group", "params": {"first": 4, "second": 12, "score": "0"}}
        stored = {"reason": "4 and 12 both have 0", "why": why}
        text = pairing_reason(stored, {4: "Jana", 12: "Petr"})
        assert "Jana" in text and "Petr" in text and "both have" not in text
        assert result_text(winner="black", kind="oin") == "Vyhrál(a) černý (oin)"


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "record",
    [
        LONG_CLOSED,
        LONG + "1. 64: 24/18 24/20\n",
        LONG + "1. 6x: 24/18\n",
        LONG + "1. 64: 24/18\n",
        SHORT + "1. 51: 6/1 8/7\n",
        '[Variant "long"]\n[Mars "maybe"]\n\n1. 64: 24/14\n',
    ],
)
def test_the_api_answers_refusals_in_the_asked_language(api: APIClient, settings, record) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
    answers = {}
    for language in ("en", "cs"):
        response = api.post(
            "/api/verify/", {"record": record}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert response.status_code == 200
        error = response.json()["games"][0]["error"]
        assert error is not None and error["code"]
        answers[language] = error["message"]
    assert answers["cs"] != answers["en"]
    assert not ENGLISH.findall(_quoted_removed(answers["cs"])), answers["cs"]


@pytest.mark.django_db
def test_a_database_constraint_refuses_in_words_not_by_its_name() -> None:
    """'Omezení "tournament_ends_after_start" je porušeno.' was shown before."""
    from tournaments.models import Tournament

    tournament = Tournament(
        name="Jarní turnaj",
        start_date=datetime.date(2026, 5, 2),
        end_date=datetime.date(2026, 5, 1),
    )
    with translation.override("cs"):
        with pytest.raises(Exception) as caught:
            tournament.validate_constraints()
        shown = " ".join(caught.value.messages)  # type: ignore[attr-defined]
    assert "tournament_ends_after_start" not in shown
    assert "turnaj končí dřív, než začne" in shown
