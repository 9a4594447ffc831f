"""Throttling holds across workers (docs/deploy.md): a real gunicorn with two worker
processes, its throttle counters in Redis (CACHE_URL), N concurrent anonymous requests
against a low limit; at most the limit may pass. With counters in each worker's memory
(CACHE_URL unset) about twice the limit passed. Without a Redis at CACHE_URL the test
starts a redis-server of its own (the ``redis`` marker)."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings

from tests.helpers import free_port

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 20
REQUESTS = 80

pytestmark = pytest.mark.redis


def database_url(tmp_path: Path) -> str:
    """The test database: PostgreSQL's test database, or a SQLite file (the request
    below needs no table, so an empty file will do)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("postgresql"):
        host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
        return f"postgres://{db.get('USER') or 'postgres'}@{host}:{port}/{db['NAME']}"
    return f"sqlite:///{tmp_path / 'gunicorn.sqlite3'}"


def post_verify(port: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        body = '{"record": ""}'
        conn.request("POST", "/api/verify/", body, {"Content-Type": "application/json"})
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.fixture
def gunicorn(tmp_path, django_db_setup, redis_url):
    gunicorn_bin = Path(sys.executable).with_name("gunicorn")
    assert gunicorn_bin.exists() or shutil.which("gunicorn"), "gunicorn is in the dev extra"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_SECRET_KEY="gunicorn-test-only-" + "z" * 40,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url(tmp_path),
        CACHE_URL=redis_url,
        CACHE_KEY_PREFIX=f"throttle-test-{uuid.uuid4().hex}",  # no counts from other runs
        API_THROTTLE_ANON=f"{LIMIT}/minute",
        API_THROTTLE_VERIFY=f"{LIMIT}/minute",
    )
    log = (tmp_path / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [str(gunicorn_bin), "config.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert process.poll() is None, (tmp_path / "gunicorn.log").read_text()
                assert time.monotonic() < deadline, "gunicorn did not start in 60 s"
                time.sleep(0.2)
        time.sleep(1)  # let both workers boot
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def test_anonymous_throttle_holds_across_two_gunicorn_workers(gunicorn, capsys):
    with ThreadPoolExecutor(max_workers=8) as pool:
        codes = list(pool.map(lambda _: post_verify(gunicorn), range(REQUESTS)))
    passed = sum(code != 429 for code in codes)
    with capsys.disabled():
        print(f"\nthrottle across 2 gunicorn workers: {passed} of {REQUESTS} passed, limit {LIMIT}")
    assert set(codes) <= {400, 429}, codes  # 400: past the throttle, an empty record
    assert 0 < passed <= LIMIT
