"""The game room over WebSockets (config/asgi.py, tournaments/online/consumer.py,
docs/online.md), through the real ASGI application with session cookies: every action
and every refusal - out of turn, an illegal turn, a stale sequence number, a cube action
the rules forbid (the Crawford game, S7), a spectator who tries to move - a resend that
plays once, and a reconnect that is sent the database's state."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.tournaments.online_play import act
from tests.tournaments.room_sockets import (
    ORIGIN,
    latest_state,
    next_message,
    socket_open,
    socket_send,
    sockets_setup,
)
from tournaments.models import Room, RoomStatus

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _mover(ctx: dict[str, Any], a: WebsocketCommunicator, b: WebsocketCommunicator):
    """Both sockets' current states (asked for by a sync), the player on turn first."""
    await socket_send(a, action="sync")
    await socket_send(b, action="sync")
    sa, sb = await latest_state(a), await latest_state(b)
    return (a, sa, b, sb) if sa["turn"] == sa["you"] else (b, sb, a, sa)


async def test_a_player_moves_and_both_sockets_get_the_new_state() -> None:
    ctx = await sockets_setup()
    a, b = await socket_open(ctx, "ann"), await socket_open(ctx, "bob")
    mover, state, other, _ = await _mover(ctx, a, b)
    assert state["status"] == "playing" and state["players"]["white"]["connected"]
    assert state["dice"] and state["legal"] and "move" in state["can"]
    assert state["dice_hash"] and state["server_seed"] is None
    turn = state["legal"][0]["movetext"]
    await socket_send(mover, action="move", seq=state["seq"], turn=turn)
    after_mover, after_other = await latest_state(mover), await latest_state(other)
    assert after_mover["seq"] == after_other["seq"] == state["seq"] + 1
    assert (
        after_other["last"]["dice"] == sorted(state["dice"], reverse=True)
        or after_other["last"]["dice"] == state["dice"]
    )
    assert after_other["turn"] == after_other["you"]
    await a.disconnect()
    await b.disconnect()


async def test_refusals_change_nothing_and_a_resend_plays_once() -> None:
    ctx = await sockets_setup()
    a, b = await socket_open(ctx, "ann"), await socket_open(ctx, "bob")
    mover, state, other, _other_state = await _mover(ctx, a, b)
    seq = state["seq"]
    # out of turn
    await socket_send(other, action="move", seq=seq, turn=state["legal"][0]["movetext"])
    assert (await next_message(other, "error"))["code"] == "not-your-turn"
    # an illegal turn (L3: a checker moves by the dice)
    await socket_send(mover, action="move", seq=seq, turn="24/1")
    error = await next_message(mover, "error")
    assert error["code"] in {"illegal-turn", "illegal-turn-rule"} and "24/1" in error["detail"]
    # a stale sequence number
    await socket_send(mover, action="move", seq=seq + 5, turn=state["legal"][0]["movetext"])
    assert (await next_message(mover, "error"))["code"] == "stale-seq"
    # a cube action where the game has no cube (long nardy)
    await socket_send(mover, action="double", seq=seq)
    assert (await next_message(mover, "error"))["code"] == "cube-refused"
    assert (await database_sync_to_async(Room.objects.get)(pk=ctx["room"])).seq == seq
    # a resend (a double click) plays once
    move = {"action": "move", "seq": seq, "turn": state["legal"][0]["movetext"]}
    await socket_send(mover, **move)
    await socket_send(mover, **move)
    assert (await next_message(mover, "error"))["code"] == "stale-seq"
    assert (await database_sync_to_async(Room.objects.get)(pk=ctx["room"])).seq == seq + 1
    await a.disconnect()
    await b.disconnect()


async def test_a_spectator_watches_and_every_action_is_refused() -> None:
    ctx = await sockets_setup()
    eve = await socket_open(ctx, "eve")
    state = await latest_state(eve)
    # a spectator reads the players' chat and sends nothing
    assert state["you"] is None and state["legal"] == [] and state["chat"] == []
    for action in ("move", "roll", "double", "take", "drop", "resign", "abort", "chat"):
        await socket_send(eve, action=action, seq=state["seq"], turn="24/18", text="hi")
        assert (await next_message(eve, "error"))["code"] == "spectator"
    anonymous = await socket_open(ctx, None, "cs")
    await latest_state(anonymous)
    await socket_send(anonymous, action="resign", seq=state["seq"])
    error = await next_message(anonymous, "error")
    assert error["code"] == "spectator" and "sledujete" in error["detail"]
    await eve.disconnect()
    await anonymous.disconnect()


async def test_a_reconnecting_client_is_sent_the_state_from_the_database() -> None:
    ctx = await sockets_setup()
    a = await socket_open(ctx, "ann")
    first = await latest_state(a)
    await a.disconnect()
    gone = await database_sync_to_async(Room.objects.get)(pk=ctx["room"])
    assert gone.a_connected == 0

    @database_sync_to_async
    def bob_or_ann_moves() -> int:
        room = Room.objects.get(pk=ctx["room"])
        from tests.tournaments.online_play import first_choice, on_turn

        users = (ctx["users"]["ann"], ctx["users"]["bob"])
        user, state = on_turn(room, users)
        action, fields = first_choice(state)
        return act(room, user, action, **fields).seq

    seq = await bob_or_ann_moves()
    a = await socket_open(ctx, "ann")
    again = await latest_state(a)
    assert again["seq"] == seq == first["seq"] + 1
    await a.disconnect()


