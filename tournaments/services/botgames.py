"""Games against the bot (/play/, docs/play.md): what may be stored. The engine decides
what is legal (engine/evaluator/bot.py, through tournaments/engine.py); this module
starts a game, plays the user's turn when it is one of the engine's legal turns for
the dice the seed gives, plays the bot's answer, and stores the finished game's result
and analysis."""

from __future__ import annotations

import logging
import secrets
from typing import Any

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
    bot_may_double,
    bot_pas_choices,
    bot_record_cube,
    bot_record_resigned,
    bot_record_start,
    bot_record_with,
    bot_rng,
    bot_state,
    bot_turn,
    evaluator_of,
    variant_named,
)
from tournaments.models import BotColour, BotGame, BotGameStatus, JobKind
from tournaments.models.tournament import Variant
from tournaments.selectors.access import User, signed_in
from tournaments.selectors.botgames import bot_user_may_double
from tournaments.services.analysis import analysis_confirms, analysis_ply, net_analysis_fields
from tournaments.services.errors import ApplicationError
from tournaments.services.gnubg_bot import (
    GNUBG_LEVELS,
    gnubg_analysis_fields,
    gnubg_cube,
    gnubg_doubles,
    gnubg_drops,
    gnubg_plays,
    gnubg_turn,
)
from tournaments.wording.names import bot_level_name, variant_name

log = logging.getLogger(__name__)
SIDES = (BotColour.WHITE, BotColour.BLACK)  # the engine's side 0 and 1
COLOUR_CHOICES = ("white", "black", "random")
VARIANTS = tuple(Variant.values)


def _side(colour: str) -> int:
    return SIDES.index(BotColour(colour))


def bot_levels(variant: str) -> tuple[str, ...]:
    """The bot's levels for ``variant``: the evaluator's where the variant declares one,
    GNU Backgammon's for short backgammon where gnubg is installed, else none."""
    if evaluator_of(variant_named(variant)) is not None:
        return tuple(BOT_LEVELS)
    if gnubg_plays(variant):
        return tuple(GNUBG_LEVELS)
    return ()


def bot_variants() -> list[str]:
    """The games the bot plays here (long nardy, Lurč; short backgammon with gnubg)."""
    return [v for v in VARIANTS if bot_levels(v)]


def botgame_start(*, user: User, level: str, colour: str, variant: str = "long") -> BotGame:
    """A new game of ``variant`` of ``user`` against the bot at ``level``, the user
    playing ``colour`` (``random``: drawn); when the bot moves first (white; black in
    Lurč, Z1) it plays its first turn at once."""
    player = signed_in(user)
    if player is None:
        raise ApplicationError(_("Sign in to play against the bot."), code="bot-sign-in")
    if variant not in VARIANTS or not bot_levels(variant):
        raise ApplicationError(
            _("The bot does not play this game here."), code="bot-no-game",
            field="variant",
        )  # fmt: skip
    if level not in bot_levels(variant) and (level in BOT_LEVELS or level in GNUBG_LEVELS):
        raise ApplicationError(
            _("%(level)s is not a level of the bot in %(game)s."),
            code="bot-level-not-for-game", field="level",
            params={"level": bot_level_name(level), "game": variant_name(variant)},
        )  # fmt: skip
    if level not in bot_levels(variant):
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
        user=player, level=level, colour=colour, seed=secrets.randbits(62), variant=variant,
        record=bot_record_start(white=white, black=black, variant=variant,
                                cube=level in GNUBG_LEVELS),
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


def botgame_play(*, game_id: int, user: User, version: int, turn: str,
                 pas: int | None = None) -> BotGame:  # fmt: skip
    """Play the user's ``turn`` (its movetext, as the engine writes it; empty when the
    dice cannot be played; after a Lurč houšek with the paš ``pas`` chosen, Z8) on the
    page shown at ``version``, then the bot's answer. Refused: another user's game
    (DoesNotExist), a finished game, a stale version (the page was submitted already), a
    houšek without its paš, a turn the engine does not list for the dice."""
    with transaction.atomic():
        game, state = _locked(game_id=game_id, user=user, version=version)
        if state.offered:
            raise ApplicationError(_("Take or drop the bot's double first."),
                                   code="bot-answer-double")  # fmt: skip
        if bot_user_may_double(game, state) and not game.rolled:
            raise ApplicationError(_("Roll (or double) first."), code="bot-roll-first")
        dice = bot_dice(game.seed, state.number, _lot(state))
        choices = bot_pas_choices(state, dice)
        if choices and pas not in choices:
            raise ApplicationError(
                _("Choose the paš you play after the houšek."), code="bot-choose-pas",
                field="pas",
            )  # fmt: skip
        legal = bot_legal_turns(state, dice, pas if choices else None)
        chosen = [t for t in legal if t.notation == turn.strip()]
        if not chosen:
            raise ApplicationError(
                _("%(turn)s is not a legal turn for %(dice)s"), code="bot-illegal-turn",
                params={"turn": turn.strip()[:60] or "—", "dice": f"{dice[0]}-{dice[1]}"},
                field="turn",
            )  # fmt: skip
        state = _bot_answers(game, bot_record_with(state, dice, chosen[0]))
        _keep(game, state)
        game.rolled = False
        game.version += 1
        game.save()
    if game.status == BotGameStatus.FINISHED:
        botgame_analyse_later(game=game)
    return game


