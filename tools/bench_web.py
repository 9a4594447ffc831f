"""Web benchmark: the public pages and API reads of three big tournaments under load,
each as a ratio to a bare Django view (the floor) measured in the same run.

    .venv/bin/python tools/bench_web.py [--duration 5] [--connections 4] [--workers 2]

(`make bench-web` runs it.) It needs PostgreSQL (``BENCH_DATABASE_URL``, by default
``postgres://postgres@127.0.0.1:5432/nardy_bench``, created when missing), ``gunicorn``
and ``wrk``. It builds, once, through the services:

* a 128-player Swiss of 7 rounds (quick results; the last round's last tables are
  left open for the quick-entry timing),
* a 16-player round robin with a full, verified record for every game,
* a 64-player double elimination played to its end,

then starts gunicorn (DEBUG off, ``config.bench`` settings: the site plus ``/_floor/``),
and runs ``wrk`` on each page for ``--duration`` seconds. The machine is shared and its
speed moves from hour to hour, so the figure that counts is a page's throughput divided
by the floor's, both measured in this run; and since the load drifts even within a run,
each page is compared with the floor measured right before it. ``--gzip`` asks for gzip
as every browser does (the default is uncompressed, as the issue measured). It also
prints, measured in-process with Django's test client (server time, no network):

* cold: the 128-player Swiss page right after a result is corrected,
* quick entry: one game entered through the quick-entry page.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments.models import Player

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/nardy_bench"
DB_URL = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
BENCH_ENV = {
    "DATABASE_URL": DB_URL,
    "DJANGO_SETTINGS_MODULE": "config.bench",
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "bench-web-" + "x" * 50,
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
}
os.environ.update(BENCH_ENV)

SWISS = "Bench: Swiss, 128 players"
ROBIN = "Bench: round robin, 16 players with records"
DOUBLE = "Bench: double elimination, 64 players"
ONLINE = "Bench: online Swiss, 128 players, 64 live rooms"
OPEN_TABLES = 8  # the Swiss's last round keeps this many series open for quick entry

# wrk reports the 95th percentile only through a script.
WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("P95_US %d\\n", latency:percentile(95)))
  io.write(string.format("ERRORS %d\\n", summary.errors.status + summary.errors.connect
    + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
"""


def ensure_database() -> None:
    import psycopg

    name = DB_URL.rsplit("/", 1)[1]
    server = DB_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django() -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


# --- building the tournaments, through the services ---------------------------------


def make_players(prefix: str, count: int) -> list:  # type: ignore[type-arg]
    from tournaments.models import Player
    from tournaments.services.player_lists import players_import_csv

    rows = ["name,rating"] + [f"{prefix} {i:03d},{1500 + 7 * i}" for i in range(count)]
    players_import_csv(data="\n".join(rows) + "\n")
    return list(Player.objects.filter(name__startswith=f"{prefix} ").order_by("name"))


def tournament(name: str, players: list[Player], **settings: object):
    from tournaments.services.setup import entry_register, tournament_create

    t = tournament_create(
        name=name, start_date=datetime.date(2026, 11, 1), published=True, **settings
    )
    for p in players:
        entry_register(tournament=t, player=p)
    return t


def enter_quick(series, rng: random.Random) -> None:
    """Play a series out on the scoresheet: random winners, colours as the rules ask."""
    from tournaments.models import CLOSED_STATUSES
    from tournaments.services.errors import ApplicationError
    from tournaments.services.results import game_enter_quick

    series.refresh_from_db()
    while series.status not in CLOSED_STATUSES:
        one, two = series.player1, series.player2
        winner = one if rng.random() < 0.5 else two
        for white in (one, two):
            try:
                game_enter_quick(series=series, white=white, winner=winner, kind="oin")
                break
            except ApplicationError:  # the other colour is the series rule's
                continue
        else:
            raise RuntimeError(f"no colour accepted in series {series.pk}")
        series.refresh_from_db()


def enter_records(series, rng: random.Random) -> None:
    """Play a series out with full random records, each verified on entry."""
    from engine import read_records
    from engine.notation import write_tags
    from engine.selfplay import random_game
    from tournaments.models import CLOSED_STATUSES
    from tournaments.services.errors import ApplicationError
    from tournaments.services.results import game_enter_record

    series.refresh_from_db()
    while series.status not in CLOSED_STATUSES:
        text = random_game("long", rng)
        record = read_records(text)[0]
        movetext = text.split("\n\n", 1)[1]
        for white, black in ((series.player1, series.player2), (series.player2, series.player1)):
            header = [
                ("Variant", "long"),
                ("White", white.name),
                ("Black", black.name),
                ("Result", record.tag("Result")),
            ]
            try:
                game_enter_record(series=series, record="\n".join(write_tags(header)) + "\n\n"
                                  + movetext)  # fmt: skip
                break
            except ApplicationError:
                continue
        else:
            raise RuntimeError(f"no colour accepted in series {series.pk}")
        series.refresh_from_db()


