"""Tournaments played online (docs/online.md, "Tournaments played online"): the setting
chosen at creation, a game room for every series of a paired round (the tournament's
rules, the series' length, the tournament's clock), the room's finished series entered
into its series through the services a director's entry uses (so standings, brackets and
ratings follow), the no-shows of a round's start window forfeited by the rooms' sweep
(a room neither player joined decided by the director), and the next round paired by
itself when the last series of a round ends (``pair_next``)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.engine import GameRecord, read_records, replay, variant_named
from tournaments.models import (
    CLOSED_STATUSES,
    FirstMove,
    MailPreference,
    OnlinePlay,
    Room,
    RoomDecision,
    RoomStatus,
    Round,
    Series,
    SeriesRoom,
    SeriesStatus,
    Tournament,
)
from tournaments.services.errors import ApplicationError
from tournaments.services.online.presence import seat_joined
from tournaments.services.online.settings import RoomSettings, settings_read

log = logging.getLogger(__name__)
CLOCK_FIELDS = ("clock", "delay_s", "reserve_s", "days", "timeout_costs")
MAX_WINDOW = 7 * 24 * 60


def online_play_set(*, tournament: Tournament, window_minutes: int = 15,
                    clock: dict[str, Any] | None = None,
                    window_until: datetime | None = None,
                    pair_next: bool = False) -> OnlinePlay:  # fmt: skip
    """Make ``tournament`` one played online: each round's start window in minutes (or,
    for a slow event over days, ``window_until``: the rounds paired before that time must
    start by it), the rooms' clock (a challenge's clock fields, checked by the one
    settings reader) and ``pair_next``: the next round paired by itself when the last
    series of a round ends (``round_next_by_itself``)."""
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
    if window_until is not None:
        if not isinstance(window_until, datetime) or timezone.is_naive(window_until):
            raise ApplicationError(
                _("The start window's end must be a date and time with its time zone."),
                code="online-window-until-bad", field="window_until",
            )  # fmt: skip
        if window_until <= timezone.now():
            raise ApplicationError(
                _("The start window's end must be in the future."),
                code="online-window-until-past", field="window_until",
            )  # fmt: skip
    if not isinstance(pair_next, bool):
        raise ApplicationError(
            _("Say yes or no to pairing the next round by itself."),
            code="online-pair-next-bad", field="pair_next",
        )  # fmt: skip
    lot_opens = variant_named(tournament.variant).lot_is_first_roll
    if lot_opens and tournament.opening_roll == "lot" and tournament.first_move != FirstMove.LOT:
        raise ApplicationError(
            _("Played online with the opening roll by lot, every game starts with a lot (S2): "
              "choose that later games start by lot."),
            code="online-first-move-lot", field="first_move",
        )  # fmt: skip
    kept = {k: getattr(s, k) for k in CLOCK_FIELDS}
    play, _made = OnlinePlay.objects.update_or_create(
        tournament=tournament,
        defaults={"window_minutes": window_minutes, "clock": kept, "window_until": window_until,
                  "pair_next": pair_next},
    )  # fmt: skip
    return play


def online_play_clear(*, tournament: Tournament) -> None:
    """The tournament is played over the board from now on: the rounds paired later get
    no rooms (the rooms open now are played out)."""
    OnlinePlay.objects.filter(tournament=tournament).delete()


def window_closes_at(play: OnlinePlay, now: datetime) -> datetime:
    """When the start window of a round paired ``now`` closes: the set end while it is
    ahead, else ``window_minutes`` from now."""
    if play.window_until is not None and play.window_until > now:
        return play.window_until
    return now + timedelta(minutes=play.window_minutes)


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
    play = OnlinePlay.objects.filter(tournament_id=round.tournament_id).first()
    if play is None:
        return []
    return _rooms_open(round.series.all(), play, now or timezone.now())


def bracket_rooms_open(*, tournament: Tournament, now: datetime | None = None) -> list[SeriesRoom]:
    """A knockout's series whose players are known get their rooms (the stage's length
    from the series); a waiting room whose series' players changed (a result before it
    corrected) is closed and a new one opened."""
    play = OnlinePlay.objects.filter(tournament_id=tournament.pk).first()
    if play is None:
        return []
    stale = SeriesRoom.objects.filter(
        series__tournament=tournament, room__status=RoomStatus.WAITING
    ).select_related("room", "series__player1", "series__player2")  # fmt: skip
    for link in stale:
        one, two = link.series.player1, link.series.player2
        users = (one.user_id if one else None, two.user_id if two else None)
        if users != (link.room.a_user_id, link.room.b_user_id):
            _room_close(link.room)
            link.delete()
    return _rooms_open(Series.objects.filter(tournament=tournament), play, now or timezone.now())


def _rooms_open(series_rows: Any, play: OnlinePlay, now: datetime) -> list[SeriesRoom]:
    from tournaments.services.online.rooms import room_create

    closes = window_closes_at(play, now)
    made = []
    series = (
        series_rows.select_related("tournament", "player1__user", "player2__user")
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
    if made:
        transaction.on_commit(lambda: rooms_opened_mail([link.pk for link in made]))
    return made


def _room_close(room: Room) -> None:
    """Close a room whose series no longer needs it (no result is entered from it)."""
    from tournaments.services.online.series import series_end

    locked = Room.objects.select_for_update().get(pk=room.pk)
    if locked.status in (RoomStatus.WAITING, RoomStatus.PLAYING):
        series_end(locked, aborted=True)
        locked.seq += 1
        locked.save()


def player_rooms_close(*, tournament: Tournament, player_id: int) -> int:
    """A withdrawn player's rooms in the tournament close (their series are forfeited or
    cancelled by the withdrawal). Returns how many closed."""
    links = SeriesRoom.objects.filter(
        Q(series__player1_id=player_id) | Q(series__player2_id=player_id),
        room__status__in=(RoomStatus.WAITING, RoomStatus.PLAYING),
        series__tournament=tournament,
    ).select_related("room")  # fmt: skip
    closed = 0
    for link in links:
        _room_close(link.room)
        closed += 1
    return closed


def site_url(conf: Any) -> str:
    """The site's address for a link in an e-mail sent outside a request: the setting
    SITE_URL, else the first named host of ALLOWED_HOSTS (https, http for localhost)."""
    given = str(getattr(conf, "SITE_URL", "") or "").rstrip("/")
    if given:
        return given
    for host in getattr(conf, "ALLOWED_HOSTS", []):
        if host and not host.startswith((".", "*")):
            local = host in ("localhost", "127.0.0.1", "[::1]", "testserver")
            return ("http://" if local else "https://") + str(host)
    return ""


def rooms_opened_mail(link_ids: list[int]) -> int:
    """E-mail the players who asked for it (MailPreference.room_opened) that their game's
    room is open: the tournament, the opponent, the link and when the window closes."""
    from django.conf import settings as conf
    from django.core.mail import send_mail
    from django.urls import reverse

    links = SeriesRoom.objects.filter(pk__in=link_ids).select_related(
        "series__tournament", "series__player1__user__mail_preference",
        "series__player2__user__mail_preference",
    )  # fmt: skip
    sent = 0
    base = site_url(conf)
    for link in links:
        one, two = link.series.player1, link.series.player2
        for me, other in ((one, two), (two, one)):
            user = me.user if me else None
            pref = getattr(user, "mail_preference", None) if user else None
            if user is None or other is None or not user.email or pref is None:
                continue
            if not pref.room_opened:
                continue
            url = base + reverse("tournaments:room", args=[link.room_id])
            closes = timezone.localtime(link.window_closes).strftime("%Y-%m-%d %H:%M %Z")
            subject = _("Your game in %(tournament)s is ready") % {
                "tournament": link.series.tournament.name
            }
            body = _(
                "Your series against %(opponent)s in %(tournament)s can start now: %(url)s\n"
                "Join the room before %(closes)s, or the series is lost by forfeit."
            ) % {"opponent": other.name, "tournament": link.series.tournament.name,
                 "url": url, "closes": closes}  # fmt: skip
            send_mail(subject, body, None, [user.email])
            sent += 1
    return sent


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
    if series.status in CLOSED_STATUSES:
        round_next_later(series)
    return series


def round_next_later(series: Series) -> None:
    """Once the transaction that closed ``series`` commits, the next round is paired when
    its tournament asks for it (``round_next_by_itself``)."""
    if series.round_id is None:
        return
    tid = series.tournament_id
    transaction.on_commit(lambda: round_next_by_itself(tournament_id=tid))


def round_next_by_itself(*, tournament_id: int) -> Round | None:
    """The tournament played online with ``pair_next``: when every series of its last
    published round is decided, its next round is published (a round robin's rounds
    paired ahead) or paired by the director's service (``round_generate``: the rooms open
    and the players are told), while rounds are left (a Swiss with its number of rounds
    set; a round robin's schedule). The tournament's row is locked and the round checked
    under the lock, so concurrent last results pair it once. A refusal is logged and
    leaves the round to the director. None: nothing paired."""
    from tournaments.models import Format
    from tournaments.services.pairings import ROUND_FORMATS, round_generate
    from tournaments.services.schedule import next_unpublished, round_show

    try:
        with transaction.atomic():
            t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
            play = OnlinePlay.objects.filter(tournament_id=tournament_id).first()
            if t is None or play is None or not play.pair_next or t.format not in ROUND_FORMATS:
                return None
            last = t.rounds.filter(published=True).order_by("-number").first()
            if last is None or last.series.exclude(status__in=CLOSED_STATUSES).exists():
                return None
            ahead = next_unpublished(t)
            if ahead is not None:
                if ahead.number != last.number + 1:
                    return None
                return round_show(ahead)
            if t.format == Format.SWISS and not (t.swiss_rounds and last.number < t.swiss_rounds):
                return None  # a Swiss without its number of rounds ends on the director's word
            return round_generate(tournament=t)
    except ApplicationError as exc:
        if exc.code not in ("round-robin-complete", "swiss-complete"):
            log.warning("tournament %s: the next round was not paired by itself: %s",
                        tournament_id, exc.code)  # fmt: skip
        return None


def no_shows_sweep(*, now: datetime | None = None) -> list[int]:
    """The rooms whose round's start window closed with a player who never joined (no
    room page opened, no dice seed sent: ``seat_joined``): that player loses the series by
    forfeit, scored as a director's forfeit. Both absent: the room is left for the
    director (``no_show_both_forfeit``, ``no_show_more_time``). The rooms changed, for
    their players to be told."""
    from tournaments.services.online.series import series_end

    now = now or timezone.now()
    due = SeriesRoom.objects.filter(window_closes__lt=now, room__status=RoomStatus.WAITING)
    changed = []
    for pk in due.values_list("room_id", flat=True):
        with transaction.atomic():
            room = Room.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if room is None or room.status != RoomStatus.WAITING:
                continue
            present = [seat for seat in ("a", "b") if seat_joined(room, seat)]
            if len(present) != 1:
                continue
            series_end(room, winner=present[0])
            SeriesRoom.objects.filter(room_id=room.pk).update(
                no_show="b" if present[0] == "a" else "a"
            )
            room.seq += 1
            room.save()
            changed.append(room.pk)
    return changed


@transaction.atomic
def no_show_reverse(*, series: Series, by: Any, reason: str) -> SeriesRoom:
    """A director reverses a no-show's forfeit, saying why: the series is open again and
    a new room opens with a new start window; who, when and why are kept on the series'
    room. In a knockout the winner's next series goes back while it has no games."""
    from tournaments.selectors.access import is_director, signed_in
    from tournaments.selectors.brackets import BRACKET_FORMATS
    from tournaments.services.errors import PermissionDenied
    from tournaments.services.online.rooms import room_create
    from tournaments.services.pairings import bracket_sync

    series = Series.objects.select_for_update(of=("self",)).select_related("tournament").get(
        pk=series.pk)  # fmt: skip
    tournament = series.tournament
    if not is_director(by, tournament):
        raise PermissionDenied(
            _("only the tournament's directors may reverse a forfeit"), code="not-director-forfeit"
        )
    link = SeriesRoom.objects.select_for_update().filter(series=series).first()
    both = link is not None and series.winner_id is None and link.decisions.filter(
        kind=RoomDecision.FORFEIT_BOTH).exists()  # fmt: skip
    if link is None or not (link.no_show or both) or series.status != SeriesStatus.FORFEITED:
        raise ApplicationError(
            _("This series was not lost by a no-show: there is no forfeit to reverse."),
            code="no-show-none",
        )
    if not reason or not reason.strip():
        raise ApplicationError(
            _("Say why the forfeit is reversed."), code="no-show-reason", field="reason"
        )
    play = OnlinePlay.objects.filter(tournament=tournament).first()
    if play is None:
        raise ApplicationError(
            _("The tournament is no longer played online: enter the series' result by hand."),
            code="no-show-not-online",
        )
    if tournament.format in BRACKET_FORMATS and series.winner_id is not None:
        later = Series.objects.filter(tournament=tournament, pk__gt=series.pk).filter(
            Q(player1_id=series.winner_id) | Q(player2_id=series.winner_id))  # fmt: skip
        if any(s.games.exists() or s.status in CLOSED_STATUSES for s in later):
            raise ApplicationError(
                _("The winner's next series has started: the forfeit cannot be reversed."),
                code="no-show-bracket-played",
            )
        for s in later:
            old = SeriesRoom.objects.filter(series=s).select_related("room").first()
            if old is not None:
                _room_close(old.room)
            s.delete()
    series.status, series.winner, series.finished_at = SeriesStatus.SCHEDULED, None, None
    series.version += 1
    series.save()
    now = timezone.now()
    one, two = series.player1, series.player2
    assert one is not None and two is not None and one.user is not None and two.user is not None
    room = room_create(a_user=one.user, b_user=two.user, variant=tournament.variant,
                       settings=room_settings_for(series, play))  # fmt: skip
    link.room = room
    link.window_closes = window_closes_at(play, now)
    link.reversed_by, link.reversed_at = signed_in(by), now
    link.reversal_reason = reason.strip()
    link.save()
    if tournament.format in BRACKET_FORMATS:
        bracket_sync(tournament=tournament)
    transaction.on_commit(lambda: rooms_opened_mail([link.pk]))
    return link


