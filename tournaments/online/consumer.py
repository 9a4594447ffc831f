"""The game room's WebSocket door (STYLE.md 16, docs/online.md): it parses a message,
calls the room's service and sends what the service returns. The database holds the
truth: on connect each socket reads the state for its own viewer from the database; an
action's change is announced to the room's group with each viewer's state built from
the row the action committed (a socket of another language, or a change announced
without them, reads its own); a message the channel layer drops loses nothing but a
redraw, and the next state or a reconnect brings it back."""

from __future__ import annotations

import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from asgiref.sync import SyncToAsync, async_to_sync
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection, connections
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from tournaments.models import Room
from tournaments.selectors.access import User
from tournaments.services.errors import ApplicationError
from tournaments.services.online.game import Kept
from tournaments.services.online.presence import Beat, room_beat
from tournaments.services.online.room_rows import room_read
from tournaments.services.online.rooms import room_act, room_connected
from tournaments.services.online.state import room_state

MAX_MESSAGE = 4096
IDLE_CHECK_S = 5.0  # a connection idle longer than this is checked before it is used
# the sockets' database work waits on the database far more than it computes: threads
# enough for the round trips of many rooms to overlap (each keeps its own connection),
# rather than the event loop's default pool of the cores plus four
POOL = ThreadPoolExecutor(max_workers=16, thread_name_prefix="room-db")


class _PoolWork(SyncToAsync[Any, Any]):
    """channels' database_sync_to_async, whose Django connection handling (the old ones
    closed before and after the work) checks a connection's health (CONN_HEALTH_CHECKS,
    a SELECT 1) only when it lay idle: a socket's database work is short and comes often,
    and a round trip saved on each is one off every move. A connection that failed
    is checked, or closed, as Django does after a request."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        now = time.monotonic()
        for conn in connections.all(initialized_only=True):
            conn.close_if_unusable_or_obsolete()
            recent = now - getattr(conn, "room_used", -math.inf) < IDLE_CHECK_S
            if conn.connection is not None and recent:
                conn.health_check_done = True  # type: ignore[attr-defined]  # used just now
        try:
            return super().thread_handler(loop, *args, **kwargs)  # type: ignore[no-untyped-call]
        finally:
            for conn in connections.all(initialized_only=True):
                failed = conn.errors_occurred
                conn.close_if_unusable_or_obsolete()
                used = -math.inf if failed else time.monotonic()
                conn.room_used = used  # type: ignore[attr-defined]


def _in_pool(func: Any) -> Any:
    """Database work of a socket in a pool of threads (each with its own connection), not
    in the process's one thread for synchronous code: the rooms' round trips to the
    database overlap instead of queueing behind each other. An action is written only if
    the room's seq is still the one it read (or under the row's lock), so two threads
    never both play on one room. SQLite (make run, the tests) takes one
    writer at a time and its in-memory test database is one shared connection's cache:
    there the work stays in the one thread, as Django's synchronous code runs it."""
    if connection.vendor == "sqlite":
        return _PoolWork(func, thread_sensitive=True)
    return _PoolWork(func, thread_sensitive=False, executor=POOL)


def group_name(room_id: int) -> str:
    return f"room-{room_id}"


def room_changed(room_id: int) -> None:
    """Tell every socket of the room that it changed (from synchronous code: a view, the
    sweep): each reads its state from the database."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(room_id), {"type": "room.changed"})


def scope_language(scope: dict[str, Any]) -> str:
    """The socket user's language: the language cookie, else the browser's
    Accept-Language, else the site's default (as LocaleMiddleware chooses for a page)."""
    cookies = scope.get("cookies") or {}
    supported = [code for code, _name in settings.LANGUAGES]
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    if chosen in supported:
        return str(chosen)
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for lang, _q in parse_accept_lang_header(accept):
        try:
            return translation.get_supported_language_variant(lang)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


BOARD_JSON = Kept(512)  # a drawn board as JSON, by the board: a room's viewers share it


def _state_text(state: dict[str, Any]) -> str:
    """The state message: the state as JSON, its board (most of it, and the same for
    every viewer on one side) encoded once."""
    board = state.get("board_svg")
    if not isinstance(board, str):
        return json.dumps({"type": "state", "state": state})
    encoded = BOARD_JSON.get(board)
    if encoded is None:
        encoded = json.dumps(board)
        BOARD_JSON.put(board, encoded)
    rest = json.dumps({k: v for k, v in state.items() if k != "board_svg"})
    glue = ", " if len(rest) > 2 else ""
    return f'{{"type": "state", "state": {rest[:-1]}{glue}"board_svg": {encoded}}}}}'


def _viewer_states(room: Room) -> dict[str, str]:
    """The state messages of the room as each seat's user (keyed by the user's id) and a
    spectator (``watch``) see it, built once from the row an action committed and sent
    with the change: the room's other sockets need not read the row again. A socket of
    another language reads its own."""
    states = {"watch": _state_text(room_state(room, None))}
    for user in (room.a_user, room.b_user):
        if user is not None:
            states[str(user.pk)] = _state_text(room_state(room, user))
    return states


