"""A verified record decides its game's result: a correction of the result alone that
contradicts it is refused (the page, the API), in the reader's language; the director
corrects the record, or drops it explicitly with a reason (its analysis goes too)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.pages_data import director, recorded_game, round_robin
from tournaments.models import Correction, Game, GameAnalysis

pytestmark = pytest.mark.django_db


def _other_kind(game: Game) -> str:
    return "mars" if game.kind == "oin" else "oin"


def _setup() -> tuple[User, Game]:
    boss = director("boss")
    game = recorded_game(round_robin(4, by=boss))
    assert game.verified and game.record
    GameAnalysis.objects.create(
        game=game, white_error_rate=0, black_error_rate=0, white_luck_rate=0, black_luck_rate=0
    )
    return boss, game


def _post(client: Client, game: Game, **extra: str) -> str:
    data = {
        "reason": "the scoresheet says otherwise", "winner": str(game.winner_id),
        "kind": _other_kind(game), "ended": game.ended, "cube": str(game.cube),
        "record": "", "version": str(game.version), "confirmed": "1", **extra,
    }  # fmt: skip
    url = reverse("tournaments:correct", args=[game.pk])
    return client.post(url, data, HTTP_ACCEPT_LANGUAGE=extra.pop("lang", "en")).content.decode()


def test_the_correction_page_refuses_a_result_the_verified_record_contradicts(client: Client):
    boss, game = _setup()
    client.force_login(boss)
    before = Game.objects.values().get(pk=game.pk)
    html = _post(client, game)
    assert "the record decides the result" in html
    assert Game.objects.values().get(pk=game.pk) == before
    assert not Correction.objects.exists() and GameAnalysis.objects.filter(game=game).exists()
    czech = client.post(
        reverse("tournaments:correct", args=[game.pk]),
        {"reason": "jinak", "winner": str(game.winner_id), "kind": _other_kind(game),
         "ended": game.ended, "cube": str(game.cube), "version": str(game.version),
         "confirmed": "1"},
        HTTP_ACCEPT_LANGUAGE="cs",
    ).content.decode()  # fmt: skip
    assert "o výsledku rozhoduje záznam" in czech


def test_dropping_the_record_with_a_reason_lets_the_result_by_hand_stand(client: Client):
    boss, game = _setup()
    client.force_login(boss)
    new_kind = _other_kind(game)
    response = client.post(
        reverse("tournaments:correct", args=[game.pk]),
        {"reason": "the record is of another game", "winner": str(game.winner_id),
         "kind": new_kind, "ended": game.ended, "cube": str(game.cube),
         "version": str(game.version), "confirmed": "1", "drop_record": "on"},
        HTTP_ACCEPT_LANGUAGE="en",
    )  # fmt: skip
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.kind, game.record, game.verified, game.verification_note) == (
        new_kind, "", False, {},
    )  # fmt: skip
    assert not GameAnalysis.objects.filter(game=game).exists()
    correction = Correction.objects.get(game=game)
    assert correction.before["record"] and correction.after["record"] == ""
    page = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Result: " not in page.content.decode()  # no second result under a replay


def test_the_api_refuses_it_with_a_code_and_accepts_drop_record():
    boss, game = _setup()
    api = APIClient()
    api.force_authenticate(boss)
    url = f"/api/games/{game.pk}/correct/"
    body = {"reason": "sheet", "version": game.version, "kind": _other_kind(game)}
    refused = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "result-contradicts-record"
    both = api.post(url, body | {"drop_record": True, "record": game.record}, format="json")
    assert both.status_code == 400 and both.json()["code"] == "drop-record-with-record"
    done = api.post(url, body | {"drop_record": True}, format="json")
    assert done.status_code == 200, done.content
    assert done.json()["record"] == "" and done.json()["kind"] == _other_kind(game)


def test_the_same_result_with_the_record_kept_is_no_change_and_a_record_correction_works():
    boss, game = _setup()
    from tournaments.services.errors import ApplicationError
    from tournaments.services.results import game_correct

    with pytest.raises(ApplicationError) as refused:
        game_correct(game=game, by=boss, reason="x", kind=_other_kind(game))
    assert refused.value.code == "result-contradicts-record"
    with pytest.raises(ApplicationError) as same:
        game_correct(game=game, by=boss, reason="x", kind=game.kind)
    assert same.value.code == "correction-no-change"