def _decision_checked(series: Series, by: Any, reason: str) -> tuple[Series, SeriesRoom, Room]:
    """The locked series, its room link and its locked room, for a director's decision on
    a room still waiting for its first roll, with a reason."""
    from tournaments.selectors.access import is_director
    from tournaments.services.errors import PermissionDenied

    series = Series.objects.select_for_update(of=("self",)).select_related("tournament").get(
        pk=series.pk)  # fmt: skip
    if not is_director(by, series.tournament):
        raise PermissionDenied(
            _("only the tournament's directors may decide a room nobody joined"),
            code="not-director-no-show",
        )
    link = SeriesRoom.objects.select_for_update().filter(series=series).first()
    room = Room.objects.select_for_update().filter(pk=link.room_id).first() if link else None
    if link is None or room is None or room.status != RoomStatus.WAITING or (
        series.status in CLOSED_STATUSES):  # fmt: skip
        raise ApplicationError(
            _("This series' room is no longer waiting for its players: there is nothing to "
              "decide."),
            code="no-show-room-not-waiting",
        )  # fmt: skip
    if not isinstance(reason, str) or not reason.strip():
        raise ApplicationError(
            _("Say why you decide so."), code="no-show-decision-reason", field="reason"
        )
    return series, link, room


@transaction.atomic
def no_show_both_forfeit(*, series: Series, by: Any, reason: str,
                         now: datetime | None = None) -> SeriesRoom:  # fmt: skip
    """Neither player joined the room by the close of the start window: a director
    decides both lose the series by forfeit (a forfeited series without a winner, as the
    standings count a double forfeit: a series lost by both, no game points; in a
    knockout it decides nothing until the director sets a winner). The room closes; who,
    when and why are kept (``RoomDecision``). May pair the next round by itself."""
    from tournaments.selectors.access import signed_in
    from tournaments.selectors.brackets import BRACKET_FORMATS
    from tournaments.services.pairings import bracket_sync

    now = now or timezone.now()
    series, link, room = _decision_checked(series, by, reason)
    if link.window_closes > now or seat_joined(room, "a") or seat_joined(room, "b"):
        raise ApplicationError(
            _("Both lose by forfeit only when neither player joined by the close of the "
              "start window."),
            code="no-show-not-both-absent",
        )  # fmt: skip
    _room_close(room)
    series.status, series.winner, series.finished_at = SeriesStatus.FORFEITED, None, now
    series.version += 1
    series.save()
    RoomDecision.objects.create(link=link, kind=RoomDecision.FORFEIT_BOTH, by=signed_in(by),
                                reason=reason.strip())  # fmt: skip
    if series.tournament.format in BRACKET_FORMATS:
        bracket_sync(tournament=series.tournament)
    round_next_later(series)
    return link


