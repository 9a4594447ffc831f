"""The state of a room as one viewer sees it (ROOM_PROTOCOL.md, "STATE"): read from the
database every time it is sent, so that a client that reconnects, or missed a message
the channel layer dropped, is sent the truth. Players see their legal turns and what they
may do; a spectator sees the board from white's side and reads the players' chat."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django.urls import reverse
from django.utils import timezone, translation

from tournaments.board import board_svg
from tournaments.engine import Position, movetext_for
from tournaments.models import Challenge, ChallengeStatus, Room, RoomStatus
from tournaments.selectors.access import User
from tournaments.selectors.rooms import seat_name
from tournaments.services.online.bot_history import room_bot_games
from tournaments.services.online.clock import clock_left_ms
from tournaments.services.online.game import (
    GameView,
    Kept,
    game_listed,
    game_view,
    listable,
    may_double,
)
from tournaments.services.online.presence import present_ms
from tournaments.services.online.room_rows import room_settings, settings_json
from tournaments.services.online.rooms import seat_of
from tournaments.services.online.series import seat_of_side, side_of_seat
from tournaments.services.online.steps import steps_instead

OVER = (RoomStatus.FINISHED, RoomStatus.ABORTED)
# a room's drawn boards and finished games, kept by what they are made of (the record,
# the dice, the side and language; the games stored so far), for its sockets and the
# next state: a move's states are sent to every socket of the room
BOARDS = Kept(2048)
GAMES = Kept(1024)


def _number(value: Decimal) -> int | float:
    return int(value) if value == int(value) else float(value)


def _pas_choice(position: Position, dice: list[int] | None) -> bool:
    """Whether the roll leaves the mover a choice to make before moving (Lurč's houšek
    and its paš, Z8): as the variant declares it, never by the variant's name."""
    if not dice or len(dice) != 2:
        return False
    board = position.board(position.turn)
    _roll, choices = position.rules_variant.roll_choices(list(dice), board)
    return len(choices) > 1


def room_state(room: Room, viewer: User | None) -> dict[str, Any]:
    """The room for ``viewer`` as the protocol's STATE."""
    s = room_settings(room)
    seat = seat_of(room, viewer)
    playing = room.status == RoomStatus.PLAYING
    view: GameView | None = game_view(room.record) if room.record else None
    position = view.position if view else Position.start(room.variant)
    you = side_of_seat(room, seat) if seat else None
    eye = you if you is not None else 0
    on_turn = view.on_turn if (view and playing) else None
    colour = {0: "white", 1: "black"}
    seats = {side: seat_of_side(room, side) for side in (0, 1)}
    cube = position.cube
    cube_json = None
    if cube is not None:
        cube_json = {
            "value": cube.value,
            "owner": None if cube.owner is None else colour[cube.owner],
            "offered_by": colour[position.turn] if view and view.offered else None,
        }
    legal: list[dict[str, Any]] = []
    can: list[str] = []
    if seat is not None:
        can = _can(room, seat, you, on_turn, view)
    listed = view is None or not room.dice or listable(view, (room.dice[0], room.dice[1]))
    stepped = False  # too many turns to list: the page enters the turn step by step
    if "move" in can and view is not None and room.dice and listed:
        dice = (room.dice[0], room.dice[1])
        turns = game_listed(view, dice)
        stepped = steps_instead(view.position, dice, view.rules, len(turns))
        for t in [] if stepped else turns:
            legal.append({"movetext": t.text, "shown": t.text,
                          "steps": [[frm, to] for frm, to in t.steps]})  # fmt: skip
    now = timezone.now()
    running = None
    if on_turn is not None and room.deadline is not None:
        running = seats[on_turn]
    clock = None
    if s.clock != "none":
        clock = {
            "delay_ms": s.delay_s * 1000 if s.clock == "live" else 0,
            "white_ms": clock_left_ms(room, s, seats[0], running, now),
            "black_ms": clock_left_ms(room, s, seats[1], running, now),
            "running": colour[on_turn] if running and on_turn is not None else None,
            "turn_started": room.turn_started.isoformat() if room.turn_started else None,
            "deadline": room.deadline.isoformat() if room.deadline else None,
            "correspondence_days": s.days if s.clock == "correspondence" else None,
        }
    last = None
    if view is not None and view.last is not None:
        mover, dice, text, _steps = view.last
        shown = movetext_for(text, room.variant, mover=mover, viewer=eye)
        last = {"side": colour[mover], "dice": list(dice), "shown": shown}
    off = seat is not None and getattr(room, f"{seat}_chat_off")
    chat = None
    if not off:  # the players' chat, read by a spectator too; off: hidden from who turned it off
        chat = [{"from": seat_name(room, line["seat"]), "text": line["text"], "at": line["at"]}
                for line in room.chat]  # fmt: skip
    return {
        "room": room.pk,
        "seq": room.seq,
        "status": room.status,
        "variant": room.variant,
        "you": None if you is None else colour[you],
        "turn": None if on_turn is None else colour[on_turn],
        "players": {colour[side]: _player(room, seats[side], now) for side in (0, 1)},
        "settings": settings_json(s),
        "score": {colour[side]: _number(getattr(room, f"{seats[side]}_score")) for side in (0, 1)},
        "winner": _winner(room, seats),
        "game": room.game_number,
        "crawford": room.crawford,
        "position": position.to_json(),
        "dice": room.dice,
        "cube": cube_json,
        "legal": legal if listed and not stepped else None,
        # the door that answers the legal next steps of a partial turn (services/online/steps.py)
        "steps_url": reverse("tournaments:room-steps", args=[room.pk]) if stepped else None,
        "pas_choice": _pas_choice(position, room.dice),
        "can": can,
        "clock": clock,
        "dice_hash": room.seed_hash,
        "server_seed": room.server_seed if room.status in OVER else None,
        "client_seed": room.client_seed,
        "last": last,
        "games": _games(room),
        "chat": chat,
        "rematch": _rematch(room, seat) if room.status in OVER else None,
        # a finished bot room's games as kept with the player's games against the bot
        "bot_games": _bot_games(room, viewer) if seat is not None and room.status in OVER else [],
        # drawn from the viewer's side (white's for a spectator), numbered as it shows
        "board_svg": _board(room, position, eye),
    }


