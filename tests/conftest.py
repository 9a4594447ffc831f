"""Shared pytest configuration; pytest-django reads its settings from pyproject.toml
(config.settings_test: the real settings, DEBUG off, a test-only secret key)."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import PROGRAMS

_skipped: dict[str, int] = {}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that drive a missing program (chromium, gnubg) are skipped, and the run ends
    with one line saying so; where NARDY_REQUIRE_<PROGRAM>=1 (CI), the run stops instead."""
    for program in PROGRAMS:
        if program.path is not None:
            continue
        needing = [item for item in items if item.get_closest_marker(program.marker)]
        if not needing:
            continue
        if program.required:
            pytest.exit(
                f"{program.wanted} is missing and {program.require_env}=1: "
                f"{len(needing)} {program.marker} tests cannot run ({program.install})",
                returncode=1,
            )
        skip = pytest.mark.skip(reason=f"{program.wanted} is missing")
        for item in needing:
            item.add_marker(skip)
        _skipped[program.marker] = len(needing)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for program in PROGRAMS:
        if program.marker in _skipped:
            terminalreporter.write_line(
                f"SKIPPED {_skipped[program.marker]} {program.marker} tests: "
                f"{program.wanted} is missing; {program.install}",
                yellow=True,
            )


@pytest.fixture(autouse=True)
def _empty_cache():
    """Throttle counters live in the cache, which may be a Redis shared across runs
    (CACHE_URL): every test starts from an empty one, and from no public page copies in
    this process (a rolled back test database gives its ids and versions out again)."""
    from django.core.cache import cache, caches

    cache.clear()
    caches["local"].clear()


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A Redis database for a server process a test starts: this xdist worker's own
    database of CACHE_URL's Redis (config/settings_test.py gives worker gwN CACHE_URL's
    database + N), else a ``redis-server`` of the test's own (tests that use it carry the
    ``redis`` marker). Never CACHE_URL's database itself: it is worker gw0's, whose tests
    empty it (a throttle test on gw1 that used it saw its counters wiped mid-run)."""
    from django.conf import settings

    from tests.helpers import RedisServer

    default = settings.CACHES["default"]
    if default["BACKEND"].endswith("RedisCache"):
        yield default["LOCATION"]
        return
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
