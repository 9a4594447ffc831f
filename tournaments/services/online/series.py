"""A room's series (docs/online.md): the dice (the server alone rolls, engine.dice's fair
rolls numbered over the series), a game set up (the lot, who starts by the setting, the
record's tags), a finished game checked by the one record check and stored, the score,
the Crawford game, and the series' end, when the server seed is revealed and written into
every record's tags."""

from __future__ import annotations

import logging
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournaments.engine import (
    EngineError,
    GameRecord,
    analyse_record,
    combined_client_seed,
    dice_tags,
    fair_roll,
    read_records,
    replay,
    variant_named,
)
from tournaments.models import (
    DrawScoring,
    FirstMove,
    Room,
    RoomGame,
    RoomStatus,
    SeriesMode,
)
from tournaments.selectors.rooms import seat_name
from tournaments.services.analysis import net_analysis_fields
from tournaments.services.online.bot_history import room_bot_history
from tournaments.services.online.game import GameView, game_start
from tournaments.services.online.settings import RoomSettings, record_rule_tags, rules_tournament
from tournaments.services.records import check_record, match_tags

log = logging.getLogger(__name__)
SEATS = ("a", "b")


def other(seat: str) -> str:
    return "b" if seat == "a" else "a"


def seat_of_side(room: Room, side: int) -> str:
    """The seat that plays ``side`` (0 white, 1 black) in the current game."""
    return "a" if (side == 0) == room.a_white else "b"


def side_of_seat(room: Room, seat: str) -> int:
    return 0 if (seat == "a") == room.a_white else 1


def roll(room: Room) -> tuple[int, int]:
    """The series' next roll (its number: ``room.rolls``, then counted)."""
    dice = fair_roll(room.server_seed, room.client_seed, room.rolls)
    room.rolls += 1
    return dice


def series_start(room: Room, s: RoomSettings) -> None:
    """Both seeds are in: the client seed is fixed (the first seat's seed, a colon, the
    second's) and game 1 is set up."""
    room.client_seed = combined_client_seed(room.a_seed, room.b_seed)
    room.status = RoomStatus.PLAYING
    from tournaments.services.online.challenges import bot_room_starter
    from tournaments.services.online.tournament_rooms import room_first_starter

    # the director's choice, or the colour chosen against the bot; None: by lot
    game_setup(room, s, starter=room_first_starter(room=room) or bot_room_starter(room))


def game_setup(room: Room, s: RoomSettings, *, starter: str | None) -> None:
    """Set up the room's next game: ``starter`` starts it (None: by lot, L2, S2: each
    seat's die of a roll, the first seat's first, the higher starts, a tie rolls again).
    The starter takes the colour that moves first (L12; black in Lurč, Z1)."""
    variant = variant_named(room.variant)
    first_roll = room.rolls
    lot = 0
    last: tuple[int, int] | None = None
    while starter is None:
        last = roll(room)
        lot += 1
        if last[0] != last[1]:
            starter = "a" if last[0] > last[1] else "b"
    opening_lot = variant.lot_is_first_roll and s.opening_roll == "lot"
    while opening_lot and (last is None or last[0] == last[1]):
        # S2 with the starter chosen (the colour chosen against the bot): the opening
        # roll is still a lot's roll, never a double; it plays, it does not decide
        last = roll(room)
        lot += 1
    room.a_white = (starter == "a") == (variant.first_side == 0)
    room.crawford = _crawford_next(room, s)
    tags = {"Variant": room.variant, "Date": timezone.localdate().isoformat()}
    tags |= {"White": seat_name(room, seat_of_side(room, 0))}
    tags |= {"Black": seat_name(room, seat_of_side(room, 1)), "Game": str(room.game_number)}
    tags |= record_rule_tags(s, room.variant, crawford=room.crawford)
    tags |= dict(dice_tags(hash_=room.seed_hash, client_seed=room.client_seed,
                           first_roll=first_roll, lot=lot))  # fmt: skip
    room.record = game_start(tags)
    room.game_first_roll = first_roll
    room.dice = None
    if last is not None and opening_lot:
        room.dice = sorted(last, reverse=True)  # S2: the lot is white's first roll


def _crawford_next(room: Room, s: RoomSettings) -> bool:
    """Whether the game about to start is the Crawford game (S7): the first game after a
    player reached N-1 points of a series to N with the cube."""
    if not (s.cube and s.crawford and s.series_mode == SeriesMode.POINTS):
        return False
    target = Decimal(s.length - 1)
    if target not in (room.a_score, room.b_score):
        return False
    return not any(g.crawford for g in _games_before(room))


def _games_before(room: Room) -> list[RoomGame]:
    return list(room.games.order_by("number")) if room.pk else []


