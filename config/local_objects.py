"""This process's copies of public pages (``CACHES["local"]``, tournaments/caching/pages.py),
kept as the objects themselves.

Django's local-memory cache pickles every value on ``set`` and unpickles it on every
``get``: for a stored page (the body split at the CSRF token, and each part deflated:
about 450 kB for the 128-player Swiss) that is a copy of the whole page on every request.
The values kept here are immutable (``caching.pages.Stored``: a frozen dataclass of bytes),
so they are handed out as they are. Expiry, the entry limit and the lock are Django's.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache


class LocalObjects(LocMemCache):
    """LocMemCache without pickling: for immutable values only."""

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        key = self.make_and_validate_key(key, version=version)
        this: Any = self  # the stubs do not declare LocMemCache's private parts
        with this._lock:
            if this._has_expired(key):
                this._set(key, value, timeout)
                return True
            return False

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        this: Any = self  # the stubs do not declare LocMemCache's private parts
        with this._lock:
            if this._has_expired(key):
                this._delete(key)
                return default
            value = this._cache[key]
            this._cache.move_to_end(key, last=False)
        return value

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        key = self.make_and_validate_key(key, version=version)
        this: Any = self  # the stubs do not declare LocMemCache's private parts
        with this._lock:
            this._set(key, value, timeout)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        raise NotImplementedError("page copies are not counters")
