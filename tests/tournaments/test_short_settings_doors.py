"""Short-backgammon settings reach every door (S2, S7), and names are cleaned at every
door: the API creates and shows a tournament's cube and opening roll, and locks
the opening roll once series are paired (S2: it decides which records are legal); the
players CSV import refuses invisible characters in names as the other doors do."""

from __future__ import annotations

import io

import pytest

from tests.tournaments.helpers import World
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db
RLO = "\u202e"


def test_api_creates_a_short_tournament_with_the_cube_and_the_opening_roll(world: World):
    staff = world.client("staff")
    answer = staff.post(
        "/api/tournaments/",
        {
            "name": "Krátké",
            "start_date": "2026-12-01",
            "variant": "short",
            "cube": True,
            "opening_roll": "fresh",
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    created = Tournament.objects.get(pk=answer.json()["id"])
    assert (created.cube, created.opening_roll) == (True, "fresh")
    shown = staff.get(f"/api/tournaments/{created.pk}/").json()
    assert (shown["cube"], shown["opening_roll"]) == (True, "fresh")


def test_the_opening_roll_is_locked_once_series_are_paired(world: World):
    Tournament.objects.filter(pk=world.tournament.pk).update(variant="short")
    before = Tournament.objects.filter(pk=world.tournament.pk).values().get()
    answer = world.client("boss").patch(
        f"/api/tournaments/{world.tournament.pk}/", {"opening_roll": "fresh"}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["field"] == "opening_roll"
    assert Tournament.objects.filter(pk=world.tournament.pk).values().get() == before


def test_players_csv_refuses_invisible_characters_in_names(world: World):
    data = f"name,club,rating\nEva{RLO}Nová,,1500\nAdam Malý,Brno\u200b,1500\nOta,,1500\n"
    file = io.BytesIO(data.encode())
    file.name = "players.csv"
    answer = world.client("staff").post("/api/players/import/", {"file": file}, format="multipart")
    assert answer.status_code == 201, answer.json()
    assert Player.objects.filter(name="Ota").exists()
    assert not Player.objects.filter(name__contains=RLO).exists()
    assert not Player.objects.filter(name="Adam Malý").exists()
    rejected = str(answer.json())
    assert "U+202E" in rejected and "U+200B" in rejected
