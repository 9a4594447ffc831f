"""Helpers of the game rooms' socket tests (docs/online.md): session cookies, a room with
three users (two players and a spectator), and sockets opened through the real ASGI
application, with the messages they receive."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from config.asgi import application
from tests.tournaments.online_play import new_room, seeded

ORIGIN = (b"origin", b"http://localhost")


def socket_cookie(user: User | None, language: str = "en") -> bytes:
    parts = [f"{settings.LANGUAGE_COOKIE_NAME}={language}"]
    if user is not None:
        client = Client()
        client.force_login(user)
        parts.append(
            f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        )
    return "; ".join(parts).encode()


@database_sync_to_async
def sockets_setup(variant: str = "long", seed: bool = True, **room_settings: Any) -> dict[str, Any]:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    eve = User.objects.create_user("eve", password="pw-eve-123")
    room = new_room(ann, bob, variant, clock="none", **room_settings)
    if seed:
        room = seeded(room, ann, bob)
    users = {"ann": ann, "bob": bob, "eve": eve}
    return {
        "room": room.pk,
        "users": users,
        "cookies": {n: socket_cookie(u) for n, u in users.items()},
    }


async def socket_open(
    ctx: dict[str, Any], name: str | None, language: str = "en"
) -> WebsocketCommunicator:
    cookie = ctx["cookies"][name] if name else socket_cookie(None, language)
    if name and language != "en":
        cookie = cookie.replace(b"=en", f"={language}".encode(), 1)
    ws = WebsocketCommunicator(
        application, f"/ws/rooms/{ctx['room']}/", headers=[ORIGIN, (b"cookie", cookie)]
    )
    connected, _sub = await ws.connect()
    assert connected
    return ws


async def next_message(ws: WebsocketCommunicator, kind: str = "state") -> dict[str, Any]:
    """The next message of ``kind`` (presence states of other sockets may come first)."""
    for _ in range(10):
        message = json.loads(await ws.receive_from(timeout=20))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


async def latest_state(ws: WebsocketCommunicator, after: int | None = None) -> dict[str, Any]:
    """The last state queued on the socket (presence changes send a few); with ``after``,
    the first one taken is newer than that seq (a state of an earlier seq - a presence
    change read late on a busy machine - is not the answer to the action sent at it)."""
    state = await next_message(ws)
    for _ in range(20):
        if after is None or state["state"]["seq"] > after:
            break
        state = await next_message(ws)
    while not await ws.receive_nothing(timeout=0.3):
        message = json.loads(await ws.receive_from())
        if message["type"] == "state":
            state = message
    return state["state"]


async def socket_send(ws: WebsocketCommunicator, **message: Any) -> None:
    await ws.send_to(text_data=json.dumps(message))
