"""Server time of the cold tournament pages and of the quick entry, in-process, as medians
next to a baseline measured in the same run.

    BENCH_DATABASE_URL=postgres://... .venv/bin/python tools/bench_cold.py [--runs 9]
        [--profile swiss|robin|double|quick]

It uses the three tournaments of ``tools/bench_web.py`` (built there when missing) and
Django's test client (no network, no gunicorn), signed in as a director as
``bench_web.py`` is (the page is built around the cached body, not served whole). For
each tournament page it times, as the median of ``--runs`` requests:

* after a correction: a round-1 result of the tournament corrected, then the page (the
  version changed; rounds whose tables did not change are still cached);
* nothing cached: both caches (the shared one and the local one) cleared, then the page;

and the quick entry of a game through ``/series/<id>/quick/`` on one of the Swiss'
open tables, each inside a transaction rolled back afterwards (the data stay the same
from run to run; a commit is not included). The baselines are the bare view
(``/_floor/``) and the bare view plus one query (``/_floor/query/``), through the same
client in the same run: on a shared machine compare the ratios, not the milliseconds.
Each line also gives the CPU time of this process (the database's is not in it: on a
loaded machine the least noisy figure) and the queries the request made.

``--profile NAME`` prints a cProfile of one cold request (nothing cached) instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import bench_web  # sets the bench settings' environment


def _clear_caches() -> None:
    from django.core.cache import caches

    caches["default"].clear()
    caches["local"].clear()


class Aborted(Exception):
    """Raised to roll a timed write back."""


def _measure(
    action: Callable[[], object], runs: int, before: Callable[[], None]
) -> tuple[float, float, int]:
    """(median ms, median CPU ms of this process, queries of the last run) of
    ``action``, ``before`` run untimed first."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, cpu, queries = [], [], 0
    for _ in range(runs):
        before()
        with CaptureQueriesContext(connection) as ctx:
            start, start_cpu = time.perf_counter(), time.process_time()
            action()
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        queries = len(ctx.captured_queries)
    return statistics.median(times), statistics.median(cpu), queries


def _nothing() -> None:
    pass


class Bench:
    """The tournaments, a signed-in director's client and the timed actions."""

    def __init__(self) -> None:
        from django.contrib.auth.models import User
        from django.test import Client

        from tournaments.models import Tournament

        self.director, _ = User.objects.get_or_create(username="bench-director", is_superuser=True)
        self.client = Client()
        self.client.force_login(self.director)
        names = {"swiss": bench_web.SWISS, "robin": bench_web.ROBIN, "double": bench_web.DOUBLE}
        self.tournaments = {k: Tournament.objects.get(name=v) for k, v in names.items()}

    def get(self, path: str) -> Callable[[], None]:
        def action() -> None:
            response = self.client.get(path)
            assert response.status_code == 200, (path, response.status_code)

        return action

    def correct(self, t: Any) -> Callable[[], None]:
        """Correct the tournament's first decided game (the other winner, or the other
        kind where another winner would not fit the bracket)."""
        from tournaments.models import Game
        from tournaments.services.errors import ApplicationError
        from tournaments.services.results import game_correct

        game = (
            Game.objects.filter(series__tournament=t, series__player2__isnull=False)
            .exclude(winner=None)
            .order_by("series__round__number", "series__table", "series__slot", "number")
            .first()
        )
        assert game is not None

        def action() -> None:
            g = Game.objects.select_related("series").get(pk=game.pk)
            other = g.black if g.winner_id == g.white_id else g.white
            try:
                game_correct(game=g, by=self.director, reason="benchmark", winner=other)
            except ApplicationError:
                kind = "mars" if g.kind == "oin" else "oin"
                game_correct(game=g, by=self.director, reason="benchmark", kind=kind)

        return action

    def quick(self) -> Callable[[], None]:
        """Enter game 1 of the Swiss' first open table, rolled back afterwards."""
        from django.db import transaction

        from tournaments.models import CLOSED_STATUSES
        from tournaments.services.series import series_next_white

        swiss = self.tournaments["swiss"]
        series = (
            swiss.series.exclude(status__in=CLOSED_STATUSES)
            .exclude(player2=None)
            .order_by("table")
            .first()
        )
        assert series is not None, "no open table left: run bench_web.py --rebuild"
        assert series.player1 is not None
        white = series_next_white(series, []) or series.player1
        data = {"white": white.pk, "winner": series.player1.pk, "kind": "oin",
                "ended": "played", "cube": 1, "number": 1}  # fmt: skip

        def action() -> None:
            try:
                with transaction.atomic():
                    response = self.client.post(f"/series/{series.pk}/quick/", data)
                    assert response.status_code == 302, response.status_code
                    raise Aborted
            except Aborted:
                pass

        return action

    def rows(self, runs: int) -> list[tuple[str, float, float, int]]:
        rows: list[tuple[str, float, float, int]] = []
        for name, path in (
            ("floor (bare view)", "/_floor/"),
            ("floor + 1 query", "/_floor/query/"),
        ):
            self.get(path)()
            rows.append((name, *_measure(self.get(path), runs, _nothing)))
        for key, t in self.tournaments.items():
            page = self.get(f"/tournaments/{t.pk}/")
            page()
            rows.append((f"{key}: page after a correction", *_measure(page, runs, self.correct(t))))
            rows.append((f"{key}: page, nothing cached", *_measure(page, runs, _clear_caches)))
            rows.append((f"{key}: page, warm", *_measure(page, runs, _nothing)))
        quick = self.quick()
        quick()
        rows.append(("quick entry (rolled back)", *_measure(quick, runs, _nothing)))
        return rows

    def profile(self, what: str) -> None:
        """A cProfile of one request: a page with nothing cached, or a quick entry."""
        if what == "quick":
            action = self.quick()
        else:
            action = self.get(f"/tournaments/{self.tournaments[what].pk}/")
        action()
        if what != "quick":
            _clear_caches()
        profiler = cProfile.Profile()
        profiler.enable()
        action()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--profile", choices=["swiss", "robin", "double", "quick"])
    args = parser.parse_args(argv)
    bench_web.ensure_database()
    bench_web.setup_django()
    bench_web.build(random.Random(20261201))
    bench = Bench()
    import config.wsgi  # noqa: F401  (as a gunicorn worker starts: the start-up objects frozen)

    if args.profile:
        bench.profile(args.profile)
        return 0
    rows = bench.rows(args.runs)
    base = rows[1][1]
    print(f"\nbench-cold: medians of {args.runs} runs, server time in-process, director")
    print(f"{'what':36} {'ms':>8} {'x floor+1q':>11} {'CPU ms':>8} {'queries':>8}")
    for name, ms, cpu, queries in rows:
        print(f"{name:36} {ms:8.1f} {ms / base:11.1f} {cpu:8.1f} {queries:8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