def build(rng: random.Random) -> None:
    """The three benchmark tournaments, each made once (kept across runs)."""
    _build_swiss(rng)
    _build_robin(rng)
    _build_double(rng)


def _build_swiss(rng: random.Random) -> None:
    from tournaments.models import CLOSED_STATUSES, Tournament
    from tournaments.services.pairings import round_generate

    used = Tournament.objects.filter(name=SWISS).first()
    if used is not None and not used.series.exclude(status__in=CLOSED_STATUSES).exists():
        # an earlier run's quick entries used up the open tables: play the Swiss anew
        from django.contrib.auth.models import User

        from tournaments.services.deletion import tournament_delete

        director, _ = User.objects.get_or_create(username="bench-director", is_superuser=True)
        tournament_delete(tournament=used, by=director, reason="benchmark: played anew")
    if Tournament.objects.filter(name=SWISS).exists():
        return
    t = tournament(SWISS, make_players("Swiss", 128), format="swiss", variant="long",
                   series_mode="points", series_length=1)  # fmt: skip
    for number in range(1, 8):
        r = round_generate(tournament=t)
        series = list(r.series.order_by("table"))
        last = number == 7
        for s in series[: len(series) - OPEN_TABLES] if last else series:
            enter_quick(s, rng)
        print(f"  {SWISS}: round {number} paired and played", flush=True)


def _build_robin(rng: random.Random) -> None:
    from tournaments.models import Tournament
    from tournaments.services.pairings import round_generate

    if Tournament.objects.filter(name=ROBIN).exists():
        return
    t = tournament(ROBIN, make_players("Robin", 16), format="round_robin",
                   variant="long", series_mode="points", series_length=3)  # fmt: skip
    for _ in range(15):
        r = round_generate(tournament=t)
        for s in r.series.order_by("table"):
            enter_records(s, rng)
    print(f"  {ROBIN}: 15 rounds with records", flush=True)


def _build_double(rng: random.Random) -> None:
    from tournaments.models import CLOSED_STATUSES, Series, Tournament
    from tournaments.services.pairings import bracket_create

    if Tournament.objects.filter(name=DOUBLE).exists():
        return
    t = tournament(DOUBLE, make_players("Double", 64), format="double_elimination",
                   variant="long", series_mode="points", series_length=1)  # fmt: skip
    bracket_create(tournament=t)
    while True:
        open_series = [
            s for s in Series.objects.filter(tournament=t).exclude(status__in=CLOSED_STATUSES)
            if s.player1_id and s.player2_id
        ]  # fmt: skip
        if not open_series:
            break
        for s in open_series:
            enter_quick(s, rng)
    print(f"  {DOUBLE}: played to its end", flush=True)


def _build_online() -> None:
    """A 128-player Swiss played online with round 1 paired: 64 rooms, every one live
    (both players joined, the first game started: the clocks run)."""
    from django.contrib.auth.models import User

    from tournaments.models import Player, Room, SeriesRoom, Tournament
    from tournaments.services.online.rooms import room_act
    from tournaments.services.online.tournament_rooms import online_play_set
    from tournaments.services.pairings import round_generate

    if Tournament.objects.filter(name=ONLINE).exists():
        return
    players = make_players("Online", 128)
    for p in players:
        user, _ = User.objects.get_or_create(username=f"bench-online-{p.pk}")
        Player.objects.filter(pk=p.pk).update(user=user)
        p.user = user
    t = tournament(ONLINE, players, format="swiss", variant="long", series_mode="points",
                   series_length=3)  # fmt: skip
    online_play_set(tournament=t, window_minutes=7 * 24 * 60,
                    clock={"clock": "live", "reserve_s": 600})  # fmt: skip
    director, _ = User.objects.get_or_create(username="bench-online-director")
    t.directors.add(director)
    round_generate(tournament=t)
    for n, link in enumerate(SeriesRoom.objects.filter(series__tournament=t).select_related(
            "room__a_user", "room__b_user")):  # fmt: skip
        for seat, seated in (("a", link.room.a_user), ("b", link.room.b_user)):
            room = Room.objects.get(pk=link.room_id)
            seed = f"{n:02x}{seat}0" * 8  # a browser's 16 bytes in hex
            room_act(room_id=room.pk, user=seated,
                     message={"action": "seed", "seq": room.seq, "seed": seed})  # fmt: skip
        Room.objects.filter(pk=link.room_id).update(a_connected=1, b_connected=1)
    print(f"  {ONLINE}: round 1 paired, 64 rooms playing", flush=True)