class RoomConsumer(AsyncWebsocketConsumer):
    """/ws/rooms/<id>/: players and spectators of one room."""

    room_id: int
    seated: bool = False

    def _user(self) -> User | None:
        return cast("User | None", self.scope.get("user"))

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A frame or a message of the group to its handler. Unlike channels' dispatch, the
        process's one thread for synchronous code is not asked to close its old database
        connections first (a hop to that thread for every frame and every change): this
        consumer's database work runs in _in_pool, which looks after its connections."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        self.language = scope_language(dict(self.scope))
        if not await self._exists():
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(group_name(self.room_id), self.channel_name)
        await self.accept()
        self.seated = await self._connected(+1)
        if self.seated:
            await self.channel_layer.group_send(group_name(self.room_id), {"type": "room.changed"})
        else:
            await self._send_state()

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "room_id"):
            return
        await self.channel_layer.group_discard(group_name(self.room_id), self.channel_name)
        if self.seated:
            await self._connected(-1)
            await self.channel_layer.group_send(group_name(self.room_id), {"type": "room.changed"})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message: object = None
        try:
            if text_data is not None and len(text_data) <= MAX_MESSAGE:
                message = json.loads(text_data)
        except ValueError:
            message = None
        if isinstance(message, dict) and message.get("action") == "ping":
            await self._ping()
            return
        seq = message.get("seq") if isinstance(message, dict) else None
        changed, error, state, states = await self._act(message)
        if error is not None:
            await self.send(text_data=json.dumps(
                {"type": "error", "code": error[0], "detail": error[1], "seq": seq}
            ))  # fmt: skip
        if state is not None:  # after a refusal too: "here it is as it stands"
            await self.send(text_data=state)
        if changed:  # this socket has its state already; the others are sent theirs
            await self.channel_layer.group_send(group_name(self.room_id), {
                "type": "room.changed", "sent": self.channel_name, "language": self.language,
                "states": states,
            })  # fmt: skip

    async def _ping(self) -> None:
        """The page's heartbeat: a player is seen (the room is told when they come back
        after counting as gone); answered with a pong, by which the page knows the
        server still hears it, carrying how long each player still counts as present."""
        beat = await self._beat()
        if beat.back:
            await self.channel_layer.group_send(group_name(self.room_id), {"type": "room.changed"})
        # the room's seq too: a page behind it missed a change (the layer may drop one)
        await self.send(
            text_data=json.dumps({"type": "pong", "present_ms": beat.present, "seq": beat.seq})
        )

    async def room_changed(self, event: dict[str, Any]) -> None:
        """The room changed: the state sent with the change for this socket's viewer
        (built in its language from the row the action committed), else read now."""
        if event.get("sent") == self.channel_name:
            return
        states = event.get("states")
        if isinstance(states, dict) and event.get("language") == self.language:
            user = self._user()
            mine = str(user.pk) if self.seated and user is not None else "watch"
            if isinstance(states.get(mine), str):
                await self.send(text_data=states[mine])
                return
        await self._send_state()

    async def _send_state(self) -> None:
        state = await self._state()
        if state is not None:
            await self.send(text_data=state)

    @_in_pool
    def _exists(self) -> bool:
        return Room.objects.filter(pk=self.room_id).exists()

    @_in_pool
    def _connected(self, delta: int) -> bool:
        return room_connected(room_id=self.room_id, user=self._user(), delta=delta)

    @_in_pool
    def _beat(self) -> Beat:
        return room_beat(room_id=self.room_id, user=self._user())

    @_in_pool
    def _state(self) -> str | None:
        return self._read_state()

    def _read_state(self) -> str | None:
        """The state message for this socket's viewer, read from the database."""
        read = room_read(self.room_id)  # with its seats' users
        if read is None:
            return None
        with translation.override(self.language):
            return _state_text(room_state(read[0], self._user()))

    @_in_pool
    def _act(self, message: object) -> tuple[bool, tuple[str, str] | None, str | None,
                                             dict[str, str] | None]:  # fmt: skip
        """Play the message; (whether the room changed, (code, detail) of a refusal, this
        socket's state message, the state messages of the room's other viewers or None).
        The states are the room as the action committed it (read again after a refusal).
        A timeout found by the action is decided, committed and told to the group."""
        with translation.override(self.language):
            if message is None:
                return (False, ("bad-message", _("A message is a JSON object with an action.")),
                        self._read_state(), None)  # fmt: skip
            try:
                room = room_act(room_id=self.room_id, user=self._user(), message=message)
            except ApplicationError as exc:
                return exc.code == "timeout", (exc.code, exc.message), self._read_state(), None
            changed = not (isinstance(message, dict) and message.get("action") == "sync")
            states = _viewer_states(room) if changed else None
            user = self._user()
            mine = states.get(str(user.pk)) if states and user is not None else None
            return changed, None, mine or _state_text(room_state(room, user)), states


__all__ = ["RoomConsumer", "group_name", "room_changed", "scope_language"]
