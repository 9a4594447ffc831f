"""A game room's actions (docs/online.md, /work/helpers/ROOM_PROTOCOL.md): every door -
the WebSocket consumer, the HTTP fallback, a test - calls ``room_act`` with the message a
client sent. Each action checks the sequence number it was sent at (a stale one is
refused and changes nothing: a resend plays once), who may act and what the engine
allows, then writes and bumps the sequence number: a game action with one UPDATE written
only if the seq is still the one it read, anything more under the row's lock. The bot
answers in the same write; a finished game is stored (services/online/series.py)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.engine import Position, new_server_seed, seed_hash
from tournaments.models import Room, RoomGame, RoomGameEnd, RoomStatus
from tournaments.selectors.access import User, signed_in
from tournaments.services.errors import ApplicationError
from tournaments.services.online.clock import clock_start, clock_stop, reserve_at_start
from tournaments.services.online.game import (
    GameView,
    action_text,
    game_legal,
    game_listed,
    game_view,
    game_with,
    listable,
    may_double,
)
from tournaments.services.online.room_bot import room_bot_act
from tournaments.services.online.room_rows import (
    NeedsLock,
    no_queries,
    room_read,
    room_settings,
    room_write,
)
from tournaments.services.online.series import (
    game_finish,
    other,
    roll,
    seat_of_side,
    series_end,
    series_start,
    side_of_seat,
)
from tournaments.services.online.settings import RoomSettings

GAME_ACTIONS = ("move", "roll", "double", "take", "drop", "resign", "abort", "seed")
FREE_ACTIONS = ("sync", "chat", "chat-off", "chat-on")  # no seq bump: the game is unchanged
CHAT_KEPT = 100
CHAT_LENGTH = 300
PAS = re.compile(r"(\+[1-6]{2})?:?\s*([0-9a-z/*() ]*)")
SEED = re.compile(r"[0-9a-fA-F]{1,64}")


def room_create(*, a_user: AuthUser, b_user: AuthUser | None = None, b_bot: str = "", variant: str,
                settings: RoomSettings, challenge_id: int | None = None) -> Room:  # fmt: skip
    """A room for a series of ``a_user`` against ``b_user`` or the bot at ``b_bot``; the
    server seed is drawn and its hash shown from now on. The first roll waits for each
    player's browser seed."""
    server_seed = new_server_seed()
    reserve = reserve_at_start(settings)
    room = Room.objects.create(
        challenge_id=challenge_id, a_user=a_user, b_user=b_user, b_bot=b_bot, variant=variant,
        settings=settings.to_json(), server_seed=server_seed, seed_hash=seed_hash(server_seed),
        a_reserve_ms=reserve, b_reserve_ms=reserve,
    )  # fmt: skip
    return room


def seat_of(room: Room, user: User | None) -> str | None:
    """The user's seat in the room, None for a spectator (or a visitor)."""
    player = signed_in(user)
    if player is None:
        return None
    if room.a_user_id == player.pk:
        return "a"
    if room.b_user_id == player.pk:
        return "b"
    return None


def room_act(*, room_id: int, user: User | None, message: object) -> Room:
    """Play the client's ``message`` (a dict: ``action``, ``seq`` and the action's
    fields) in the room; the room as it stands after it. Refused with a stable code,
    changing nothing: bad-message, no-such-room, spectator, stale-seq, finished,
    not-your-turn, illegal-turn, cube-refused, abort-refused, seed-refused, chat-off.

    A game action is decided on the row read without a lock and written with one
    conditional UPDATE (services/online/room_rows.py): written only if the sequence
    number is still the one read, so that of two actions sent at one seq (a resend, a
    double click, both seats at once) exactly one plays. An action that needs more of
    the database (a game stored, the series' end, the first roll's setup, a timeout) or
    that lost the race is played under the row's lock, as every other action is."""
    action, seq = _parsed(message)
    assert isinstance(message, dict)
    if action in GAME_ACTIONS or action == "sync":
        room = _act_unlocked(room_id, user, action, seq, message)
        if room is not None:
            return room
    with transaction.atomic():
        # the row locked, its seats' users read with it (the state after it names them)
        locked = (
            Room.objects.select_for_update(of=("self",))
            .select_related("a_user", "b_user")
            .filter(pk=room_id)
            .order_by()[:1]
        )
        room = next(iter(locked), None)
        if room is None:
            raise ApplicationError(_("There is no such game room."), code="no-such-room")
        timed_out = _timeout_due(room, timezone.now())
        if timed_out:
            room.save()
        elif action != "sync":
            _act_on(room, seat_of(room, user), action, seq, message)
            room.save()
    if timed_out and action != "sync":  # decided under the same lock, committed, then told
        raise ApplicationError(
            _("Time ran out before this action: here is the game as it stands."), code="timeout"
        )
    return room


