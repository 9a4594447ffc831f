"""Every write endpoint tried by everyone: anonymous, a player of another series, a player
of this series, a director of another tournament and this tournament's director."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.tournaments.helpers import World, a_record
from tournaments.models import Game, Submission
from tournaments.services.results import game_enter_quick
from tournaments.services.submissions import submission_create

pytestmark = pytest.mark.django_db

ROLES = [None, "eva", "jana", "otherboss", "boss"]  # eva plays the other series


def quick(w: World) -> tuple[str, str, dict[str, Any]]:
    p = w.players
    body = {"white": p["jana"].pk, "winner": p["jana"].pk, "kind": "oin", "number": 1}
    return "post", f"/api/series/{w.series.pk}/games/quick/", body


def record(w: World) -> tuple[str, str, dict[str, Any]]:
    return (
        "post",
        f"/api/series/{w.series.pk}/games/record/",
        {"record": a_record("Jana", "Petr", seed=1)},
    )


def upload(w: World) -> tuple[str, str, dict[str, Any]]:
    return (
        "post",
        f"/api/series/{w.series.pk}/records/",
        {"record": a_record("Jana", "Petr", seed=1)},
    )


def submit(w: World) -> tuple[str, str, dict[str, Any]]:
    p = w.players
    body = {"number": 1, "white": p["jana"].pk, "winner": p["jana"].pk, "kind": "oin"}
    return "post", f"/api/series/{w.series.pk}/submissions/", body


def _pending(w: World) -> Submission:
    p = w.players
    return submission_create(
        series=w.series, by=w.users["petr"], number=1, white=p["petr"], winner=p["petr"],
        kind="oin",
    )  # fmt: skip


def confirm(w: World) -> tuple[str, str, dict[str, Any]]:
    return "post", f"/api/submissions/{_pending(w).pk}/confirm/", {}


def reject(w: World) -> tuple[str, str, dict[str, Any]]:
    return "post", f"/api/submissions/{_pending(w).pk}/reject/", {"note": "no"}


def correct(w: World) -> tuple[str, str, dict[str, Any]]:
    p = w.players
    game = game_enter_quick(series=w.series, white=p["jana"], winner=p["jana"], kind="oin")
    body = {"reason": "scoresheet said mars", "version": 0, "kind": "mars"}
    return "post", f"/api/games/{game.pk}/correct/", body


def generate(w: World) -> tuple[str, str, dict[str, Any]]:
    return "post", f"/api/tournaments/{w.tournament.pk}/rounds/generate/", {"override": False}


def bracket(w: World) -> tuple[str, str, dict[str, Any]]:
    w.tournament.format = "single_elimination"
    w.tournament.save()
    w.series.delete()
    w.other_series.delete()
    return "post", f"/api/tournaments/{w.tournament.pk}/bracket/", {}


def edit_tournament(w: World) -> tuple[str, str, dict[str, Any]]:
    return "patch", f"/api/tournaments/{w.tournament.pk}/", {"venue": "Sokolovna"}


def delete_tournament(w: World) -> tuple[str, str, dict[str, Any]]:
    return "delete", f"/api/tournaments/{w.tournament.pk}/", {"reason": "a test"}


def create_tournament(w: World) -> tuple[str, str, dict[str, Any]]:
    return "post", "/api/tournaments/", {"name": "New", "start_date": "2026-12-01"}


def create_club(w: World) -> tuple[str, str, dict[str, Any]]:
    return "post", "/api/clubs/", {"name": "Praha"}


def edit_player(w: World) -> tuple[str, str, dict[str, Any]]:
    return "patch", f"/api/players/{w.players['jana'].pk}/", {"rating": 1700}


def create_player(w: World) -> tuple[str, str, dict[str, Any]]:
    return "post", "/api/players/", {"name": "Nový"}


def import_players(w: World) -> tuple[str, str, dict[str, Any]]:
    return "post", "/api/players/import/", {"text": "name,club,rating\nNový,,1500\n"}


def import_tournament(w: World) -> tuple[str, str, dict[str, Any]]:
    return "post", "/api/tournaments/import/", {"format": "nardy-tournament-archive"}


def archive(w: World) -> tuple[str, str, dict[str, Any]]:
    return "get", f"/api/tournaments/{w.tournament.pk}/archive.json", {}


# expected status for: anonymous, other series' player, this series' player,
# another tournament's director, this tournament's director
MATRIX: list[tuple[Callable[[World], tuple[str, str, dict[str, Any]]], list[int]]] = [
    (quick, [403, 403, 403, 403, 201]),
    (record, [403, 403, 403, 403, 201]),
    (upload, [403, 403, 403, 403, 201]),
    (submit, [403, 403, 201, 403, 403]),
    (confirm, [403, 403, 200, 403, 200]),  # jana is the opponent of the submitter
    (reject, [403, 403, 200, 403, 200]),
    (correct, [403, 403, 403, 403, 200]),
    (generate, [403, 403, 403, 403, 201]),
    (bracket, [403, 403, 403, 403, 201]),
    (edit_tournament, [403, 403, 403, 403, 200]),
    (delete_tournament, [403, 403, 403, 403, 204]),
    (create_tournament, [403, 403, 403, 403, 403]),  # staff only
    (create_club, [403, 403, 403, 403, 403]),
    (edit_player, [403, 403, 403, 403, 403]),
    (create_player, [403, 403, 403, 403, 403]),
    (import_players, [403, 403, 403, 403, 403]),
    (import_tournament, [403, 403, 403, 403, 403]),
    (archive, [403, 403, 403, 403, 200]),
]

CASES = [
    pytest.param(make, role, expected, id=f"{make.__name__}-{role or 'anonymous'}")
    for make, statuses in MATRIX
    for role, expected in zip(ROLES, statuses, strict=True)
]


@pytest.mark.parametrize(("make", "role", "expected"), CASES)
def test_permission_matrix(world: World, make, role, expected):
    method, url, body = make(world)
    games_before = Game.objects.count()
    response = getattr(world.client(role), method)(url, body, format="json")
    assert response.status_code == expected, response.content
    if expected == 403 and make in (quick, record, upload):
        assert Game.objects.count() == games_before  # nothing was written


@pytest.mark.parametrize("make", [create_tournament, create_club, create_player, edit_player])
def test_staff_write_clubs_players_and_create_tournaments(world: World, make):
    method, url, body = make(world)
    response = getattr(world.client("staff"), method)(url, body, format="json")
    assert response.status_code in (200, 201), response.content


def test_staff_creating_a_tournament_directs_it(world: World):
    response = world.client("staff").post(
        "/api/tournaments/", {"name": "Open", "start_date": "2026-12-01"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["directors"] == [world.users["staff"].pk]


def test_an_unpublished_tournament_is_invisible_but_to_its_directors(world: World):
    world.tournament.published = False
    world.tournament.save()
    t, s = world.tournament.pk, world.series.pk
    for role in (None, "jana", "otherboss"):
        client = world.client(role)
        assert client.get(f"/api/tournaments/{t}/").status_code == 404
        assert client.get(f"/api/series/{s}/").status_code == 404
        assert client.get(f"/api/tournaments/{t}/standings.csv").status_code == 404
        ids = [x["id"] for x in client.get("/api/tournaments/").json()["results"]]
        assert t not in ids
        assert client.get("/api/series/", {"tournament": t}).json()["count"] == 0
    boss = world.client("boss")
    assert boss.get(f"/api/tournaments/{t}/").status_code == 200
    assert boss.get("/api/series/", {"tournament": t}).json()["count"] == 2
