"""The bracket drawn as SVG, the live endpoint (ETag/304) and the hall view (docs/live.md):
the layout as a pure function, then through the pages."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from tests.tournaments.pages_data import knockout, round_robin
from tournaments.models import Game, Player, Series
from tournaments.pairing import double_elimination, single_elimination
from tournaments.pairing.types import WinnerOf
from tournaments.selectors.bracket_drawing import (
    BOX_H,
    BOX_W,
    NAME_CHARS,
    bracket_drawing,
)
from tournaments.services.results import game_correct, game_enter_quick
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create
from tournaments.services.submissions import submission_confirm, submission_create
from tournaments.wording.names import stage_name

EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def english() -> Iterator[None]:
    with override("en"):
        yield


def overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) < BOX_W and abs(a[1] - b[1]) < BOX_H


# the layout, without a database ----------------------------------------------------


@pytest.mark.parametrize(
    "bracket",
    [
        single_elimination(list(range(1, 7)), third_place=True),
        single_elimination(list(range(1, 12)), consolation=True),
        double_elimination(list(range(1, 9))),
        double_elimination(list(range(1, 7)), bracket_reset=False),
        single_elimination([1, 2]),
    ],
    ids=["single-6-p3", "single-11-consolation", "double-8", "double-6-no-reset", "two"],
)
def test_every_match_has_a_box_inside_the_drawing_and_none_overlap(bracket) -> None:
    names = {pk: f"Player {pk}" for pk in bracket.seeds}
    d = bracket_drawing(bracket, [], names)
    assert [b.slot for b in d.boxes] == [m.id for m in bracket.matches]
    places = [(b.x, b.y) for b in d.boxes]
    for i, a in enumerate(places):
        assert a[0] >= 0 and a[0] + BOX_W <= d.width  # the last box is not cut off
        assert a[1] >= 0 and a[1] + BOX_H <= d.height
        assert not any(overlap(a, b) for b in places[i + 1 :]), d.boxes[i].slot
    fed = sum(isinstance(s, WinnerOf) for m in bracket.matches if not m.only_if for s in m.sources)
    resets = sum(1 for m in bracket.matches if m.only_if)
    assert len(d.connectors) == fed + resets


def test_a_connector_runs_from_the_source_box_to_the_box_it_feeds() -> None:
    bracket = single_elimination([1, 2, 3, 4])
    d = bracket_drawing(bracket, [], {1: "A", 2: "B", 3: "C", 4: "D"})
    at = {b.slot: (b.x, b.y) for b in d.boxes}
    starts = {tuple(map(int, re.match(r"M(\d+) (\d+)", c.path).groups())) for c in d.connectors}
    assert starts == {(at[s][0] + BOX_W, at[s][1] + BOX_H // 2) for s in ("W1-1", "W1-2")}
    assert all(c.path.endswith(f"H{at['W2-1'][0]}") for c in d.connectors)


def test_byes_and_sources_are_named_and_long_names_are_cut(english: None) -> None:
    long = "Maximilián Alexandr Vondráček-Horáková"
    bracket = single_elimination([1, 2, 3])
    d = bracket_drawing(bracket, [], {1: long, 2: "B", 3: "C"})
    first, _second, final = d.boxes
    assert first.lines[0].name == long and first.lines[0].short.endswith("…")
    assert len(first.lines[0].short) <= NAME_CHARS
    assert first.lines[1].muted and first.lines[1].name == "bye"
    assert final.lines[0].name == long  # the bye is a walkover: the top seed goes on
    assert final.lines[1].name == "winner of W1-2"


def test_the_loser_of_a_bye_is_a_bye_in_the_losers_bracket(english: None) -> None:
    d = bracket_drawing(double_elimination([1, 2, 3, 4, 5, 6]), [], {})
    first_losers = next(b for b in d.boxes if b.slot == "L1-1")
    assert [line.name for line in first_losers.lines] == ["bye", "loser of W1-2"]


def test_stage_labels_for_every_stage_the_pairing_package_names(english: None) -> None:
    assert stage_name(bracket="winners", round=1, stage="quarterfinal") == "quarterfinal"
    assert stage_name(bracket="final", round=2, stage="final") == "final (reset)"
    assert stage_name(bracket="losers", round=3, stage="losers-round-3") == "losers' round 3"
    assert stage_name(bracket="consolation", round=2, stage="consolation-final") == (
        "consolation final"
    )
    assert stage_name(bracket="winners", round=2, stage="round-2") == "round 2"


# pages ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_tournament_page_draws_the_bracket_as_svg(client: Client) -> None:
    t = knockout(6, played=2, third_place=True)
    html = client.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    svg = html.split('<svg class="bracket-svg"', 1)[1].split("</svg>", 1)[0]
    for slot in ("W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1", "P3"):
        assert f'id="bk-{slot}"' in svg
    assert svg.count('class="bk-line"') == 6  # 4 into the semifinals, 2 into the final
    assert "bye" in svg and "Quarterfinal" in svg and "Third place" in svg
    # a decided series: its winner's line is bold and the connector carries the winner
    winner = Series.objects.filter(tournament=t, winner__isnull=False, player2__isnull=False)[0]
    assert re.search(f'class="bk-line" d="[^"]+" data-player="{winner.winner_id}"', svg)
    assert 'class="bracket-scroll scroll"' in html and 'data-scrolls="x"' in html
    assert "scroll it sideways" in html


@pytest.mark.django_db
def test_double_elimination_draws_both_brackets_the_final_and_the_reset(client: Client) -> None:
    t = knockout(8, played=4, format="double_elimination")
    html = client.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    assert "Winners&#x27; bracket" in html and "Losers&#x27; bracket" in html
    assert 'id="bk-GF-1"' in html and 'id="bk-GF-2"' in html and "Final (reset)" in html


@pytest.mark.django_db
def test_live_endpoint_answers_304_until_a_result_then_a_new_etag(client: Client) -> None:
    t = round_robin(4)
    t.refresh_from_db()
    url = reverse("tournaments:live", args=[t.pk])
    first = client.get(url)
    assert first.status_code == 200 and first.json() == {"version": t.cache_version}
    etag = first.headers["ETag"]
    assert "no-cache" in first.headers["Cache-Control"]
    same = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert same.status_code == 304 and same.content == b"" and same.headers["ETag"] == etag

    boss = User.objects.create_superuser("boss", password="a-long-secret-1")
    s = Series.objects.filter(tournament=t, games__isnull=True, player2__isnull=False).first()
    assert s is not None and s.player1 is not None
    white = series_next_white(s, []) or s.player1
    game = game_enter_quick(series=s, white=white, winner=white, kind="oin")  # entered
    entered = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert entered.status_code == 200 and entered.headers["ETag"] != etag
    etag = entered.headers["ETag"]

    game_correct(game=game, by=boss, reason="wrong kind", kind="mars")  # corrected
    corrected = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert corrected.status_code == 200 and corrected.headers["ETag"] != etag
    etag = corrected.headers["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


@pytest.mark.django_db
def test_live_endpoint_changes_when_a_submitted_result_is_confirmed(client: Client) -> None:
    t = tournament_create(name="Club", start_date=datetime.date(2026, 6, 1),
                          format="round_robin", series_length=1)  # fmt: skip
    users = {n: User.objects.create_user(n, password="a-long-secret-1") for n in ("jana", "petr")}
    for n in users:
        entry_register(tournament=t, player=Player.objects.create(name=n, user=users[n]))
    from tournaments.services.pairings import round_generate

    round_generate(tournament=t)
    s = Series.objects.select_related("player1", "player2", "tournament").get(tournament=t)
    assert s.player1 is not None and s.player2 is not None
    white = series_next_white(s, []) or s.player1
    by = users["jana"] if s.player1.name == "jana" else users["petr"]
    other = users["petr"] if by == users["jana"] else users["jana"]
    sub = submission_create(series=s, by=by, number=1, white=white, winner=white, kind="oin")
    url = reverse("tournaments:live", args=[t.pk])
    etag = client.get(url).headers["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    submission_confirm(submission=sub, by=other)
    assert Game.objects.filter(series=s).count() == 1
    confirmed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert confirmed.status_code == 200 and confirmed.headers["ETag"] != etag


@pytest.mark.django_db
def test_live_endpoint_and_hall_refuse_what_they_should(client: Client) -> None:
    hidden = tournament_create(name="Secret", start_date=datetime.date(2026, 6, 1),
                               format="round_robin", published=False)  # fmt: skip
    for name in ("live", "hall"):
        assert client.get(reverse(f"tournaments:{name}", args=[hidden.pk])).status_code == 404
        assert client.get(reverse(f"tournaments:{name}", args=[99999])).status_code == 404
    t = round_robin(4)
    assert client.post(reverse("tournaments:live", args=[t.pk])).status_code == 405
    weird = client.get(reverse("tournaments:live", args=[t.pk]), HTTP_IF_NONE_MATCH='"x", W/"')
    assert weird.status_code == 200


@pytest.mark.django_db
def test_the_pages_carry_the_live_indicator_and_their_live_parts(client: Client) -> None:
    t = round_robin(4)
    t.refresh_from_db()
    s = Series.objects.filter(tournament=t, games__isnull=False).first()
    assert s is not None
    game = s.games.first()
    assert game is not None
    live = reverse("tournaments:live", args=[t.pk])
    for url, part in (
        (reverse("tournaments:tournament", args=[t.pk]), "live-body"),
        (reverse("tournaments:series", args=[s.pk]), "live-games"),
        (reverse("tournaments:game", args=[game.pk]), "live-game"),
        (reverse("tournaments:hall", args=[t.pk]), "live-hall"),
    ):
        html = client.get(url, **EN).content.decode()
        assert f'data-live-url="{live}"' in html
        assert f'data-live-version="{t.cache_version}"' in html
        assert f'id="{part}" data-live-part' in html and 'aria-live="polite"' in html
        assert "js/live.js" in html


@pytest.mark.django_db
def test_hall_view_shows_the_current_round_and_the_standings(client: Client) -> None:
    t = round_robin(6)
    html = client.get(reverse("tournaments:hall", args=[t.pk]), **EN).content.decode()
    assert "Round 2" in html and "Round 1" not in html
    for s in Series.objects.filter(round__number=2, round__tournament=t).select_related(
        "player1", "player2"
    ):
        assert s.player1 is not None and s.player1.name in html
    standings = html.split('id="hall-standings-heading"', 1)[1]
    assert standings.count("<tr") == 1 + 6  # the head and every player
    assert 'class="site"' not in html and "<nav" not in html  # no navigation
    page = client.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    assert reverse("tournaments:hall", args=[t.pk]) in page


@pytest.mark.django_db
def test_hall_view_of_a_knockout_shows_the_series_in_play(client: Client) -> None:
    t = knockout(4, played=1)
    html = client.get(reverse("tournaments:hall", args=[t.pk]), **EN).content.decode()
    assert "Series in play" in html
    pairings = html.split('id="hall-round"', 1)[1].split("</table>", 1)[0]
    assert pairings.count("<tr") == 1 + 1  # one semifinal left in play


@pytest.mark.django_db
def test_a_poll_costs_one_query(client: Client, django_assert_num_queries: Any) -> None:
    t = round_robin(4)
    url = reverse("tournaments:live", args=[t.pk])
    etag = client.get(url).headers["ETag"]
    with django_assert_num_queries(1):  # the tournament's version (a published one)
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