def game_finish(room: Room, s: RoomSettings, view: GameView, *, ended: str | None = None,
                forfeit: str | None = None) -> RoomGame:  # fmt: skip
    """Store the finished game: its record checked by the one record check a series has
    (services/records.py::check_record, under the room's rules), the points to the winner
    or the draw's score to both (L11); then the next game, or the series' end (``forfeit``:
    the seat that lost the series on time)."""
    t = rules_tournament(s, room.variant)
    extra = match_tags(length=s.length, crawford=room.crawford) if (
        s.cube and s.series_mode == SeriesMode.POINTS) else None  # fmt: skip
    checked = check_record(view.record, tournament=t, match_tags=extra)
    points = 0
    if checked.winner is None:
        half = Decimal("0.5") if s.draw_scoring == DrawScoring.HALF else Decimal(1)
        room.a_score += half
        room.b_score += half
    else:
        winner = seat_of_side(room, 0 if checked.winner == "white" else 1)
        assert view.outcome is not None
        points = view.outcome.points
        setattr(room, f"{winner}_score", getattr(room, f"{winner}_score") + points)
    game = RoomGame.objects.create(
        room=room, number=room.game_number, a_white=room.a_white, record=checked.text,
        winner=checked.winner or "", kind=checked.kind, cube=checked.cube, points=points,
        ended=ended or checked.ended, crawford=room.crawford,
    )  # fmt: skip
    room.record = checked.text
    room.dice = None
    if variant_named(room.variant).evaluator is not None:
        transaction.on_commit(lambda: roomgame_analyse(game_id=game.pk))
    if forfeit is not None or _series_over(room, s):
        series_end(room, winner=other(forfeit) if forfeit else None)
    else:
        starter = next_starter(room, s, game)
        room.game_number += 1
        game_setup(room, s, starter=starter)
    return game


def _series_over(room: Room, s: RoomSettings) -> bool:
    if s.series_mode == SeriesMode.GAMES:
        return room.game_number >= s.length
    return max(room.a_score, room.b_score) >= s.length


def next_starter(room: Room, s: RoomSettings, last: RoomGame) -> str | None:
    """Who starts the next game (L12): the loser, the winner, or alternately; after a
    draw, who moved second; None: by lot."""
    if s.first_move == FirstMove.LOT:
        return None
    first_side = variant_named(room.variant).first_side
    starter = seat_of_side(room, first_side)
    if not last.winner or s.first_move == FirstMove.ALTERNATE:
        return other(starter)
    winner = seat_of_side(room, 0 if last.winner == "white" else 1)
    return winner if s.first_move == FirstMove.WINNER else other(winner)


def series_end(room: Room, *, winner: str | None = None, aborted: bool = False) -> None:
    """The series is over: its winner (by the score unless ``winner`` lost nothing on
    time), the server seed revealed and written into every game's record (DiceSeed)."""
    room.status = RoomStatus.ABORTED if aborted else RoomStatus.FINISHED
    room.finished_at = timezone.now()
    room.dice = None
    room.deadline = room.turn_started = None
    if winner is None and not aborted and room.a_score != room.b_score:
        winner = "a" if room.a_score > room.b_score else "b"
    room.winner = winner or ""
    for game in _games_before(room):
        game.record = with_seed(game.record, room.server_seed)
        game.save(update_fields=["record"])
    if room.record:
        room.record = with_seed(room.record, room.server_seed)
    if not aborted:
        from tournaments.services.online.rated import room_series_record

        room.save()  # the finish time and the winner, for the series' copy
        room_series_record(room)
        room_bot_history(room)  # against the bot: the user's bot games (docs/play.md)


def with_seed(record: str, seed: str) -> str:
    """The record with the revealed server seed in its DiceSeed tag."""
    game = read_records(record)[0]
    tags = (*((k, v) for k, v in game.tags if k != "DiceSeed"), ("DiceSeed", seed))
    return replay(GameRecord(tags, game.actions, game.line, game.preamble),
                  check_result=False).canonical()  # fmt: skip


def roomgame_analyse(*, game_id: int) -> None:
    """Analyse a finished game by the evaluator (long nardy) at the settings'
    ``ANALYSIS_PLY``, as a game against the bot is, once its row is committed; a failure
    is logged and leaves the game unanalysed: the result stands."""
    game = RoomGame.objects.filter(pk=game_id).first()
    if game is None:
        return
    try:
        judged = analyse_record(game.record, ply=int(getattr(settings, "ANALYSIS_PLY", 0)))
    except EngineError:
        log.exception("game %s of room %s could not be analysed", game.number, game.room_id)
        return
    RoomGame.objects.filter(pk=game_id).update(analysis=net_analysis_fields(judged))