def _act_unlocked(room_id: int, user: User | None, action: str, seq: int | None,
                  message: dict[str, Any]) -> Room | None:  # fmt: skip
    """The action decided on the row as read and written if its seq still stands; None:
    it is to be played under the lock (a query it needed, a timeout due, a race lost)."""
    read = room_read(room_id)
    if read is None:
        raise ApplicationError(_("There is no such game room."), code="no-such-room")
    room, values = read
    deadline = room.deadline
    if room.status == RoomStatus.PLAYING and deadline is not None and deadline < timezone.now():
        return None  # the timeout is decided under the lock
    if action == "sync":
        return room
    try:
        with no_queries() as tripped:
            _act_on(room, seat_of(room, user), action, seq, message)
    except NeedsLock:
        return None
    if tripped or not room_write(room, values):
        return None
    return room


def _act_on(room: Room, seat: str | None, action: str, seq: int | None,
            message: dict[str, Any]) -> None:  # fmt: skip
    """The action on the room (room_act's checks, in order); the caller writes it."""
    if seat is None:
        raise ApplicationError(_("You are watching this game: only its players act."),
                               code="spectator")  # fmt: skip
    if action in FREE_ACTIONS:
        _chat(room, seat, action, message.get("text"))
        return
    if seq != room.seq:
        raise ApplicationError(
            _("The game has moved on since (sequence number %(seq)s, not %(sent)s): "
              "here it is as it stands."), code="stale-seq", params={"seq": room.seq, "sent": seq},
        )  # fmt: skip
    if room.status in (RoomStatus.FINISHED, RoomStatus.ABORTED):
        raise ApplicationError(_("This series is over."), code="finished")
    s = room_settings(room)
    now = timezone.now()
    if action == "seed":
        _seed(room, s, seat, message.get("seed"))
    elif action == "abort":
        _abort(room, seat)
    elif room.status == RoomStatus.WAITING:
        raise ApplicationError(_("The first roll waits for both players' dice seeds."),
                               code="waiting")  # fmt: skip
    else:
        _play(room, s, seat, action, message, now)
    room.seq += 1


def _parsed(message: object) -> tuple[str, int | None]:
    if not isinstance(message, dict):
        raise ApplicationError(_("A message is a JSON object with an action."), code="bad-message")
    action = message.get("action")
    if action not in GAME_ACTIONS and action not in FREE_ACTIONS:
        raise ApplicationError(_("Unknown action."), code="unknown-action")
    seq = message.get("seq")
    if action in GAME_ACTIONS and (isinstance(seq, bool) or not isinstance(seq, int)):
        raise ApplicationError(_("Every action carries the room's sequence number."), code="no-seq")
    return str(action), seq if isinstance(seq, int) else None


def _chat(room: Room, seat: str, action: str, text: object) -> None:
    if action != "chat":
        setattr(room, f"{seat}_chat_off", action == "chat-off")
        return
    if getattr(room, f"{seat}_chat_off"):
        raise ApplicationError(_("You turned the chat off."), code="chat-off")
    if not isinstance(text, str) or not text.strip():
        raise ApplicationError(_("Write something to send."), code="chat-empty")
    line = {"seat": seat, "text": text.strip()[:CHAT_LENGTH], "at": timezone.now().isoformat()}
    room.chat = [*room.chat, line][-CHAT_KEPT:]


def _seed(room: Room, s: RoomSettings, seat: str, seed: object) -> None:
    """The player's browser seed, before the series' first roll; when every human seat
    has one, the series starts (the lot, game 1)."""
    if room.status != RoomStatus.WAITING or getattr(room, f"{seat}_seed"):
        raise ApplicationError(_("The dice seed is given once, before the first roll."),
                               code="seed-refused")  # fmt: skip
    if not isinstance(seed, str) or not SEED.fullmatch(seed):
        raise ApplicationError(_("A dice seed is 1 to 64 hexadecimal digits."), code="bad-seed")
    setattr(room, f"{seat}_seed", seed.lower())
    if all(getattr(room, f"{x}_seed") or getattr(room, f"{x}_bot") for x in ("a", "b")):
        series_start(room, s)
        proceed(room, s, timezone.now())


