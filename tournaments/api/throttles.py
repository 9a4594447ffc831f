# mypy: disallow-subclassing-any=False
"""API throttles whose counting holds across workers and machines.

DRF's throttles keep each client's recent request times in the cache (Redis in
production, CACHE_URL) but read them and write them back in two steps: two workers can
both read 19 of 20 and both let a request through (measured: 21 of a limit of 20). Here
one client's check runs under a lock taken with ``cache.add``, which is atomic in Redis
and in the local memory cache, so the window and the rates stay DRF's own.

When the cache server fails, a throttle lets the request through (fails open) and the
failure is logged once a minute with the cache's others (tournaments/caching/shared.py):
refusing every request would take the API down with the cache, and what the throttles
guard stays guarded elsewhere (passwords by django-axes, in the database; uploads by
their size limits). docs/caching.md."""

from __future__ import annotations

import hashlib
import time
from typing import Any

from rest_framework.throttling import (
    AnonRateThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from tournaments.caching import shared

LOCK_SECONDS = 5  # a crashed worker's lock expires by itself
WAIT_SECONDS = 2  # then the check goes ahead unlocked rather than hang a request


class LockedRateThrottle(SimpleRateThrottle):
    """DRF's check of one client's history, under that client's lock. Listed after DRF's
    concrete throttle, so that ScopedRateThrottle has chosen its scope and rate first."""

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        if shared.skipping():  # the cache server failed a moment ago: not asked again
            shared.failed("throttle", None)
            return True
        try:
            return self._allow_locked(request, view, key)
        except shared.ERRORS as error:
            shared.failed("throttle", error)
            return True

    def _allow_locked(self, request: Any, view: Any, key: str) -> bool:
        lock = f"{key}:lock"
        deadline = time.monotonic() + WAIT_SECONDS
        while not self.cache.add(lock, 1, LOCK_SECONDS):
            if time.monotonic() > deadline:
                break
            time.sleep(0.002)
        try:
            return bool(super().allow_request(request, view))
        finally:
            self.cache.delete(lock)


class AnonThrottle(AnonRateThrottle, LockedRateThrottle):
    """Anonymous clients by address (scope ``anon``)."""


class UserThrottle(UserRateThrottle, LockedRateThrottle):
    """Signed-in clients by user, others by address (scope ``user``)."""


class ScopedThrottle(ScopedRateThrottle, LockedRateThrottle):
    """A view's own ``throttle_scope`` (``token``, ``verify``)."""


class PageThrottle(LockedRateThrottle):
    """A page's own limit, counted as the API's are (views/accounts.py: sign-ups and
    confirmation mails, scope ``signup`` by the client's address and ``signup_mail`` by
    the e-mail address mailed). ``ident`` is what is counted: the client's address unless
    given; it is hashed, so any text may be counted."""

    def __init__(self, scope: str, ident: str | None = None) -> None:
        self.scope = scope
        self.ident = ident
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str:
        ident = self.get_ident(request) if self.ident is None else self.ident
        digest = hashlib.sha256(ident.encode()).hexdigest()
        return str(self.cache_format % {"scope": self.scope, "ident": digest})
