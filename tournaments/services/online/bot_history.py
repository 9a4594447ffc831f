"""A series played against the bot in a game room keeps the history a game against the bot
has (docs/play.md, docs/online.md): when the series ends, each of its games becomes a
finished `BotGame` of the user, linked to the room's game, with the room's verified record
(the revealed dice seed in its tags). The user's list of bot games, the player's page and
the game's page `/play/<id>/` (replay, analysis, rollouts, the record's download) then
read it as any game against the bot; its analysis is queued as a bot game's is."""

from __future__ import annotations

from django.db import transaction

from tournaments.models import BotGame, BotGameStatus, Room, RoomGame, RoomStatus
from tournaments.selectors.access import User, signed_in


def room_bot_history(room: Room) -> list[BotGame]:
    """The finished series' games as the user's games against the bot (none when the
    room is not a user against the bot, or its games are there already). Called in the
    transaction that ends the series, after the records got their dice seed."""
    if room.a_user_id is not None and room.b_bot:
        user_seat, level = "a", room.b_bot
    elif room.b_user_id is not None and room.a_bot:
        user_seat, level = "b", room.a_bot
    else:
        return []
    user_id = getattr(room, f"{user_seat}_user_id")
    made: list[BotGame] = []
    for g in RoomGame.objects.filter(room=room, bot_game__isnull=True).order_by("number"):
        white = g.a_white == (user_seat == "a")
        kept = BotGame.objects.create(
            user_id=user_id, variant=room.variant, level=level,
            colour="white" if white else "black", seed=0, record=g.record,
            status=BotGameStatus.FINISHED, winner=g.winner, kind=g.kind, ended=g.ended,
            finished=g.finished_at, analysis=g.analysis, room_game=g,
        )  # fmt: skip
        made.append(kept)
    waiting = [b.pk for b in made if not b.analysis]
    if waiting:
        transaction.on_commit(lambda: _analyse(waiting))
    return made


def room_bot_games(room: Room, user: User | None) -> list[BotGame]:
    """The copies of the finished room's games among ``user``'s games against the bot
    (the room's page links them; a bot game's page is its user's alone), by number."""
    player = signed_in(user)
    if player is None or room.status != RoomStatus.FINISHED or not (room.a_bot or room.b_bot):
        return []
    return list(
        BotGame.objects.filter(room_game__room=room, user_id=player.pk)
        .select_related("room_game")
        .order_by("room_game__number")
    )


def _analyse(ids: list[int]) -> None:
    """The copies whose room game had no analysis yet (the last game's is made after the
    commit): the room's analysis when it is there by now, else the bot game's job."""
    from tournaments.services.botgames import botgame_analyse_later

    for game in BotGame.objects.filter(pk__in=ids).select_related("room_game"):
        done = game.room_game.analysis if game.room_game is not None else None
        if done:
            BotGame.objects.filter(pk=game.pk).update(analysis=done)
        else:
            botgame_analyse_later(game=game)