def _abort(room: Room, seat: str) -> None:
    """An abort, allowed in the first game until both sides have played a turn."""
    if room.status == RoomStatus.PLAYING:
        view = game_view(room.record)
        if room.game_number > 1 or min(view.turns) > 0:
            raise ApplicationError(
                _("A series can be aborted only before each side's first turn."),
                code="abort-refused",
            )  # fmt: skip
    series_end(room, aborted=True)


def _play(room: Room, s: RoomSettings, seat: str, action: str, message: dict[str, Any],
          now: datetime) -> None:  # fmt: skip
    view = game_view(room.record)
    side = side_of_seat(room, seat)
    if action == "resign":
        clock_stop(room, s, seat_of_side(room, view.on_turn), now)
        _finish(room, s, game_with(view, side, "resigns"), now)
        return
    if view.on_turn != side:
        raise ApplicationError(_("It is not your turn."), code="not-your-turn")
    if action in ("take", "drop", "double") or view.offered:
        view = _cube(room, s, seat, action, view, now)
    elif action == "roll":
        if room.dice is not None:
            raise ApplicationError(_("The dice are rolled already."), code="rolled-already")
        clock_stop(room, s, seat, now)
        room.dice = list(roll(room))
    else:  # move
        if room.dice is None:
            raise ApplicationError(_("Roll or double first."), code="roll-first")
        text = _turn_action(view, (room.dice[0], room.dice[1]), message.get("turn"))
        clock_stop(room, s, seat, now)
        view = game_with(view, side, "turn", text)
        room.dice = None
    if view.outcome is not None:
        _finish(room, s, view, now)
    else:
        room.record = view.record
        proceed(room, s, now, view)


def _cube_refused(position: Position) -> ApplicationError:
    """A double refused (S7): the cube at its highest value in the engine's words."""
    cube = position.cube
    refused = None if cube is None else cube.refusal(position.turn)
    if refused is not None and refused.code == "cube-max":
        return ApplicationError.from_engine(refused, located=False)
    return ApplicationError(_("You cannot double now (S7)."), code="cube-refused")


def _cube(room: Room, s: RoomSettings, seat: str, action: str, view: GameView,
          now: datetime) -> GameView:  # fmt: skip
    """A double offered before the roll, or the doubled player's take or drop (S7)."""
    side = side_of_seat(room, seat)
    if action in ("take", "drop"):
        if not view.offered:
            raise ApplicationError(_("No double waits for your answer."), code="no-double-offered")
    elif view.offered:
        raise ApplicationError(_("Take or drop the double first."), code="answer-the-double")
    elif room.dice is not None or not may_double(view, crawford=room.crawford):
        if room.crawford:
            raise ApplicationError(
                _("The Crawford game is played without the doubling cube (S7)."),
                code="crawford-no-cube",
            )  # fmt: skip
        raise _cube_refused(view.position)
    clock_stop(room, s, seat, now)
    return game_with(view, side, action)


def _turn_action(view: GameView, dice: tuple[int, int], turn: object) -> str:
    """The record's text of the player's turn: one of the engine's legal turns for the
    dice, or (a Lurč houšek, whose plays are too many to list) the written turn, which
    the engine's replay judges. Refused: illegal-turn, with the engine's reason."""
    written = turn.strip() if isinstance(turn, str) else ""
    shown = {"turn": written[:60] or "—", "dice": f"{dice[0]}-{dice[1]}"}
    if not isinstance(turn, str) or len(turn) > 400:
        raise ApplicationError(_("%(turn)s is not a legal turn for %(dice)s"), code="illegal-turn",
                               params={"turn": shown["turn"], "dice": shown["dice"]})  # fmt: skip
    if listable(view, dice):
        for t in game_listed(view, dice):
            if t.text == written:
                return t.action
        raise ApplicationError(_("%(turn)s is not a legal turn for %(dice)s"), code="illegal-turn",
                               params={"turn": shown["turn"], "dice": shown["dice"]})  # fmt: skip
    pas = PAS.fullmatch(written)
    if pas is None:
        raise ApplicationError(_("%(turn)s is not a legal turn for %(dice)s"), code="illegal-turn",
                               params={"turn": shown["turn"], "dice": shown["dice"]})  # fmt: skip
    text = f"{max(dice)}{min(dice)}{pas.group(1) or ''}: {pas.group(2)}".rstrip()
    try:
        game_with(view, view.position.turn, "turn", text)
    except ApplicationError as exc:
        raise ApplicationError(_("%(turn)s is not a legal turn for %(dice)s: %(reason)s"),
                               code="illegal-turn-rule",
                               params={"turn": shown["turn"], "dice": shown["dice"],
                                       "reason": exc.message}) from None  # fmt: skip
    return text


