"""Every door (docs/architecture.md) writes through the services, which hold the
invariants. What may not change once a round is paired (the game, the format, the
scoring, the series' length, the rule options) is refused by the API (400), the settings
page (a form error) and the admin's change form alike; a tournament's name, dates and
venue stay editable. Creating tournaments, clubs and players through the API or the admin
goes through the services too: an invariant only the service knows is enforced there."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import EN, World, admin_form_data, tournament_data
from tests.tournaments.pages_data import director, round_robin
from tournaments.models import Club, Entry, Player, Series, Tournament

pytestmark = pytest.mark.django_db
RLO = "\u202e"


@pytest.mark.parametrize(
    ("field", "value"),
    [("variant", "short"), ("format", "swiss"), ("series_length", 7), ("mars", False),
     ("points_series_win", "3.00"), ("first_move", "winner")],
)  # fmt: skip
def test_api_patch_of_a_locked_setting_after_pairing_is_400(world: World, field, value):
    before = Tournament.objects.filter(pk=world.tournament.pk).values().get()
    answer = world.client("boss").patch(
        f"/api/tournaments/{world.tournament.pk}/", {field: value}, format="json"
    )
    assert answer.status_code == 400, answer.json()
    assert answer.json()["field"] == field
    assert Tournament.objects.filter(pk=world.tournament.pk).values().get() == before


def test_api_patch_of_name_and_venue_after_pairing_is_saved(world: World):
    answer = world.client("boss").patch(
        f"/api/tournaments/{world.tournament.pk}/",
        {"name": " Přebor 2026 ", "venue": "Sokolovna", "variant": "long"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    world.tournament.refresh_from_db()
    assert (world.tournament.name, world.tournament.venue) == ("Přebor 2026", "Sokolovna")


def test_api_variant_may_change_before_pairing(world: World):
    other = world.users["otherboss"]
    answer = world.client("otherboss").patch(
        f"/api/tournaments/{world.other.pk}/", {"variant": "short"}, format="json"
    )
    assert other in world.other.directors.all()
    assert answer.status_code == 200
    world.other.refresh_from_db()
    assert world.other.variant == "short"


def test_settings_page_refuses_the_variant_after_pairing(client: Client):
    boss = director()
    t = round_robin(4, by=boss)
    client.force_login(boss)
    edit = reverse("tournaments:tournament_edit", args=[t.pk])
    data = tournament_data(name="Cup renamed", series_length="1", variant="short")
    response = client.post(edit, data, **EN)
    assert response.status_code == 400
    assert "cannot change once series are paired" in response.content.decode()
    t.refresh_from_db()
    assert (t.variant, t.name) == ("long", "Club cup")


def test_admin_change_form_refuses_the_variant_after_pairing(admin_client: Client):
    t = round_robin(4)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    data = admin_form_data(admin_client.get(url))
    data["tie_breaks"] = '["buchholz"]'
    response = admin_client.post(url, {**data, "variant": "short", "venue": "Sokolovna"}, **EN)
    assert response.status_code == 200  # the form again, with the service's refusal
    assert "cannot change once series are paired" in response.content.decode()
    t.refresh_from_db()
    assert (t.variant, t.venue) == ("long", "")
    response = admin_client.post(url, {**data, "venue": "Sokolovna"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.variant, t.venue, t.tie_breaks) == ("long", "Sokolovna", ["buchholz"])


def test_admin_adds_tournament_club_and_player_through_the_services(admin_client: Client):
    day = {"start_date": "2026-06-01", "variant": "long", "format": "manual",
           "series_mode": "points", "series_length": "5", "first_move": "loser",
           "block_check": "turn-end", "block_ahead": "anywhere", "draw_scoring": "half",
           "points_series_win": "1", "points_series_draw": "0.5", "points_series_loss": "0",
           "points_per_game_point": "0", "tie_breaks": "[\"buchholz\"]", "bye_points": "1",
           "forfeit_game_points": "0", "lengths_by_stage": "{}", "withdrawal": "forfeit",
           "opening_roll": "lot",
           "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0",
           "rounds-TOTAL_FORMS": "0", "rounds-INITIAL_FORMS": "0"}  # fmt: skip
    add = reverse("admin:tournaments_tournament_add")
    response = admin_client.post(add, {**day, "name": f"Cup{RLO}"}, **EN)
    assert response.status_code == 200 and "invisible or control characters" in (
        response.content.decode()
    )
    assert not Tournament.objects.exists()
    assert admin_client.post(add, {**day, "name": " Cup "}).status_code == 302
    assert Tournament.objects.get().name == "Cup"

    club_add = reverse("admin:tournaments_club_add")
    response = admin_client.post(club_add, {"name": "Brno\u200b"}, **EN)
    assert response.status_code == 200 and not Club.objects.exists()

    player_add = reverse("admin:tournaments_player_add")
    assert (
        admin_client.post(
            player_add, {"name": "Jana", "active": "on", "start_rating": "1500"}
        ).status_code
        == 302
    )
    # no club: the database's unique constraint does not hold, the service does
    response = admin_client.post(
        player_add, {"name": "Jana ", "active": "on", "start_rating": "1500"}, **EN
    )
    assert response.status_code == 200 and "already a player" in response.content.decode()
    assert Player.objects.filter(name="Jana").count() == 1


def test_admin_pairs_by_hand_through_the_service(admin_client: Client):
    t = round_robin(4)
    outsider = Player.objects.create(name="Outsider")
    p1 = Entry.objects.filter(tournament=t).first()
    assert p1 is not None
    add = reverse("admin:tournaments_series_add")
    before = Series.objects.count()
    body = {"tournament": t.pk, "player1": p1.player_id, "player2": outsider.pk,
            "games-TOTAL_FORMS": "0", "games-INITIAL_FORMS": "0"}  # fmt: skip
    response = admin_client.post(add, body, **EN)
    assert response.status_code == 200 and "not registered" in response.content.decode()
    assert Series.objects.count() == before


def test_api_creates_tournaments_clubs_and_players_through_the_services(world: World):
    staff = world.client("staff")
    answer = staff.post("/api/tournaments/", {"name": f"{RLO}Cup", "start_date": "2026-12-01"})
    assert answer.status_code == 400 and answer.json()["field"] == "name"
    answer = staff.post("/api/tournaments/", {"name": " Cup ", "start_date": "2026-12-01"})
    assert answer.status_code == 201
    created = Tournament.objects.get(pk=answer.json()["id"])
    assert created.name == "Cup" and list(created.directors.all()) == [world.users["staff"]]

    assert staff.post("/api/clubs/", {"name": "Praha\u200d"}).status_code == 400
    assert not Club.objects.filter(name__startswith="Praha").exists()

    assert staff.post("/api/players/", {"name": "Nový"}).status_code == 201
    answer = staff.post("/api/players/", {"name": "Nový"})  # no club: only the service knows
    assert answer.status_code == 400 and answer.json()["field"] == "name"
    assert Player.objects.filter(name="Nový").count() == 1
    jana = world.players["jana"]
    answer = staff.patch(f"/api/players/{jana.pk}/", {"name": f"Jana{RLO}"}, format="json")
    assert answer.status_code == 400
    jana.refresh_from_db()
    assert jana.name == "Jana"
