"""Query counts that do not grow with the tournament: the tournament page built with
nothing cached (the first request after a result) and the quick entry of a result, each
on a small and a larger event of the same format (docs/performance.md)."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache, caches
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from tests.tournaments.helpers import ahead_of_the_clock
from tests.tournaments.pages_data import knockout, round_robin
from tournaments.models import CLOSED_STATUSES, Player, Series, Tournament
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db

# The anonymous page with nothing cached: the tournament and its version (caching/pages.py),
# then the body: series rows, rounds, standings (entries, closed series, games), and
# the format's own reads (a Swiss' first colours; a bracket's seeding and names), and whether
# the tournament is played online or has game rooms (one query).
PAGE_QUERIES = {"swiss": 10, "round_robin": 9, "double_elimination": 13}
# The session and the user; the view's series (with the director check) and games; the
# service's transaction (a savepoint in a test: two statements); under the lock the series
# and its games; the game, the series and the tournament's one version bump (once a
# transaction: generations.py); the ratings of the finished series in the tournament's
# game: made where missing (one insert ignoring those that exist) and locked, their
# history rows and whether a later series was rated (one query), the new rows, the new
# ratings.
QUICK_QUERIES = 16
# The shared cache: the tournament's and the site's generations renewed once inside the
# transaction and once on commit, whatever the write saved (game, series, ratings).
QUICK_CACHE_CALLS = {"set_many": 2}


def _open_series(t: Tournament) -> Series:
    series = (
        Series.objects.filter(tournament=t, player2__isnull=False)
        .exclude(status__in=CLOSED_STATUSES)
        .select_related("player1", "player2", "tournament")
        .order_by("id")
        .first()
    )
    assert series is not None
    return series


def _play(series: Series) -> None:
    white = series_next_white(series, []) or series.player1
    assert white is not None
    game_enter_quick(series=series, white=white, winner=white, kind="oin")


def swiss(players: int, rounds: int) -> Tournament:
    """A Swiss of ``players`` (series to one point), ``rounds`` rounds paired, all played
    but one series of the last."""
    t = tournament_create(name=f"Swiss {players}", start_date=datetime.date(2026, 6, 1),
                          format="swiss", series_length=1, swiss_rounds=rounds)  # fmt: skip
    for i in range(players):
        entry_register(tournament=t, player=Player.objects.create(name=f"S{players}-{i}"))
    for number in range(1, rounds + 1):
        rnd = round_generate(tournament=t)
        open_ones = list(rnd.series.exclude(status__in=CLOSED_STATUSES).order_by("id"))
        for s in open_ones[:-1] if number == rounds else open_ones:
            _play(Series.objects.select_related("player1", "player2", "tournament").get(pk=s.pk))
    return t


BUILDERS: dict[str, list[Callable[[], Tournament]]] = {
    "swiss": [lambda: swiss(4, 1), lambda: swiss(12, 3)],
    "round_robin": [lambda: round_robin(4), lambda: round_robin(10)],
    "double_elimination": [
        lambda: knockout(4, played=2, format="double_elimination"),
        lambda: knockout(12, played=9, format="double_elimination"),
    ],
}


@pytest.mark.parametrize("size", [0, 1], ids=["small", "larger"])
@pytest.mark.parametrize("format", list(BUILDERS))
def test_the_cold_tournament_page_makes_a_fixed_number_of_queries(
    format: str, size: int, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    t = BUILDERS[format][size]()
    t.published = True
    t.save()
    cache.clear()
    caches["local"].clear()

    with django_assert_num_queries(PAGE_QUERIES[format]):
        response = Client().get(f"/tournaments/{t.pk}/")

    assert response.status_code == 200
    assert Series.objects.filter(tournament=t).count() >= (2 if size == 0 else 10)


@contextmanager
def cache_calls() -> Iterator[Counter[str]]:
    """The calls the site makes to the shared cache, by method (with Redis each is one
    round trip). Only the site's own: a backend's method that calls another (local
    memory's ``set_many`` calls ``set`` once a key) counts once, whichever the backend,
    so the figures hold with CACHE_URL (CI) and without (``make test`` on a bare
    machine)."""
    shared = caches["default"]
    calls: Counter[str] = Counter()
    names = ("get", "get_many", "set", "set_many", "add", "delete", "delete_many", "touch")
    originals = {name: getattr(shared, name) for name in names}
    depth = [0]

    def counting(name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if depth[0] == 0:
                calls[name] += 1
            depth[0] += 1
            try:
                return originals[name](*args, **kwargs)
            finally:
                depth[0] -= 1

        return call

    for name in names:
        setattr(shared, name, counting(name))
    try:
        yield calls
    finally:
        for name in names:
            delattr(shared, name)


@pytest.mark.parametrize("size", [0, 1], ids=["small", "larger"])
def test_quick_entry_makes_a_fixed_number_of_queries(
    size: int,
    django_assert_num_queries: DjangoAssertNumQueries,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    t = BUILDERS["swiss"][size]()
    boss = User.objects.create_user("boss", password="pw-boss-long-1")
    t.directors.add(boss)
    series = _open_series(t)
    white = series_next_white(series, []) or series.player1
    assert white is not None and series.player1 is not None
    client = Client()
    client.force_login(boss)
    data = {"white": white.pk, "winner": series.player1.pk, "kind": "oin",
            "ended": "played", "cube": 1, "number": 1}  # fmt: skip

    version = ahead_of_the_clock(t)

    with (
        cache_calls() as calls,
        django_capture_on_commit_callbacks(execute=True),
        django_assert_num_queries(QUICK_QUERIES),
    ):
        response = client.post(f"/series/{series.pk}/quick/", data)

    assert response.status_code == 302
    series.refresh_from_db()
    assert series.status == "finished" and series.winner_id == series.player1.pk
    assert dict(calls) == QUICK_CACHE_CALLS
    assert Tournament.objects.get(pk=t.pk).cache_version == version + 1
