"""Versions read from the shared cache, so that a warm page makes no database query
(docs/performance.md, "Versions in the shared cache").

A *cell* holds what a page's version is made of (a tournament's ``published`` and
``cache_version``, read from the database) together with the *generations* it was read
under: random tokens kept in the shared cache, one a tournament (``t:<id>``) and one for
everything (``all``). Every write that changes a page gives the generations it concerns a
new token at once (inside the write's transaction) and again in
``transaction.on_commit``. A reader fetches the generations and the cell in one cache read
and uses the cell only if it was read under the current tokens; otherwise it reads the
database (read-through) and stores the cell under the tokens it fetched *before* that
read.

Why a cell can never be stale: a cell stored from a read made before a write committed
carries tokens fetched before the write's ``on_commit`` set new ones, so it no longer
matches once the write has returned. Tokens are random, never counters: a token lost (the
cache evicted or restarted) is replaced by a new one, never by one a stale cell carries.
A cell is never stored from inside a transaction (it could hold a version that is rolled
back and given out again). The one window: a process that dies (or loses the cache)
between its commit and its ``on_commit``: cells filled during its transaction live on
until ``CELL_TIMEOUT``.

Nothing here lives in one process's memory: with Redis (``CACHE_URL``) every app server
shares the tokens and cells; the local-memory fallback is for one process (``make run``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import connection, transaction

T = TypeVar("T")

ALL = "all"  # every write: lists, series, games, players
CELL_TIMEOUT = 60  # bounds the failure window above; a miss costs one small query
GEN_TIMEOUT = 24 * 3600
_PREFIX = "v1:gen"


def tournament_gen(pk: object) -> str:
    return f"t:{pk}"


def _gen_key(name: str) -> str:
    return f"{_PREFIX}:{name}"


def _cell_key(name: str) -> str:
    return f"{_PREFIX}:cell:{name}"


def _renew(names: Sequence[str]) -> None:
    cache.set_many({_gen_key(n): secrets.token_hex(8) for n in names}, GEN_TIMEOUT)


def generations_bump(names: Iterable[str]) -> None:
    """New tokens for ``names`` now and again when the caller's transaction commits (at
    once outside one): called with every write that bumps a ``cache_version``."""
    wanted = tuple(dict.fromkeys((*names, ALL)))
    _renew(wanted)
    transaction.on_commit(lambda: _renew(wanted))


def _tokens(keys: Sequence[str], got: dict[str, Any]) -> list[str | None]:
    tokens: list[str | None] = [got.get(k) for k in keys]
    if None in tokens:  # never set, expired or evicted: a new random token, never an old one
        for k, token in zip(keys, tokens, strict=True):
            if token is None:
                cache.add(k, secrets.token_hex(8), GEN_TIMEOUT)
        again = cache.get_many(list(keys))
        tokens = [again.get(k) for k in keys]
    return tokens


def read_through(
    cell: str, gens: Sequence[str], load: Callable[[], T | None]
) -> tuple[list[str | None], T | None]:
    """The current tokens of ``gens`` and the cell's value: from the cache when it was
    stored under those tokens, else ``load()`` (the database), stored for the next
    reader. One cache read when warm. ``None`` (nothing found) is not stored."""
    keys = [_gen_key(g) for g in gens]
    cell_key = _cell_key(cell)
    got = cache.get_many([*keys, cell_key])
    tokens = _tokens(keys, got)
    stored = got.get(cell_key)
    if stored is not None and stored[0] == tokens:
        return tokens, stored[1]
    value = load()
    if value is not None and None not in tokens and not connection.in_atomic_block:
        cache.set(cell_key, (tokens, value), CELL_TIMEOUT)
    return tokens, value


__all__ = ["ALL", "generations_bump", "read_through", "tournament_gen"]
