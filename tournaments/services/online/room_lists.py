"""The game rooms of a tournament played online, for its pages and the API: each series'
room with who is in it, the score, the clocks, a no-show's forfeit and its reversal
(docs/online.md, "Tournaments played online"). It reads, as ``state.py`` does for one
room: it sits beside the rooms' clock, settings and presence it reads through."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, TypeVar

from django.conf import settings as django_settings
from django.db.models import Prefetch, Q
from django.utils import timezone

from tournaments.caching import shared
from tournaments.models import RoomDecision, RoomGameEnd, RoomStatus, SeriesRoom, Tournament
from tournaments.services.online.clock import clock_left_ms
from tournaments.services.online.game import game_view
from tournaments.services.online.presence import present_ms, seat_joined
from tournaments.services.online.series import seat_of_side
from tournaments.services.online.settings import RoomSettings, settings_of

OPEN = (RoomStatus.WAITING, RoomStatus.PLAYING)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SeatRow:
    name: str  # the series' player
    user_id: int | None
    present: bool  # a page of the room beat within the presence window
    joined: bool  # opened the room once, or sent the dice seed
    score: int | float
    clock_ms: int | None  # a live clock's reserve; None: no live clock
    on_turn: bool

    @property
    def clock_text(self) -> str:
        """The reserve as m:ss ("" without a live clock)."""
        if self.clock_ms is None:
            return ""
        seconds = self.clock_ms // 1000
        return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True, slots=True)
class DecisionRow:
    """A director's decision on a room neither player joined (``RoomDecision``)."""

    kind: str  # forfeit-both, more-time
    minutes: int | None
    by: str
    at: datetime
    reason: str


@dataclass(frozen=True, slots=True)
class RoomRow:
    room_id: int
    series_id: int
    round_number: int | None
    table: int | None
    slot: str  # a bracket's match
    length: int
    status: str  # the room's: waiting, playing, finished, aborted
    series_status: str
    game: int
    one: SeatRow  # the series' player 1 (the room's seat a)
    two: SeatRow
    window_closes: datetime
    deadline: datetime | None
    clock: str
    no_show: str  # the name of the player forfeited for not showing, else ""
    reversed: bool
    reversed_by: str
    reversal_reason: str
    timeouts: int  # games lost on time
    both_absent: bool = False  # the window closed, neither player joined: the director decides
    decisions: tuple[DecisionRow, ...] = ()

    @property
    def live(self) -> bool:
        return self.status in OPEN

    @property
    def reversible(self) -> bool:
        """A forfeit the director may reverse: a no-show's, or both players'."""
        both = any(d.kind == RoomDecision.FORFEIT_BOTH for d in self.decisions)
        return self.series_status == "forfeited" and bool(self.no_show or both)


def _num(value: Decimal) -> int | float:
    return int(value) if value == int(value) else float(value)


def rooms_shared(key: str, build: Callable[[], T]) -> T:
    """What ``build`` gives, kept ONLINE_ROOMS_CACHE_SECONDS (2 s by default; 0: never
    kept) in the shared cache under ``key``: a round of 64 live rooms is read once in that
    time however many watch it (the clocks shown are up to that much old; each room's own
    page is exact)."""
    seconds = float(getattr(django_settings, "ONLINE_ROOMS_CACHE_SECONDS", 2))
    if seconds <= 0:
        return build()
    key = f"online-rooms:{key}"
    found: T | None = shared.get(key)  # the cache failing soft: read afresh
    if found is None:
        found = build()
        shared.set(key, found, max(1, round(seconds)))
    return found


def rooms_forget(key: str) -> None:
    """What ``rooms_shared`` keeps under ``key`` is read afresh next time (the director's
    own change, seen at once)."""
    shared.set(f"online-rooms:{key}", None, 1)


def tournament_rooms_shared(
    *, tournament: Tournament, round_number: int | None = None, live_only: bool = False
) -> list[RoomRow]:
    """``tournament_rooms`` as everybody sees them, shared for a moment (``rooms_shared``)."""
    return rooms_shared(
        f"{tournament.pk}:{round_number}:{int(live_only)}",
        lambda: tournament_rooms(tournament=tournament, round_number=round_number,
                                 live_only=live_only),
    )  # fmt: skip


