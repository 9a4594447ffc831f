"""The API's resources and actions: lists with filters, ordering and a fixed number of
queries; entering games (400 with the record's place, 409 with the current value);
corrections; submissions; verification; token authentication."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import World, a_record
from tournaments.models import Game, Player, Series
from tournaments.services.results import game_enter_quick, game_enter_record

pytestmark = pytest.mark.django_db


def test_lists_are_public_paginated_and_filtered(world: World):
    client = world.client(None)
    players = client.get("/api/players/", {"name": "an"}).json()
    assert players["count"] == 1 and players["results"][0]["name"] == "Jana"
    assert players["results"][0]["club_name"] == "Brno"
    assert "contact" not in players["results"][0]
    jana = world.players["jana"].pk
    series = client.get("/api/series/", {"player": jana}).json()
    assert [s["id"] for s in series["results"]] == [world.series.pk]
    assert client.get("/api/series/", {"status": "finished"}).json()["count"] == 0
    ordered = client.get("/api/players/", {"ordering": "-name"}).json()["results"]
    assert [p["name"] for p in ordered] == ["Petr", "Karel", "Jana", "Eva"]
    assert client.get("/api/series/", {"status": "nonsense"}).status_code == 400


def test_list_endpoints_make_a_fixed_number_of_queries(world: World, django_assert_max_num_queries):
    p = world.players
    for _ in range(3):  # the loser starts the next game (L12)
        game_enter_quick(series=world.series, white=p["jana"], winner=p["petr"], kind="oin")
    for _ in range(20):
        Series.objects.create(tournament=world.tournament, player1=p["jana"], player2=p["eva"])
    client = world.client("boss")
    with django_assert_max_num_queries(6):
        assert client.get("/api/series/").json()["count"] == 22
    with django_assert_max_num_queries(6):
        assert client.get("/api/games/", {"tournament": world.tournament.pk}).json()["count"] == 3
    with django_assert_max_num_queries(6):
        assert client.get("/api/players/").json()["count"] == 4
    with django_assert_max_num_queries(6):
        assert len(client.get(f"/api/tournaments/{world.tournament.pk}/standings/").json()) == 4


def test_quick_entry_then_the_same_game_again_is_a_conflict(world: World):
    p, boss = world.players, world.client("boss")
    url = f"/api/series/{world.series.pk}/games/quick/"
    body = {"white": p["jana"].pk, "winner": p["jana"].pk, "kind": "mars", "number": 1}
    first = boss.post(url, body, format="json")
    assert first.status_code == 201, first.content
    assert first.json()["value"] == 2
    again = boss.post(url, body | {"kind": "oin"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 409
    assert again.json()["current"]["kind"] == "mars"
    assert again.json()["current"]["number"] == 1
    assert "already entered" in again.json()["detail"]


def test_a_refused_quick_result_answers_400_with_the_field(world: World):
    p, boss = world.players, world.client("boss")
    url = f"/api/series/{world.series.pk}/games/quick/"
    body = {"white": p["eva"].pk, "winner": p["jana"].pk, "kind": "oin"}
    response = boss.post(url, body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "white"
    missing = boss.post(url, {"white": 999999, "kind": "oin"}, format="json")
    assert missing.status_code == 400 and "winner" in missing.json()["errors"]


def test_an_illegal_record_answers_400_with_its_place(world: World):
    text = a_record("Jana", "Petr", seed=3)
    lines = text.splitlines()
    # spoil the first turn: a move from an empty point
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[first] = "1. 64: 23/17 " + lines[first].split(" ", 3)[3]
    response = world.client("boss").post(
        f"/api/series/{world.series.pk}/games/record/",
        {"record": "\n".join(lines) + "\n"},
        format="json",
    )
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == "record" and body["line"] == first + 1 and body["col"]
    assert set(body) == {"detail", "code", "params", "field", "line", "col", "rule"}
    assert not Game.objects.exists()


def test_a_record_is_entered_and_verified(world: World):
    text = a_record("Jana", "Petr", seed=5)
    response = world.client("boss").post(
        f"/api/series/{world.series.pk}/games/record/", {"record": text}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["verified"] is True
    assert response.json()["record"].startswith('[Variant "long"]')


def test_a_correction_on_a_stale_version_is_a_conflict(world: World):
    p = world.players
    game = game_enter_quick(series=world.series, white=p["jana"], winner=p["jana"], kind="oin")
    boss = world.client("boss")
    url = f"/api/games/{game.pk}/correct/"
    ok = boss.post(url, {"reason": "it was a mars", "version": 0, "kind": "mars"}, format="json")
    assert ok.status_code == 200, ok.content
    assert ok.json()["version"] == 1 and ok.json()["corrections"][0]["reason"] == "it was a mars"
    stale = boss.post(url, {"reason": "oin after all", "version": 0, "kind": "oin"}, format="json")
    assert stale.status_code == 409
    assert stale.json()["current"]["kind"] == "mars" and stale.json()["current"]["version"] == 1
    no_reason = boss.post(url, {"reason": " ", "version": 1, "kind": "oin"}, format="json")
    assert no_reason.status_code == 400


def test_submission_confirmed_by_the_opponent(world: World):
    p = world.players
    body = {"number": 1, "white": p["jana"].pk, "winner": p["jana"].pk, "kind": "oin"}
    sub = world.client("jana").post(
        f"/api/series/{world.series.pk}/submissions/", body, format="json"
    )
    assert sub.status_code == 201, sub.content
    twice = world.client("jana").post(
        f"/api/series/{world.series.pk}/submissions/", body, format="json"
    )
    assert twice.status_code == 409
    own = world.client("jana").post(f"/api/submissions/{sub.json()['id']}/confirm/")
    assert own.status_code == 403
    done = world.client("petr").post(f"/api/submissions/{sub.json()['id']}/confirm/")
    assert done.status_code == 200 and done.json()["status"] == "confirmed"
    assert done.json()["game"] == Game.objects.get().pk


def test_round_generation_and_rating_history(world: World):
    world.series.delete()
    world.other_series.delete()
    boss = world.client("boss")
    url = f"/api/tournaments/{world.tournament.pk}/rounds/generate/"
    made = boss.post(url, {}, format="json")
    assert made.status_code == 201 and made.json()["number"] == 1
    again = boss.post(url, {}, format="json")
    assert again.status_code == 400 and again.json()["field"] == "override"
    assert boss.post(url, {"override": True}, format="json").status_code == 201
    rounds = world.client(None).get("/api/rounds/", {"tournament": world.tournament.pk}).json()
    assert [r["number"] for r in rounds["results"]] == [1, 2]


def test_ratings_of_a_player(world: World):
    s = world.series
    for n, seed in enumerate((11, 12, 13, 14, 15, 16, 17, 18, 19), start=1):
        s.refresh_from_db()
        if s.closed:
            break
        white, black = ("Jana", "Petr") if n == 1 else _next_colours(s)
        game_enter_record(series=s, record=a_record(white, black, seed=seed * 7))
    s.refresh_from_db()
    assert s.closed
    history = world.client(None).get(f"/api/players/{world.players['jana'].pk}/ratings/").json()
    assert len(history) == 1 and history[0]["series"] == s.pk
    assert history[0]["tournament"] == world.tournament.pk


def _next_colours(series: Series) -> tuple[str, str]:
    from tournaments.services.series import series_next_white

    games = list(series.games.select_related("white", "black", "winner").order_by("number"))
    white = series_next_white(series, games)
    assert white is not None
    black = series.player2 if white.pk == series.player1_id else series.player1
    assert black is not None
    return white.name, black.name


def test_verify_reports_each_game(no_throttle, db):
    good = a_record("A", "B", seed=2)
    bad_syntax = '[Variant "long"]\n\n1. 64: 24/18/14 zz\n'
    result = replay_outcome(good)
    client = APIClient()
    response = client.post("/api/verify/", {"record": good + "\n" + bad_syntax}, format="json")
    assert response.status_code == 200
    games = response.json()["games"]
    assert games[0] == {"game": 1, "ok": True, "outcome": result, "error": None}
    assert games[1]["ok"] is False and games[1]["outcome"] is None
    error = games[1]["error"]
    assert error["line"] and error["col"] and error["message"]
    illegal = good.replace("\n1. ", "\n1. 64: 13/7 ", 1)
    games = client.post("/api/verify/", {"record": illegal}, format="json").json()["games"]
    assert games[0]["ok"] is False and games[0]["error"]["turn"] == 1
    assert client.post("/api/verify/", {}, format="json").status_code == 400


def replay_outcome(text: str) -> str:
    from engine import read_records, replay

    outcome = replay(read_records(text)[0]).outcome
    assert outcome is not None
    return outcome.result


def test_token_authentication(world: World):
    client = APIClient()
    response = client.post("/api/token/", {"username": "boss", "password": "pw-boss"})
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    p = world.players
    body = {"white": p["jana"].pk, "winner": None, "kind": "oin"}
    answer = client.post(f"/api/series/{world.series.pk}/games/quick/", body, format="json")
    assert answer.status_code == 400  # signed in: the service refuses a winnerless oin
    assert answer.json()["field"] == "winner"
    bad = APIClient().post("/api/token/", {"username": "boss", "password": "wrong"})
    assert bad.status_code == 400


def test_staff_edit_players_and_protected_deletes_conflict(world: World):
    staff = world.client("staff")
    jana = world.players["jana"]
    assert staff.patch(f"/api/players/{jana.pk}/", {"rating": 0}, format="json").status_code == 400
    assert staff.delete(f"/api/players/{jana.pk}/").status_code == 409  # she plays a series
    free = Player.objects.create(name="Free")
    assert staff.delete(f"/api/players/{free.pk}/").status_code == 204
