"""Versions read from the shared cache, so that a warm page makes no database query
(docs/caching.md).

A *cell* holds what a page's version is made of (a tournament's ``published`` and
``cache_version``, read from the database) together with the *generations* it was read
under: random tokens kept in the shared cache, one a tournament (``t:<id>``) and one for
everything (``all``). Every write that changes a page gives the generations it concerns a
new token at once (inside the write's transaction) and again in
``transaction.on_commit``. A reader fetches the generations and the cell in one cache read
and uses the cell only if it was read under the current tokens; otherwise it reads the
database (read-through) and stores the cell under the tokens it fetched *before* that
read.

Once a transaction: a write renews a generation (and ``invalidation.tournaments_touch`` bumps a
tournament's ``cache_version``) once per transaction, however many of its rows change
(the quick entry saves a game, its series and the players' ratings: one UPDATE, one
renewal inside the transaction, one on commit). Each renewal inside a transaction is a
*step*, registered with ``transaction.on_commit``; a later write is left out only while a
step that covers it is still live, i.e. its on_commit callback still queued: Django drops
it exactly when a savepoint it was registered inside rolls back, which is when its UPDATE
is rolled back too. A write inside a savepoint that rolls back therefore never stands in
for a write that stays: the next write bumps again (an extra bump is harmless, a missing
one would be a stale page). The steps' on_commit renews, once, every name any step of the
transaction registered.

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
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, TypeVar

from django.db import connection, transaction

from tournaments.caching import shared

T = TypeVar("T")

ALL = "all"  # every write: lists, series, games, players
EPOCH = "epoch"  # every cell: renewed after the cache server failed (shared.py)
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
    """New tokens for ``names``; and for the epoch while a failure is owed (shared.py)."""
    owed = shared.debt()
    if owed is not None:
        names = (*names, EPOCH)
    stored = shared.set_many({_gen_key(n): secrets.token_hex(8) for n in names}, GEN_TIMEOUT)
    if stored and owed is not None:
        shared.paid(owed)


def _settled() -> bool:
    """True when this process may use the cells: no failure owed, or the epoch renewed
    now (every cell stored before it no longer matches)."""
    owed = shared.debt()
    if owed is None:
        return True
    _renew(())
    return shared.debt() is None


class _Batch:
    """The generations renewed (and tournaments bumped) in one transaction, by its
    steps: see the module's "Once a transaction"."""

    def __init__(self, owner: object, sid: str | None) -> None:
        self.owner, self.sid = owner, sid
        self.steps: list[_Step] = []
        self.renewed = False

    def live(self, queued: list[Any]) -> list[_Step]:
        """The steps whose on_commit callback is still queued (not rolled back)."""
        waiting = {id(entry[1]) for entry in queued}
        return [step for step in self.steps if id(step) in waiting]

    def renew_on_commit(self) -> None:
        if not self.renewed:  # the first live step's callback renews for them all
            self.renewed = True
            _renew(tuple(dict.fromkeys(n for step in self.steps for n in step.names)))


class _Step:
    """One renewal inside a transaction; called on commit."""

    def __init__(self, batch: _Batch, names: tuple[str, ...], tournaments: frozenset[int]):
        self.batch, self.names, self.tournaments = batch, names, tournaments

    def __call__(self) -> None:
        self.batch.renew_on_commit()


_BATCH = "_nardy_generations_batch"


def _owner(conn: Any) -> tuple[object, str | None] | None:
    """The atomic block a batch belongs to: the outermost one, or in a test (whose own
    transaction never commits) the outermost one the code under test opened, while it
    has a savepoint of its own. None: no batching (every write renews)."""
    blocks, sids = conn.atomic_blocks, conn.savepoint_ids
    offset = len(blocks) - len(sids)  # the outermost block has no savepoint
    for depth, block in enumerate(blocks):
        if getattr(block, "_from_testcase", False):
            continue
        sid = sids[depth - offset] if depth >= offset else None
        if depth >= offset and sid is None:
            return None  # atomic(savepoint=False) right inside a test's transaction
        return block, sid
    return None


