"""Rollouts of a decision on a game's page (docs/analysis.md, "Rollouts on a game's
page"): a player of the game or a director asks for a turn of an analysed long-nardy
game to be rolled out, the played play against the best alternatives, each a bounded
number of games on the same dice, as a job on the analysis queue (kind
``decision_rollout``) with its progress. The result - each play's equity with its
standard error, its difference from the best with that difference's error, the games
played and the seed - is the job's result, shown on the game's page while the record is
the one rolled out.

Settings: ``ROLLOUT_GAMES`` (the numbers of games offered, each at most
``ROLLOUT_GAMES_MAX``), ``ROLLOUT_CANDIDATES`` (the best plays by 0-ply rolled out beside
the played one), ``ROLLOUT_TRUNCATE`` (turns before a game is valued by the net; 0 never)
and ``ROLLOUTS_QUEUED_PER_USER`` (rollouts one user may have waiting or running)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.caching.invalidation import tournaments_touch
from tournaments.engine import (
    Decision,
    EngineError,
    game_decision,
    rollout_decision,
    variant_named,
)
from tournaments.models import (
    AnalysisSource,
    BotGame,
    Game,
    GameAnalysis,
    Job,
    JobKind,
    JobStatus,
)
from tournaments.selectors.access import User, is_director, signed_in
from tournaments.services.analysis import has_evaluator
from tournaments.services.errors import ApplicationError
from tournaments.services.exports import Progress

GAMES = (144, 360, 720, 1296)
WAITING = (JobStatus.QUEUED, JobStatus.RUNNING)
NUMBER = re.compile(r"[0-9]{1,7}")  # ASCII digits only ("²".isdigit() is true)


TOO_MANY = "rollouts-too-many"  # the refusal's code: HTTP 429


def games_offered() -> tuple[int, ...]:
    """The numbers of games a rollout may be asked for (``ROLLOUT_GAMES``, bounded by
    ``ROLLOUT_GAMES_MAX``)."""
    most = int(getattr(settings, "ROLLOUT_GAMES_MAX", 1296))
    offered = tuple(int(n) for n in getattr(settings, "ROLLOUT_GAMES", GAMES) if 2 <= n <= most)
    return offered or (min(most, 36),)


def candidates_most() -> int:
    return max(1, int(getattr(settings, "ROLLOUT_CANDIDATES", 3)))


def truncate() -> int:
    return max(0, int(getattr(settings, "ROLLOUT_TRUNCATE", 0)))


def per_user_limit() -> int:
    return int(getattr(settings, "ROLLOUTS_QUEUED_PER_USER", 2))


def may_roll_out(user: User | None, game: Game) -> bool:
    """A player of the game (their account) or a director of its tournament."""
    author = signed_in(user)
    if author is None:
        return False
    players = {game.white.user_id, game.black.user_id} - {None}
    return author.pk in players or is_director(author, game.series.tournament)


def rollable(game: Game, analysis: GameAnalysis | None) -> bool:
    """The game's analysis is the evaluator's, of the record as it stands, and its
    variant's turns are rolled out by the evaluator (one roll a turn: a variant whose
    rolls may roll again, Lurč, has no rollouts)."""
    variant = game.series.tournament.variant
    return (
        analysis is not None
        and bool(analysis.turns)
        and analysis.record_version == game.version
        and has_evaluator(variant)
        and not variant_named(variant).rolls_again
    )


def botgame_rollable(game: BotGame) -> bool:
    """A finished game against the bot analysed by the evaluator, of a variant whose
    turns are rolled out (as :func:`rollable`)."""
    analysis = game.analysis
    return (
        isinstance(analysis, dict)
        and bool(analysis.get("turns"))
        and analysis.get("source") == AnalysisSource.NET
        and has_evaluator(game.variant)
        and not variant_named(game.variant).rolls_again
    )


def rollable_turns(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The analysed turns that are decisions (more than one play): what may be asked."""
    return [t for t in turns if not t.get("forced")]


@dataclass(frozen=True, slots=True)
class Asked:
    """A checked request: the turn (its index in the analysis) and the games."""

    turn: int
    games: int


def _ask_check(turns: list[dict[str, Any]] | None, turn: object, games: object) -> Asked:
    """``turns``: the analysis' turns, None when the game cannot be rolled out."""
    if not turns:
        raise ApplicationError(
            _("this game has no analysis of its record to roll out"),
            code="rollout-not-analysed",
            field="turn",
        )
    known = {int(t["index"]) for t in rollable_turns(turns)}
    text = str(turn).strip()
    if not (NUMBER.fullmatch(text) and int(text) in known):
        raise ApplicationError(
            _("choose a turn of the game with more than one play"),
            code="rollout-bad-turn",
            field="turn",
        )
    offered = games_offered()
    number = str(games).strip()
    if not (NUMBER.fullmatch(number) and int(number) in offered):
        raise ApplicationError(
            _("the number of games a play is one of %(choices)s"),
            code="rollout-bad-games",
            params={"choices": ", ".join(str(n) for n in offered)},
            field="games",
        )
    return Asked(int(text), int(number))


def _waiting_check(user_id: int) -> None:
    waiting = Job.objects.filter(
        created_by_id=user_id,
        kind=JobKind.DECISION_ROLLOUT,
        status__in=WAITING,
    ).count()
    if waiting >= per_user_limit():
        raise ApplicationError(
            ngettext(
                "you have %(count)s rollout waiting already; ask for more when it has run",
                "you have %(count)s rollouts waiting already; ask for more when they have run",
                waiting,
            ),
            code="rollouts-too-many",
            params={"count": waiting},
        )


def rollout_seed(game: Game | BotGame, turn: int) -> int:
    """One seed a game's turn: asked again, the same dice (and so the same result)."""
    return 100_003 * game.pk + turn


