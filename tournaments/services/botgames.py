"""Games against the bot (/play/, docs/play.md): what may be stored. The engine decides
what is legal (engine/evaluator/bot.py, through tournaments/engine.py); this module
starts a game, plays the user's turn when it is one of the engine's legal turns for
the dice the seed gives, plays the bot's answer, and stores the finished game's result
and analysis."""

from __future__ import annotations

import logging
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.api.throttles import PageThrottle
from tournaments.engine import (
    BOT_LEVELS,
    BotState,
    EngineError,
    analyse_record,
    bot_dice,
    bot_legal_turns,
    bot_record_resigned,
    bot_record_start,
    bot_record_with,
    bot_rng,
    bot_state,
    bot_turn,
)
from tournaments.models import BotColour, BotGame, BotGameStatus, JobKind
from tournaments.selectors.access import User, signed_in
from tournaments.services.analysis import analysis_confirms, analysis_ply, net_analysis_fields
from tournaments.services.errors import ApplicationError
from tournaments.wording.names import bot_level_name

log = logging.getLogger(__name__)
SIDES = (BotColour.WHITE, BotColour.BLACK)  # the engine's side 0 and 1
COLOUR_CHOICES = ("white", "black", "random")


def _side(colour: str) -> int:
    return SIDES.index(BotColour(colour))


def botgame_start(*, user: User, level: str, colour: str) -> BotGame:
    """A new game of ``user`` against the bot at ``level``, the user playing ``colour``
    (``random``: drawn); when the bot has white it plays its first turn at once."""
    player = signed_in(user)
    if player is None:
        raise ApplicationError(_("Sign in to play against the bot."), code="bot-sign-in")
    if level not in BOT_LEVELS:
        raise ApplicationError(
            _("unknown level %(level)s"), code="bot-unknown-level", params={"level": level},
            field="level",
        )  # fmt: skip
    if colour not in COLOUR_CHOICES:
        raise ApplicationError(
            _("choose white, black or random"), code="bot-unknown-colour", field="colour"
        )
    # one user's new games, counted in the shared cache (scope ``botgame``, every door)
    if not PageThrottle("botgame", f"user:{player.pk}").allow_request(None, None):
        raise ApplicationError(
            _("You have started too many games lately: try again in a minute."),
            code="bot-too-many",
        )
    if colour == "random":
        colour = secrets.choice(SIDES).value
    # the record names the user's player profile, as a tournament game's would
    profile = getattr(player, "player", None)
    name = profile.name if profile is not None else player.get_username()
    bot = f"Bot ({level})"
    white, black = (name, bot) if colour == BotColour.WHITE else (bot, name)
    game = BotGame(
        user=player, level=level, colour=colour, seed=secrets.randbits(62),
        record=bot_record_start(white=white, black=black),
    )  # fmt: skip
    state = _bot_answers(game, bot_state(game.record))
    _keep(game, state)
    game.save()
    if game.status == BotGameStatus.FINISHED:  # never on the first turn; kept for honesty
        botgame_analyse_later(game=game)
    return game


def botgame_state(game: BotGame) -> BotState:
    """Where the game stands, replayed from its record by the engine."""
    try:
        return bot_state(game.record)
    except EngineError as exc:
        raise ApplicationError.from_engine(exc) from None


def botgame_play(*, game_id: int, user: User, version: int,
                 turn: str) -> BotGame:  # fmt: skip
    """Play the user's ``turn`` (its movetext, as the engine writes it; empty when the
    dice cannot be played) on the page shown at ``version``, then the bot's answer.
    Refused: another user's game (DoesNotExist), a finished game, a stale version (the
    page was submitted already), a turn the engine does not list for the dice."""
    with transaction.atomic():
        game, state = _locked(game_id=game_id, user=user, version=version)
        dice = bot_dice(game.seed, state.number)
        chosen = [t for t in bot_legal_turns(state, dice) if t.notation == turn.strip()]
        if not chosen:
            raise ApplicationError(
                _("%(turn)s is not a legal turn for %(dice)s"), code="bot-illegal-turn",
                params={"turn": turn.strip()[:60] or "—", "dice": f"{dice[0]}-{dice[1]}"},
                field="turn",
            )  # fmt: skip
        state = _bot_answers(game, bot_record_with(state, dice, chosen[0]))
        _keep(game, state)
        game.version += 1
        game.save()
    if game.status == BotGameStatus.FINISHED:
        botgame_analyse_later(game=game)
    return game


