"""Players asking to play in a published tournament that allows it, the directors
approving or declining on the players page (services/entry_requests.py); refused once a
round robin is paired (the rule of a late entry: services/setup.py::entries_open_check)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import EN
from tests.tournaments.pages_data import round_robin
from tournaments.models import Entry, EntryRequest, Player, Tournament
from tournaments.services.pairings import round_generate
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss() -> User:
    return User.objects.create_user("boss", password="a-long-secret-1")


@pytest.fixture
def open_rr(boss: User) -> Tournament:
    t = tournament_create(
        name="Open cup", start_date=datetime.date(2026, 7, 1), format="round_robin",
        series_length=1, self_registration=True,
    )  # fmt: skip
    t.directors.add(boss)
    for name in ("Adam", "Bára", "Cyril"):
        entry_register(tournament=t, player=Player.objects.create(name=name))
    return t


def signed_in_player(name: str) -> Client:
    user = User.objects.create_user(name.lower(), password="a-long-secret-1")
    Player.objects.create(name=name, user=user)
    client = Client()
    client.force_login(user)
    return client


def test_a_player_asks_and_the_director_approves_on_the_players_page(open_rr, boss):
    dana = signed_in_player("Dana")
    page = dana.get(reverse("tournaments:tournament", args=[open_rr.pk]), **EN).content.decode()
    ask = reverse("tournaments:entry_request", args=[open_rr.pk])
    assert ask in page and "Ask to play" in page
    assert dana.post(ask).status_code == 302
    page = dana.get(reverse("tournaments:tournament", args=[open_rr.pk]), **EN).content.decode()
    assert "waiting for the director" in page and ask not in page
    again = dana.post(ask, follow=True, **EN).content.decode()
    assert "You have asked already" in again and EntryRequest.objects.count() == 1
    director = Client()
    director.force_login(boss)
    entries = director.get(reverse("tournaments:entries", args=[open_rr.pk]), **EN).content.decode()
    request = EntryRequest.objects.get()
    approve = reverse("tournaments:entry_request_decide", args=[open_rr.pk, request.pk, "approve"])
    assert "Requests to play" in entries and approve in entries
    assert dana.post(approve).status_code == 403  # a player does not decide
    assert director.post(approve).status_code == 302
    assert Entry.objects.filter(tournament=open_rr, player__name="Dana").exists()
    request.refresh_from_db()
    assert request.status == "approved" and request.decided_by == boss
    page = dana.get(reverse("tournaments:tournament", args=[open_rr.pk]), **EN).content.decode()
    assert "You are registered already." in page


def test_the_director_declines_with_a_note_and_the_player_sees_it(open_rr, boss):
    eva = signed_in_player("Eva")
    eva.post(reverse("tournaments:entry_request", args=[open_rr.pk]))
    request = EntryRequest.objects.get()
    director = Client()
    director.force_login(boss)
    decline = reverse("tournaments:entry_request_decide", args=[open_rr.pk, request.pk, "decline"])
    director.post(decline, {"note": "the hall is full"})
    assert not Entry.objects.filter(player__name="Eva").exists()
    page = eva.get(reverse("tournaments:tournament", args=[open_rr.pk]), **EN).content.decode()
    assert "declined" in page and "the hall is full" in page
    czech = eva.post(reverse("tournaments:entry_request", args=[open_rr.pk]), follow=True,
                     HTTP_ACCEPT_LANGUAGE="cs").content.decode()  # fmt: skip
    assert "Ředitelé vaši žádost zamítli" in czech


def test_no_asking_once_the_round_robin_is_paired_nor_approving(open_rr, boss):
    filip = signed_in_player("Filip")
    filip.post(reverse("tournaments:entry_request", args=[open_rr.pk]))
    request = EntryRequest.objects.get()
    round_generate(tournament=open_rr)
    gustav = signed_in_player("Gustav")
    page = gustav.get(reverse("tournaments:tournament", args=[open_rr.pk]), **EN).content.decode()
    assert "Ask to play" not in page and "paired already" in page
    refused = gustav.post(
        reverse("tournaments:entry_request", args=[open_rr.pk]), follow=True, **EN
    )
    assert "paired already" in refused.content.decode() and EntryRequest.objects.count() == 1
    director = Client()
    director.force_login(boss)
    approve = reverse("tournaments:entry_request_decide", args=[open_rr.pk, request.pk, "approve"])
    answer = director.post(approve, follow=True, **EN).content.decode()
    assert "paired already" in answer
    assert not Entry.objects.filter(player__name="Filip").exists()
    request.refresh_from_db()
    assert request.status == "pending"


def test_no_asking_where_the_tournament_does_not_allow_it_or_without_a_player(boss):
    t = round_robin(4, by=boss)  # self_registration off
    hana = signed_in_player("Hana")
    page = hana.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    assert "Ask to play" not in page
    refused = hana.post(reverse("tournaments:entry_request", args=[t.pk]), follow=True, **EN)
    assert "takes no requests" in refused.content.decode() and not EntryRequest.objects.exists()
    t2 = tournament_create(name="Open", start_date=datetime.date(2026, 7, 1), format="swiss",
                           self_registration=True)  # fmt: skip
    nobody = Client()
    nobody.force_login(User.objects.create_user("noplayer", password="a-long-secret-1"))
    refused = nobody.post(reverse("tournaments:entry_request", args=[t2.pk]), follow=True, **EN)
    assert "player profile" in refused.content.decode() and not EntryRequest.objects.exists()
    anonymous = Client().get(reverse("tournaments:tournament", args=[t2.pk]), **EN)
    assert "sign in" in anonymous.content.decode()
