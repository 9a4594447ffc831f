"""The game rooms' channel layer chosen by CHANNEL_LAYER_URL (config/settings.py,
docs/deploy.md, docs/online.md): Redis's pub/sub in production, whose channels are the
server's and not a database's, so the URL's database number is in the channels' prefix;
in memory without it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from config.settings import _channel_layers

PUBSUB = "channels_redis.pubsub.RedisPubSubChannelLayer"


def _prefix(url: str) -> str:
    layer = _channel_layers(url)["default"]
    assert layer["BACKEND"] == PUBSUB and layer["CONFIG"]["hosts"] == [url]
    return str(layer["CONFIG"]["prefix"])


def test_the_database_number_is_in_the_prefix_as_redis_py_reads_it() -> None:
    assert _prefix("redis://127.0.0.1:6379/1") == "asgi.db1."
    assert _prefix("redis://:secret@redis.example:6379/12") == "asgi.db12."
    assert _prefix("rediss://redis.example:6380") == "asgi.db0."
    assert _prefix("redis://127.0.0.1:6379/1?db=3") == "asgi.db3."  # the query wins
    assert _prefix("unix:///run/redis.sock?db=4") == "asgi.db4."
    assert _prefix("unix:///run/redis.sock") == "asgi.db0."


def test_no_url_is_the_memory_layer_and_another_scheme_is_refused() -> None:
    for url in ("", "memory://"):
        assert _channel_layers(url)["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    with pytest.raises(ImproperlyConfigured, match="CHANNEL_LAYER_URL"):
        _channel_layers("amqp://127.0.0.1/")


def _layer(url: str) -> Any:
    """The layer as channels builds it from the setting."""
    layer = _channel_layers(url)["default"]
    return import_string(layer["BACKEND"])(**layer["CONFIG"])


@pytest.mark.asyncio
@pytest.mark.redis
async def test_two_database_numbers_on_one_redis_do_not_hear_each_others_rooms(
    redis_url: str,
) -> None:
    """On a real Redis (this worker's database of CACHE_URL's, else one of the test's own;
    CHANNEL_LAYER_URL is not needed, so CI runs it)."""
    url = redis_url.split("?")[0]
    head, _, db = url.rpartition("/")
    other = f"{head}/{int(db or 0) + 1}"
    mine, theirs, theirs_too = _layer(url), _layer(other), _layer(other)
    listening = await theirs.new_channel()
    await theirs.group_add("room-1", listening)
    await asyncio.sleep(0.2)  # the SUBSCRIBE is in before another connection's PUBLISH
    try:
        await mine.group_send("room-1", {"type": "room.changed"})
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(theirs.receive(listening), timeout=0.5)
        listening = await theirs.new_channel()
        await theirs.group_add("room-1", listening)
        await asyncio.sleep(0.2)
        await theirs_too.group_send("room-1", {"type": "room.changed", "n": 2})
        message = await asyncio.wait_for(theirs.receive(listening), timeout=5)
        assert message == {"type": "room.changed", "n": 2}
    finally:
        for layer in (mine, theirs, theirs_too):
            await layer.flush()