@transaction.atomic
def no_show_more_time(*, series: Series, by: Any, reason: str, minutes: int,
                      now: datetime | None = None) -> SeriesRoom:  # fmt: skip
    """A director gives the players of a room still waiting for its first roll
    ``minutes`` more to start: the window closes that long after its close, or after now
    when it has closed already. Who, when, how long and why are kept (``RoomDecision``);
    the players are told (the room's version moves on, their pages refresh)."""
    from tournaments.selectors.access import signed_in

    if isinstance(minutes, bool) or not isinstance(minutes, int) or not (
        1 <= minutes <= MAX_WINDOW):  # fmt: skip
        raise ApplicationError(
            _("%(name)s must be a whole number from %(low)s to %(high)s"),
            code="settings-number",
            params={"name": "minutes", "low": 1, "high": MAX_WINDOW},
            field="minutes",
        )  # fmt: skip
    now = now or timezone.now()
    series, link, room = _decision_checked(series, by, reason)
    link.window_closes = max(link.window_closes, now) + timedelta(minutes=minutes)
    link.save(update_fields=["window_closes"])
    room.seq += 1
    room.save(update_fields=["seq"])
    RoomDecision.objects.create(link=link, kind=RoomDecision.MORE_TIME, minutes=minutes,
                                by=signed_in(by), reason=reason.strip())  # fmt: skip
    return link


def mail_preference_set(*, user: Any, room_opened: bool) -> MailPreference:
    """Whether ``user`` is e-mailed when a room of their tournament series opens."""
    pref, _made = MailPreference.objects.update_or_create(
        user=user, defaults={"room_opened": bool(room_opened)}
    )
    return pref