def botgame_resign(*, game_id: int, user: User, version: int) -> BotGame:
    """The user resigns the game shown at ``version``: the bot wins, oin or mars as the
    position stands (L9), the record ends with the resignation and the game is analysed
    as every finished game. Refused as a turn is: another user's game (DoesNotExist), a
    finished game, a stale version."""
    with transaction.atomic():
        game, state = _locked(game_id=game_id, user=user, version=version)
        _keep(game, bot_record_resigned(state))
        game.version += 1
        game.save()
    botgame_analyse_later(game=game)
    return game


def _locked(*, game_id: int, user: User, version: int) -> tuple[BotGame, BotState]:
    """The user's game, locked for a write from the page shown at ``version``, and where
    it stands (the user to move)."""
    player = signed_in(user)
    if player is None:
        raise ApplicationError(_("Sign in to play against the bot."), code="bot-sign-in")
    game = BotGame.objects.select_for_update().get(pk=game_id, user_id=player.pk)
    if game.status == BotGameStatus.FINISHED:
        raise ApplicationError(_("This game is over."), code="bot-game-over")
    if version != game.version:
        raise ApplicationError(
            _("This page was out of date: the turn was played already. Here is the game "
              "as it stands."),
            code="bot-stale-version",
        )  # fmt: skip
    state = botgame_state(game)
    if state.position.turn != _side(game.colour):  # the bot owes a turn: never stored so
        raise ApplicationError(_("It is not your turn."), code="bot-not-your-turn")
    return game, state


def _bot_answers(game: BotGame, state: BotState) -> BotState:
    """The bot's turns until the user is to move or the game is over."""
    bot = 1 - _side(game.colour)
    while state.outcome is None and state.position.turn == bot:
        dice = bot_dice(game.seed, state.number)
        played = bot_turn(state.position, dice, game.level, bot_rng(game.seed, state.number))
        state = bot_record_with(state, dice, played)
    return state


def _keep(game: BotGame, state: BotState) -> None:
    game.record = state.record
    if state.outcome is not None:
        assert state.outcome.winner is not None  # no draw without the last roll (L10)
        game.status = BotGameStatus.FINISHED
        game.winner = SIDES[state.outcome.winner].value
        game.kind = state.outcome.kind
        game.ended = state.outcome.ended
        game.finished = timezone.now()


def botgame_analyse_later(*, game: BotGame) -> None:
    """Analyse the finished game as a job (kind ``botgame_analyse``, on the analysis
    queue): the last turn's page answers without waiting for it (up to 15 s at the
    strongest look-ahead). A failure to start it is logged: the result stands."""
    from tournaments.jobs import job_start

    try:
        job_start(kind=JobKind.BOTGAME_ANALYSE, params={"botgame": game.pk}, by=None)
    except Exception:
        log.exception("the analysis of bot game %s could not be started", game.pk)
    game.refresh_from_db(fields=["analysis"])  # there already when the job ran inline


def botgame_analyse(*, game: BotGame) -> BotGame:
    """Analyse a finished game at the settings' ``ANALYSIS_PLY`` and keep the figures
    (the job ``botgame_analyse`` calls it). A failure is logged and leaves the game
    unanalysed: the result stands."""
    try:
        judged = analyse_record(
            game.record, ply=analysis_ply(game.level), confirm=analysis_confirms()
        )
    except EngineError:
        log.exception("bot game %s could not be analysed", game.pk)
        return game
    game.analysis = net_analysis_fields(judged)
    BotGame.objects.filter(pk=game.pk).update(analysis=game.analysis)
    return game


def level_choices() -> list[tuple[str, str]]:
    """The engine's levels with their names in the reader's language, weakest first."""
    return [(level, bot_level_name(level)) for level in BOT_LEVELS]
