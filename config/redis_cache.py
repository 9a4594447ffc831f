"""Django's Redis cache, with one Redis client object a connection pool.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` around the pool on
every cache call; building one fills its table of response callbacks (about 170 entries)
each time, which is most of the CPU a warm public page spends on reading its version
(tournaments/caching/generations.py). A ``redis.Redis`` is safe to share between threads (each
command takes a connection from the pool), so one is kept a pool.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class ReusedClients(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        this: Any = self  # the stubs do not declare the client's private helpers
        pool = this._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = this._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClients


def redis_cache_settings(url: str, *, prefix: str, timeout: float) -> dict[str, Any]:
    """``CACHES["default"]`` for the Redis at ``url``: a call that gets no answer within
    ``timeout`` seconds fails, and the site goes on without the cache
    (tournaments/caching/shared.py), rather than hang the request."""
    return {
        "BACKEND": "config.redis_cache.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": prefix,
        "OPTIONS": {"socket_connect_timeout": timeout, "socket_timeout": timeout},
    }
