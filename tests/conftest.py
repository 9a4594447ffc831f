"""Shared pytest configuration; pytest-django reads its settings from pyproject.toml
(config.settings_test: the real settings, DEBUG off, a test-only secret key)."""

import pytest


@pytest.fixture(autouse=True)
def _empty_cache():
    """Throttle counters live in the cache, which may be a Redis shared across runs
    (CACHE_URL): every test starts from an empty one, and from no public page copies in
    this process (a rolled back test database gives its ids and versions out again)."""
    from django.core.cache import cache, caches

    cache.clear()
    caches["local"].clear()
