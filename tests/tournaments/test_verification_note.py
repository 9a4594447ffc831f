"""A game's verification note is data, said in the reader's language.

``Game.verification_note`` holds a code and params (tournaments/wording/verification.py); the
game page's badge, the API, the archive and the commands say it in the language of
whoever reads it. Migration 0013 turns the English texts stored before into notes."""

from __future__ import annotations

import html as html_lib
import importlib
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.helpers import World, a_record
from tournaments.models import Game
from tournaments.services.archives import archived_note
from tournaments.services.errors import ApplicationError
from tournaments.services.maintenance import games_reverify
from tournaments.services.results import game_correct, game_enter_record
from tournaments.wording.verification import is_note, note_from_text, verification_text

migration = importlib.import_module("tournaments.migrations.0013_verification_note")

# English words of the notes that a Czech reader must not see
ENGLISH = re.compile(r"\b(ok|won|record|stored|corrected|hand|tells|result|line|col)\b")


def _played(world: World) -> Game:
    return game_enter_record(series=world.series, record=a_record("Jana", "Petr", seed=1))


def _badge(client: Client, game: Game, language: str) -> str:
    html = client.get(
        reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    found = re.search(r'<span class="badge (?:ok|bad)" title="([^"]*)"', html)
    assert found is not None, "the page shows no verification badge"
    return html_lib.unescape(found.group(1))


def _said(note: dict[str, object], language: str) -> str:
    with translation.override(language):
        return verification_text(note)


@pytest.mark.django_db
def test_the_game_page_says_the_note_in_the_readers_language(world: World) -> None:
    game = _played(world)
    side, kind = game.verification_note["params"]["winner"], game.kind
    english = _badge(Client(), game, "en")
    czech = _badge(Client(), game, "cs")
    assert english == f"ok, {side} won ({kind})"
    assert czech != english and not ENGLISH.search(czech), czech


@pytest.mark.django_db
def test_the_api_gives_the_note_as_data_and_as_text_in_the_requests_language(
    world: World,
) -> None:
    game = _played(world)
    client = world.client(None)
    english = client.get(f"/api/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    czech = client.get(f"/api/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="cs").json()
    assert english["verification_note"] == czech["verification_note"] == game.verification_note
    assert english["verification_note"]["code"] == "verified"
    assert english["verification"].startswith("ok, ")
    assert czech["verification"] != english["verification"]
    assert not ENGLISH.search(czech["verification"]), czech["verification"]


@pytest.mark.django_db
def test_a_correction_by_hand_is_noted_as_a_code(world: World) -> None:
    game = _played(world)
    boss = world.users["boss"]  # the tournament's director
    kind = "mars" if game.kind != "mars" else "oin"
    # a verified record decides the result: corrected by hand only once it is not verified
    with pytest.raises(ApplicationError) as refused:
        game_correct(game=game, by=boss, reason="the scoresheet", kind=kind)
    assert refused.value.code == "result-contradicts-record"
    Game.objects.filter(pk=game.pk).update(verified=False)
    game.refresh_from_db()
    corrected = game_correct(game=game, by=boss, reason="the scoresheet", kind=kind)
    assert not corrected.verified and corrected.verification_note == {
        "code": "corrected", "params": {},
    }  # fmt: skip
    english = _said(corrected.verification_note, "en")
    assert english == "corrected by hand: the record no longer matches the result"
    assert _said(corrected.verification_note, "cs") != english


@pytest.mark.django_db
def test_verify_games_stores_an_engine_refusal_as_data(world: World) -> None:
    """A record whose Result tag lies: the engine's code, params and place are stored, and
    the command and the page say them in the reader's language."""
    game = _played(world)
    told = game.record.split('[Result "')[1].split('"')[0]
    lie = "black oin" if told != "black oin" else "white oin"
    Game.objects.filter(pk=game.pk).update(record=game.record.replace(told, lie, 1))
    out = StringIO()
    with translation.override("en"), pytest.raises(CommandError, match="1 game"):
        call_command("verify_games", stdout=out, stderr=StringIO())
    game.refresh_from_db()
    note = game.verification_note
    assert not game.verified and note["code"] == "refused"
    assert note["params"]["error"]["code"] == "result-mismatch"
    english = _said(note, "en")
    assert english.startswith("line ") and f'the Result tag says "{lie}"' in english
    assert english in out.getvalue()
    czech = _badge(Client(), game, "cs")
    assert czech == _said(note, "cs") and czech != english
    assert "the Result tag" not in czech


@pytest.mark.django_db
def test_a_record_naming_other_players_is_noted_with_their_names(world: World) -> None:
    game = _played(world)
    Game.objects.filter(pk=game.pk).update(record=game.record.replace('"Jana"', '"Nobody"', 1))
    report = games_reverify(tournament=world.tournament)
    game.refresh_from_db()
    assert report.changed == 1 and game.verification_note["code"] == "players-differ"
    assert game.verification_note["params"]["record_white"] == "Nobody"
    english = _said(game.verification_note, "en")
    assert english == (
        "the record has Nobody with white and Petr with black, the stored game Jana and Petr"
    )
    czech = _said(game.verification_note, "cs")
    assert "Nobody" in czech and czech != english


# the stored English texts of before (migration 0013, old archives) ----------------------

OLD_TEXTS = [
    ("ok, white mars", 1, "ok, white won (mars)"),
    ("ok, draw", 1, "ok, draw"),
    ("ok, black oin by resignation", 2, "ok, black won (oin), cube 2, resignation"),
    (
        "ok, white koks (double dropped) (irregular: turn 1 white accepted, turn 4 black accepted)",
        4,
        "ok, white won (koks), cube 4, double dropped (irregular: turn 1 white accepted, "
        "turn 4 black accepted)",
    ),
    (
        "corrected by hand: the record no longer matches the result",
        1,
        "corrected by hand: the record no longer matches the result",
    ),
    (
        "the record has Ann with white and Bob with black, the stored game Cy and Di",
        1,
        "the record has Ann with white and Bob with black, the stored game Cy and Di",
    ),
    (
        "the record tells white mars, but the stored result is black oin (resignation), cube 2",
        2,
        "the record tells white won (mars), but the stored result is black won (oin), cube 2, "
        "resignation",
    ),
    ("line 3, col 7: point 7 is closed by white (L3)", 1, None),  # an engine's: kept
    ("ověřeno ručně", 1, None),  # not the app's English: kept
]


@pytest.mark.parametrize(("text", "cube", "said"), OLD_TEXTS)
def test_the_migration_turns_the_old_texts_into_notes(text: str, cube: int, said: str) -> None:
    converted = migration.note_from_text(text, cube)
    assert converted == note_from_text(text, cube=cube)  # the archive reads them alike
    assert _said(converted, "en") == (said or text)
    if said is None:
        assert converted == {"code": "text", "params": {"text": text}}
    else:
        assert converted["code"] != "text"
    assert migration.note_from_text("", 1) == {}


@pytest.mark.parametrize(
    "hostile",
    [
        {"code": "verified", "params": {"irregular": 5}},
        {"code": "verified", "params": {"irregular": [[1, "white", 3]]}},
        {"code": "refused", "params": "x"},
        {"code": "drop table", "params": {}},
        {"code": "text", "params": {}, "more": 1},
    ],
)
def test_an_archive_gives_a_note_only_when_it_is_one(hostile: dict[str, object]) -> None:
    assert not is_note(hostile)
    assert archived_note({"verification_note": hostile, "verification": "ok, draw"}, cube=1) == (
        note_from_text("ok, draw")
    )
    assert isinstance(verification_text(hostile), str)  # never a server error


def test_an_archive_keeps_a_note_that_is_one() -> None:
    note = {"code": "corrected", "params": {}}
    assert archived_note({"verification_note": note, "verification": "whatever"}, cube=1) == note
