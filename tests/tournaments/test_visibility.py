"""Unpublished tournaments leak nowhere (tournaments/selectors/access.py): a finished
series of an unpublished tournament, its game, its opponent's name and its rating history
entry are seen by its director only - not by the public, not by another player, not even
by the players of the series - on the pages and through every API endpoint."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import World
from tournaments.models import Entry, Game, Player, RatingChange, Series, Tournament
from tournaments.services.results import game_enter_quick
from tournaments.services.submissions import submission_create

pytestmark = pytest.mark.django_db

# who looks, and whether they may see the unpublished tournament
VIEWERS = [(None, False), ("petr", False), ("jana", False), ("otherboss", False), ("boss", True)]


class Secret:
    """An unpublished tournament directed by ``boss``: Jana beat Zdeněk Hidden (rated),
    and Jana - Petr is open with a result Petr submitted."""

    def __init__(self, w: World) -> None:
        self.tournament = Tournament.objects.create(
            name="Secret cup", start_date=datetime.date(2026, 9, 1), series_length=1,
            published=False,
        )  # fmt: skip
        self.tournament.directors.add(w.users["boss"])
        jana, petr = w.players["jana"], w.players["petr"]
        self.hidden = Player.objects.create(name="Zdeněk Hidden")
        for p in (jana, petr, self.hidden):
            Entry.objects.create(tournament=self.tournament, player=p)
        self.series = Series.objects.create(
            tournament=self.tournament, player1=jana, player2=self.hidden
        )
        self.game = game_enter_quick(series=self.series, white=jana, winner=jana, kind="oin")
        self.open = Series.objects.create(tournament=self.tournament, player1=jana, player2=petr)
        self.submission = submission_create(
            series=self.open, by=w.users["petr"], number=1, white=petr, winner=petr, kind="oin"
        )


@pytest.fixture
def secret(world: World) -> Secret:
    made = Secret(world)
    assert RatingChange.objects.filter(series=made.series).count() == 2  # it is rated
    return made


def page_client(w: World, role: str | None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if role is not None:
        client.force_login(w.users[role])
    return client


@pytest.mark.parametrize(("role", "sees"), VIEWERS)
def test_player_page_rating_history_and_series(
    world: World, secret: Secret, role: str | None, sees: bool
) -> None:
    client = page_client(world, role)
    jana_page = reverse("tournaments:player", args=[world.players["jana"].pk])
    hidden_page = reverse("tournaments:player", args=[secret.hidden.pk])
    pages = [client.get(url).content.decode() for url in (jana_page, hidden_page)]
    assert ("Zdeněk Hidden" in pages[0]) is sees  # the opponent's name
    assert ("Jana" in pages[1]) is sees
    for html in pages:
        assert ("Secret cup" in html) is sees
        assert (reverse("tournaments:series", args=[secret.series.pk]) in html) is sees
        assert ("<polyline" in html) is sees  # Jana's only rated series is the hidden one


@pytest.mark.parametrize(("role", "sees"), VIEWERS)
def test_home_series_game_and_entry_pages(
    world: World, secret: Secret, role: str | None, sees: bool
) -> None:
    client = page_client(world, role)
    assert ("Secret cup" in client.get(reverse("tournaments:home")).content.decode()) is sees
    for url in (
        reverse("tournaments:tournament", args=[secret.tournament.pk]),
        reverse("tournaments:series", args=[secret.series.pk]),
        reverse("tournaments:game", args=[secret.game.pk]),
    ):
        assert client.get(url).status_code == (200 if sees else 404)
    if role == "petr":  # a player of the open series may not enter a result there either
        response = client.post(reverse("tournaments:enter_quick", args=[secret.open.pk]), {})
        assert response.status_code == 404


@pytest.mark.parametrize(("role", "sees"), [("jana", False), ("boss", True)])
def test_confirmations_page(world: World, secret: Secret, role: str, sees: bool) -> None:
    html = page_client(world, role).get(reverse("tournaments:confirmations")).content.decode()
    assert ("Secret cup" in html or "Jana - Petr" in html) is sees


@pytest.mark.parametrize(("role", "sees"), VIEWERS)
def test_api_endpoints(world: World, secret: Secret, role: str | None, sees: bool) -> None:
    client = world.client(role)
    jana, hidden = world.players["jana"].pk, secret.hidden.pk
    for pk in (jana, hidden):
        ratings = client.get(f"/api/players/{pk}/ratings/")
        assert ratings.status_code == 200
        assert (secret.series.pk in [r["series"] for r in ratings.json()]) is sees
        assert (secret.tournament.pk in [r["tournament"] for r in ratings.json()]) is sees
        assert client.get(f"/api/players/{pk}/").status_code == 200  # no series in it
    series = client.get("/api/series/", {"player": jana}).json()["results"]
    assert (secret.series.pk in [s["id"] for s in series]) is sees
    games = client.get("/api/games/").json()["results"]
    assert (secret.game.pk in [g["id"] for g in games]) is sees
    subs = client.get("/api/submissions/").json()["results"]
    assert (secret.submission.pk in [s["id"] for s in subs]) is sees
    tournaments = client.get("/api/tournaments/").json()["results"]
    assert (secret.tournament.pk in [t["id"] for t in tournaments]) is sees
    for url in (
        f"/api/tournaments/{secret.tournament.pk}/",
        f"/api/tournaments/{secret.tournament.pk}/standings/",
        f"/api/tournaments/{secret.tournament.pk}/standings.csv",
        f"/api/series/{secret.series.pk}/",
        f"/api/games/{secret.game.pk}/",
        f"/api/games/{secret.game.pk}/record.nrd",
    ):
        assert client.get(url).status_code == (200 if sees else 404), url


def test_the_rating_still_counts_the_hidden_series(world: World, secret: Secret) -> None:
    """Decision: an unpublished tournament's series change ratings; only the history
    entry is hidden, so the rating shown includes it."""
    jana = Player.objects.get(pk=world.players["jana"].pk)
    change = RatingChange.objects.get(series=secret.series, player=jana)
    shown = world.client(None).get(f"/api/players/{jana.pk}/").json()["rating"]
    assert shown == pytest.approx(change.after) and change.after > change.before
    assert world.client(None).get(f"/api/players/{jana.pk}/ratings/").json() == []


def test_superuser_sees_everything(world: World, secret: Secret) -> None:
    root = User.objects.create_superuser("root", password="pw-root-long-1")
    client = Client()
    client.force_login(root)
    html = client.get(reverse("tournaments:player", args=[secret.hidden.pk])).content.decode()
    assert "Secret cup" in html
    assert Game.objects.filter(pk=secret.game.pk).exists()


@pytest.mark.parametrize(("role", "sees"), VIEWERS)
def test_list_filters_do_not_tell_hidden_ids_from_missing_ones(
    world: World, secret: Secret, role: str | None, sees: bool
) -> None:
    """A filter by an unpublished tournament's (or its series') id answers exactly as one
    by an id that does not exist - an empty list - to whoever may not see it; before,
    the choice filters answered 400 for a missing id and 200 for a hidden one."""
    client = world.client(role)
    missing = 10**9
    hidden = {
        "/api/series/": {"tournament": secret.tournament.pk},
        "/api/rounds/": {"tournament": secret.tournament.pk},
        "/api/games/": {"series": secret.series.pk},
        "/api/submissions/": {"series": secret.open.pk},
    }
    for url, params in hidden.items():
        found = client.get(url, params)
        (name,) = params
        gone = client.get(url, {name: missing})
        assert found.status_code == gone.status_code == 200, url
        assert gone.json()["results"] == []
        assert (found.json()["results"] != []) is (sees and url != "/api/rounds/"), url