def _player(room: Room, seat: str, now: datetime) -> dict[str, Any]:
    bot = getattr(room, f"{seat}_bot")
    # present while the player's page beats; the viewer's page marks them gone when
    # present_ms runs out with no newer state (services/online/presence.py)
    left = None if bot else present_ms(room, seat, now)
    return {
        "name": seat_name(room, seat),
        "connected": bool(bot) or bool(left),
        "present_ms": left,
        "bot": bot or None,
        "seeded": bool(getattr(room, f"{seat}_seed")) or bool(bot),
    }


def _bot_games(room: Room, viewer: User | None) -> list[dict[str, Any]]:
    return [
        {"number": b.room_game.number, "url": reverse("tournaments:play_game", args=[b.pk])}
        for b in room_bot_games(room, viewer)
        if b.room_game is not None  # a copy keeps its room's game (bot_history.py)
    ]


def _rematch(room: Room, seat: str | None) -> dict[str, Any] | None:
    """The finished series' rematch offer, the newest not declined or cancelled: who
    offered it (``you``, ``opponent``; None for a spectator), its challenge, and once
    accepted, the new room (both players' pages go there)."""
    challenge = (
        Challenge.objects.filter(rematch_of=room)
        .exclude(status__in=(ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED))
        .select_related("room", "creator")
        .order_by("-pk")
        .first()
    )
    if challenge is None:
        return None
    by = None
    if seat is not None:
        mine = challenge.creator_id == getattr(room, f"{seat}_user_id")
        by = "you" if mine else "opponent"
    new = getattr(challenge, "room", None)
    return {
        "by": by,
        "from": challenge.creator.get_username(),
        "challenge": challenge.pk,
        "room": new.pk if new is not None else None,
        "room_url": reverse("tournaments:room", args=[new.pk]) if new is not None else None,
    }


def _winner(room: Room, seats: dict[int, str]) -> str | None:
    if not room.winner:
        return None
    return "white" if seats[0] == room.winner else "black"


def _can(room: Room, seat: str, you: int | None, on_turn: int | None,
         view: GameView | None) -> list[str]:  # fmt: skip
    """What the viewer may send now."""
    if room.status in OVER:
        return []
    can = ["chat"]
    if room.status == RoomStatus.WAITING:
        if not getattr(room, f"{seat}_seed"):
            can.append("seed")
        return [*can, "abort"]
    assert view is not None
    can.append("resign")
    if room.game_number == 1 and min(view.turns) == 0:
        can.append("abort")
    if on_turn != you:
        return can
    if view.offered:
        return [*can, "take", "drop"]
    if room.dice is None:
        can.append("roll")
        if may_double(view, crawford=room.crawford):
            can.append("double")
        return can
    return [*can, "move"]


def _board(room: Room, position: Position, eye: int) -> str:
    """The board of ``position`` (the room's record's) drawn from ``eye``'s side."""
    key = (room.variant, room.record, tuple(room.dice or ()), eye, translation.get_language())
    svg = BOARDS.get(key)
    if svg is None:
        svg = board_svg(position, dice=room.dice or (), dice_side=position.turn, viewer=eye)
        BOARDS.put(key, svg)
    return str(svg)


def _games(room: Room) -> list[dict[str, Any]]:
    """The series' finished games. A game is stored only as the next begins or the series
    ends: none before, and the same ones until the game number or the status changes."""
    if room.game_number == 1 and room.status not in OVER:
        return []
    key = (room.pk, room.seed_hash, room.game_number, room.status,
           seat_name(room, "a"), seat_name(room, "b"))  # fmt: skip
    kept = GAMES.get(key)
    if kept is None:
        kept = _games_read(room)
        GAMES.put(key, kept)
    assert isinstance(kept, list)
    return [dict(g) for g in kept]


def _games_read(room: Room) -> list[dict[str, Any]]:
    out = []
    for g in room.games.order_by("number"):
        white = "a" if g.a_white else "b"
        names = {
            "white": seat_name(room, white),
            "black": seat_name(room, "b" if white == "a" else "a"),
        }
        out.append({
            "number": g.number, "winner": g.winner or None, "kind": g.kind, "points": g.points,
            "ended": g.ended, "cube": g.cube, "white": names["white"], "black": names["black"],
            "record_url": reverse("tournaments:room-game-record", args=[room.pk, g.number]),
        })  # fmt: skip
    return out
