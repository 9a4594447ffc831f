"""What each kind of job does: it calls the existing services (and the helpers of the
commands verify_games and recompute) and returns a JSON summary for the job's page.

A user's mistake is raised as a ApplicationError and ends the job as failed with its message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import BotGame, Game, Job, JobKind, Series, Tournament
from tournaments.selectors.access import is_staff
from tournaments.services.archives import tournament_import
from tournaments.services.errors import ApplicationError
from tournaments.services.exports import Progress
from tournaments.services.imports import records_upload
from tournaments.services.json_input import json_read
from tournaments.services.maintenance import games_reverify, series_recompute_all
from tournaments.services.player_lists import players_import_csv, similar_line_data
from tournaments.services.rollouts import decision_rollout

Result = dict[str, Any]

LISTED = 200  # at most so many failures / refused lines are kept in a result


def _tournament(job: Job) -> Tournament | None:
    if job.params.get("tournament") is None:
        return None
    tournament = Tournament.objects.filter(pk=job.params["tournament"]).first()
    if tournament is None:
        raise ApplicationError(
            _("there is no tournament with id %(id)s"),
            code="no-such-tournament",
            params={"id": job.params["tournament"]},
        )
    return tournament


def verify_games(job: Job, progress: Progress) -> Result:
    """As manage.py verify_games: every stored record verified again."""
    report = games_reverify(tournament=_tournament(job), progress=progress)
    failed = len(report.failures)
    failures = [
        {"game": game.pk, "series": str(game.series), "number": game.number, "message": message}
        for game, message in report.failures[:LISTED]
    ]
    return {"games": report.total, "ok": report.total - failed, "failed": failed,
            "changed": report.changed, "failures": failures}  # fmt: skip


def recompute(job: Job, progress: Progress) -> Result:
    """As manage.py recompute: series from their games, then every rating; one
    transaction."""
    report = series_recompute_all(tournament=_tournament(job), progress=progress)
    return {"series": report.series, "statuses": dict(sorted(report.statuses.items())),
            "changed": report.changed, "rated": report.rated}  # fmt: skip


def players_import(job: Job, progress: Progress) -> Result:
    """Into the list of players, or (``tournament``) into a tournament's entries."""
    tournament = _tournament(job)
    report = players_import_csv(
        data=job.data, tournament=tournament, progress=progress,
        create_similar=bool(job.params.get("create_similar")),
    )  # fmt: skip
    return {
        "created": len(report.created),
        "tournament": tournament.pk if tournament else None,
        "matched": report.matched,
        "entered": report.entered,
        "rejected": len(report.rejected),
        "lines": [{"line": line, "reason": why} for line, why in report.rejected[:LISTED]],
        "similar": [similar_line_data(s) for s in report.similar[:LISTED]],
        "spellings": [
            {"line": line, "name": name, "player": known}
            for line, name, known in report.spellings[:LISTED]
        ],
    }


def archive_import(job: Job, progress: Progress) -> Result:
    archive = json_read(job.data)
    result = tournament_import(
        archive=archive, by=job.created_by, name=job.params.get("name") or None,
        progress=progress, trusted=is_staff(job.created_by),
        as_copy=bool(job.params.get("copy")), as_archived=bool(job.params.get("as_archived")),
    )  # fmt: skip
    t = result.tournament
    job.tournament = t
    job.save(update_fields=["tournament"])
    return {
        "tournament": t.pk,
        "name": t.name,
        "players_created": result.players_created,
        "players_matched": result.players_matched,
        "users_created": result.users_created,
        "directors_skipped": result.directors_skipped,
        "submissions_skipped": result.submissions_skipped,
        "authors_skipped": result.authors_skipped,
    }


class Refused(ApplicationError):
    """A game of an upload was refused: the games before it stay (``result``)."""

    def __init__(
        self, message: str, result: Result, *, code: str, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.result = result


def records_into_series(job: Job, progress: Progress) -> Result:
    series = Series.objects.select_related("tournament").filter(pk=job.params["series"]).first()
    if series is None:
        raise ApplicationError(
            _("there is no series with id %(id)s"),
            code="no-such-series",
            params={"id": job.params["series"]},
        )
    report = records_upload(series=series, text=job.data, by=job.created_by, progress=progress)
    result = {"series": series.pk, "entered": report.entered,
              "games": [vars(g) for g in report.games]}  # fmt: skip
    if report.refused is not None:
        refused = report.games[-1]
        raise Refused(
            _("game %(game)s (line %(line)s) was refused: %(message)s; %(entered)s game(s) "
              "entered before it"),
            result,
            code=report.refused.code,
            params={**report.refused.params, "game": refused.game, "line": refused.line,
                    "message": refused.message, "entered": report.entered},
        )  # fmt: skip
    return result


def games_analyse(job: Job, progress: Progress) -> Result:
    """A game's analysis (``game``), a series' (``series``), the games just stored
    (``games``) or a whole tournament's (``tournament``, a game that cannot be analysed
    is listed and the others go on): the evaluator's, or GNU Backgammon's."""
    from tournaments.services.analysis import games_analyse as analyse

    games = Game.objects.select_related("series__tournament", "white", "black")
    params = job.params
    if params.get("game") is not None:
        games = games.filter(pk=params["game"])
    elif params.get("games") is not None:
        games = games.filter(pk__in=params["games"]).order_by("pk")
    elif params.get("tournament") is not None:
        games = games.filter(series__tournament_id=params["tournament"])
        games = games.order_by("series__round__number", "series_id", "number")
    else:
        games = games.filter(series_id=params.get("series")).order_by("number")
    report = analyse(games=list(games), progress=progress, keep_going="game" not in params)
    return {
        "games": [
            {"game": a.game_id, "source": a.source, "white_error_rate": a.white_error_rate,
             "black_error_rate": a.black_error_rate, "white_luck_rate": a.white_luck_rate,
             "black_luck_rate": a.black_luck_rate} for a in report.analysed[:LISTED]
        ],
        "analysed": len(report.analysed),
        "superseded": len(report.superseded),
        "failed": len(report.failures),
        "failures": [
            {"game": game.pk, "series": str(game.series), "number": game.number,
             "message": message} for game, message in report.failures[:LISTED]
        ],
    }  # fmt: skip


def botgame_analyse(job: Job, progress: Progress) -> Result:
    """A finished game against the bot (``botgame``), analysed by the evaluator."""
    from tournaments.services.botgames import botgame_analyse as analyse

    game = BotGame.objects.filter(pk=job.params.get("botgame")).first()
    if game is None:
        raise ApplicationError(
            _("there is no game against the bot with id %(id)s"),
            code="no-such-botgame",
            params={"id": job.params.get("botgame")},
        )
    for _game in progress([game], desc="analysing", total=1):
        analyse(game=game)
    return {"botgame": game.pk, "analysed": game.analysis is not None}


KINDS: dict[str, Callable[[Job, Progress], Result]] = {
    JobKind.VERIFY_GAMES: verify_games,
    JobKind.RECOMPUTE: recompute,
    JobKind.PLAYERS_IMPORT: players_import,
    JobKind.TOURNAMENT_IMPORT: archive_import,
    JobKind.RECORDS_UPLOAD: records_into_series,
    JobKind.GAMES_ANALYSE: games_analyse,
    JobKind.BOTGAME_ANALYSE: botgame_analyse,
    JobKind.DECISION_ROLLOUT: decision_rollout,
}

__all__ = ["KINDS", "Refused", "Result"]
