"""Per-worker resources when the tests run under pytest-xdist (config/settings_test.py)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

REDIS_DATABASES = 16  # a Redis server's default number of databases


def worker_cache_location(url: str, worker: int) -> str:
    """``url`` (redis://host:port/db) with the database ``db + worker``.

    >>> worker_cache_location("redis://127.0.0.1:6379/1", 2)
    'redis://127.0.0.1:6379/3'
    """
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    db = base + worker
    if db >= REDIS_DATABASES:
        raise ImproperlyConfigured(
            f"xdist worker {worker} would use Redis database {db} of {url}: choose a lower "
            f"database in CACHE_URL or fewer workers (-n)"
        )
    return urlunsplit(parts._replace(path=f"/{db}"))
