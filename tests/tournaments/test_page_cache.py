"""Cached pages are never stale (tournaments/caching.py, docs/performance.md).

Every page and API read here is first fetched through app server A (its own cache),
then a result is entered, corrected or confirmed through app server B (another cache, as
another process would have), then read again through A: what A shows must be exactly what
a fresh render shows. Nothing tells A's cache about the write; only the tournament's
cache version in the database does."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache, caches
from django.test import Client, override_settings

from tests.tournaments.pages_data import director, round_robin
from tournaments.models import Game, Player, Series, Tournament
from tournaments.services.people import player_update
from tournaments.services.results import game_correct
from tournaments.services.series import series_next_white
from tournaments.services.submissions import submission_confirm, submission_create

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


@contextmanager
def app_server(name: str) -> Iterator[None]:
    """Requests as one app server: its own local-memory caches (the shared one and the
    process's own copies of public pages)."""
    backend = "django.core.cache.backends.locmem.LocMemCache"
    with override_settings(
        CACHES={
            "default": {"BACKEND": backend, "LOCATION": name},
            "local": {"BACKEND": backend, "LOCATION": f"{name}-local"},
        }
    ):
        yield


@pytest.fixture(autouse=True)
def _empty_servers() -> None:
    """Each app server's cache starts empty (local memory outlives a test, and a rolled
    back test database gives its versions out again)."""
    for name in ("A", "B", "fresh"):
        with app_server(name):
            cache.clear()
            caches["local"].clear()


def _pages(t: Tournament) -> list[str]:
    series = Series.objects.filter(tournament=t, player2__isnull=False).order_by("pk").first()
    assert series is not None and series.player1_id is not None
    games = Game.objects.filter(series__tournament=t).order_by("pk")
    recorded, quick = games.exclude(record="").first(), games.filter(record="").first()
    assert recorded is not None and quick is not None
    return [
        f"/tournaments/{t.pk}/",
        f"/api/tournaments/{t.pk}/standings/",
        f"/series/{series.pk}/",
        f"/players/{series.player1_id}/",
        f"/games/{recorded.pk}/",
        f"/games/{recorded.pk}/?turn=2",
        f"/games/{quick.pk}/",
        "/",
        "/api/tournaments/",
    ]


def _read(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return CSRF.sub("", response.content.decode())


def _check_fresh_after(t: Tournament, write: Callable[[], None]) -> None:
    """Read every page through A (twice: the second from A's cache), write through B,
    read through A again: the same as a fresh render, and different from before."""
    client = Client()
    paths = _pages(t)
    with app_server("A"):
        cache.clear()
        caches["local"].clear()
        before = {p: _read(client, p) for p in paths}
        assert {p: _read(client, p) for p in paths} == before  # now served from A's cache
    with app_server("B"):
        write()
    with app_server("A"):
        after = {p: _read(client, p) for p in paths}
    with app_server("fresh"):
        cache.clear()
        caches["local"].clear()
        fresh = {p: _read(client, p) for p in paths}
    assert after == fresh
    assert after[paths[0]] != before[paths[0]]
    assert after[paths[1]] != before[paths[1]]


def _open_series(t: Tournament) -> Series:
    return (
        Series.objects.filter(tournament=t, player2__isnull=False, games__isnull=True)
        .select_related("player1", "player2", "tournament")
        .order_by("pk")
        .first()
    )


def test_a_result_entered_on_the_page_shows_at_once_on_every_cached_page() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    series = _open_series(t)

    def enter() -> None:
        client = Client()
        client.force_login(boss)
        white = series_next_white(series, []) or series.player1
        assert white is not None
        data = {"white": white.pk, "winner": white.pk, "kind": "mars", "ended": "played",
                "cube": 1, "number": 1}  # fmt: skip
        assert client.post(f"/series/{series.pk}/quick/", data).status_code == 302

    _check_fresh_after(t, enter)


def test_a_correction_shows_at_once_on_every_cached_page() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    game = Game.objects.filter(series__tournament=t, record="").select_related("white", "black")[0]

    def correct() -> None:
        other = game.black if game.winner_id == game.white_id else game.white
        game_correct(game=game, by=boss, reason="wrong winner noted", winner=other)

    _check_fresh_after(t, correct)


def test_a_confirmed_submission_shows_at_once_on_every_cached_page() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    series = _open_series(t)
    assert series.player1 is not None and series.player2 is not None
    one = User.objects.create_user(username="one", password="a-long-secret-1")
    two = User.objects.create_user(username="two", password="a-long-secret-1")
    Player.objects.filter(pk=series.player1.pk).update(user=one)
    Player.objects.filter(pk=series.player2.pk).update(user=two)
    series.refresh_from_db()
    white = series_next_white(series, []) or series.player1
    assert white is not None
    submission = submission_create(
        series=series, by=one, number=1, white=white, winner=series.player1, kind="oin"
    )

    def confirm() -> None:
        submission_confirm(submission=submission, by=two)

    _check_fresh_after(t, confirm)


def test_a_player_renamed_shows_at_once_on_the_cached_tournament_page() -> None:
    t = round_robin(4)
    player = Player.objects.filter(entries__tournament=t).order_by("pk")[0]
    old = player.name
    client = Client()
    with app_server("A"):
        assert f">{old}<" in _read(client, f"/tournaments/{t.pk}/")
    with app_server("B"):
        player_update(player=player, name="Renamed Player")
    with app_server("A"):
        page = _read(client, f"/tournaments/{t.pk}/")
    assert ">Renamed Player<" in page and f">{old}<" not in page


def test_the_cached_tournament_page_keeps_the_directors_links_out_of_the_public_copy() -> None:
    """The shared body is cached; the director's toolbar and the header's login are not."""
    boss = director()
    t = round_robin(4, by=boss)
    directing, public = Client(), Client()
    directing.force_login(boss)
    edit = f"/tournaments/{t.pk}/edit/"
    assert edit in _read(directing, f"/tournaments/{t.pk}/")
    page = _read(public, f"/tournaments/{t.pk}/")
    assert edit not in page and "director" not in page


def test_a_warm_tournament_page_makes_fewer_queries_than_a_cold_one(
    django_assert_max_num_queries: Callable[..., Any],
) -> None:
    t = round_robin(6)
    client = Client()
    client.get(f"/tournaments/{t.pk}/")
    with django_assert_max_num_queries(2):  # the session-less visitor: the tournament only
        assert client.get(f"/tournaments/{t.pk}/").status_code == 200
