"""A director registers a new player with a club and a rating on the
players page (and the API), through the same service as a players CSV: the club found
case-insensitively or made, the rating the start of the player's history, both
validated, refusals in the user's language, never a 500."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import EN, World, rating_of
from tests.tournaments.pages_data import director
from tournaments.models import Club, Entry, Player, Tournament
from tournaments.services.setup import tournament_create

pytestmark = pytest.mark.django_db

CS: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "cs"}


@pytest.fixture
def boss(client: Client) -> User:
    user = director()
    client.force_login(user)
    return user


def _open(by: User) -> Tournament:
    t = tournament_create(name="Open", start_date=datetime.date(2026, 6, 1), format="swiss")
    t.directors.add(by)
    return t


def test_a_new_player_with_club_and_rating_on_the_page(client: Client, boss: User) -> None:
    brno = Club.objects.create(name="Brno")
    t = _open(boss)
    url = reverse("tournaments:entries", args=[t.pk])
    page = client.get(url, **CS).content.decode()
    assert 'name="new_club"' in page and 'name="new_rating"' in page
    assert "Klub nového hráče" in page
    # a Czech decimal comma; the club is the existing one, case ignored
    data = {"new_name": "Nova", "new_club": "brno", "new_rating": "1710,5"}
    answer = client.post(url, data, **CS)
    assert answer.status_code == 302
    nova = Player.objects.get(name="Nova")
    rating = rating_of(nova, t.variant)
    assert nova.club == brno and (rating.rating, rating.start_rating) == (1710.5, 1710.5)
    assert t.entries.filter(player=nova).exists()
    # a new club is made
    assert client.post(url, {"new_name": "Oto", "new_club": "Zlín"}).status_code == 302
    oto = Player.objects.get(name="Oto")
    assert (
        oto.club is not None
        and oto.club.name == "Zlín"
        and rating_of(oto, t.variant).start_rating == 1500
    )


@pytest.mark.parametrize(
    ("data", "english", "czech"),
    [
        ({"new_rating": "0"}, "greater than or equal to 1", "větší nebo rovna 1"),
        ({"new_rating": "10001"}, "less than or equal to 10", "menší nebo rovna 10"),
        ({"new_rating": "abc"}, "Enter a number.", "Zadejte číslo."),
        ({"new_club": "K" * 121}, "at most 120 characters", "nejvýše 120 znaků"),
        ({"new_club": "Klub\u202e"}, "invisible or control characters", "neviditelné"),
    ],
)
def test_bad_club_or_rating_is_refused_in_the_users_language(
    client: Client, boss: User, data: dict[str, str], english: str, czech: str
) -> None:
    t = _open(boss)
    url = reverse("tournaments:entries", args=[t.pk])
    for language, text in ((EN, english), (CS, czech)):
        answer = client.post(url, {"new_name": "Nova", **data}, **language)
        assert answer.status_code == 400
        assert text in answer.content.decode()
    assert not Player.objects.filter(name="Nova").exists() and not Club.objects.exists()


def test_the_similar_name_confirmation_keeps_club_and_rating(client: Client, boss: User) -> None:
    Player.objects.create(name="Eva Kučerová")
    t = _open(boss)
    url = reverse("tournaments:entries", args=[t.pk])
    data = {"new_name": "Eva Kucerova", "new_club": "Zlín", "new_rating": "1650"}
    page = client.post(url, data, **EN).content.decode()
    assert 'name="new_club" value="Zlín"' in page and 'name="new_rating" value="1650"' in page
    assert client.post(url, {**data, "confirm_new": "1"}).status_code == 302
    eva = Player.objects.get(name="Eva Kucerova")
    assert (
        eva.club is not None
        and eva.club.name == "Zlín"
        and rating_of(eva, t.variant).start_rating == 1650
    )


def test_the_api_registers_with_club_and_rating(world: World) -> None:
    url = f"/api/tournaments/{world.tournament.pk}/entries/"
    boss = world.client("boss")
    answer = boss.post(url, {"name": "Nova", "club": "BRNO", "rating": 1710}, format="json")
    assert answer.status_code == 201, answer.content
    nova = Player.objects.get(name="Nova")
    start = rating_of(nova, world.tournament.variant).start_rating
    assert nova.club == Club.objects.get(name="Brno") and start == 1710
    bad = boss.post(url, {"name": "Oto", "rating": 0}, format="json", HTTP_ACCEPT_LANGUAGE="cs")
    assert bad.status_code == 400 and not Player.objects.filter(name="Oto").exists()


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(club=st.text(max_size=140), rating=st.text(max_size=12))
def test_hostile_club_and_rating_never_a_server_error(club: str, rating: str) -> None:
    user = User.objects.get_or_create(username="hyp-boss")[0]
    t = Tournament.objects.filter(name="Open").first() or _open(user)
    t.directors.add(user)
    client = Client()
    client.force_login(user)
    url = reverse("tournaments:entries", args=[t.pk])
    answer = client.post(url, {"new_name": "Hostile", "new_club": club, "new_rating": rating}, **CS)
    assert answer.status_code in (302, 400)
    Entry.objects.filter(player__name="Hostile").delete()
    Player.objects.filter(name="Hostile").delete()
