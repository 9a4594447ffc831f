"""Cache keys and the read-through of one value (docs/caching.md).

A key names what it holds, the tournament and its ``cache_version`` when it is about one
tournament (``tournament_key``), and the active language for what is translated: a write
bumps the version (invalidation.py), so an entry is never found again once stale, and is
never deleted, only left to expire.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.utils.translation import get_language

from tournaments.caching import shared
from tournaments.models import Tournament

T = TypeVar("T")

# An entry lives a day at most; a version change makes it unreachable long before.
TIMEOUT = 24 * 3600
PREFIX = "v1"  # change when what a key holds changes shape


def key(kind: str, *parts: object, language: bool = True) -> str:
    """A cache key; ``language`` adds the active language (pages and translated labels)."""
    bits = [PREFIX, kind, *map(str, parts)]
    if language:
        bits.append(get_language() or "")
    return ":".join(bits)


def digest(value: object) -> str:
    """A short stable digest of plain data (repr of tuples, numbers, strings)."""
    return hashlib.blake2b(repr(value).encode(), digest_size=16).hexdigest()


def cached(cache_key: str, build: Callable[[], T], timeout: int = TIMEOUT) -> T:
    """The cached value under ``cache_key``, built and stored when missing (built each
    time while the cache server fails: shared.py)."""
    found: Any = shared.get(cache_key)
    if found is None:
        found = build()
        shared.set(cache_key, found, timeout)
    return found  # type: ignore[no-any-return]


def tournament_key(kind: str, tournament: Tournament, *parts: object) -> str:
    """A key for something shown about one tournament, at its current version."""
    return key(kind, tournament.pk, tournament.cache_version, *parts)


__all__ = ["PREFIX", "TIMEOUT", "cached", "digest", "key", "tournament_key"]
