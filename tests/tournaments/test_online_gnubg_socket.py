"""Short backgammon against GNU Backgammon over the room's WebSocket (config/asgi.py,
tournaments/online/consumer.py, services/online/room_bot.py): the user's double is
answered by gnubg in the same action and both come back in one state; a move is
answered by gnubg's turn. Runs where gnubg is installed (tests/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from tests.tournaments.online_play import act
from tests.tournaments.room_sockets import latest_state, socket_cookie, socket_open, socket_send
from tournaments.models import Room
from tournaments.services.online import room_bot
from tournaments.services.online.challenges import challenge_bot
from tournaments.services.online.game import game_view

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.gnubg]


@database_sync_to_async
def _setup() -> dict[str, Any]:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    room = challenge_bot(user=ann, variant="short", level="gnubg-beginner", colour="white")
    room = act(room, ann, "seed", seed="ab" * 8)
    return {"room": room.pk, "users": {"ann": ann}, "cookies": {"ann": socket_cookie(ann)}}


@database_sync_to_async
def _actions(room_id: int) -> list[tuple[int, str]]:
    room = Room.objects.get(pk=room_id)
    return [(a.side, a.kind) for a in game_view(room.record).actions]


async def test_the_users_double_and_gnubgs_answer_come_in_one_state(monkeypatch) -> None:
    monkeypatch.setattr(room_bot, "gnubg_cube", lambda *a, **k: "No double, take")
    ctx = await _setup()
    ws = await socket_open(ctx, "ann")
    await socket_send(ws, action="sync")
    state = await latest_state(ws)
    assert state["dice"] and "move" in state["can"]  # the opening lot's roll: no cube yet
    sent = state["seq"]
    await socket_send(ws, action="move", seq=sent, turn=state["legal"][0]["movetext"])
    state = await latest_state(ws, after=sent)  # gnubg played its turn in the same action
    assert (1, "turn") in await _actions(ctx["room"])
    assert "double" in state["can"] and "roll" in state["can"], state
    sent = state["seq"]
    await socket_send(ws, action="double", seq=sent)
    state = await latest_state(ws, after=sent)
    assert (await _actions(ctx["room"]))[-2:] == [(0, "double"), (1, "take")]
    assert state["turn"] == state["you"] and "move" in state["can"]  # rolled on at once
    assert "double" not in state["can"]  # the cube is gnubg's now
    await ws.disconnect()
