"""Shared pytest configuration; pytest-django reads its settings from pyproject.toml
(config.settings_test: the real settings, DEBUG off, a test-only secret key)."""

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
