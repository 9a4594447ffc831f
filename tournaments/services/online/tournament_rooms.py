"""Tournaments played online (docs/online.md, "Tournaments played online"): the setting
chosen at creation, a game room for every series of a paired round (the tournament's
rules, the series' length, the tournament's clock), the room's finished series entered
into its series through the services a director's entry uses (so standings, brackets and
ratings follow), and the no-shows of a round's start window forfeited by the rooms'
sweep."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.engine import GameRecord, read_records, replay
from tournaments.models import (
    CLOSED_STATUSES,
    OnlinePlay,
    Room,
    RoomStatus,
    Round,
    Series,
    SeriesRoom,
    Tournament,
)
from tournaments.services.errors import ApplicationError
from tournaments.services.online.settings import RoomSettings, settings_read

log = logging.getLogger(__name__)
CLOCK_FIELDS = ("clock", "delay_s", "reserve_s", "days", "timeout_costs")
MAX_WINDOW = 7 * 24 * 60


def online_play_set(*, tournament: Tournament, window_minutes: int = 15,
                    clock: dict[str, Any] | None = None) -> OnlinePlay:  # fmt: skip
    """Make ``tournament`` one played online: each round's start window in minutes and
    the rooms' clock (a challenge's clock fields, checked by the one settings reader)."""
    clock = {k: v for k, v in (clock or {}).items() if k in CLOCK_FIELDS}
    s = settings_read(variant=tournament.variant, data=clock)
    if isinstance(window_minutes, bool) or not isinstance(window_minutes, int) or not (
        1 <= window_minutes <= MAX_WINDOW):  # fmt: skip
        raise ApplicationError(
            _("%(name)s must be a whole number from %(low)s to %(high)s"),
            code="settings-number",
            params={"name": "window_minutes", "low": 1, "high": MAX_WINDOW},
            field="window_minutes",
        )  # fmt: skip
    kept = {k: getattr(s, k) for k in CLOCK_FIELDS}
    play, _made = OnlinePlay.objects.update_or_create(
        tournament=tournament, defaults={"window_minutes": window_minutes, "clock": kept}
    )
    return play


def room_settings_for(series: Series, play: OnlinePlay) -> RoomSettings:
    """The room's settings of ``series``: the tournament's rules, the series' length (its
    stage's), the tournament's clock."""
    t = series.tournament
    data = {
        "series_mode": t.series_mode, "length": series.length or t.series_length,
        "mars": t.mars, "last_roll": t.last_roll, "draw_scoring": t.draw_scoring,
        "first_move": t.first_move, "cube": t.cube, "crawford": t.cube,
        "opening_roll": t.opening_roll, **play.clock,
    }  # fmt: skip
    return settings_read(variant=t.variant, data=data)


def round_rooms_create(*, round: Round, now: datetime | None = None) -> list[SeriesRoom]:
    """A game room for every series of the round between two players who are users (a
    bye, or a player without an account, is entered by the director as before)."""
    from tournaments.services.online.rooms import room_create

    play = OnlinePlay.objects.filter(tournament_id=round.tournament_id).first()
    if play is None:
        return []
    closes = (now or timezone.now()) + timedelta(minutes=play.window_minutes)
    made = []
    series = (
        round.series.select_related("tournament", "player1__user", "player2__user")
        .exclude(status__in=CLOSED_STATUSES)
        .filter(online_room__isnull=True)
        .order_by("table", "pk")
    )
    for s in series:
        one, two = s.player1, s.player2
        if one is None or two is None or one.user is None or two.user is None:
            continue
        room = room_create(a_user=one.user, b_user=two.user, variant=s.tournament.variant,
                           settings=room_settings_for(s, play))  # fmt: skip
        made.append(SeriesRoom.objects.create(series=s, room=room, window_closes=closes))
    return made


def room_first_starter(*, room: Room) -> str | None:
    """The seat that starts game 1 of a tournament's room when its director chose who
    starts (services/rounds.py::series_starter_set, L12); None: the lot."""
    from tournaments.services.rounds import series_chosen_starter

    if room.challenge_id is not None:
        return None  # a challenge's room is no tournament's
    link = SeriesRoom.objects.filter(room=room).select_related(
        "series__player1", "series__player2"
    ).first()  # fmt: skip
    starter = series_chosen_starter(link.series) if link is not None else None
    if starter is None or link is None:
        return None
    return "a" if starter.pk == link.series.player1_id else "b"


def _named(record: str, white: str, black: str) -> str:
    """The record with the series' players' names as White and Black."""
    game = read_records(record)[0]
    names = {"White": white, "Black": black}
    tags = tuple((k, names.get(k, v)) for k, v in game.tags)
    return replay(GameRecord(tags, game.actions, game.line, game.preamble),
                  check_result=False).canonical()  # fmt: skip


def room_result_enter(*, room: Room) -> Series | None:
    """A finished room of a tournament's series: its games entered into the series by the
    director's record entry (services/results.py::game_enter_record: verified, scored,
    rated, the bracket moved on), or the series forfeited to the room's winner when the
    room ended on a forfeit. None: the room is no tournament's. A refusal is logged and
    leaves the series to its director; the room's result stands."""
    from tournaments.services.results import game_enter_record
    from tournaments.services.setup import series_forfeit

    if room.challenge_id is not None:
        return None  # a challenge's room is no tournament's
    link = SeriesRoom.objects.filter(room=room).select_related("series").first()
    if link is None:
        return None
    series = link.series
    one, two = series.player1, series.player2
    assert one is not None and two is not None
    try:
        with transaction.atomic():
            for g in room.games.order_by("number"):
                white, black = (one, two) if g.a_white else (two, one)
                game_enter_record(series=series, record=_named(g.record, white.name, black.name),
                                  number=g.number)  # fmt: skip
            series.refresh_from_db()
            winner = {"a": one, "b": two}.get(room.winner)
            if series.status not in CLOSED_STATUSES and winner is not None:
                series_forfeit(series=series, winner=winner)
    except ApplicationError:
        log.exception("room %s: its result could not be entered into series %s",
                      room.pk, series.pk)  # fmt: skip
    series.refresh_from_db()
    return series


def _joined(room: Room, seat: str) -> bool:
    return bool(getattr(room, f"{seat}_seed")) or getattr(room, f"{seat}_connected") > 0


def no_shows_sweep(*, now: datetime | None = None) -> list[int]:
    """The rooms whose round's start window closed with a player who never joined (no
    dice seed sent, no page open): that player loses the series by forfeit, scored as a
    director's forfeit. Both absent: the room is left for the director. The rooms
    changed, for their players to be told."""
    from tournaments.services.online.series import series_end

    now = now or timezone.now()
    due = SeriesRoom.objects.filter(window_closes__lt=now, room__status=RoomStatus.WAITING)
    changed = []
    for pk in due.values_list("room_id", flat=True):
        with transaction.atomic():
            room = Room.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if room is None or room.status != RoomStatus.WAITING:
                continue
            present = [seat for seat in ("a", "b") if _joined(room, seat)]
            if len(present) != 1:
                continue
            series_end(room, winner=present[0])
            room.seq += 1
            room.save()
            changed.append(room.pk)
    return changed
