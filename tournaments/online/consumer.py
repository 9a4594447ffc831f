"""The game room's WebSocket door (STYLE.md 16, docs/online.md): it parses a message,
calls the room's service and sends what the service returns. The database holds the
truth: on connect, and after every change announced to the room's group, each socket
reads the state for its own viewer from the database; a message the channel layer drops
loses nothing but a redraw, and the next state or a reconnect brings it back."""

from __future__ import annotations

import json
from typing import Any, cast

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from tournaments.models import Room
from tournaments.selectors.access import User
from tournaments.services.errors import ApplicationError
from tournaments.services.online.presence import room_beat
from tournaments.services.online.rooms import room_act, room_connected
from tournaments.services.online.state import room_state

MAX_MESSAGE = 4096


def _in_pool(func: Any) -> Any:
    """Database work of a socket in a pool of threads (each with its own connection), not
    in the process's one thread for synchronous code: the rooms' round trips to the
    database overlap instead of queueing behind each other. Every action locks its row,
    so two threads never change one room at once. SQLite (make run, the tests) takes one
    writer at a time and its in-memory test database is one shared connection's cache:
    there the work stays in the one thread, as Django's synchronous code runs it."""
    return database_sync_to_async(func, thread_sensitive=connection.vendor == "sqlite")


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


class RoomConsumer(AsyncWebsocketConsumer):
    """/ws/rooms/<id>/: players and spectators of one room."""

    room_id: int
    seated: bool = False

    def _user(self) -> User | None:
        return cast("User | None", self.scope.get("user"))

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
        changed, error = await self._act(message)
        if error is not None:
            await self.send(text_data=json.dumps(
                {"type": "error", "code": error[0], "detail": error[1], "seq": seq}
            ))  # fmt: skip
            await self._send_state()  # "here it is as it stands"
        if changed:
            await self.channel_layer.group_send(group_name(self.room_id), {"type": "room.changed"})
        elif error is None:
            await self._send_state()

    async def _ping(self) -> None:
        """The page's heartbeat: a player is seen (the room is told when they come back
        after counting as gone); answered with a pong, by which the page knows the
        server still hears it, carrying how long each player still counts as present."""
        back, present = await self._beat()
        if back:
            await self.channel_layer.group_send(group_name(self.room_id), {"type": "room.changed"})
        await self.send(text_data=json.dumps({"type": "pong", "present_ms": present}))

    async def room_changed(self, event: dict[str, Any]) -> None:
        await self._send_state()

    async def _send_state(self) -> None:
        state = await self._state()
        if state is not None:
            await self.send(text_data=json.dumps({"type": "state", "state": state}))

    @_in_pool
    def _exists(self) -> bool:
        return Room.objects.filter(pk=self.room_id).exists()

    @_in_pool
    def _connected(self, delta: int) -> bool:
        return room_connected(room_id=self.room_id, user=self._user(), delta=delta)

    @_in_pool
    def _beat(self) -> tuple[bool, dict[str, int | None]]:
        return room_beat(room_id=self.room_id, user=self._user())

    @_in_pool
    def _state(self) -> dict[str, Any] | None:
        room = Room.objects.select_related("a_user", "b_user").filter(pk=self.room_id).first()
        if room is None:
            return None
        with translation.override(self.language):
            return room_state(room, self._user())

    @_in_pool
    def _act(self, message: object) -> tuple[bool, tuple[str, str] | None]:
        """Play the message; (whether the room changed, (code, detail) of a refusal). A
        timeout found by the action is decided, committed and told to the group."""
        with translation.override(self.language):
            if message is None:
                return False, ("bad-message", _("A message is a JSON object with an action."))
            try:
                room_act(room_id=self.room_id, user=self._user(), message=message)
            except ApplicationError as exc:
                return exc.code == "timeout", (exc.code, exc.message)
            return not (isinstance(message, dict) and message.get("action") == "sync"), None


__all__ = ["RoomConsumer", "group_name", "room_changed", "scope_language"]
