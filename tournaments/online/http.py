"""The game room's HTTP doors (docs/online.md): the state for the requesting user, an
action (the same message as over the WebSocket: the no-WebSocket fallback), and a
finished game's record. The same service as the consumer; a session's POST is
CSRF-protected as every form of the site."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import Room, RoomGame
from tournaments.services.errors import ApplicationError
from tournaments.services.online.presence import room_seen
from tournaments.services.online.rooms import room_act, room_sweep_timeouts
from tournaments.services.online.state import room_state
from tournaments.services.online.steps import room_steps

MAX_BODY = 4096


def _room(pk: int) -> Room:
    room = Room.objects.select_related("a_user", "b_user").filter(pk=pk).first()
    if room is None:
        raise Http404
    return room


@require_GET
def room_state_json(request: HttpRequest, pk: int) -> JsonResponse:
    """GET /play/rooms/<id>/state/: the state for the requesting user (timeouts swept).
    A player's poll is their page's heartbeat (services/online/presence.py)."""
    _announce(room_sweep_timeouts(room_id=pk))
    if room_seen(room_id=pk, user=request.user):
        _announce([pk])  # back after counting as gone: the opponent is told
    return JsonResponse(room_state(_room(pk), request.user))


@require_POST
def room_action_json(request: HttpRequest, pk: int) -> JsonResponse:
    """POST /play/rooms/<id>/action/: a JSON message; the new state, or the refusal
    (``{"type": "error", "code", "detail", "seq"}``, 400; 404: no such room; 403:
    signed out)."""
    message: object = None
    if len(request.body) <= MAX_BODY:
        try:
            message = json.loads(request.body)
        except ValueError:
            message = None
    seq = message.get("seq") if isinstance(message, dict) else None
    _announce(room_sweep_timeouts(room_id=pk))
    before = (
        Room.objects.filter(pk=pk).values_list("seq", "chat", "a_chat_off", "b_chat_off").first()
    )
    if before is None:
        raise Http404
    try:
        room = room_act(room_id=pk, user=request.user, message=message)
    except ApplicationError as exc:
        status = 403 if exc.code == "spectator" and not request.user.is_authenticated else 400
        body = {"type": "error", "code": exc.code, "detail": exc.message, "seq": seq,
                "state": room_state(_room(pk), request.user)}  # fmt: skip
        return JsonResponse(body, status=status)
    if before != (room.seq, room.chat, room.a_chat_off, room.b_chat_off):
        _announce([pk])
    return JsonResponse({"type": "state", "state": room_state(_room(pk), request.user)})


@require_GET
def room_steps_json(request: HttpRequest, pk: int) -> JsonResponse:
    """GET /play/rooms/<id>/steps/?steps=20/15 15/10&pas=: the legal next steps of the
    turn entered so far by the player to move (services/online/steps.py), or the refusal
    (``{"type": "error", "code", "detail"}``, 400; 403: not a player)."""
    room = _room(pk)
    written, pas = request.GET.get("steps", ""), request.GET.get("pas", "")
    try:
        answer = room_steps(room, request.user, written[:400], pas[:2])
    except ApplicationError as exc:
        status = 403 if exc.code == "steps-spectator" else 400
        return JsonResponse({"type": "error", "code": exc.code, "detail": exc.message},
                            status=status)  # fmt: skip
    return JsonResponse({"type": "steps", **answer})


@require_GET
def room_game_record(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A finished game's record, as text in the project's notation (.nrd)."""
    game = RoomGame.objects.filter(room_id=pk, number=number).first()
    if game is None:
        raise Http404
    response = HttpResponse(game.record, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="room-{pk}-game-{number}.nrd"'
    return response


def _announce(room_ids: list[int]) -> None:
    from tournaments.online.consumer import room_changed

    for room_id in room_ids:
        room_changed(room_id)
