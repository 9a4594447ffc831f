"""What static/js/room.js says, in the reader's language: handed to the page as JSON
(json_script, which the Content-Security-Policy allows: it is data, not a script). A
``{name}`` is filled in by the script."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.wording.names import ENDINGS, KINDS, SIDES, SINGLE_WIN


def room_labels() -> dict[str, str]:
    words = {f"kind_{k}": str(v) for k, v in KINDS.items()}
    words |= {f"ended_{k}": str(v) for k, v in ENDINGS.items()}
    words |= {"ended_timeout": _("time ran out"), "kind_win": str(SINGLE_WIN)}
    return words | {
        "white": str(SIDES["white"]),
        "black": str(SIDES["black"]),
        "spectators": pgettext("room", "watching"),
        "status_waiting": _("Waiting for both players' dice seeds before the first roll."),
        "status_playing": _("Game {game} is being played."),
        "status_finished": _("The series is over."),
        "status_aborted": _("The series was aborted."),
        "your_turn_roll": _("Your turn: roll the dice (or double)."),
        "your_turn_move": _(
            "Your turn: you rolled {dice}. Click a checker, then where it goes; "
            "or choose a turn from the list."
        ),
        "your_turn_answer": _("Your opponent doubles: take or drop."),
        "their_turn": _("{name} is to play."),
        "you_watch": _("You are watching: the board is shown from white's side."),
        "pass": _("No move is possible: pass"),
        "send": _("Send the turn"),
        "chosen": _("Your turn: {turn}"),
        "pick_target": _("Now click where the checker goes."),
        "no_target": _("No legal turn moves a checker from there."),
        "steps_note": _(
            "Too many legal turns to list: move the checkers one die at a time; only the "
            "steps a legal turn continues with are offered."
        ),
        "left": _("left the room"),
        "bot": _("bot"),
        "connected_live": _("Live"),
        "reconnecting": _("Reconnecting…"),
        "polling": _("Without a live connection: checking every few seconds."),
        "last": _("{side} played {dice}: {turn}"),
        "last_nothing": _("{side} rolled {dice} and could not move."),
        "score": _("Score"),
        "crawford": _("Crawford game: no doubling."),
        "cube": _("Cube {value}"),
        "cube_offered": _("{side} offers a double to {value}."),
        "delay": _("delay {s} s"),
        "days_left": _("move by {when}"),
        "game_row": _("Game {n}: {result}"),
        "won": _("{side} won ({kind}, {points})"),
        "draw": _("draw"),
        "points_one": _("1 point"),
        # Czech says 2-4 body, 5 bodů: the script picks "few" for 2 to 4
        "points_few": pgettext("2 to 4 points", "{n} points"),
        "points_many": pgettext("5 or more points", "{n} points"),
        "record": _("record"),
        "chat_off": _("You turned the chat off."),
        "checking": _("Checking the dice…"),
        "check_failed": _("The check could not be run: try again."),
        "seed_sent": _("Your browser's dice seed: {seed}"),
        "resign_done": _("You resigned the game."),
        "winner": _("{name} wins the series."),
        "series_drawn": _("The series is drawn."),
        "rematch_offered": _("{name} offers a rematch."),
        "rematch_waiting": _("Your rematch offer waits for your opponent."),
        "rematch_ready": _("The rematch is on: room {id}"),
        "bot_game": _("game {n}"),
    }