def tournament_rooms(
    *,
    tournament: Tournament,
    round_number: int | None = None,
    live_only: bool = False,
    user_id: int | None = None,
) -> list[RoomRow]:
    """The tournament's rooms, by round and table (a knockout's by match): every room,
    those of one round, the live ones, or one user's."""
    links = (
        SeriesRoom.objects.filter(series__tournament=tournament)
        .select_related("room", "series__round", "series__player1", "series__player2",
                        "reversed_by")
        .prefetch_related(Prefetch("decisions",
                                   queryset=RoomDecision.objects.select_related("by")))
        .defer("room__chat", "room__server_seed", "room__seed_hash", "room__client_seed")
    )  # fmt: skip
    if round_number is not None:
        links = links.filter(series__round__number=round_number)
    if live_only:
        links = links.filter(room__status__in=OPEN)
    if user_id is not None:
        links = links.filter(Q(room__a_user_id=user_id) | Q(room__b_user_id=user_id))
    links = links.order_by("series__round__number", "series__table", "series__slot", "pk")
    timeouts: dict[int, int] = {}
    if not live_only:
        from tournaments.models import RoomGame

        for room_id in RoomGame.objects.filter(
            room__series_link__series__tournament=tournament, ended=RoomGameEnd.TIMEOUT
        ).values_list("room_id", flat=True):  # fmt: skip
            timeouts[room_id] = timeouts.get(room_id, 0) + 1
    now = timezone.now()
    read: dict[str, RoomSettings] = {}  # a round's rooms share their settings: read once
    return [_row(link, timeouts.get(link.room_id, 0), now, read) for link in links]


def _row(link: SeriesRoom, timeouts: int, now: datetime, read: dict[str, RoomSettings]) -> RoomRow:
    room, series = link.room, link.series
    key = room.variant + json.dumps(room.settings, sort_keys=True)
    s = read.get(key) or read.setdefault(key, settings_of(room.settings, room.variant))
    on_turn = None
    if room.status == RoomStatus.PLAYING and room.record and room.deadline is not None:
        on_turn = seat_of_side(room, game_view(room.record).on_turn)
    names = {"a": series.player1.name if series.player1 else "",
             "b": series.player2.name if series.player2 else ""}  # fmt: skip

    def seat(x: str) -> SeatRow:
        present = present_ms(room, x, now) > 0  # a page beat within the presence window
        return SeatRow(
            name=names[x], user_id=getattr(room, f"{x}_user_id"), present=present,
            joined=present or seat_joined(room, x),
            score=_num(getattr(room, f"{x}_score")),
            clock_ms=clock_left_ms(room, s, x, on_turn, now) if s.clock == "live" else None,
            on_turn=on_turn == x,
        )  # fmt: skip

    return RoomRow(
        room_id=room.pk, series_id=series.pk,
        round_number=series.round.number if series.round else None, table=series.table,
        slot=series.slot or "", length=s.length, status=room.status,
        series_status=series.status, game=room.game_number, one=seat("a"), two=seat("b"),
        window_closes=link.window_closes, deadline=room.deadline, clock=s.clock,
        no_show=names.get(link.no_show, ""), reversed=link.reversed_at is not None,
        reversed_by=link.reversed_by.get_username() if link.reversed_by else "",
        reversal_reason=link.reversal_reason, timeouts=timeouts,
        both_absent=room.status == RoomStatus.WAITING and link.window_closes <= now
        and not (seat_joined(room, "a") or seat_joined(room, "b")),
        decisions=tuple(
            DecisionRow(kind=d.kind, minutes=d.minutes, by=d.by.get_username() if d.by else "",
                        at=d.at, reason=d.reason)
            for d in link.decisions.all()
        ),
    )  # fmt: skip


def user_open_rooms(*, user_id: int) -> list[tuple[int, str]]:
    """The user's tournament rooms open now (room, tournament's name), newest first: the
    site header's notice."""
    rows = (
        SeriesRoom.objects.filter(room__status__in=OPEN)
        .filter(Q(room__a_user_id=user_id) | Q(room__b_user_id=user_id))
        .order_by("-room_id")
        .values_list("room_id", "series__tournament__name")
    )
    return list(rows[:5])


def player_open_rooms(*, player: Any) -> list[tuple[int, str, str]]:
    """The player's tournament rooms open now (room, tournament, opponent): their page."""
    if player.user_id is None:
        return []
    links = (
        SeriesRoom.objects.filter(room__status__in=OPEN)
        .filter(Q(room__a_user_id=player.user_id) | Q(room__b_user_id=player.user_id))
        .select_related("series__tournament", "series__player1", "series__player2")
        .order_by("-room_id")
    )
    rows = []
    for link in links[:10]:
        s = link.series
        other = s.player2 if s.player1_id == player.pk else s.player1
        rows.append((link.room_id, s.tournament.name, other.name if other else ""))
    return rows


__all__ = [
    "RoomRow", "SeatRow", "player_open_rooms", "rooms_forget", "rooms_shared", "tournament_rooms",
    "tournament_rooms_shared", "user_open_rooms",
]  # fmt: skip
