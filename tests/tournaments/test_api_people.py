"""A director's people through the API: a plain user who directs the tournament registers players
(warned of similar names), removes, withdraws and reinstates them, adds co-directors
and pairs kept apart, and invites a player who claims the profile; ``?event_format=``."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.core import mail
from rest_framework.test import APIClient

from tests.tournaments.helpers import EN
from tests.tournaments.pages_data import round_robin
from tournaments.models import Entry, Player, ProhibitedPair, Series, Tournament
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_throttle(settings):
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_CLASSES"] = []
    settings.REST_FRAMEWORK = rest


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def boss() -> User:
    return User.objects.create_user("boss", password="a-long-secret-1")


@pytest.fixture
def t(boss: User) -> Tournament:
    t = tournament_create(name="Open", start_date=datetime.date(2026, 6, 1), format="swiss")
    t.directors.add(boss)
    return t


def test_register_by_id_and_by_name_with_the_similar_names_warning(
    boss: User, t: Tournament
) -> None:
    eva = Player.objects.create(name="Eva Kučerová")
    api = client_for(boss)
    url = f"/api/tournaments/{t.pk}/entries/"
    answer = api.post(url, {"name": "eva kucerova"}, format="json")
    assert answer.status_code == 409
    assert answer.json()["current"] == [{"id": eva.pk, "name": "Eva Kučerová", "club": None}]
    assert Player.objects.count() == 1
    assert api.post(url, {"player": eva.pk}, format="json").status_code == 201
    made = api.post(url, {"name": "Eva Kucerova", "confirm_new": True}, format="json")
    assert made.status_code == 201 and made.json()["player_name"] == "Eva Kucerova"
    assert [e["player_name"] for e in api.get(url).json()] == ["Eva Kucerova", "Eva Kučerová"]
    assert api.post(url, {}, format="json").status_code == 400
    assert api.post(url, {"player": 999999}, format="json").status_code == 400
    # not a director: 403, nothing registered
    other = client_for(User.objects.create_user("other", password="a-long-secret-1"))
    assert other.post(url, {"name": "Someone"}, format="json").status_code == 403


def test_remove_withdraw_and_reinstate(boss: User) -> None:
    t = round_robin(4, by=boss)
    api = client_for(boss)
    s = Series.objects.filter(tournament=t, round__number=2, player2__isnull=False).first()
    assert s is not None and s.player1_id is not None
    paired = s.player1_id
    assert api.delete(f"/api/tournaments/{t.pk}/entries/{paired}/").status_code == 400
    answer = api.post(f"/api/tournaments/{t.pk}/entries/{paired}/withdraw/")
    assert answer.status_code == 200 and answer.json()["withdrawn"] is True
    s.refresh_from_db()
    assert s.status == "forfeited"
    answer = api.post(f"/api/tournaments/{t.pk}/entries/{paired}/reinstate/")
    assert answer.status_code == 200 and answer.json()["withdrawn"] is False
    s.refresh_from_db()
    assert s.status == "scheduled"
    assert api.post(f"/api/tournaments/{t.pk}/entries/{paired}/reinstate/").status_code == 400
    late = Player.objects.create(name="Late")
    # an entry left over from before the rule that a paired round robin takes nobody
    Entry.objects.create(tournament=t, player=late)
    assert api.delete(f"/api/tournaments/{t.pk}/entries/{late.pk}/").status_code == 204
    assert not Entry.objects.filter(tournament=t, player=late).exists()
    assert api.delete(f"/api/tournaments/{t.pk}/entries/{late.pk}/").status_code == 404


def test_co_directors_and_pairs_kept_apart(boss: User, t: Tournament) -> None:
    api = client_for(boss)
    helper = User.objects.create_user("helper", password="a-long-secret-1")
    url = f"/api/tournaments/{t.pk}/directors/"
    assert api.post(url, {"username": "helper"}, format="json").status_code == 201
    assert api.get(url).json() == [{"username": "boss"}, {"username": "helper"}]
    assert api.post(url, {"username": "ghost"}, format="json").status_code == 400
    # the co-director directs through the API too
    a, b = Player.objects.create(name="A"), Player.objects.create(name="B")
    for p in (a, b):
        entry_register(tournament=t, player=p)
    pairs = f"/api/tournaments/{t.pk}/prohibited-pairs/"
    made = client_for(helper).post(pairs, {"player_a": b.pk, "player_b": a.pk}, format="json")
    assert made.status_code == 201
    again = api.post(pairs, {"player_a": a.pk, "player_b": b.pk}, format="json")
    assert again.status_code == 400
    assert api.post(pairs, {"player_a": a.pk, "player_b": a.pk}, format="json").status_code == 400
    pair = ProhibitedPair.objects.get(tournament=t)
    assert api.delete(f"{pairs}{pair.pk}/").status_code == 204
    assert api.delete(f"{url}helper/").status_code == 204
    assert api.delete(f"{url}boss/").status_code == 400  # the last director stays
    assert client_for(helper).get(url).status_code == 403


def test_invitation_mailed_and_claimed_through_the_api(boss: User, t: Tournament) -> None:
    anna = Player.objects.create(name="Anna")
    entry_register(tournament=t, player=anna)
    url = f"/api/tournaments/{t.pk}/entries/{anna.pk}/invitation/"
    answer = client_for(boss).post(url, {"email": "anna@example.org"}, format="json")
    assert answer.status_code == 201
    token = answer.json()["token"]
    assert answer.json()["url"] in mail.outbox[0].body
    user = User.objects.create_user("anna", password="a-long-secret-1")
    assert client_for(None).post("/api/invitations/claim/", {"token": token}).status_code in (
        401,
        403,
    )
    claimed = client_for(user).post("/api/invitations/claim/", {"token": token}, format="json")
    assert claimed.status_code == 200 and claimed.json()["id"] == anna.pk
    anna.refresh_from_db()
    assert anna.user == user
    assert client_for(boss).get(f"/api/tournaments/{t.pk}/entries/").json()[0]["claimed"]
    # once claimed, the token and new invitations are refused
    other = User.objects.create_user("other", password="a-long-secret-1")
    assert client_for(other).post("/api/invitations/claim/", {"token": token}).status_code == 400
    assert client_for(boss).post(url, {}, format="json").status_code == 400
    forged = client_for(other).post("/api/invitations/claim/", {"token": token[:-2] + "xx"})
    assert forged.status_code == 400


def test_invitation_links_withdrawn_through_the_api(boss: User, t: Tournament) -> None:
    anna = Player.objects.create(name="Anna")
    entry_register(tournament=t, player=anna)
    url = f"/api/tournaments/{t.pk}/entries/{anna.pk}/invitation/"
    first = client_for(boss).post(url, {}, format="json").json()["token"]
    second = client_for(boss).post(url, {}, format="json").json()["token"]
    stranger = User.objects.create_user("stranger", password="a-long-secret-1")
    assert client_for(stranger).delete(url).status_code in (403, 404)
    assert client_for(boss).delete(url).status_code == 204
    user = User.objects.create_user("anna", password="a-long-secret-1")
    claim = "/api/invitations/claim/"
    for token in (first, second):
        refused = client_for(user).post(claim, {"token": token}, format="json", **EN)
        assert refused.status_code == 400
        assert refused.json()["code"] == "invitation-withdrawn"
    fresh = client_for(boss).post(url, {}, format="json").json()["token"]
    assert client_for(user).post(claim, {"token": fresh}, format="json").status_code == 200
    assert client_for(boss).delete(url).status_code == 400  # claimed: nothing to withdraw


def test_player_search_ignores_accents(boss: User) -> None:
    Player.objects.create(name="Eva Kučerová")
    found = APIClient().get("/api/players/search/", {"q": "KUCEROVA"}).json()
    assert [p["name"] for p in found] == ["Eva Kučerová"]


def test_event_format_filter_replaces_the_broken_format_one(boss: User, t: Tournament) -> None:
    """Finding: the documented ``?format=swiss`` answered 404 (DRF's output format)."""
    tournament_create(name="RR", start_date=datetime.date(2026, 6, 1), format="round_robin")
    answer = APIClient().get("/api/tournaments/", {"event_format": "swiss"})
    assert answer.status_code == 200
    assert [r["name"] for r in answer.json()["results"]] == ["Open"]
    assert APIClient().get("/api/tournaments/", {"event_format": "nonsense"}).status_code == 400