def _finish(room: Room, s: RoomSettings, view: GameView, now: datetime, *,
            ended: str | None = None, forfeit: str | None = None) -> None:  # fmt: skip
    game_finish(room, s, view, ended=ended, forfeit=forfeit)
    if room.status == RoomStatus.PLAYING:
        proceed(room, s, now)


def proceed(room: Room, s: RoomSettings, now: datetime, view: GameView | None = None) -> None:
    """Go on until a human must act: roll for the side to move (unless it may double
    first), play the bot's actions (services/online/room_bot.py: its turns, its cube)
    and every turn without a choice (L6: nothing legal),
    finish the games that end so; then start the clock of who must act."""
    while room.status == RoomStatus.PLAYING:
        view = view or game_view(room.record)
        if view.outcome is not None:
            game_finish(room, s, view)
            view = None
            continue
        seat = seat_of_side(room, view.on_turn)
        if getattr(room, f"{seat}_bot"):  # its double, its answer, or its roll and turn
            view = room_bot_act(room, s, view, seat)
            room.record = view.record
            continue
        if view.offered:
            break  # the doubled player answers
        if room.dice is None:
            if may_double(view, crawford=room.crawford):
                break  # roll or double: the player chooses
            room.dice = list(roll(room))
        dice = (room.dice[0], room.dice[1])
        turns = game_legal(view, dice) if listable(view, dice) else []
        if len(turns) == 1 and not turns[0].steps:
            played = turns[0]  # no legal move: the turn passes (L6)
        else:
            break
        view = game_with(view, view.position.turn, "turn", action_text(played))
        room.dice = None
        room.record = view.record
    if room.status == RoomStatus.PLAYING:
        view = view or game_view(room.record)
        seat = seat_of_side(room, view.on_turn)
        clock_start(room, s, None if getattr(room, f"{seat}_bot") else seat, now)


def room_connected(*, room_id: int, user: User | None, delta: int) -> bool:
    """A player's socket opened (+1) or closed (-1); whether the user has a seat. The
    player is seen on opening, and gone at once when their last socket closes (a socket
    that dies without closing stops beating instead: services/online/presence.py)."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(pk=room_id).first()
        seat = seat_of(room, user) if room is not None else None
        if room is None or seat is None:
            return False
        field = f"{seat}_connected"
        setattr(room, field, max(0, getattr(room, field) + delta))
        if delta > 0 or getattr(room, field) == 0:
            setattr(room, f"{seat}_seen", timezone.now() if delta > 0 else None)
        room.save(update_fields=[field, f"{seat}_seen"])
    return True


def room_sweep_timeouts(*, room_id: int | None = None, now: datetime | None = None) -> list[int]:
    """Decide the timeouts whose deadline has passed (all rooms, or one): the player on
    turn loses the game, scored by the position as a resignation (L9), or the series,
    as the room's setting says. The rooms changed, for their players to be told."""
    from tournaments.services.online.clock import rooms_due

    now = now or timezone.now()
    due = rooms_due(now) if room_id is None else [room_id]
    changed = []
    for pk in due:
        with transaction.atomic():
            room = Room.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if room is not None and _timeout_due(room, now):
                room.save()
                changed.append(room.pk)
    if room_id is None:  # a tournament's round: who never joined loses by forfeit
        from tournaments.services.online.tournament_rooms import no_shows_sweep

        changed += no_shows_sweep(now=now)
    return changed


def _timeout_due(room: Room, now: datetime) -> bool:
    """Decide the locked room's timeout when its deadline has passed (the caller saves)."""
    if room.status != RoomStatus.PLAYING or room.deadline is None or room.deadline >= now:
        return False
    s = room_settings(room)
    view = game_view(room.record)
    loser = seat_of_side(room, view.on_turn)
    if s.clock == "live":
        setattr(room, f"{loser}_reserve_ms", 0)
    room.turn_started = room.deadline = None
    ended = game_with(view, view.on_turn, "resigns")
    forfeit = loser if s.timeout_costs == "series" else None
    _finish(room, s, ended, now, ended=RoomGameEnd.TIMEOUT, forfeit=forfeit)
    room.seq += 1
    return True


def room_games(room: Room) -> list[RoomGame]:
    return list(room.games.order_by("number"))


__all__ = ["other", "proceed", "room_act", "room_connected", "room_create",
           "room_sweep_timeouts", "seat_of"]  # fmt: skip