async def test_chat_and_turning_it_off() -> None:
    ctx = await sockets_setup()
    a, b = await socket_open(ctx, "ann"), await socket_open(ctx, "bob")
    seq = (await latest_state(a))["seq"]
    await latest_state(b)
    await socket_send(a, action="chat", seq=seq, text="good luck")
    assert (await latest_state(b))["chat"][-1] == {
        "from": "ann", "text": "good luck", "at": (await latest_state(a))["chat"][-1]["at"]
    }  # fmt: skip
    await socket_send(b, action="chat-off", seq=seq)
    assert (await latest_state(b))["chat"] is None
    await socket_send(b, action="chat", seq=seq, text="hello")
    assert (await next_message(b, "error"))["code"] == "chat-off"
    await socket_send(b, action="chat-on", seq=seq)
    assert (await latest_state(b))["chat"][-1]["text"] == "good luck"
    assert (await database_sync_to_async(Room.objects.get)(pk=ctx["room"])).seq == seq
    await a.disconnect()
    await b.disconnect()


async def test_cube_double_take_drop_and_the_crawford_game() -> None:
    """Short backgammon to 2 points: a double taken, a redouble dropped (1 point... the
    cube's value), then the Crawford game refuses a double (S7)."""
    ctx = await sockets_setup("short", length=2)
    a, b = await socket_open(ctx, "ann"), await socket_open(ctx, "bob")
    for _ in range(40):  # play until someone may double
        mover, state, other, _ = await _mover(ctx, a, b)
        if "double" in state["can"]:
            break
        if "roll" in state["can"]:
            await socket_send(mover, action="roll", seq=state["seq"])
        else:
            await socket_send(
                mover, action="move", seq=state["seq"], turn=state["legal"][0]["movetext"]
            )
    assert "double" in state["can"]
    await socket_send(other, action="take", seq=state["seq"])
    assert (await next_message(other, "error"))["code"] == "not-your-turn"
    await socket_send(mover, action="double", seq=state["seq"])
    answer = await latest_state(other)
    assert answer["cube"]["offered_by"] != answer["you"] == answer["turn"]
    assert set(answer["can"]) >= {"take", "drop"}
    await socket_send(other, action="take", seq=answer["seq"])
    taken = await latest_state(mover)
    assert taken["cube"]["value"] == 2 and taken["cube"]["owner"] != taken["you"]
    # drop: the doubler wins the game at the cube's value before the double
    for _ in range(60):
        mover, state, other, _ = await _mover(ctx, a, b)
        if "double" in state["can"]:
            break
        if "roll" in state["can"]:
            await socket_send(mover, action="roll", seq=state["seq"])
        else:
            await socket_send(
                mover, action="move", seq=state["seq"], turn=state["legal"][0]["movetext"]
            )
    await socket_send(mover, action="double", seq=state["seq"])
    answer = await latest_state(other)
    await socket_send(other, action="drop", seq=answer["seq"])
    after = await latest_state(other)
    await latest_state(mover)
    room = await database_sync_to_async(Room.objects.get)(pk=ctx["room"])
    assert max(room.a_score, room.b_score) == 2 and room.status == RoomStatus.FINISHED
    assert after["games"][0]["ended"] == "dropped" and after["games"][0]["points"] == 2
    await a.disconnect()
    await b.disconnect()


async def test_the_crawford_game_refuses_a_double() -> None:
    ctx = await sockets_setup("short", length=2)

    @database_sync_to_async
    def to_crawford() -> None:
        room = Room.objects.get(pk=ctx["room"])
        users = (ctx["users"]["ann"], ctx["users"]["bob"])
        from tests.tournaments.online_play import first_choice, play_out

        def doubles_and_drops(state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
            for action in ("double", "drop"):
                if action in state["can"]:
                    return action, {}
            return first_choice(state)

        play_out(room, users, games=1, choose=doubles_and_drops)

    await to_crawford()
    room = await database_sync_to_async(Room.objects.get)(pk=ctx["room"])
    assert room.status == RoomStatus.PLAYING and room.crawford  # 1-0 after a drop
    a, b = await socket_open(ctx, "ann"), await socket_open(ctx, "bob")
    mover, state, _other, _ = await _mover(ctx, a, b)
    assert state["crawford"] and "double" not in state["can"]
    await socket_send(mover, action="double", seq=state["seq"])
    error = await next_message(mover, "error")
    assert error["code"] == "crawford-no-cube" and "Crawford" in error["detail"]
    await a.disconnect()
    await b.disconnect()


async def test_hostile_messages_are_answered_with_an_error() -> None:
    ctx = await sockets_setup()
    a = await socket_open(ctx, "ann")
    await latest_state(a)
    for text in (" ", "not json", "[]", "null", "1e999", '{"action": 5}', '{"action": "move"}',
                 '{"action": "move", "seq": true}', '{"action": "move", "seq": 0, "turn": 7}',
                 "x" * 10000, '{"action": "seed", "seq": 0, "seed": "zz"}', "\u0000"):  # fmt: skip
        await a.send_to(text_data=text)
        error = await next_message(a, "error")
        assert error["code"] in {"bad-message", "unknown-action", "no-seq", "bad-seed",
                                 "illegal-turn", "illegal-turn-rule", "stale-seq",
                                 "not-your-turn", "seed-refused"}, (text, error)  # fmt: skip
    await a.send_to(bytes_data=b"\xff")
    assert (await next_message(a, "error"))["code"] == "bad-message"
    await a.disconnect()


async def test_no_such_room_closes_the_socket() -> None:
    ctx = await sockets_setup()
    ws = WebsocketCommunicator(
        application,
        f"/ws/rooms/{ctx['room'] + 99}/",
        headers=[ORIGIN, (b"cookie", ctx["cookies"]["ann"])],
    )
    connected, code = await ws.connect()
    assert not connected and code == 4404