def _current(conn: Any) -> tuple[_Batch | None, list[_Step]]:
    """This transaction's batch and its live steps (None outside a batchable block)."""
    owner = _owner(conn) if conn.in_atomic_block else None
    if owner is None:
        return None, []
    batch: _Batch | None = getattr(conn, _BATCH, None)
    live = batch.live(conn.run_on_commit) if batch is not None else []
    if batch is None or batch.owner is not owner[0] or batch.sid != owner[1] or not live:
        # another transaction (or block), or all its steps rolled back: start anew
        batch = _Batch(*owner)
        setattr(conn, _BATCH, batch)
        live = []
    return batch, live


def tournaments_bumped() -> frozenset[int]:
    """The tournaments whose ``cache_version`` this transaction has bumped already (by a
    step still live): ``invalidation.tournaments_touch`` need not bump them again."""
    _, live = _current(transaction.get_connection())
    return frozenset(t for step in live for t in step.tournaments)


def generations_bump(names: Iterable[str], *, tournaments: Collection[int] = ()) -> None:
    """New tokens for ``names`` (and ``all``) now and again when the caller's transaction
    commits: called with every write that bumps a ``cache_version`` (``tournaments``, the
    ones it bumped). Inside a transaction, names renewed there already by a live step are
    not renewed again; outside one the write is committed already: one renewal."""
    wanted = tuple(dict.fromkeys((*names, ALL)))
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        _renew(wanted)
        return
    batch, live = _current(conn)
    if batch is None:
        _renew(wanted)
        transaction.on_commit(lambda: _renew(wanted))
        return
    covered = {n for step in live for n in step.names}
    fresh = tuple(n for n in wanted if n not in covered)
    bumped = frozenset(tournaments) - {t for step in live for t in step.tournaments}
    if not fresh and not bumped:
        return
    if fresh:
        _renew(fresh)
    step = _Step(batch, fresh, bumped)
    batch.steps.append(step)
    transaction.on_commit(step)


def _tokens(keys: Sequence[str], got: dict[str, Any]) -> list[str | None]:
    tokens: list[str | None] = [got.get(k) for k in keys]
    if None in tokens:  # never set, expired or evicted: a new random token, never an old one
        for k, token in zip(keys, tokens, strict=True):
            if token is None:
                shared.add(k, secrets.token_hex(8), GEN_TIMEOUT)
        again = shared.get_many(keys)
        tokens = [again.get(k) for k in keys]
    return tokens


def read_through(
    cell: str, gens: Sequence[str], load: Callable[[], T | None]
) -> tuple[list[str | None], T | None]:
    """The current tokens of ``gens`` and of the epoch (last), and the cell's value: from
    the cache when it was stored under those tokens, else ``load()`` (the database),
    stored for the next reader. One cache read when warm. ``None`` (nothing found) is not
    stored. With the cache server failing: no token (``None``) and the database's value;
    after it failed, no cell is used before the epoch is renewed (shared.py)."""
    if not _settled():
        return [None] * (len(gens) + 1), load()
    keys = [_gen_key(g) for g in (*gens, EPOCH)]
    cell_key = _cell_key(cell)
    got = shared.get_many([*keys, cell_key])
    tokens = _tokens(keys, got)
    stored = got.get(cell_key)
    if stored is not None and stored[0] == tokens and None not in tokens:
        return tokens, stored[1]
    value = load()
    if value is not None and None not in tokens and not connection.in_atomic_block:
        shared.set(cell_key, (tokens, value), CELL_TIMEOUT)
    return tokens, value


__all__ = [
    "ALL",
    "EPOCH",
    "generations_bump",
    "read_through",
    "tournament_gen",
    "tournaments_bumped",
]