def rollout_start(
    *, game: Game, analysis: GameAnalysis | None, turn: object, games: object, by: User
) -> Job:
    """Start the rollout of ``turn`` (the analysis' index of a turn with a decision) with
    ``games`` games a play (one of :func:`games_offered`). The caller has checked that
    ``by`` may (:func:`may_roll_out`). The same request while it waits is that job."""
    turns = analysis.turns if analysis is not None and rollable(game, analysis) else None
    asked = _ask_check(turns, turn, games)
    what = {"game": game.pk, "version": game.version, "seed": rollout_seed(game, asked.turn)}
    return _start(what, asked, by=by, tournament=game.series.tournament)


def botgame_rollout_start(*, game: BotGame, turn: object, games: object, by: User) -> Job:
    """:func:`rollout_start` for a finished game against the bot (its player's own)."""
    turns = (game.analysis or {}).get("turns") if botgame_rollable(game) else None
    asked = _ask_check(turns, turn, games)
    what = {"botgame": game.pk, "version": game.version, "seed": rollout_seed(game, asked.turn)}
    return _start(what, asked, by=by, tournament=None)


def _start(what: dict[str, int], asked: Asked, *, by: User, tournament: Any) -> Job:
    from tournaments.jobs import job_start
    from tournaments.jobs.runner import input_key

    author = signed_in(by)
    assert author is not None
    params = what | {"turn": asked.turn, "games": asked.games, "truncate": truncate(),
                     "candidates": candidates_most()}  # fmt: skip
    key = input_key(kind=JobKind.DECISION_ROLLOUT, params=params, tournament=tournament,
                    by=author.pk, data="")  # fmt: skip
    if not Job.objects.filter(input_key=key, status__in=WAITING).exists():
        _waiting_check(author.pk)  # the same request again is the job already there
    return job_start(kind=JobKind.DECISION_ROLLOUT, params=params, by=author,
                     tournament=tournament)  # fmt: skip


def _record_of(params: dict[str, Any]) -> tuple[str, int, int | None]:
    """The record rolled out, its version and its tournament (None: a bot game); the
    refusal when it has gone or changed since the rollout was asked."""
    found: tuple[str, int, int | None] | None = None
    if params.get("botgame") is not None:
        bot = BotGame.objects.filter(pk=params["botgame"]).first()
        found = (bot.record, bot.version, None) if bot is not None else None
    else:
        game = Game.objects.select_related("series").filter(pk=int(params["game"])).first()
        if game is not None:
            found = (game.record, game.version, game.series.tournament_id)
    if found is None or found[1] != params.get("version") or not found[0]:
        raise ApplicationError(
            _("the game was deleted or its record corrected since the rollout was asked"),
            code="rollout-game-changed",
        )
    return found


def decision_rollout(job: Job, progress: Progress) -> dict[str, Any]:
    """The job: the turn's plays rolled out, or a refusal when the game has gone or its
    record has changed since it was asked."""
    params = job.params
    record, version, tournament = _record_of(params)
    try:
        decision: Decision = game_decision(
            record, int(params["turn"]), most=int(params.get("candidates", 3))
        )
    except (EngineError, ValueError):
        raise ApplicationError(
            _("the game's record has no such turn to roll out"), code="rollout-no-turn"
        ) from None
    done = rollout_decision(
        decision.position, decision.candidates, games=int(params["games"]),
        seed=int(params["seed"]), truncate=int(params.get("truncate", 0)),
        rules=decision.rules,
        steps=lambda todo: progress(todo, desc="analysing", total=len(todo)),
    )  # fmt: skip
    result = {
        "game": params.get("game"), "botgame": params.get("botgame"),
        "turn": int(params["turn"]), "version": version,
        "dice": list(decision.dice), "played": decision.played,
        "games": int(params["games"]), "seed": int(params["seed"]),
        "truncate": int(params.get("truncate", 0)),
        "plays": [c.to_json() | {"played": c.moves == decision.played} for c in done],
    }  # fmt: skip
    # stored before the game's pages are told, so that no page is kept without it
    Job.objects.filter(pk=job.pk).update(result=result)
    if tournament is not None:
        tournaments_touch(ids=[tournament])
    return result


@dataclass(frozen=True, slots=True)
class GameRollouts:
    """A game's rollouts for its page: the last result of each turn rolled out (of the
    record as it stands) and the rollouts waiting or running."""

    done: list[dict[str, Any]]
    waiting: list[Job]


def game_rollouts(game: Game) -> GameRollouts:
    """One query: the game's rollout jobs, newest first."""
    jobs = Job.objects.filter(tournament_id=game.series.tournament_id, params__game=game.pk)
    return _rollouts(jobs, game.version)


def botgame_rollouts(game: BotGame) -> GameRollouts:
    """One query: the rollout jobs of a game against the bot, its player's."""
    jobs = Job.objects.filter(created_by_id=game.user_id, params__botgame=game.pk)
    return _rollouts(jobs, game.version)


def _rollouts(jobs: QuerySet[Job], version: int) -> GameRollouts:
    found = list(
        jobs.filter(kind=JobKind.DECISION_ROLLOUT, status__in=(JobStatus.DONE, *WAITING))
        .defer("data")
        .order_by("-pk")[:100]
    )
    done: dict[int, dict[str, Any]] = {}
    waiting = []
    for job in found:
        r = job.result  # stored by the job as it ends, before its status says so
        if isinstance(r, dict) and "plays" in r:
            if r.get("version") == version:
                done.setdefault(int(r["turn"]), r)
        elif job.status != JobStatus.DONE:
            waiting.append(job)
    return GameRollouts(sorted(done.values(), key=lambda r: r["turn"]), waiting)
