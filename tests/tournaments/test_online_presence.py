"""Presence in a game room (services/online/presence.py, docs/online.md): a player is in
the room while their page beats - a ping over the WebSocket, or a poll of the state - and
counts as gone after two missed beats, even when the server process that held their
socket was killed with its connection count still up; the opponent is told when they
come back. The service through its functions and the HTTP poll, then the consumer."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.online_play import new_room, seeded
from tests.tournaments.room_sockets import (
    latest_state,
    next_message,
    socket_open,
    socket_send,
    sockets_setup,
)
from tournaments.models import Room
from tournaments.services.online.presence import beat_ms, presence_window, room_beat, room_seen
from tournaments.services.online.rooms import room_connected
from tournaments.services.online.state import room_state


def _players(room_id: int, viewer: User | None = None) -> dict[str, dict[str, Any]]:
    room = Room.objects.select_related("a_user", "b_user").get(pk=room_id)
    players: dict[str, dict[str, Any]] = room_state(room, viewer)["players"]
    return {p["name"]: p for p in players.values()}


def _other(colour: str) -> str:
    return "white" if colour == "black" else "black"


@pytest.fixture
def pair(db: Any) -> tuple[User, User, User, Room]:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    eve = User.objects.create_user("eve", password="pw-eve-123")
    room = seeded(new_room(ann, bob, "long", clock="none"), ann, bob)
    return ann, bob, eve, room


def test_a_killed_servers_socket_stops_counting_after_two_missed_beats(pair) -> None:
    ann, bob, _eve, room = pair
    assert room_connected(room_id=room.pk, user=bob, delta=+1)
    seen = _players(room.pk, ann)["bob"]
    assert seen["connected"] and 0 < seen["present_ms"] <= presence_window().total_seconds() * 1000
    # the server holding bob's socket dies: his count stays up, his beats stop
    window = presence_window()
    assert window > timedelta(milliseconds=2 * beat_ms())  # two beats may be missed...
    almost = timezone.now() - window + timedelta(seconds=2)
    Room.objects.filter(pk=room.pk).update(b_seen=almost)
    assert _players(room.pk, ann)["bob"]["connected"]  # ...not yet gone
    Room.objects.filter(pk=room.pk).update(b_seen=timezone.now() - window - timedelta(seconds=1))
    gone = _players(room.pk, ann)["bob"]
    assert Room.objects.get(pk=room.pk).b_connected == 1
    assert not gone["connected"] and gone["present_ms"] == 0
    # ann's own beat tells her so too (her page hears nothing else while nothing changes)
    back, present, seq = room_beat(room_id=room.pk, user=ann)
    assert seq == Room.objects.get(pk=room.pk).seq
    bob_colour = "black" if Room.objects.get(pk=room.pk).a_white else "white"
    assert back is True and present[bob_colour] == 0 and present[_other(bob_colour)] > 0
    # his page beats again (another process, or the poll): back, and the room is told
    assert room_seen(room_id=room.pk, user=bob) is True
    assert _players(room.pk, ann)["bob"]["connected"]
    assert room_seen(room_id=room.pk, user=bob) is False  # present already: nothing to tell


def test_the_last_socket_closing_is_gone_at_once_and_a_spectator_is_nobody(pair) -> None:
    ann, _bob, eve, room = pair
    assert _players(room.pk)["ann"]["connected"] is False  # never seen
    room_connected(room_id=room.pk, user=ann, delta=+1)
    room_connected(room_id=room.pk, user=ann, delta=+1)  # a second tab
    room_connected(room_id=room.pk, user=ann, delta=-1)
    assert _players(room.pk)["ann"]["connected"]
    room_connected(room_id=room.pk, user=ann, delta=-1)
    assert _players(room.pk)["ann"]["connected"] is False
    assert room_seen(room_id=room.pk, user=eve) is False
    assert room_seen(room_id=room.pk, user=None) is False
    fresh = Room.objects.get(pk=room.pk)
    assert fresh.a_seen is None and fresh.b_seen is None


def test_a_players_poll_is_a_beat_and_a_spectators_is_not(pair) -> None:
    _ann, bob, eve, room = pair
    url = reverse("tournaments:room-state", args=[room.pk])
    client = Client()
    client.force_login(eve)
    state = client.get(url).json()
    assert {p["name"]: p["connected"] for p in state["players"].values()} == {
        "ann": False, "bob": False,
    }  # fmt: skip
    client.force_login(bob)
    assert client.get(url).status_code == 200
    room = Room.objects.get(pk=room.pk)
    assert room.b_seen is not None and room.a_seen is None
    client.force_login(eve)
    state = client.get(url).json()
    assert {p["name"]: p["connected"] for p in state["players"].values()} == {
        "ann": False, "bob": True,
    }  # fmt: skip


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_beats_and_the_opponent_sees_a_dead_one_go_and_come_back() -> None:
    ctx = await sockets_setup()
    a, b = await socket_open(ctx, "ann"), await socket_open(ctx, "bob")
    await latest_state(a)
    await latest_state(b)
    await socket_send(b, action="ping")
    pong = await next_message(b, "pong")  # with how long each player still counts as present
    assert set(pong["present_ms"]) == {"white", "black"}
    # and the room's seq: a page that missed a change (a dropped message) asks the state
    assert pong["seq"] == (await database_sync_to_async(Room.objects.get)(pk=ctx["room"])).seq
    assert all(0 < ms <= presence_window().total_seconds() * 1000
               for ms in pong["present_ms"].values())  # fmt: skip
    assert await b.receive_nothing(timeout=0.3)  # a beat of a present player changes nothing

    @database_sync_to_async
    def kill_bobs_server() -> None:  # his count stays up, his last beat grows old
        old = timezone.now() - presence_window() - timedelta(seconds=5)
        Room.objects.filter(pk=ctx["room"]).update(b_seen=old, b_connected=1)

    await kill_bobs_server()
    await socket_send(a, action="sync")
    state = await latest_state(a)
    bob = next(p for p in state["players"].values() if p["name"] == "bob")
    assert not bob["connected"] and bob["present_ms"] == 0
    # bob's page beats again: ann is sent the state with him back
    await socket_send(b, action="ping")
    back = await latest_state(a)
    bob = next(p for p in back["players"].values() if p["name"] == "bob")
    assert bob["connected"] and bob["present_ms"] > 0
    # a spectator's beat is answered and changes nothing for anyone
    eve = await socket_open(ctx, "eve")
    await latest_state(eve)  # a spectator's socket is told its own state only
    await socket_send(eve, action="ping")
    pong = json.loads(await eve.receive_from(timeout=5))
    assert pong["type"] == "pong" and all(pong["present_ms"].values())
    assert await a.receive_nothing(timeout=0.3)
    for ws in (a, b, eve):
        await ws.disconnect()