def online_pages() -> tuple[list[Page], str]:
    """The pages of the online Swiss's live round, and the director's session cookie."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    from tournaments.models import Tournament

    t = Tournament.objects.get(name=ONLINE)
    director = User.objects.get(username="bench-online-director")
    session = SessionStore()
    session[SESSION_KEY] = str(director.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = director.get_session_auth_hash()
    session.create()
    cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
    return [
        Page("floor (bare view)", "/_floor/"),
        Page("online 64 rooms: tournament", f"/tournaments/{t.pk}/"),
        Page("online 64 rooms: hall", f"/tournaments/{t.pk}/hall/"),
        Page("online 64 rooms: API rooms", f"/api/tournaments/{t.pk}/rooms/"),
        Page("online 64 rooms: director's view", f"/tournaments/{t.pk}/rooms/1/"),
    ], cookie


@dataclass(frozen=True)
class Page:
    name: str
    path: str


def pages() -> list[Page]:
    from tournaments.models import Game, Tournament

    swiss = Tournament.objects.get(name=SWISS)
    robin = Tournament.objects.get(name=ROBIN)
    double = Tournament.objects.get(name=DOUBLE)
    game = Game.objects.filter(series__tournament=robin).exclude(record="").order_by("pk").first()
    assert game is not None
    player = robin.entries.order_by("pk").first()
    assert player is not None
    series = swiss.series.order_by("pk").first()
    assert series is not None
    return [
        Page("floor (bare view)", "/_floor/"),
        Page("floor + 1 query", "/_floor/query/"),  # a version read from the database
        Page("floor + 1 cache read", "/_floor/cache/"),  # a version from the shared cache
        Page("home", "/"),
        Page("Swiss 128: tournament", f"/tournaments/{swiss.pk}/"),
        Page("Swiss 128: API standings", f"/api/tournaments/{swiss.pk}/standings/"),
        Page("Swiss 128: series", f"/series/{series.pk}/"),
        Page("round robin 16: tournament", f"/tournaments/{robin.pk}/"),
        Page("round robin 16: API standings", f"/api/tournaments/{robin.pk}/standings/"),
        Page("round robin 16: game replay", f"/games/{game.pk}/"),
        Page("round robin 16: player", f"/players/{player.player_id}/"),
        Page("double elim. 64: tournament", f"/tournaments/{double.pk}/"),
        Page("double elim. 64: API standings", f"/api/tournaments/{double.pk}/standings/"),
        Page("API tournaments", "/api/tournaments/"),
        Page("Swiss 128: API series", f"/api/series/?tournament={swiss.pk}"),
        Page("round robin 16: API games", f"/api/games/?tournament={robin.pk}"),
        Page("API players", "/api/players/"),
    ]


# --- measuring ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_gunicorn(port: int, workers: int) -> subprocess.Popen[bytes]:
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or shutil.which(
        "gunicorn"
    )
    if gunicorn is None:
        sys.exit("gunicorn is missing: make bench-web installs it (pip install -e '.[deploy]')")
    proc = subprocess.Popen(
        [
            gunicorn,
            "config.wsgi",
            "-w",
            str(workers),
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=os.environ | BENCH_ENV,
    )
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_floor/", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("gunicorn did not answer on /_floor/ within 10 s")


@dataclass(frozen=True)
class Load:
    rps: float
    p95_ms: float
    errors: int


def wrk(url: str, *, duration: int, connections: int, script: str, gzip: bool = False,
        cookie: str = "") -> Load:  # fmt: skip
    # --gzip: the header every browser sends (the cached copies are stored deflated)
    header = ["-H", "Accept-Encoding: gzip"] if gzip else []
    if cookie:  # a signed-in page (the director's live view of a round's rooms)
        header += ["-H", f"Cookie: {cookie}"]
    out = subprocess.run(
        [
            "wrk",
            "-t1",
            f"-c{connections}",
            f"-d{duration}s",
            "--timeout",
            "10s",
            *header,
            "-s",
            script,
            url,
        ],
        capture_output=True,
        text=True,
        timeout=duration + 30,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p95 = int(re.search(r"P95_US (\d+)", out).group(1)) / 1000  # type: ignore[union-attr]
    errors = int(re.search(r"ERRORS (\d+)", out).group(1))  # type: ignore[union-attr]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return Load(rps, p95, errors + (int(non2xx.group(1)) if non2xx else 0))


def timed(action: Callable[[], object], repeat: int) -> float:
    """The median of ``repeat`` runs, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def server_times(rng: random.Random) -> tuple[float, float]:
    """(cold Swiss page after a correction, quick entry through the page), in ms."""
    from django.contrib.auth.models import User
    from django.test import Client

    from tournaments.models import CLOSED_STATUSES, Game, Tournament
    from tournaments.services.results import game_correct

    director, _ = User.objects.get_or_create(username="bench-director", is_superuser=True)
    swiss = Tournament.objects.get(name=SWISS)
    client = Client()
    client.force_login(director)
    page = f"/tournaments/{swiss.pk}/"
    client.get(page)
    game = Game.objects.filter(series__tournament=swiss, series__round__number=1).first()
    assert game is not None

    def correct_then_get() -> None:
        g = Game.objects.get(pk=game.pk)
        other = g.black if g.winner_id == g.white_id else g.white
        game_correct(game=g, by=director, reason="benchmark", winner=other)
        start = time.perf_counter()
        assert client.get(page).status_code == 200
        cold.append((time.perf_counter() - start) * 1000)

    cold: list[float] = []
    for _ in range(6):
        correct_then_get()

    quick: list[float] = []
    for series in swiss.series.exclude(status__in=CLOSED_STATUSES).order_by("table"):
        for white in (series.player1, series.player2):
            assert white is not None and series.player1 is not None
            data = {"white": white.pk, "winner": series.player1.pk, "kind": "oin",
                    "ended": "played", "cube": 1, "number": 1}  # fmt: skip
            start = time.perf_counter()
            response = client.post(f"/series/{series.pk}/quick/", data)
            elapsed = (time.perf_counter() - start) * 1000
            if response.status_code == 302:
                quick.append(elapsed)
                break
    if not quick:
        sys.exit("no quick entry was accepted: the form fields may have changed")
    return statistics.median(cold), statistics.median(quick)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=5, help="seconds of load a page")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--rebuild", action="store_true", help="drop and rebuild the data")
    parser.add_argument(
        "--gzip", action="store_true",
        help="ask for gzip as browsers do (default: uncompressed, as the issue measured)",
    )  # fmt: skip
    parser.add_argument(
        "--online", action="store_true",
        help="only the pages of an online Swiss's round with 64 live rooms (docs/online.md)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install wrk (make bench-web does it as root)")

    if args.rebuild:
        import psycopg

        name = DB_URL.rsplit("/", 1)[1]
        with psycopg.connect(DB_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}"')
    ensure_database()
    setup_django()
    rng = random.Random(20261201)
    started = time.perf_counter()
    cookie = ""
    if args.online:
        _build_online()
        targets, cookie = online_pages()
    else:
        build(rng)
        targets = pages()
    print(f"data ready in {time.perf_counter() - started:.1f} s ({DB_URL})", flush=True)

    port = free_port()
    server = start_gunicorn(port, args.workers)
    results: dict[str, Load] = {}
    floors: dict[str, float] = {}  # the floor measured just before each page
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
            f.write(WRK_SCRIPT)

        def load(path: str) -> Load:
            url = f"http://127.0.0.1:{port}{path}"
            accept = {"Accept-Encoding": "gzip"} if args.gzip else {}
            warm = urllib.request.Request(url, headers=accept)
            urllib.request.urlopen(warm, timeout=30).read()  # warm: first request
            signed = cookie if "/rooms/" in path and "/api/" not in path else ""
            if signed:
                warm.add_header("Cookie", signed)
            urllib.request.urlopen(warm, timeout=30).read()  # warm again, signed in
            return wrk(url, duration=args.duration, connections=args.connections,
                       script=f.name, gzip=args.gzip, cookie=signed)  # fmt: skip

        for page in targets:
            # the machine's load drifts during a run: each page is compared with the floor
            # measured right before it, not with one floor measured at the start
            floors[page.name] = load(targets[0].path).rps if page is not targets[0] else 0.0
            results[page.name] = load(page.path)
        os.unlink(f.name)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    floor = results[targets[0].name].rps
    floors[targets[0].name] = floor
    print(
        f"\nbench-web: gunicorn {args.workers} workers, DEBUG off, wrk {args.connections} "
        f"connections, {args.duration} s a page, "
        f"{'gzip as browsers ask' if args.gzip else 'uncompressed'}; "
        "target: every page >= 1/3 of the floor"
    )
    print("(vs floor: the page's requests/s over the floor's, measured just before the page)")
    print(f"{'page':34} {'req/s':>9} {'floor':>9} {'vs floor':>9} {'p95 ms':>8}  errors")
    for page in targets:
        r, beside = results[page.name], floors[page.name]
        mark = "" if r.rps * 3 >= beside else "  < 1/3"
        print(
            f"{page.name:34} {r.rps:9.1f} {beside:9.1f} {r.rps / beside:9.3f} "
            f"{r.p95_ms:8.1f}  {r.errors}{mark}"
        )
    if args.online:
        return 0
    cold, quick = server_times(rng)
    print(f"\ncold Swiss 128 page after a correction: {cold:.1f} ms server time (target <= 100)")
    print(f"quick entry of a result through the page: {quick:.1f} ms server time (target <= 30)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
