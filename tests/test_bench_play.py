"""`make bench-play` as a user runs it (tools/bench_play.py, docs/online.md), small and
short: real uvicorn processes, real WebSocket clients, the last line's figures read back.
With two processes one is killed halfway: its clients reconnect to the other and no move
is lost or played twice (counted from the database by the benchmark itself)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
LAST = re.compile(
    r"bench-play: (\d+) games, round trip p50 (\d+) ms, p95 (\d+) ms, "
    r"moves lost (\d+), played twice (\d+)$"
)


@pytest.fixture
def bench_database(tmp_path: Path, django_db_setup: None) -> Iterator[str]:
    """A database of the benchmark's own: a new PostgreSQL database where the tests run
    on PostgreSQL (as the benchmark is meant to), else a SQLite file."""
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        yield f"sqlite:///{tmp_path / 'bench.sqlite3'}"
        return
    import psycopg

    name = f"bench_{uuid.uuid4().hex[:12]}"
    host, port, user = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432, db.get("USER")
    admin = f"postgresql://{user or 'postgres'}@{host}:{port}/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgres://{user or 'postgres'}@{host}:{port}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def bench(database: str, layer: str, *args: str) -> tuple[str, re.Match[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_"))}
    env |= {"BENCH_DATABASE_URL": database, "BENCH_CHANNEL_LAYER_URL": layer}
    done = subprocess.run(
        [sys.executable, "tools/bench_play.py", "--warmup", "4", "--seconds", "6",
         "--think", "0.3", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    out = done.stdout.strip()
    assert done.returncode == 0, out + done.stderr[-3000:]
    found = LAST.search(out.splitlines()[-1])
    assert found, out
    return out, found


def test_one_uvicorn_process_on_the_memory_layer(bench_database: str) -> None:
    out, found = bench(bench_database, "memory://", "--games", "3")
    games, p50, p95, lost, twice = map(int, found.groups())
    assert (games, lost, twice) == (3, 0, 0)
    assert p50 <= p95
    moves = re.search(r"^moves (\d+) in", out, re.M)
    assert moves is not None and int(moves[1]) >= 3  # each game went on in the measured time


@pytest.mark.redis
def test_two_processes_one_killed_its_clients_go_on_at_the_other(
    bench_database: str, redis_url: str
) -> None:
    out, found = bench(bench_database, redis_url, "--games", "4", "--processes", "2", "--kill")
    games, _, _, lost, twice = map(int, found.groups())
    assert (games, lost, twice) == (4, 0, 0)
    reconnects = re.search(r"reconnects (\d+)", out)
    # the killed process's two games: four sockets
    assert reconnects is not None and int(reconnects[1]) >= 4


def test_the_asgi_process_collects_its_oldest_objects_rarely() -> None:
    """config/asgi.py: a room server's full collections stalled it 0.1-0.3 s several
    times a minute under load; the ASGI process freezes its start-up objects and
    collects the oldest generation a hundred times less often than Python's default."""
    from tests.helpers import run_django

    probe = "import gc, config.asgi; print(gc.get_threshold(), gc.get_freeze_count() > 1000)"
    done = run_django(["-c", probe], DJANGO_SECRET_KEY="asgi-gc-test-" + "k" * 40)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["(700,", "10,", "1000)", "True"]
