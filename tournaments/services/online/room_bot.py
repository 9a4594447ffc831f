"""The bot in a game room (docs/online.md, "The bot in a room"; docs/play.md): what the
bot's seat does when it must act, whoever the bot is - the project's evaluator at one of
its levels (long nardy, Lurč) or GNU Backgammon at one of gnubg's (short backgammon,
services/gnubg_bot.py). One action a call, on the locked room (rooms.py's ``proceed``
calls it while the bot is on turn): the answer to the opponent's double, a double before
its roll when gnubg would offer one (the room's cube rules: ``may_double``, never in the
Crawford game, S7), else the roll and the bot's turn. The engine judges every action as
it judges a player's (``game_with``)."""

from __future__ import annotations

import random

from tournaments.engine import bot_turn
from tournaments.models import Room, SeriesMode
from tournaments.services.gnubg_bot import (
    GNUBG_LEVELS,
    MatchScore,
    gnubg_cube,
    gnubg_doubles,
    gnubg_drops,
    gnubg_turn,
)
from tournaments.services.online.game import (
    GameView,
    action_text,
    game_legal,
    game_with,
    listable,
    may_double,
)
from tournaments.services.online.series import other, roll
from tournaments.services.online.settings import RoomSettings


def room_bot_act(room: Room, s: RoomSettings, view: GameView, seat: str) -> GameView:
    """The bot at ``seat`` (on turn in ``view``) acts once: the game after its action.
    ``room.dice`` is rolled and spent here as a player's are; the caller writes the
    record."""
    level = getattr(room, f"{seat}_bot")
    side = view.on_turn
    gnubg = level in GNUBG_LEVELS
    match = _match(room, s, seat) if gnubg else None
    if view.offered:  # the opponent doubled: take or drop (gnubg asked from the doubler's side)
        drop = gnubg and gnubg_drops(gnubg_cube(view.position, level, _mirror(match)))
        return game_with(view, side, "drop" if drop else "take")
    if room.dice is None:
        doubles = (
            gnubg
            and may_double(view, crawford=room.crawford)
            and gnubg_doubles(gnubg_cube(view.position, level, match))
        )
        if doubles:
            return game_with(view, side, "double")  # the opponent answers
        room.dice = list(roll(room))
    dice = (room.dice[0], room.dice[1])
    if gnubg:
        turns = game_legal(view, dice) if listable(view, dice) else None
        played = gnubg_turn(view.position, dice, level, turns=turns, match=match)
    else:
        rng = random.Random(f"{room.server_seed}:{room.rolls}")
        played = bot_turn(view.position, list(dice), level, rng, view.rules)
    room.dice = None
    return game_with(view, view.position.turn, "turn", action_text(played))


def _match(room: Room, s: RoomSettings, seat: str) -> MatchScore | None:
    """The series' score as gnubg weighs the cube and the checkers (a series to N points
    with the cube), from the bot's side; None: one game or games counted (money play)."""
    if not (s.cube and s.series_mode == SeriesMode.POINTS):
        return None
    mine, theirs = getattr(room, f"{seat}_score"), getattr(room, f"{other(seat)}_score")
    return MatchScore(s.length, int(mine), int(theirs), room.crawford)


def _mirror(match: MatchScore | None) -> MatchScore | None:
    """The score from the other side's view (the doubler's, to move, when gnubg answers)."""
    if match is None:
        return None
    return MatchScore(match.length, match.theirs, match.mine, match.crawford)
