"""A rating given on import (players CSV, archive) or registration is where the player's
rating history starts (docs/ratings.md): a recompute starts them from it,
not from 1500. Through the CSV upload page, the API and the archive import."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.helpers import World, play_out, rating_of
from tournaments.models import Player, Series, SeriesStatus
from tournaments.services.archives import tournament_import
from tournaments.services.exports import tournament_archive
from tournaments.services.ratings import ratings_after_series, ratings_recompute

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)

# Nova (1710, newcomer) beats Jana (1500, newcomer) in a series to 5: the favourite won,
# so P = P_upset = 1 / (10^(210·√5/2000) + 1) = 1 / (10^0.2347871 + 1) = 1 / 2.7170666
# = 0.3680440; both have K = 5: 4·5·√5·P = 16.45943 each way.
NOVA_AFTER = 1710 + 16.45943
JANA_AFTER = 1500 - 16.45943


@pytest.fixture(autouse=True)
def inline(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""


def _upload(text: str) -> io.BytesIO:
    data = io.BytesIO(text.encode("utf-8"))
    data.name = "players.csv"
    return data


def _nova_beats_jana(world: World) -> Series:
    nova = Player.objects.get(name="Nova")
    series = Series.objects.create(
        tournament=world.tournament, player1=nova, player2=world.players["jana"],
        status=SeriesStatus.FINISHED, winner=nova, finished_at=T0,
    )  # fmt: skip
    ratings_after_series(series=series)
    return series


def _history_starts_at_the_csv_rating(world: World) -> None:
    nova, game = Player.objects.get(name="Nova"), world.tournament.variant
    assert (rating_of(nova, game).rating, rating_of(nova, game).start_rating) == (1710, 1710)
    _nova_beats_jana(world)
    ratings_recompute()  # what an archive import or a correction elsewhere does
    first = nova.rating_changes.get()
    assert first.before == 1710
    assert rating_of(nova, game).rating == pytest.approx(NOVA_AFTER, abs=1e-4)
    jana = Player.objects.get(pk=world.players["jana"].pk)
    assert rating_of(jana, game).rating == pytest.approx(JANA_AFTER, abs=1e-4)


@pytest.mark.django_db
def test_the_csv_upload_page_gives_the_start_of_the_history(world: World) -> None:
    client = Client()
    client.force_login(world.users["boss"])
    url = f"/tournaments/{world.tournament.pk}/players/import/"
    response = client.post(url, {"file": _upload("name,club,rating\nNova,,1710\n")})
    assert response.status_code == 302
    _history_starts_at_the_csv_rating(world)


@pytest.mark.django_db
def test_the_api_csv_import_gives_the_start_of_the_history(world: World) -> None:
    answer = world.client("boss").post(
        f"/api/tournaments/{world.tournament.pk}/players/import/",
        {"text": "name,club,rating\nNova,,1710\n"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    _history_starts_at_the_csv_rating(world)


@pytest.mark.django_db
def test_a_rating_given_through_the_api_is_the_start(world: World) -> None:
    staff = world.client("staff")
    made = staff.post("/api/players/", {"name": "Nova", "rating": 1710}, format="json")
    assert made.status_code == 201, made.content
    assert (made.json()["rating"], made.json()["start_rating"]) == (1710, 1710)
    _history_starts_at_the_csv_rating(world)
    # a client sending back the rating it read changes nothing
    nova = Player.objects.get(name="Nova")
    read = staff.get(f"/api/players/{nova.pk}/").json()
    assert staff.put(f"/api/players/{nova.pk}/", read, format="json").status_code == 200
    assert rating_of(nova).start_rating == 1710
    assert rating_of(nova).rating == pytest.approx(NOVA_AFTER, abs=1e-4)
    # a new start replays the history from it: 1560 beats 1500, P = 1 / (10^(60·√5/2000)
    # + 1) = 1 / (10^0.0670820 + 1) = 1 / 2.1670301 = 0.4614611: 4·5·√5·P = 20.63717
    answer = staff.patch(f"/api/players/{nova.pk}/", {"start_rating": 1560}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["rating"] == pytest.approx(1560 + 20.63717, abs=1e-4)
    assert nova.rating_changes.get().before == 1560
    bad = staff.patch(f"/api/players/{nova.pk}/", {"start_rating": 0}, format="json")
    assert bad.status_code == 400


@pytest.mark.django_db
def test_an_archive_gives_new_players_their_archived_start(world: World) -> None:
    answer = world.client("boss").post(
        f"/api/tournaments/{world.tournament.pk}/players/import/",
        {"text": "name,club,rating\nNova,,1710\n"},
        format="json",
    )
    assert answer.status_code == 201
    nova = Player.objects.get(name="Nova")
    series = Series.objects.create(
        tournament=world.tournament, player1=nova, player2=world.players["jana"], table=3
    )
    play_out(series, seed=0, records=False)  # the archive holds the games
    archive = tournament_archive(world.tournament)
    for p in archive["players"]:  # another site: the others are new there too
        p["name"] += " (copy)"
    tournament_import(archive=archive, name="Copy", as_copy=True, as_archived=True)
    copy = Player.objects.get(name="Nova (copy)")
    game = world.tournament.variant
    assert rating_of(copy, game).start_rating == 1710
    assert copy.rating_changes.get().before == 1710
    rating = rating_of(copy, game).rating
    assert rating == pytest.approx(rating_of(nova, game).rating, abs=1e-9) and rating != 1710
