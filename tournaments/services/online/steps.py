"""A turn entered step by step (docs/online.md, "Steps"): when a roll has too many legal
turns to list (a crowded Lurč paš has tens of thousands), the page sends the steps played
so far and is told the legal next steps and whether the steps already make a whole turn.
The engine decides (engine/turnsteps.py); the turn itself is sent as any other and judged
by the engine's replay of the record."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments.engine import (
    EngineError,
    Position,
    Rules,
    offers_steps,
    turn_steps,
)
from tournaments.models import Room, RoomStatus
from tournaments.selectors.access import User
from tournaments.selectors.steps import LIST_MOST, read_steps
from tournaments.services.errors import ApplicationError
from tournaments.services.online.game import (
    GameView,
    game_legal,
    game_view,
    listable,
    turn_text,
)
from tournaments.services.online.rooms import seat_of
from tournaments.services.online.series import side_of_seat


def steps_instead(position: Position, dice: tuple[int, int], rules: Rules, count: int) -> bool:
    """Whether the page enters the turn step by step rather than from a list of ``count``
    turns: too many, and a variant the engine answers steps for."""
    if count <= LIST_MOST:
        return False
    try:
        return offers_steps(position, list(dice), rules)
    except EngineError:
        return False


def steps_answer(
    view: GameView, dice: tuple[int, int], written: str, pas: int | None
) -> dict[str, Any]:
    """The legal next steps after the steps ``written`` for the side to move in ``view``
    with ``dice`` (``pas``: the paš chosen after a Lurč houšek), as the steps door
    answers: ``next`` ([from, to] pairs), ``complete`` and the turn's ``movetext`` to send
    (with its paš in front after a houšek) once complete."""
    played = read_steps(written)
    query: list[int] = list(dice)
    turns = game_legal(view, dice) if listable(view, dice) else None
    ends = None if turns is None else [t.position for t in turns]
    if turns is None and pas is not None:
        query = [*dice, pas, pas]
    try:
        answer = turn_steps(view.position, query, played, view.rules, ends)
    except EngineError as exc:
        raise ApplicationError.from_engine(exc, located=False) from None
    if answer is None:
        raise ApplicationError(
            _("This game's turns are chosen from the list."), code="steps-not-offered"
        )
    movetext = answer.movetext
    if len(query) == 4:
        movetext = f"+{pas}{pas}: {movetext}".rstrip()
    # a listed roll's turn is sent as the engine's own text of it (the room matches it)
    side = view.position.turn
    for t in turns or []:
        if answer.ends_in(t.position, side):
            movetext = turn_text(t)
            break
    return {
        "steps": [[a, b] for a, b in played],
        "next": [[a, b] for a, b in answer.next],
        "complete": answer.complete,
        "movetext": movetext if answer.complete else None,
    }


def room_steps(room: Room, user: User | None, written: str, pas: str) -> dict[str, Any]:
    """:func:`steps_answer` for the room's player to move (``pas`` as sent: "" or 1-6)."""
    seat = seat_of(room, user)
    if seat is None:
        raise ApplicationError(_("Only the room's players enter turns."), code="steps-spectator")
    view = game_view(room.record) if room.record else None
    dice = room.dice
    if (
        room.status != RoomStatus.PLAYING or view is None or view.offered or not dice
        or len(dice) != 2 or view.on_turn != side_of_seat(room, seat)
    ):  # fmt: skip
        raise ApplicationError(_("It is not your turn to move."), code="steps-not-your-turn")
    if pas not in ("", "1", "2", "3", "4", "5", "6"):
        raise ApplicationError(_("A paš is chosen from 1 to 6."), code="steps-bad-pas")
    return steps_answer(view, (dice[0], dice[1]), written, int(pas) if pas else None)
