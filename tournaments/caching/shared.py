"""The shared cache, failing soft (docs/caching.md, "When the cache server fails").

A cache is an optimisation: when its server fails (Redis stopped, unreachable or timing
out), every call here answers as a miss (a read) or does nothing (a write), so pages are
built from the database and writes go on. The failure is logged once a minute by each
process, not once a request, and after a failure the server is left alone for
``RETRY_SECONDS`` (a server that hangs costs one timeout a second, not one a call).

A failure also leaves a *debt*: while the server was failing, a write's renewal of the
generations may have been lost (generations.py), so cells stored before it could show an
old version once the server answers again. Until this process has paid the debt (renewed
the ``epoch`` generation every cell depends on, generations.py) it trusts no cell.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from django.core.cache import cache

T = TypeVar("T")

log = logging.getLogger("tournaments.caching")

LOG_EVERY = 60.0  # seconds between two messages about the same outage, per process
RETRY_SECONDS = 1.0  # after a failure, calls skip the server this long


def _errors() -> tuple[type[BaseException], ...]:
    """What a cache server failing raises: the Redis client's errors and the socket's."""
    found: list[type[BaseException]] = [OSError]
    try:
        from redis.exceptions import RedisError
    except ImportError:  # pragma: no cover - redis is a dependency
        pass
    else:
        found.append(RedisError)
    return tuple(found)


ERRORS = _errors()


class _Health:
    """This process's view of the server: when to try it again, what is owed, what to
    say. One lock: requests run in threads too."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.retry_at = 0.0  # time.monotonic(): skip the server until then
        self.failures = 0  # every failure (and skipped call) so far
        self.owed = False  # a failure seen since the epoch was last renewed
        self.unlogged = 0  # failures since the last message
        self.logged_at = -math.inf

    def failed(self, operation: str, error: BaseException | None) -> None:
        now = time.monotonic()
        with self.lock:
            self.failures += 1
            self.unlogged += 1
            self.owed = True
            if error is not None:
                self.retry_at = now + RETRY_SECONDS
            if now - self.logged_at < LOG_EVERY:
                return
            count, self.unlogged, self.logged_at = self.unlogged, 0, now
        log.warning(
            "The shared cache is failing (%s: %s); pages are built from the database "
            "and writes go on. %d failed or skipped cache calls since the last message; "
            "the next message in %d s at the earliest.",
            operation,
            error if error is not None else "skipped after a failure",
            count,
            LOG_EVERY,
        )


_health = _Health()


def _call(operation: str, call: Callable[[], T], default: T) -> T:
    if time.monotonic() < _health.retry_at:
        _health.failed(operation, None)
        return default
    try:
        return call()
    except ERRORS as error:
        _health.failed(operation, error)
        return default


def get(key: str) -> Any:
    return _call("get", lambda: cache.get(key), None)


def get_many(keys: Iterable[str]) -> dict[str, Any]:
    keys = list(keys)
    return _call("get_many", lambda: cache.get_many(keys), {})


def set(key: str, value: Any, timeout: int) -> None:
    _call("set", lambda: cache.set(key, value, timeout), None)


def set_many(values: Mapping[str, Any], timeout: int) -> bool:
    """True when the server stored them."""

    def call() -> bool:
        return not cache.set_many(dict(values), timeout)  # the keys not stored

    return _call("set_many", call, False)


def add(key: str, value: Any, timeout: int) -> bool:
    return _call("add", lambda: bool(cache.add(key, value, timeout)), False)


def debt() -> int | None:
    """The failures counted so far if a renewal is owed (see the module), else None."""
    with _health.lock:
        return _health.failures if _health.owed else None


def paid(failures: int) -> None:
    """The epoch was renewed after ``failures`` failures: the debt is settled unless the
    server failed again meanwhile."""
    with _health.lock:
        if not _health.owed or _health.failures != failures:
            return
        _health.owed = False
        _health.logged_at = -math.inf  # a new outage is reported at once
    log.warning("The shared cache answers again: every cached version is read anew.")


def failed(operation: str, error: BaseException | None) -> None:
    """A failure met outside this module (the API's throttles; ``None``: the call was
    skipped), counted and logged the same way."""
    _health.failed(operation, error)


def skipping() -> bool:
    """True while calls skip the server after a failure."""
    return time.monotonic() < _health.retry_at


__all__ = ["ERRORS", "add", "debt", "failed", "get", "get_many", "paid", "set", "set_many"]
