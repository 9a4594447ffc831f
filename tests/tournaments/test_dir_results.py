"""Results (docs/director_rounds.md): the whole scoresheet in one form (all or nothing), submitted
results on the series page, the rejection note for the submitter, the count of waiting
confirmations in the header, warnings before a correction, the audit trail, printing and
downloads; pages and API, as a director who is not a superuser."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.helpers import EN, tournament_data
from tests.tournaments.pages_data import director, round_robin
from tournaments.models import Correction, Game, Player, Series, Tournament
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.setup import entry_register, tournament_create
from tournaments.services.submissions import submission_create, submission_reject

pytestmark = pytest.mark.django_db


def api_as(user: User) -> APIClient:
    """A client of ``user`` that reads the answers in English (the messages are asserted)."""
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    return api


@pytest.fixture
def match() -> tuple[Series, User, dict[str, User]]:
    """A long nardy series to 3 points (loser starts the next game), two players with
    logins and a director who is not a superuser."""
    boss = director()
    t = tournament_create(name="Cup", start_date=datetime.date(2026, 5, 1), series_length=3)
    t.directors.add(boss)
    users = {n: User.objects.create_user(n, password="a-long-secret-1") for n in ("jana", "petr")}
    jana = Player.objects.create(name="Jana", user=users["jana"])
    petr = Player.objects.create(name="Petr", user=users["petr"])
    return Series.objects.create(tournament=t, player1=jana, player2=petr), boss, users


def sheet_data(lines: list[dict[str, object]]) -> dict[str, object]:
    data: dict[str, object] = {}
    for i, line in enumerate(lines, start=1):
        data |= {f"g{i}-{k}": v for k, v in ({"ended": "played", "cube": 1} | line).items()}
    return data


def test_a_whole_scoresheet_in_one_form(client: Client, match) -> None:
    s, boss, _ = match
    jana, petr = s.player1, s.player2
    client.force_login(boss)
    url = reverse("tournaments:series_sheet", args=[s.pk])
    assert client.get(url).status_code == 200
    # game 1: Jana white wins an oin; game 2: Petr (the loser) starts and wins a mars;
    # game 3: Jana starts and wins a mars: 3:2, Jana wins the series
    lines = [
        {"white": jana.pk, "winner": jana.pk, "kind": "oin"},
        {"white": petr.pk, "winner": petr.pk, "kind": "mars"},
        {"white": jana.pk, "winner": jana.pk, "kind": "mars"},
    ]
    response = client.post(url, sheet_data(lines))
    assert response.status_code == 302, response.content.decode()
    s.refresh_from_db()
    assert [g.number for g in s.games.all()] == [1, 2, 3]
    assert (s.score1, s.score2, s.status, s.winner_id) == (3, 2, "finished", jana.pk)


def test_one_refused_game_saves_none_of_the_sheet(client: Client, match) -> None:
    """Game 2 has the wrong starter (L12: the loser of game 1 starts): nothing saved."""
    s, boss, _ = match
    jana = s.player1
    client.force_login(boss)
    lines = [
        {"white": jana.pk, "winner": jana.pk, "kind": "oin"},
        {"white": jana.pk, "winner": jana.pk, "kind": "oin"},
    ]
    response = client.post(
        reverse("tournaments:series_sheet", args=[s.pk]), sheet_data(lines), **EN
    )
    assert response.status_code == 400
    assert "Game 2: Petr starts game 2" in response.content.decode()
    assert not Game.objects.filter(series=s).exists()


def test_the_scoresheet_through_the_api(match) -> None:
    s, boss, users = match
    jana, petr = s.player1, s.player2
    bad = {"games": [{"white": jana.pk, "winner": jana.pk, "kind": "oin"},
                     {"white": petr.pk, "winner": petr.pk, "kind": "koks"}]}  # fmt: skip
    response = api_as(boss).post(f"/api/series/{s.pk}/sheet/", bad, format="json")
    assert response.status_code == 400 and response.json()["detail"].startswith("Game 2:")
    assert not Game.objects.filter(series=s).exists()
    lines = [
        {"white": jana.pk, "winner": jana.pk, "kind": "mars"},
        {"white": petr.pk, "winner": petr.pk, "kind": "oin"},
    ]
    good = {"first": 1, "games": lines}
    response = api_as(boss).post(f"/api/series/{s.pk}/sheet/", good, format="json")
    assert response.status_code == 201 and [g["number"] for g in response.json()] == [1, 2]
    again = api_as(boss).post(f"/api/series/{s.pk}/sheet/", good, format="json")
    assert again.status_code == 409  # game 1 is entered already
    player = api_as(users["jana"]).post(f"/api/series/{s.pk}/sheet/", good, format="json")
    assert player.status_code == 403


def test_submissions_show_on_the_series_page_and_the_note_reaches_the_submitter(
    client: Client, match
) -> None:
    s, _boss, users = match
    jana = s.player1
    sub = submission_create(
        series=s, by=users["jana"], number=1, white=jana, winner=jana, kind="mars"
    )
    client.force_login(users["petr"])
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert "Submitted results" in page and "waiting for confirmation" in page
    submission_reject(submission=sub, by=users["petr"], note="it was an oin")
    client.force_login(users["jana"])
    mine = client.get(reverse("tournaments:confirmations"), **EN).content.decode()
    assert "rejected" in mine and "Petr: “it was an oin”" in mine  # the player, not the login
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert "it was an oin" in page
    listed = api_as(users["jana"]).get("/api/submissions/mine/").json()
    assert listed[0]["status"] == "rejected" and listed[0]["note"] == "it was an oin"


def test_the_header_counts_the_results_waiting_for_the_user(client: Client, match) -> None:
    s, boss, users = match
    jana = s.player1
    submission_create(series=s, by=users["jana"], number=1, white=jana, winner=jana, kind="oin")
    for user, waiting in ((users["petr"], 1), (boss, 1), (users["jana"], 0)):
        client.force_login(user)
        page = client.get(reverse("tournaments:home"), **EN).content.decode()
        assert ('id="waiting-count"' in page) == bool(waiting)
        if waiting:
            assert (
                f'id="waiting-count" title="results waiting for your confirmation">{waiting}<'
                in page
            )
        assert api_as(user).get("/api/submissions/waiting/").json() == {"count": waiting}
    client.force_login(users["petr"])
    with CaptureQueriesContext(connection) as with_count:
        client.get(reverse("tournaments:home"))
    client.logout()
    with CaptureQueriesContext(connection) as anonymous:
        client.get(reverse("tournaments:home"))
    counting = [q for q in with_count.captured_queries if "tournaments_submission" in q["sql"]]
    assert len(counting) == 1
    assert not [q for q in anonymous.captured_queries if "tournaments_submission" in q["sql"]]


def test_correcting_round_1_after_round_2_is_paired_warns_and_asks(client: Client) -> None:
    boss = director()
    round_robin(4, by=boss)
    game = Game.objects.filter(series__round__number=1, record="").select_related("series").first()
    assert game is not None
    loser = game.black if game.winner_id == game.white_id else game.white
    client.force_login(boss)
    url = reverse("tournaments:correct", args=[game.pk])
    assert "Round 2 was paired on the old result" in client.get(url, **EN).content.decode()
    data = {"white": game.white_id, "winner": loser.pk, "kind": "oin", "ended": "played",
            "cube": 1, "version": game.version, "reason": "wrong winner written"}  # fmt: skip
    response = client.post(url, data, **EN)
    assert response.status_code == 400 and "confirm the correction" in response.content.decode()
    assert Game.objects.get(pk=game.pk).winner_id == game.winner_id  # nothing changed
    response = client.post(url, data | {"confirmed": "1"})
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).winner_id == loser.pk
    warnings = api_as(boss).get(f"/api/games/{game.pk}/correction-warnings/").json()
    assert "Round 2 was paired" in warnings["warnings"][0]
    # the audit trail, on the series page, the game page and the API
    for name, pk in (("series", game.series_id), ("game", game.pk)):
        page = client.get(reverse(f"tournaments:{name}", args=[pk]), **EN).content.decode()
        assert "Corrections" in page and "wrong winner written" in page
        assert f"{loser.name} won (oin)" in page
    trail = APIClient().get(f"/api/series/{game.series_id}/corrections/").json()
    assert trail[0]["reason"] == "wrong winner written"
    assert trail[0]["after"] == f"Vyhrál(a) {loser.name} (oin)"  # the site's language
    english = APIClient(HTTP_ACCEPT_LANGUAGE="en").get(f"/api/series/{game.series_id}/corrections/")
    assert english.json()[0]["after"] == f"{loser.name} won (oin)"
    assert Correction.objects.filter(game=game).count() == 1


def test_series_length_change_keeps_a_finished_series_and_says_which(client: Client, match) -> None:
    """ "finished · to 7 points" was found: a new length asks for confirmation naming the
    series played to the old one, which keep it."""
    s, boss, _ = match
    jana = s.player1
    game_enter_quick(series=s, white=jana, winner=jana, kind="mars")
    s.refresh_from_db()
    game_enter_quick(series=s, white=s.player2, winner=jana, kind="oin")
    s.refresh_from_db()
    assert s.status == "finished"

    client.force_login(boss)
    data = tournament_data(name="Cup", format="manual", series_length="7")
    response = client.post(
        reverse("tournaments:tournament_edit", args=[s.tournament_id]), data, **EN
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "already started or finished keep the length they are played to, 3" in html
    assert "Jana - Petr" in html
    assert Tournament.objects.get(pk=s.tournament_id).series_length == 3
    response = client.post(
        reverse("tournaments:tournament_edit", args=[s.tournament_id]),
        {**data, "confirm": "1"}, **EN,
    )  # fmt: skip
    assert response.status_code == 302
    assert Tournament.objects.get(pk=s.tournament_id).series_length == 7
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert "to 3 points" in page and "to 7 points" not in page


def test_print_pages_show_the_round_and_the_bye_and_links_to_downloads(client: Client) -> None:
    boss = director()
    t = round_robin(5, by=boss)
    bye = Series.objects.select_related("player1").get(round__number=2, player2__isnull=True)
    page = client.get(reverse("tournaments:print_round", args=[t.pk, 2]), **EN).content.decode()
    assert "Round 2" in page and "bye" in page and bye.player1.name in page
    old = client.get(reverse("tournaments:print", args=[t.pk]), **EN).content.decode()
    assert "Round 2" in old and f"Round 2: {bye.player1.name} has a bye." in old
    standings = client.get(reverse("tournaments:print_standings", args=[t.pk]), **EN)
    assert standings.status_code == 200 and "Crosstable" in standings.content.decode()
    page = client.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    assert reverse("api:standings-csv", args=[t.pk]) in page
    assert reverse("api:crosstable-csv", args=[t.pk]) in page
    assert reverse("api:tournament-archive", args=[t.pk]) not in page  # directors only
    assert reverse("tournaments:tournament_import") not in page
    client.force_login(boss)
    page = client.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    assert reverse("api:tournament-archive", args=[t.pk]) in page
    assert reverse("tournaments:round_manage", args=[t.pk, 2]) in page
    assert reverse("tournaments:tournament_import") not in page  # for who may create one
    assert reverse("tournaments:tournament_players_import", args=[t.pk]) in page  # directors
    boss.is_staff = True
    boss.save()
    page = client.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    assert reverse("tournaments:tournament_import") in page
    assert reverse("tournaments:players_import") in page


def test_round_generate_still_works_after_a_swap() -> None:
    """A swapped round is finished and the next is paired as usual (the pairing note of a
    changed series keeps no floats)."""
    boss = director()
    t = tournament_create(
        name="Swiss", start_date=datetime.date(2026, 5, 1), format="swiss", series_length=1
    )
    t.directors.add(boss)
    for i in range(4):
        entry_register(tournament=t, player=Player.objects.create(name=f"S{i}"))
    rnd = round_generate(tournament=t)
    a, b = (s.player1 for s in rnd.series.select_related("player1")[:2])
    response = api_as(boss).post(
        f"/api/rounds/{rnd.pk}/swap/", {"player_a": a.pk, "player_b": b.pk}, format="json"
    )
    assert response.status_code == 200
    for s in rnd.series.select_related("player1", "player2", "tournament"):
        game_enter_quick(series=s, white=s.player1, winner=s.player1, kind="oin")
    assert round_generate(tournament=t).number == 2
