"""Hostile input is normal input. Deeply nested or non-object JSON, numbers
beyond a column's range, ids that are not numbers, and names with invisible characters
are answered with a 400 or a form error, never a 500 (findings 2 and 7)."""

from __future__ import annotations

import unicodedata

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine import RecordSyntaxError
from tests.tournaments.helpers import EN, World
from tests.tournaments.pages_data import director, round_robin
from tournaments.api.errors import exception_handler
from tournaments.models import Entry, Player, Tournament
from tournaments.services.errors import ApplicationError
from tournaments.services.people import player_create

pytestmark = pytest.mark.django_db
DEEP = "[" * 100_000 + "]" * 100_000


def _json(client, method: str, url: str, body: str):
    return getattr(client, method)(url, body, content_type="application/json")


@pytest.mark.parametrize(
    ("method", "url"),
    [("patch", "/api/tournaments/{t}/"), ("post", "/api/verify/"),
     ("post", "/api/series/{s}/games/quick/"), ("post", "/api/tournaments/import/"),
     ("post", "/api/players/"), ("post", "/api/token/")],
)  # fmt: skip
@pytest.mark.parametrize("body", [DEEP, '{"a":' * 100_000 + "1" + "}" * 100_000, "[1, 2]", "7"])
def test_json_nested_deep_or_not_an_object_is_400(world: World, method, url, body):
    client = world.client("staff")
    world.tournament.directors.add(world.users["staff"])
    url = url.format(t=world.tournament.pk, s=world.series.pk)
    answer = _json(client, method, url, body)
    assert answer.status_code == 400, answer.content[:300]
    too_deep = body.startswith(("[[", '{"a":{'))
    assert answer.json()["code"] == ("json-too-deep" if too_deep else "json-not-object")


def test_json_within_the_depth_limit_is_read(world: World):
    answer = _json(world.client("boss"), "patch", f"/api/tournaments/{world.tournament.pk}/",
                   '{"venue": "[[[[{{{{", "lengths_by_stage": {}}')  # fmt: skip
    assert answer.status_code == 200, answer.json()
    world.tournament.refresh_from_db()
    assert world.tournament.venue == "[[[[{{{{"


def test_a_seed_beyond_the_column_is_a_form_error(client: Client):
    boss = director()
    t = Tournament.objects.create(name="Cup", start_date="2026-05-01")
    t.directors.add(boss)
    client.force_login(boss)
    url = reverse("tournaments:entries", args=[t.pk])
    response = client.post(url, {"new_name": "Newcomer", "seed": str(10**30)}, **EN)
    assert response.status_code == 400
    assert "A seed is between 1 and 32767" in response.content.decode()
    assert not Entry.objects.exists()


@pytest.mark.parametrize("player", ["abc", "", "1e5", "٣", str(10**30), "-1"])
def test_withdraw_of_a_player_that_is_no_number_is_a_message(client: Client, player):
    boss = director()
    t = round_robin(4, by=boss)
    client.force_login(boss)
    url = reverse("tournaments:pair", args=[t.pk, "withdraw"])
    response = client.post(url, {"player": player}, follow=True, **EN)
    assert response.status_code == 200
    assert "Choose a player registered for the tournament." in response.content.decode()
    assert not Entry.objects.filter(withdrawn=True).exists()


def test_withdraw_of_another_tournaments_player_is_a_message(client: Client):
    boss = director()
    t = round_robin(4, by=boss)
    stranger = Player.objects.create(name="Stranger")
    client.force_login(boss)
    url = reverse("tournaments:pair", args=[t.pk, "withdraw"])
    response = client.post(url, {"player": stranger.pk}, follow=True, **EN)
    assert "Choose a player registered for the tournament." in response.content.decode()


@pytest.mark.parametrize(
    "name",
    ["Jana\u202eavonák", "Ja\u200bna", "\u2066Jana\u2069", "\ufeffJana", "Jana\u200f",
     "Ja\x00na", "Ja\x07na", "Jana\u2028Nová", "Ja\ud800na"],
)  # fmt: skip
def test_invisible_and_control_characters_in_names_are_refused(name):
    with pytest.raises(ApplicationError, match="invisible or control characters") as err:
        player_create(name=name)
    assert err.value.field == "name"
    assert not Player.objects.exists()


def test_names_are_stored_in_nfc_without_surrounding_spaces():
    player = player_create(name="  Jana Nova\u0301  ")
    assert player.name == "Jana Nová" and unicodedata.is_normalized("NFC", player.name)


def test_a_spoofed_name_on_the_players_page_is_a_form_error(client: Client):
    boss = director()
    t = Tournament.objects.create(name="Cup", start_date="2026-05-01")
    t.directors.add(boss)
    client.force_login(boss)
    url = reverse("tournaments:entries", args=[t.pk])
    response = client.post(url, {"new_name": "Jana\u202eavoN"}, **EN)
    assert response.status_code == 400
    assert "invisible or control characters" in response.content.decode()
    assert not Player.objects.exists()


def test_a_nul_in_a_name_through_the_api_is_400(world: World):
    answer = world.client("staff").post("/api/players/", {"name": "Ja\x00na"}, format="json")
    assert answer.status_code == 400
    assert not Player.objects.filter(name__startswith="Ja").exclude(name="Jana").exists()


def test_player_names_are_shown_isolated(client: Client):
    t = round_robin(4)
    page = client.get(reverse("tournaments:tournament", args=[t.pk])).content.decode()
    assert "<bdi>Club cup player 1</bdi>" in page


def test_a_check_constraint_is_a_readable_400_not_its_name():
    try:
        with transaction.atomic():
            Tournament.objects.create(name="Cup", start_date="2026-05-01", series_length=0)
    except IntegrityError as exc:
        with translation.override("en"):  # the words asserted below are English
            response = exception_handler(exc, {})
    else:
        pytest.fail("the database accepted a series of length 0")
    assert response is not None and response.status_code == 400
    detail = str(response.data["detail"])
    assert "tournament_series_length_positive" not in detail and "at least one" in detail


def test_an_engine_error_is_a_400():
    response = exception_handler(RecordSyntaxError("a move is expected", line=3, col=1), {})
    assert response is not None and response.status_code == 400
    assert "a move is expected" in response.data["detail"]
