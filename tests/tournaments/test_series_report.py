"""A player reports a whole series at once and the opponent (or a director) confirms
it once: through the pages and the API, all or nothing, in Czech and English."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import EN, World, a_record, next_colours
from tournaments.models import Game, Series, SeriesReport, Submission, SubmissionStatus
from tournaments.selectors.standings import standings_for_tournament
from tournaments.services.results import game_enter_quick, game_enter_record
from tournaments.services.submissions import submission_create

pytestmark = pytest.mark.django_db

# jana - petr, game by game: who wins and how (a series to 5 points, the loser starts)
SCRIPT = [("jana", "mars"), ("petr", "oin"), ("jana", "mars"), ("jana", "oin")]
TWIN = {"jana": "eva", "petr": "karel"}  # the same series, entered game by game


def page(world: World, role: str) -> Client:
    client = Client()
    client.force_login(world.users[role])
    return client


def api(world: World, role: str, language: str = "en") -> Any:
    client = world.client(role)
    client.credentials(HTTP_ACCEPT_LANGUAGE=language)
    return client


def entered_one_by_one(world: World) -> list[tuple[str, str, str]]:
    """The script entered game by game on eva - karel; the whites (by the series rule),
    for jana - petr."""
    back = {v: k for k, v in TWIN.items()}
    whites = []
    for winner, kind in SCRIPT:
        white, _black = next_colours(world.other_series)
        game_enter_quick(
            series=world.other_series, white=white, kind=kind,
            winner=world.players[TWIN[winner]],
        )  # fmt: skip
        whites.append((back[white.name.lower()], winner, kind))
    return whites


def sheet_rows(world: World, games: list[tuple[str, str, str]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for i, (white, winner, kind) in enumerate(games, start=1):
        data |= {
            f"g{i}-white": world.players[white].pk, f"g{i}-winner": world.players[winner].pk,
            f"g{i}-kind": kind, f"g{i}-ended": "played", f"g{i}-cube": 1,
        }  # fmt: skip
    return data


def stored(series: Series) -> list[tuple[int, str, str, str, str, int]]:
    names = {series.player1_id: "one", series.player2_id: "two"}
    return [
        (g.number, names[g.white_id], names[g.black_id], names[g.winner_id], g.kind, g.cube)
        for g in series.games.order_by("number")
    ]


def test_a_series_reported_and_confirmed_is_the_series_entered_game_by_game(world):
    games = entered_one_by_one(world)
    jana = page(world, "jana")
    url = reverse("tournaments:series_report", args=[world.series.pk])
    assert jana.get(url, **EN).status_code == 200
    response = jana.post(url, sheet_rows(world, games), **EN)
    report = SeriesReport.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournaments:report", args=[report.pk]
    )
    assert not Game.objects.filter(series=world.series).exists()  # nothing counts yet
    petr = page(world, "petr")
    shown = petr.get(response["Location"], **EN)
    assert shown.status_code == 200
    text = shown.content.decode()
    assert text.count("<tr>") == 1 + len(SCRIPT)  # the header and a row a game
    assert "Jana</bdi> 5 : 1 <bdi>Petr" in text  # the final score
    assert "Confirm every game" in text
    czech = petr.get(response["Location"], HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "Potvrdit všechny partie" in czech and "Skóre série po hlášení" in czech
    waiting = petr.get(reverse("tournaments:confirmations"), **EN).content.decode()
    assert "a report of 4 games" in waiting and response["Location"] in waiting
    assert "game 1</h2>" not in waiting  # the report, not its games one by one
    assert api(world, "petr").get("/api/submissions/waiting/").json() == {"count": 1}
    confirmed = petr.post(reverse("tournaments:report_decide", args=[report.pk, "confirm"]))
    assert confirmed.status_code == 302
    report.refresh_from_db()
    assert report.status == SubmissionStatus.CONFIRMED
    assert set(report.submissions.values_list("status", flat=True)) == {"confirmed"}
    world.series.refresh_from_db()
    world.other_series.refresh_from_db()
    assert stored(world.series) == stored(world.other_series)
    assert (world.series.score1, world.series.score2, world.series.status) == (
        world.other_series.score1, world.other_series.score2, world.other_series.status,
    )  # fmt: skip
    assert world.series.status == "finished"
    rows = {r.player_name.lower(): r for r in standings_for_tournament(tournament=world.tournament)}
    for one, twin in TWIN.items():
        assert (rows[one].points, rows[one].won, rows[one].game_points_for) == (
            rows[twin].points, rows[twin].won, rows[twin].game_points_for,
        )  # fmt: skip


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Game 2: Petr starts game 2"), ("cs", "Hra 2: Partii 2 začíná Petr")],
)
def test_a_wrong_game_in_the_middle_refuses_the_whole_report_and_names_it(world, language, said):
    games = entered_one_by_one(world)
    games[1] = ("jana", *games[1][1:])  # jana lost game 1: petr starts game 2
    url = reverse("tournaments:series_report", args=[world.series.pk])
    response = page(world, "jana").post(
        url, sheet_rows(world, games), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not SeriesReport.objects.exists() and not Submission.objects.exists()
    answer = api(world, "jana", language).post(
        f"/api/series/{world.series.pk}/report/",
        {"games": [{"white": world.players[w].pk, "winner": world.players[v].pk, "kind": k}
                   for w, v, k in games]},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "wrong-starter-colour"
    assert answer.json()["params"]["n"] == 2
    assert said in answer.json()["detail"]
    assert not SeriesReport.objects.exists() and not Submission.objects.exists()


def test_a_game_after_the_series_is_decided_is_refused(world):
    games = [*entered_one_by_one(world), ("petr", "jana", "oin")]
    answer = api(world, "jana").post(
        f"/api/series/{world.series.pk}/report/",
        {"games": [{"white": world.players[w].pk, "winner": world.players[v].pk, "kind": k}
                   for w, v, k in games]},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 400
    assert answer.json()["code"] == "report-after-decided"
    assert answer.json()["params"] == answer.json()["params"] | {"n": 5, "decided": 4}
    assert not Submission.objects.exists()


def records_of_two_games(world: World) -> str:
    """Two legal games between Jana and Petr, with the colours the series rule gives,
    played in another tournament to learn them."""
    elsewhere = Series.objects.create(
        tournament=world.other, player1=world.players["jana"], player2=world.players["petr"]
    )
    texts = []
    for seed in (1, 2):
        white, black = next_colours(elsewhere)
        text = a_record(white.name, black.name, seed=seed)
        game_enter_record(series=elsewhere, record=text)
        texts.append(text)
    return "\n".join(texts)


def test_a_record_file_reported_by_the_api_and_confirmed_by_a_director(world):
    records = records_of_two_games(world)
    answer = api(world, "jana").post(
        f"/api/series/{world.series.pk}/report/", {"records": records}, format="json"
    )
    assert answer.status_code == 201, answer.content
    report = answer.json()
    assert [s["number"] for s in report["submissions"]] == [1, 2]
    assert report["status"] == "pending"
    assert api(world, "jana").post(f"/api/reports/{report['id']}/confirm/").status_code == 403
    assert api(world, "eva").post(f"/api/reports/{report['id']}/confirm/").status_code == 403
    assert not Game.objects.filter(series=world.series).exists()
    done = api(world, "boss").post(f"/api/reports/{report['id']}/confirm/")
    assert done.status_code == 200 and done.json()["status"] == "confirmed"
    games = list(world.series.games.order_by("number"))
    assert [g.number for g in games] == [1, 2] and all(g.verified for g in games)
    elsewhere = Series.objects.get(tournament=world.other)
    assert [g.record for g in games] == [g.record for g in elsewhere.games.order_by("number")]
    again = api(world, "petr").post(f"/api/reports/{report['id']}/confirm/")
    assert again.status_code == 409


def test_rejection_leaves_nothing_and_the_series_can_be_reported_again(world):
    games = entered_one_by_one(world)
    url = reverse("tournaments:series_report", args=[world.series.pk])
    page(world, "jana").post(url, sheet_rows(world, games[:2]))
    report = SeriesReport.objects.get()
    petr = page(world, "petr")
    rejected = petr.post(
        reverse("tournaments:report_decide", args=[report.pk, "reject"]), {"note": "I won 1"}
    )
    assert rejected.status_code == 302
    report.refresh_from_db()
    assert report.status == "rejected" and report.note == "I won 1"
    assert set(report.submissions.values_list("status", flat=True)) == {"rejected"}
    world.series.refresh_from_db()
    assert not world.series.games.exists()
    assert (world.series.score1, world.series.score2, world.series.status) == (0, 0, "scheduled")
    assert petr.post(reverse("tournaments:report_decide", args=[report.pk, "confirm"]),
                     **EN).status_code == 409  # fmt: skip
    assert page(world, "jana").post(url, sheet_rows(world, games[:2])).status_code == 302


def test_only_the_other_player_or_a_director_decides(world):
    games = entered_one_by_one(world)
    url = reverse("tournaments:series_report", args=[world.series.pk])
    page(world, "jana").post(url, sheet_rows(world, games[:1]))
    report = SeriesReport.objects.get()
    decide = reverse("tournaments:report_decide", args=[report.pk, "confirm"])
    jana = page(world, "jana").post(decide, **EN)
    assert jana.status_code == 403
    assert "the opponent or a director confirms" in jana.content.decode()
    shown = reverse("tournaments:report", args=[report.pk])
    assert page(world, "eva").get(shown).status_code == 404
    assert page(world, "eva").post(decide).status_code == 404
    assert page(world, "boss").post(decide).status_code == 302
    assert world.series.games.count() == 1
    # a director who is no player of the series does not report it
    assert page(world, "boss").get(url).status_code == 403


def test_a_waiting_single_result_and_a_report_of_the_same_game_conflict(world):
    p, u = world.players, world.users
    single = submission_create(
        series=world.series, by=u["petr"], number=1, white=p["jana"], winner=p["petr"],
        kind="oin",
    )  # fmt: skip
    report = {"games": [{"white": p["jana"].pk, "winner": p["jana"].pk, "kind": "oin"}]}
    answer = api(world, "jana").post(f"/api/series/{world.series.pk}/report/", report,
                                     format="json")  # fmt: skip
    assert answer.status_code == 409 and answer.json()["code"] == "submission-pending"
    cs = api(world, "jana", "cs").post(f"/api/series/{world.series.pk}/report/", report,
                                       format="json")  # fmt: skip
    assert "Výsledek partie 1 už čeká na potvrzení" in cs.json()["detail"]
    api(world, "jana").post(f"/api/submissions/{single.pk}/reject/", {"note": "no"})
    made = api(world, "jana").post(f"/api/series/{world.series.pk}/report/", report,
                                   format="json")  # fmt: skip
    assert made.status_code == 201
    sub = made.json()["submissions"][0]["id"]
    alone = api(world, "petr").post(f"/api/submissions/{sub}/confirm/")
    assert alone.status_code == 400 and alone.json()["code"] == "submission-in-report"
    again = api(world, "petr").post(
        f"/api/series/{world.series.pk}/submissions/",
        {"number": 1, "white": p["jana"].pk, "winner": p["petr"].pk, "kind": "oin"},
    )
    assert again.status_code == 409


def test_confirming_enters_all_or_nothing(world):
    """A director enters game 1 meanwhile: the report's game 1 is refused on
    confirmation, and none of its games is entered."""
    games = entered_one_by_one(world)
    page(world, "jana").post(
        reverse("tournaments:series_report", args=[world.series.pk]), sheet_rows(world, games)
    )
    report = SeriesReport.objects.get()
    game_enter_quick(series=world.series, white=world.players["jana"],
                     winner=world.players["petr"], kind="oin")  # fmt: skip
    answer = api(world, "petr").post(f"/api/reports/{report.pk}/confirm/")
    assert answer.status_code == 409, answer.content
    assert world.series.games.count() == 1
    report.refresh_from_db()
    assert report.status == "pending"
    assert not report.submissions.exclude(status="pending").exists()


HOSTILE: list[Any] = [
    {},
    {"games": "x"},
    {"games": [{}]},
    {"games": [{"white": 99999999, "kind": "oin"}]},
    {"games": [{"white": "x", "kind": "oin"}]},
    {"games": [{"kind": "zzz"}]},
    {"games": [{"white": None, "kind": "oin", "cube": 10**9}]},
    {"games": [{"kind": "oin"}] * 65},
    {"games": [{"kind": "oin"}], "records": '[Variant "long"]'},
    {"records": "not a record at all\n1. 6-5: 24/18 13/8\n"},
    {"records": '[Event "x"]\n' * 100000},
    {"records": 12},
    [1, 2],
]


@pytest.mark.parametrize("body", HOSTILE)
def test_hostile_reports_are_4xx(world, body):
    answer = api(world, "jana").post(f"/api/series/{world.series.pk}/report/", body,
                                     format="json")  # fmt: skip
    assert 400 <= answer.status_code < 500, answer.content
    assert not Submission.objects.exists()


def test_hostile_pages_are_4xx(world):
    p = world.players
    jana = page(world, "jana")
    url = reverse("tournaments:series_report", args=[world.series.pk])
    for data in (
        {"g1-white": "abc", "g1-kind": "oin"},
        {"g1-white": p["eva"].pk, "g1-winner": p["jana"].pk, "g1-kind": "oin"},
        {"g1-white": p["jana"].pk, "g1-winner": p["jana"].pk, "g1-kind": "koks"},
        {"g1-white": p["jana"].pk, "g1-winner": p["jana"].pk, "g1-kind": "oin", "g1-cube": "x"},
        {"record": '[Variant "long"]\nnonsense'},
        {},
    ):
        assert jana.post(url, data).status_code == 400, data
    assert not Submission.objects.exists()
    missing = reverse("tournaments:report_decide", args=[99999, "confirm"])
    assert jana.post(missing).status_code == 404
    assert (
        page(world, "karel")
        .get(reverse("tournaments:series_report", args=[world.series.pk]))
        .status_code
        == 403
    )
    page(world, "jana").post(url, sheet_rows(world, [("jana", "jana", "oin")]))
    report = SeriesReport.objects.get()
    petr = page(world, "petr")
    maybe = reverse("tournaments:report_decide", args=[report.pk, "maybe"])
    assert petr.post(maybe).status_code == 404
    long_note = petr.post(
        reverse("tournaments:report_decide", args=[report.pk, "reject"]), {"note": "x" * 600}
    )
    assert long_note.status_code == 400
    confirm = reverse("tournaments:report_decide", args=[report.pk, "confirm"])
    assert petr.get(confirm).status_code == 405
