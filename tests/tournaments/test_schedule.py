"""A round robin's whole schedule paired in one step (the Berger tables), its rounds
unpublished until the director publishes them one by one (services/schedule.py): through
the director's pages and the API; an unpublished round is seen by no player or visitor
(the tournament page, the series page, the API's rounds and series, the player page)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.helpers import EN
from tournaments.models import Player, Round, Series, Tournament
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss() -> User:
    return User.objects.create_user("boss", password="a-long-secret-1")


@pytest.fixture
def rr(boss: User) -> Tournament:
    t = tournament_create(name="Berger cup", start_date=datetime.date(2026, 8, 1),
                          format="round_robin", series_length=1)  # fmt: skip
    t.directors.add(boss)
    for i in range(1, 6):  # five players: five rounds, a bye in each
        entry_register(tournament=t, player=Player.objects.create(name=f"Hráč {i}"))
    return t


def director_client(boss: User) -> Client:
    client = Client(**EN)
    client.force_login(boss)
    return client


def test_the_director_pairs_the_whole_schedule_and_publishes_round_by_round(rr, boss):
    client = director_client(boss)
    entries = client.get(reverse("tournaments:entries", args=[rr.pk])).content.decode()
    assert reverse("tournaments:schedule_pair", args=[rr.pk]) in entries
    done = client.post(reverse("tournaments:schedule_pair", args=[rr.pk]))
    assert done["Location"] == reverse("tournaments:round_manage", args=[rr.pk, 1])
    assert list(Round.objects.filter(tournament=rr).values_list("number", "published")) == [
        (n, False) for n in range(1, 6)
    ]
    met = set()
    for s in Series.objects.filter(tournament=rr, player2__isnull=False):
        met.add(frozenset((s.player1_id, s.player2_id)))
    assert len(met) == 10  # everybody meets everybody once (RULES: a round robin)
    visitor = Client(**EN)
    page = visitor.get(reverse("tournaments:tournament", args=[rr.pk])).content.decode()
    hidden = Series.objects.filter(round__number=2, player2__isnull=False).first()
    shown = Series.objects.filter(round__number=1, player2__isnull=False).first()
    assert hidden is not None and shown is not None
    assert "/series/" not in page  # no round's pairings
    assert visitor.get(reverse("tournaments:series", args=[hidden.pk])).status_code == 404
    manage = client.get(reverse("tournaments:round_manage", args=[rr.pk, 2])).content.decode()
    assert "Not published" in manage
    early = client.post(reverse("tournaments:round_publish", args=[rr.pk, 2]), follow=True)
    assert "Publish round 1 first" in early.content.decode()
    client.post(reverse("tournaments:round_publish", args=[rr.pk, 1]))
    page = visitor.get(reverse("tournaments:tournament", args=[rr.pk])).content.decode()
    assert reverse("tournaments:series", args=[shown.pk]) in page
    assert reverse("tournaments:series", args=[hidden.pk]) not in page
    assert visitor.get(reverse("tournaments:series", args=[shown.pk])).status_code == 200
    assert visitor.get(reverse("tournaments:series", args=[hidden.pk])).status_code == 404
    assert client.get(reverse("tournaments:series", args=[hidden.pk])).status_code == 200
    again = client.post(reverse("tournaments:schedule_pair", args=[rr.pk]), follow=True)
    assert "paired already" in again.content.decode()


def test_the_api_pairs_the_schedule_hides_and_publishes_rounds(rr, boss):
    api = APIClient(**EN)
    api.force_authenticate(boss)
    made = api.post(f"/api/tournaments/{rr.pk}/rounds/schedule/")
    assert made.status_code == 201, made.content
    assert [(r["number"], r["published"]) for r in made.json()] == [(n, False) for n in range(1, 6)]
    player = User.objects.create_user("p1", password="a-long-secret-1")
    Player.objects.filter(name="Hráč 1").update(user=player)
    other = APIClient(**EN)
    other.force_authenticate(player)
    assert other.get(f"/api/rounds/?tournament={rr.pk}").json()["count"] == 0
    assert other.get(f"/api/series/?tournament={rr.pk}").json()["count"] == 0
    assert api.get(f"/api/series/?tournament={rr.pk}").json()["count"] == 15  # the director
    first = made.json()[0]["id"]
    second = made.json()[1]["id"]
    order = api.post(f"/api/rounds/{second}/publish/")
    assert order.status_code == 400 and order.json()["code"] == "round-publish-order"
    assert other.post(f"/api/rounds/{first}/publish/").status_code in (403, 404)
    published = api.post(f"/api/rounds/{first}/publish/")
    assert published.status_code == 200 and published.json()["published"] is True
    assert other.get(f"/api/rounds/?tournament={rr.pk}").json()["count"] == 1
    assert other.get(f"/api/series/?tournament={rr.pk}").json()["count"] == 3
    last = made.json()[-1]["id"]
    repaired = api.post(f"/api/rounds/{last}/repair/")  # paired again: still unpublished
    assert repaired.status_code == 201 and repaired.json()["published"] is False
    swiss = tournament_create(name="Open", start_date=datetime.date(2026, 8, 1), format="swiss")
    swiss.directors.add(boss)
    refused = api.post(f"/api/tournaments/{swiss.pk}/rounds/schedule/")
    assert refused.status_code == 400 and refused.json()["code"] == "schedule-round-robin-only"


def test_a_player_page_hides_the_unpublished_series(rr, boss):
    director_client(boss).post(reverse("tournaments:schedule_pair", args=[rr.pk]))
    hrac = Player.objects.get(name="Hráč 1")
    page = Client(**EN).get(reverse("tournaments:player", args=[hrac.pk])).content.decode()
    assert "Berger cup" not in page
    own = director_client(boss).get(reverse("tournaments:player", args=[hrac.pk]))
    assert "Berger cup" in own.content.decode()