def botgame_cube(*, game_id: int, user: User, version: int, action: str) -> BotGame:
    """The user's cube action on the page shown at ``version`` (S7, short backgammon
    against GNU Backgammon): ``roll`` (the dice shown: no double before this roll any
    more), ``double`` (gnubg takes or drops at once), or ``take`` / ``drop`` of the
    bot's double. Refused as a turn is, and what the cube's rules do not allow."""
    with transaction.atomic():
        game, state = _locked(game_id=game_id, user=user, version=version)
        if action == "roll":
            if not bot_user_may_double(game, state) or game.rolled:
                raise ApplicationError(_("You cannot roll now."), code="bot-no-roll")
            game.rolled = True
        elif action == "double":
            if not bot_user_may_double(game, state) or game.rolled:
                cube = state.position.cube
                refused = None if cube is None else cube.refusal(state.position.turn)
                if refused is not None and refused.code == "cube-max":
                    raise ApplicationError.from_engine(refused, located=False)
                raise ApplicationError(_("You cannot double now."), code="bot-no-double")
            state = _bot_answers(game, _cube(state, "double"))
            _keep(game, state)
        elif action in ("take", "drop"):
            if not state.offered:
                raise ApplicationError(_("No double waits for your answer."),
                                       code="bot-no-double-offered")  # fmt: skip
            state = _bot_answers(game, _cube(state, action))
            _keep(game, state)
        else:
            raise ApplicationError(_("unknown action %(action)s"), code="bot-unknown-cube-action",
                                   params={"action": action[:20]})  # fmt: skip
        game.version += 1
        game.save()
    if game.status == BotGameStatus.FINISHED:
        botgame_analyse_later(game=game)
    return game


def _cube(state: BotState, kind: str) -> BotState:
    try:
        return bot_record_cube(state, kind)
    except EngineError as exc:
        raise ApplicationError.from_engine(exc) from None


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
    if state.on_turn != _side(game.colour):  # the bot owes a turn: never stored so
        raise ApplicationError(_("It is not your turn."), code="bot-not-your-turn")
    return game, state


def _bot_answers(game: BotGame, state: BotState) -> BotState:
    """The bot's turns until the user is to move or the game is over."""
    bot = 1 - _side(game.colour)
    gnubg = game.level in GNUBG_LEVELS
    while state.outcome is None and state.on_turn == bot:
        if state.offered:  # the user doubled: gnubg takes or drops (from the doubler's view)
            words = gnubg_cube(state.position, game.level)
            state = _cube(state, "drop" if gnubg_drops(words) else "take")
            continue
        if gnubg and state.number > 0 and bot_may_double(state):
            words = gnubg_cube(state.position, game.level)
            if gnubg_doubles(words):
                state = _cube(state, "double")
                continue  # the user answers
        dice = bot_dice(game.seed, state.number, _lot(state))
        rng = bot_rng(game.seed, state.number)
        if gnubg:
            played = gnubg_turn(state.position, dice, game.level)
        else:
            played = bot_turn(state.position, dice, game.level, rng)
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
        if game.level in GNUBG_LEVELS:  # short backgammon: gnubg judges it (.mat)
            game.analysis = gnubg_analysis_fields(game.record)
        else:
            judged = analyse_record(
                game.record, ply=analysis_ply(game.level), confirm=analysis_confirms()
            )
            game.analysis = net_analysis_fields(judged)
    except (EngineError, ApplicationError):
        log.exception("bot game %s could not be analysed", game.pk)
        return game
    BotGame.objects.filter(pk=game.pk).update(analysis=game.analysis)
    return game


def level_choices(variant: str | None = None) -> list[tuple[str, Any]]:
    """The bot's levels with their names in the reader's language, weakest first: those
    of ``variant``, or (``variant`` None) the evaluator's and, where gnubg is installed,
    GNU Backgammon's, in two groups named by the games they play."""
    if variant:
        return [(level, bot_level_name(level)) for level in bot_levels(variant)]
    ours = [(level, bot_level_name(level)) for level in BOT_LEVELS]
    if not gnubg_plays("short"):
        return ours
    theirs = [(level, bot_level_name(level)) for level in GNUBG_LEVELS]
    return [(_("The project's evaluator: long nardy, Lurč"), ours),
            (_("GNU Backgammon: short backgammon"), theirs)]  # fmt: skip


def _lot(state: BotState) -> bool:
    """Whether the game's first roll is its opening lot (S2: never a double)."""
    return state.position.rules_variant.lot_is_first_roll
