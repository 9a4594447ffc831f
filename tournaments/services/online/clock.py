"""A room's clock (docs/online.md): the backgammon norm, a delay per turn and then the
player's reserve, or days a move for a correspondence series, or none. The clock lives
in the room's row (the turn's start and its deadline); a timeout is decided by the
server alone, by ``room_sweep_timeouts`` (the ``sweep_rooms`` command, run periodically,
and every request to a room), never by a timer in one socket."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from tournaments.models import Room, RoomStatus
from tournaments.services.online.settings import RoomSettings


def reserve_at_start(s: RoomSettings) -> int:
    """Each player's reserve at the series' start, in ms: the reserve for each point (or
    game) of the series' length."""
    return s.reserve_s * s.length * 1000 if s.clock == "live" else 0


def clock_start(room: Room, s: RoomSettings, seat: str | None, now: datetime) -> None:
    """The clock of ``seat`` runs from ``now`` (None or a bot: no clock runs)."""
    room.turn_started = now if seat is not None else None
    room.deadline = None
    if seat is None or s.clock == "none":
        return
    if s.clock == "correspondence":
        room.deadline = now + timedelta(days=s.days)
        return
    reserve = getattr(room, f"{seat}_reserve_ms")
    room.deadline = now + timedelta(milliseconds=s.delay_s * 1000 + reserve)


def clock_stop(room: Room, s: RoomSettings, seat: str | None, now: datetime) -> None:
    """``seat`` acted at ``now``: what its turn took beyond the delay comes off its
    reserve (never below zero: an action before the deadline is in time)."""
    if seat is not None and s.clock == "live" and room.turn_started is not None:
        spent = int((now - room.turn_started).total_seconds() * 1000) - s.delay_s * 1000
        if spent > 0:
            field = f"{seat}_reserve_ms"
            setattr(room, field, max(0, getattr(room, field) - spent))
    room.turn_started = None
    room.deadline = None


def clock_left_ms(room: Room, s: RoomSettings, seat: str, running: str | None,
                  now: datetime) -> int:  # fmt: skip
    """What ``seat``'s reserve shows at ``now`` (its delay first, while it runs)."""
    reserve = int(getattr(room, f"{seat}_reserve_ms"))
    if running != seat or room.turn_started is None or s.clock != "live":
        return reserve
    spent = int((now - room.turn_started).total_seconds() * 1000) - s.delay_s * 1000
    return max(0, reserve - max(0, spent))


def rooms_due(now: datetime | None = None) -> list[int]:
    """The rooms whose turn's deadline has passed (the sweep's work)."""
    now = now or timezone.now()
    return list(
        Room.objects.filter(status=RoomStatus.PLAYING, deadline__lt=now)
        .order_by("deadline")
        .values_list("pk", flat=True)
    )
