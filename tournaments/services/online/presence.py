"""Whether a player is in the room (docs/online.md, "Presence"): each player's page beats -
a ``ping`` over the WebSocket every ``ROOM_PING_MS``, or its poll of the state without
one - and the room keeps when each seat was last seen. A player is present while seen
within two beats and a half, so two missed beats show them as gone: a closed page, a
lost network, or a server process killed with its sockets' counts still up, whose
sockets never say goodbye. The state tells each viewer for how much longer a player
counts as present, so the opponent's page marks them gone when that runs out, with no
message from the server."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.utils import timezone

from tournaments.models import Room
from tournaments.selectors.access import User, signed_in

BEATS_MISSED = 2  # beats missed before a player counts as gone (plus half a beat of slack)


def beat_ms() -> int:
    """How often a page beats, in ms (ROOM_PING_MS; 10 s by default)."""
    return int(getattr(settings, "ROOM_PING_MS", 10_000))


def presence_window() -> timedelta:
    return timedelta(milliseconds=beat_ms() * BEATS_MISSED + beat_ms() // 2)


def present_ms(room: Room, seat: str, now: datetime) -> int:
    """For how many ms from ``now`` the player of ``seat`` still counts as present (0:
    gone). The bot is always there (the caller asks for human seats only)."""
    seen = getattr(room, f"{seat}_seen")
    if seen is None:
        return 0
    left = seen + presence_window() - now
    return max(0, int(left.total_seconds() * 1000))


def seat_joined(room: Room, seat: str) -> bool:
    """Whether the player of ``seat`` came to the room at all: opened its page once, has
    a socket open or sent the dice seed (a no-show did none of these)."""
    return (
        getattr(room, f"{seat}_seen") is not None
        or getattr(room, f"{seat}_connected") > 0
        or bool(getattr(room, f"{seat}_seed"))
    )


class Beat(NamedTuple):
    """A page's beat answered: whether the player had counted as gone, for how many ms
    each colour's player still counts as present (None: the bot), and the room's
    sequence number (a page behind it missed a change, which the layer may drop: it
    asks the state)."""

    back: bool
    present: dict[str, int | None]
    seq: int


def room_beat(*, room_id: int, user: User | None, now: datetime | None = None) -> Beat:
    """The user's page beat in the room: a player is seen now (a spectator's beat only
    reads). Whether the player had counted as gone (the room is told they are back), and
    for how many ms each colour's player still counts as present (None: the bot), which
    the beat's answer carries: a page that hears nothing else for a while still knows
    the opponent beats. Two short queries, no lock: the last beat wins."""
    now = now or timezone.now()
    row = (
        Room.objects.filter(pk=room_id)
        .values_list(
            "a_user_id", "b_user_id", "a_seen", "b_seen", "a_bot", "b_bot", "a_white", "seq"
        )
        .first()
    )
    if row is None:
        return Beat(False, {}, 0)
    a_user, b_user, a_seen, b_seen, a_bot, b_bot, a_white, seq = row
    seen: dict[str, datetime | None] = {"a": a_seen, "b": b_seen}
    player = signed_in(user)
    seat = None
    if player is not None and player.pk in (a_user, b_user):
        seat = "a" if player.pk == a_user else "b"
    back = False
    if seat is not None:
        Room.objects.filter(pk=room_id).update(**{f"{seat}_seen": now})
        old = seen[seat]
        back = old is None or old + presence_window() < now
        seen[seat] = now
    window = presence_window()

    def left(x: str) -> int | None:
        last = seen[x]
        if a_bot if x == "a" else b_bot:
            return None
        if last is None:
            return 0
        return max(0, int((last + window - now).total_seconds() * 1000))

    white, black = ("a", "b") if a_white else ("b", "a")
    return Beat(back, {"white": left(white), "black": left(black)}, seq)


def room_seen(*, room_id: int, user: User | None, now: datetime | None = None) -> bool:
    """The user's page beat (room_beat); whether the player had counted as gone."""
    return room_beat(room_id=room_id, user=user, now=now).back


__all__ = ["Beat", "beat_ms", "presence_window", "present_ms", "room_beat", "room_seen"]
