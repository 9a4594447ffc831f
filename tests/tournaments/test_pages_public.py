"""Public pages: the tournament list, a tournament, a series, a player - their content,
who may see them, and a fixed number of queries whatever the tournament's size."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import rated_player
from tests.tournaments.pages_data import director, round_robin
from tournaments.models import Player, Series, Tournament
from tournaments.services.setup import tournament_create

pytestmark = pytest.mark.django_db


def test_home_lists_published_tournaments_only(client: Client) -> None:
    tournament_create(name="Open", start_date=datetime.date(2026, 1, 2))
    tournament_create(name="Secret", start_date=datetime.date(2026, 1, 2), published=False)
    html = client.get(reverse("tournaments:home")).content.decode()
    assert "Open" in html and "Secret" not in html


def test_home_shows_unpublished_tournaments_to_their_directors(client: Client) -> None:
    boss = director()
    hidden = tournament_create(name="Secret", start_date=datetime.date(2026, 1, 2), published=False)
    hidden.directors.add(boss)
    client.force_login(boss)
    assert "Secret" in client.get(reverse("tournaments:home")).content.decode()


def test_unpublished_tournament_is_404_for_the_public(client: Client) -> None:
    hidden = tournament_create(name="Secret", start_date=datetime.date(2026, 1, 2), published=False)
    assert client.get(reverse("tournaments:tournament", args=[hidden.pk])).status_code == 404


def test_tournament_page_shows_settings_rounds_standings_and_crosstable(client: Client) -> None:
    t = round_robin(4)
    response = client.get(reverse("tournaments:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert "A series is played to 1 point." in html
    assert "Round 1" in html and "Round 2" in html
    assert 'class="standings"' in html and 'class="crosstable"' in html
    for label in ("head-to-head", "Buchholz", "Sonneborn-Berger", "series won"):
        assert label in html
    assert "Club cup player 4" in html


def test_tournament_page_in_czech_by_default(client: Client) -> None:
    t = round_robin(4)
    html = client.get(reverse("tournaments:tournament", args=[t.pk])).content.decode()
    assert "Pořadí" in html and "1. kolo" in html and "Série se hraje na 1 bod." in html


@pytest.mark.parametrize("name", ["tournament", "print"])
def test_tournament_pages_make_the_same_number_of_queries_for_4_and_10_players(
    client: Client, django_assert_max_num_queries: Any, name: str
) -> None:
    counts = []
    for size in (4, 10):
        t = round_robin(size, name=f"Cup {size}")
        with django_assert_max_num_queries(12) as ctx:
            assert client.get(reverse(f"tournaments:{name}", args=[t.pk])).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_bracket_diagram_for_an_elimination_tournament(client: Client) -> None:
    from tournaments.services.pairings import bracket_create
    from tournaments.services.setup import entry_register

    t = tournament_create(
        name="Knockout", start_date=datetime.date(2026, 3, 1), format="single_elimination"
    )
    for i in range(6):
        entry_register(tournament=t, player=rated_player(f"K{i}", 1500 + i))
    bracket_create(tournament=t)
    html = client.get(reverse("tournaments:tournament", args=[t.pk])).content.decode()
    assert 'class="bracket-svg"' in html and "K5" in html
    assert 'class="crosstable"' not in html


def test_series_page_shows_score_games_and_who_started(client: Client) -> None:
    t = round_robin(4)
    s = Series.objects.filter(tournament=t, games__isnull=False).distinct().first()
    assert s is not None
    html = client.get(reverse("tournaments:series", args=[s.pk])).content.decode()
    game = s.games.get()
    assert game.white.name in html and "Enter game" not in html


def test_series_page_query_count_does_not_grow(client: Client) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (4, 10):
        t = round_robin(size, name=f"Cup {size}")
        s = Series.objects.filter(tournament=t, games__isnull=False).first()
        assert s is not None
        with CaptureQueriesContext(connection) as ctx:
            client.get(reverse("tournaments:series", args=[s.pk]))
        counts.append(len(ctx.captured_queries))
    # 7 (the ratings of each game one of them), and the 2 of the public copy's version
    assert counts[0] == counts[1] <= 9


def test_player_page_has_series_games_and_rating_chart(client: Client) -> None:
    t = round_robin(4)
    s = Series.objects.filter(tournament=t, games__isnull=False).first()
    assert s is not None and s.winner is not None
    html = client.get(reverse("tournaments:player", args=[s.winner.pk])).content.decode()
    assert "<polyline" in html and t.name in html


def test_player_page_query_count_does_not_grow(client: Client) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (4, 10):
        t = round_robin(size, name=f"Cup {size}")
        player = Player.objects.filter(entries__tournament=t).first()
        assert player is not None
        with CaptureQueriesContext(connection) as ctx:
            client.get(reverse("tournaments:player", args=[player.pk]))
        counts.append(len(ctx.captured_queries))
    # 7 (the ratings of each game one of them), and the 2 of the public copy's version
    # ... and one for the analysed games' figures (selectors/analysis.py player_analysis)
    assert counts[0] == counts[1] <= 10


def test_player_page_hides_unpublished_tournaments(client: Client) -> None:
    t = round_robin(4)
    Tournament.objects.filter(pk=t.pk).update(published=False)
    player = Player.objects.filter(entries__tournament=t).first()
    assert player is not None
    html = client.get(reverse("tournaments:player", args=[player.pk])).content.decode()
    assert reverse("tournaments:tournament", args=[t.pk]) not in html


def test_unknown_pages_are_404(client: Client) -> None:
    for name in ("tournament", "series", "player", "game"):
        assert client.get(reverse(f"tournaments:{name}", args=[99999])).status_code == 404
