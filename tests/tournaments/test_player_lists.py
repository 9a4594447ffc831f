"""A players CSV takes the registration form's checks (services/player_lists.py): a known
player of the same club written without accents or in other case is that player; a name
like another known player's is held back for the director; a formula-like name is refused
(the CSV, the form and the API alike); a round robin already paired takes nobody (the
CSV, the form, the API: services/setup.py::entries_open_check)."""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from tests.tournaments.pages_data import round_robin
from tournaments.models import Club, Entry, Job, Player, Tournament
from tournaments.services.setup import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _inline(settings) -> None:
    settings.CELERY_BROKER_URL = ""  # no broker: a job runs in its request


@pytest.fixture
def boss() -> User:
    return User.objects.create_user("boss", password="a-long-secret-1")


@pytest.fixture
def swiss(boss: User) -> Tournament:
    t = tournament_create(name="Open", start_date=datetime.date(2026, 6, 1), format="swiss")
    t.directors.add(boss)
    return t


@pytest.fixture
def jana() -> Player:
    return Player.objects.create(name="Jana Nováková", club=Club.objects.create(name="Brno"))


def api_for(user: User) -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    return api


def csv_file(text: str) -> io.BytesIO:
    data = io.BytesIO(text.encode("utf-8"))
    data.name = "players.csv"
    return data


def test_the_same_player_written_without_accents_is_matched_not_created(boss, swiss, jana):
    body = {"text": "name,club\nJana Novakova,Brno\nJANA NOVÁKOVÁ,brno\n"}
    answer = api_for(boss).post(f"/api/tournaments/{swiss.pk}/players/import/", body, format="json")
    assert answer.status_code == 201, answer.content
    assert (answer.json()["created"], answer.json()["matched"]) == (0, 1)
    assert answer.json()["rejected"] == [{"line": 3, "reason": "duplicate of line 2"}]
    assert Player.objects.count() == 1
    assert list(Entry.objects.filter(tournament=swiss).values_list("player", flat=True)) == [
        jana.pk
    ]


def test_a_similar_name_of_another_club_is_held_back_then_created_when_allowed(boss, swiss, jana):
    url = f"/api/tournaments/{swiss.pk}/players/import/"
    body: dict[str, Any] = {
        "text": "name,club,rating\nJana Novakova,Praha,1600\nPetr Malý,Praha,\n"
    }
    held = api_for(boss).post(url, body, format="json").json()
    assert held["created"] == 1 and Player.objects.filter(name="Jana Novakova").count() == 0
    assert held["similar"] == [
        {
            "line": 2,
            "name": "Jana Novakova",
            "created": None,
            "players": [{"id": jana.pk, "name": "Jana Nováková (Brno)"}],
        }
    ]
    assert "looks like Jana Nováková (Brno)" in held["rejected"][0]["reason"]
    body["create_similar"] = True
    made = api_for(boss).post(url, body, format="json").json()
    new = Player.objects.get(name="Jana Novakova")
    assert made["created"] == 1 and made["similar"][0]["created"] == new.pk


def test_a_formula_name_is_refused_by_the_csv_the_form_and_the_api(boss, swiss):
    staff = User.objects.create_user("staff", password="a-long-secret-1", is_staff=True)
    answer = api_for(staff).post(
        "/api/players/import/", {"text": "name\n=cmd|' /C calc'!A0\n@SUM(A1)\nAdam\n"},
        format="json",
    )  # fmt: skip
    assert answer.json()["created"] == 1
    reasons = [r["reason"] for r in answer.json()["rejected"]]
    assert len(reasons) == 2 and all("a spreadsheet reads it as a formula" in r for r in reasons)
    made = api_for(staff).post("/api/players/", {"name": "+1+2"}, format="json")
    assert made.status_code == 400 and made.json()["code"] == "name-formula"
    client = Client()
    client.force_login(boss)
    page = client.post(
        reverse("tournaments:entries", args=[swiss.pk]), {"new_name": "=cmd"},
        HTTP_ACCEPT_LANGUAGE="cs",
    )  # fmt: skip
    assert page.status_code == 400
    assert "tabulkový procesor" in page.content.decode()
    assert not Player.objects.filter(name__startswith="=").exists()
    assert not Player.objects.filter(name__startswith="+").exists()


def test_a_paired_round_robin_takes_no_player_by_csv_form_or_api(boss):
    t = round_robin(4, by=boss)
    before = (Player.objects.count(), Entry.objects.filter(tournament=t).count())
    answer = api_for(boss).post(
        f"/api/tournaments/{t.pk}/players/import/", {"text": "name\nA\nB\nC\n"}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "round-robin-paired"
    assert "round robin is paired already" in answer.json()["detail"]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(boss)
    url = reverse("tournaments:tournament_players_import", args=[t.pk])
    refused = client.get(url, follow=True)
    assert "The round robin is paired already" in refused.content.decode()
    assert not Job.objects.exists()
    form = client.post(reverse("tournaments:entries", args=[t.pk]), {"new_name": "Late Comer"})
    assert form.status_code == 400 and "paired already" in form.content.decode()
    entry = api_for(boss).post(f"/api/tournaments/{t.pk}/entries/", {"name": "Late"}, format="json")
    assert entry.status_code == 400 and entry.json()["code"] == "round-robin-paired"
    assert (Player.objects.count(), Entry.objects.filter(tournament=t).count()) == before


def test_the_import_page_lists_the_lines_held_back_and_the_known_spellings(boss, swiss, jana):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(boss)
    url = reverse("tournaments:tournament_players_import", args=[swiss.pk])
    text = "name,club\nJana Novakova,Brno\nJana Novakova,Praha\n"
    response = client.post(url, {"file": csv_file(text)})
    assert response.status_code == 302, response.content.decode()[:2000]
    html = client.get(response["Location"]).content.decode()
    assert "line 2: “Jana Novakova” = Jana Nováková" in html
    assert "line 3: “Jana Novakova” looks like" in html
