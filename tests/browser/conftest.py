"""Headless Chromium (Debian's, not a downloaded one) for the browser tests.

Playwright's sync API runs an event loop in the test's thread, so Django would refuse
database access from it; the tests touch the database only to set up and check."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import Browser, Page, sync_playwright

from tests.helpers import CHROMIUM

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
]  # fmt: skip


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """On SQLite the test database is a file here, not shared-cache memory: the live
    servers' threads write beside the test's, and shared cache's table locks refuse a
    second writer at once ("database table is locked: tournaments_room", a 503 or a
    dead socket), where a file's writer waits its turn (sqlite3's busy timeout)."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        db.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "browser.sqlite3")


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    # without chromium the tests are skipped, or the run stops (tests/conftest.py)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def _small_upload_limits(settings: Any) -> None:
    """The pages' refused uploads (tests/browser/pages.py) post a file just over these."""
    from tests.browser.pages import UPLOAD_LIMIT  # models: once Django is set up

    settings.JOBS_INPUT_MAX_BYTES = UPLOAD_LIMIT
    settings.NARDY_MAX_UPLOAD_BYTES = UPLOAD_LIMIT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def asgi_server(transactional_db: Any, settings: Any) -> Iterator[str]:
    """daphne serving the site (static files too) on a free port, in a thread: the
    Twisted reactor runs once a process, so this fixture serves one test."""
    from daphne.server import Server  # type: ignore[import-untyped]  # the asyncio reactor first
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from twisted.internet import reactor

    from config.asgi import application

    settings.ROOM_POLL_MS = 60_000  # live pages do not poll; a slow poll shows it
    routes = dict(application.application_mapping)
    routes["http"] = ASGIStaticFilesHandler(routes["http"])  # type: ignore[arg-type]
    port = _free_port()
    server = Server(
        type(application)(routes), endpoints=[f"tcp:port={port}:interface=127.0.0.1"],
        signal_handlers=False,
    )  # fmt: skip
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.listening_addresses and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.listening_addresses, "daphne did not start"
    yield f"http://127.0.0.1:{port}"
    reactor.callFromThread(reactor.stop)  # type: ignore[misc]
    thread.join(timeout=10)


@pytest.fixture(autouse=True)
def _pages_quiet_before_the_flush(request: pytest.FixtureRequest, _django_db_marker: None
                                  ) -> Iterator[None]:  # fmt: skip
    """After a test, its pages are closed and the database's other sessions are let finish
    before the test's database is emptied: a page still polling when the test ends has a
    request in flight in the live server's thread, whose locks and the flush's TRUNCATE
    wait on each other (PostgreSQL's "deadlock detected", the flush killed, the next
    test finding the last one's users). Set up after pytest-django's database fixture,
    so torn down before it."""
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    yield
    if browser is None or request.node.get_closest_marker("django_db") is None:
        return
    for context in list(browser.contexts):
        context.close()
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    busy = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND pid <> pg_backend_pid() AND state IS NOT NULL AND state <> 'idle'"
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(busy)
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.05)
