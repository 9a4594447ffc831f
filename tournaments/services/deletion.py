"""Deleting a tournament (a copy imported by mistake, a test event) with everything in
it, or a game entered by mistake: the audit row says who deleted what and why, and the
ratings are recomputed as if it had never been played (docs/ratings.md). Every door (the
page, the API, the admin) calls ``tournament_delete`` or ``game_delete``."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    Deletion,
    DeletionKind,
    Entry,
    Game,
    Player,
    RatingChange,
    Round,
    Series,
    SeriesStatus,
    Submission,
    Tournament,
)
from tournaments.models.deletion import REASON_MAX
from tournaments.selectors.access import User, may_delete_game, may_delete_tournament, signed_in
from tournaments.services.directing import NeedsConfirmation
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.pairings import bracket_fed_by
from tournaments.services.ratings import ratings_recompute
from tournaments.services.results import series_and_games, series_settle
from tournaments.services.series import series_decided_after, series_scores
from tournaments.services.sheets import later_rounds_warnings


def deletion_reason_check(reason: object) -> str:
    """The reason a deletion is made, cleaned; ApplicationError on the field ``reason`` if it
    is missing, too long or not text."""
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ApplicationError(_("Say why it is deleted."), code="deletion-reason", field="reason")
    if len(text) > REASON_MAX:
        raise ApplicationError(
            _("The reason is at most %(max)d characters long."),
            code="deletion-reason-long",
            params={"max": REASON_MAX},
            field="reason",
        )
    if "\x00" in text:
        raise ApplicationError(
            _("The reason holds a NUL character, which no text may."),
            code="deletion-reason-nul",
            field="reason",
        )
    return text


def tournament_delete_check(*, tournament: Tournament, by: User | None) -> None:
    """Raise PermissionDenied unless ``by`` may delete ``tournament``."""
    if not may_delete_tournament(by, tournament):
        raise PermissionDenied(
            _("only the tournament's directors may delete it"), code="not-director-delete"
        )


def tournament_delete_summary(*, tournament: Tournament) -> dict[str, Any]:
    """What deleting ``tournament`` takes with it: the counts of its rounds, series,
    games and entries, its rated series and the players whose ratings change (their
    rating history has rows from its series), by name."""
    rated = RatingChange.objects.filter(series__tournament=tournament)
    players = Player.objects.filter(pk__in=rated.values("player_id")).order_by("name", "pk")
    return {
        "rounds": Round.objects.filter(tournament=tournament).count(),
        "series": Series.objects.filter(tournament=tournament).count(),
        "games": Game.objects.filter(series__tournament=tournament).count(),
        "entries": Entry.objects.filter(tournament=tournament).count(),
        "rated_series": rated.values("series_id").distinct().count(),
        "players": [{"id": p.pk, "name": p.name} for p in players],
    }


@transaction.atomic
def tournament_delete(*, tournament: Tournament, by: User | None, reason: str) -> Deletion:
    """Delete ``tournament`` with its rounds, series, games, entries and their history,
    in one transaction: an audit row (``Deletion``) keeps its name, id, what went with it,
    who and why, and the ratings are recomputed from the series left, so that every
    player's rating and experience are as if it had never existed. The tournament's
    pages and the lists are renewed by the deletion's signals (caching/invalidation.py),
    the player pages by the recompute."""
    tournament_delete_check(tournament=tournament, by=by)
    text = deletion_reason_check(reason)
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    summary = tournament_delete_summary(tournament=locked)
    user = signed_in(by)
    deletion = Deletion.objects.create(
        kind=DeletionKind.TOURNAMENT, label=locked.name, object_id=locked.pk,
        summary={"start_date": locked.start_date.isoformat(), **summary},
        by=user, by_name=user.get_username() if user else "", reason=text,
    )  # fmt: skip
    locked.delete()
    if summary["rated_series"]:
        ratings_recompute()
    return deletion


# --- a game entered by mistake ---


def _score(one: Decimal, two: Decimal) -> str:
    return f"{one.normalize():f}:{two.normalize():f}"


@dataclass
class GameDeletionPlan:
    """What deleting ``game`` does, for the confirmation pages and the service: the
    series' score and status before and after, what goes with the game, the refusal
    (None: it may go) and the warnings a director confirms first."""

    game: Game
    series: Series
    label: str
    corrections: int
    submissions: int
    analysed: bool
    score_before: str
    score_after: str
    status_before: str
    status_after: str
    refusal: ApplicationError | None = None
    warnings: list[str] = field(default_factory=list)
    bracket_series: list[Series] = field(default_factory=list)

    @property
    def needs_confirmation(self) -> bool:
        return self.refusal is None and bool(self.warnings)

    @property
    def reopens(self) -> bool:
        return self.status_before != self.status_after and self.status_before == str(
            SeriesStatus.FINISHED.label
        )


def game_label(game: Game, series: Series) -> str:
    """The game in words a director reads later: "Game 3 of Novák - Dvořák, round 2
    (Přebor)"; in the language active now (an audit row keeps it as said then)."""
    params = {"number": game.number, "series": str(series), "tournament": series.tournament.name}
    if series.round is not None:
        return _("Game %(number)d of %(series)s, round %(round)d (%(tournament)s)") % {
            **params, "round": series.round.number,
        }  # fmt: skip
    return _("Game %(number)d of %(series)s (%(tournament)s)") % params


def _refusal(
    series: Series, games: list[Game], game: Game, fed: list[Series]
) -> ApplicationError | None:
    last = games[-1]
    if game.pk != last.pk:
        return ApplicationError(
            _("only the last game of a series can be deleted: game %(number)d is followed by "
              "game %(last)d, whose record and the Crawford state depend on it; delete the "
              "later games first"),
            code="game-delete-not-last", params={"number": game.number, "last": last.number},
        )  # fmt: skip
    if series.status == SeriesStatus.FORFEITED:
        return ApplicationError(
            _("the series is forfeited: its games cannot be deleted"),
            code="game-delete-forfeited",
        )
    started = [s for s in fed if s.games.exists() or s.closed or s.submissions.exists()]
    if started:
        return ApplicationError(
            _("the result of this series moved players on in the bracket, and %(series)s has "
              "games already: this game cannot be deleted (correct its result instead)"),
            code="game-delete-bracket-started",
            params={"series": ", ".join(str(s) for s in started)},
        )  # fmt: skip
    return None


def _plan(series: Series, games: list[Game], game: Game) -> GameDeletionPlan:
    remaining = [g for g in games if g.pk != game.pk]
    decided = series_decided_after(series, remaining) is not None
    after = (
        SeriesStatus.FINISHED if decided else SeriesStatus.IN_PLAY if remaining
        else SeriesStatus.SCHEDULED
    )  # fmt: skip
    if series.status == SeriesStatus.FORFEITED:
        after = SeriesStatus.FORFEITED
    closed = series.status in (SeriesStatus.FINISHED, SeriesStatus.FORFEITED)
    fed = bracket_fed_by(series=series) if closed and game.pk == games[-1].pk else []
    plan = GameDeletionPlan(
        game=game, series=series, label=game_label(game, series),
        corrections=game.corrections.count(),
        submissions=Submission.objects.filter(series=series, number=game.number).count(),
        analysed=hasattr(game, "analysis"),
        score_before=_score(series.score1, series.score2),
        score_after=_score(*series_scores(series, remaining)),
        status_before=str(series.get_status_display()),
        status_after=str(after.label),
        refusal=_refusal(series, games, game, fed),
    )  # fmt: skip
    if plan.refusal is None and closed:
        plan.warnings = later_rounds_warnings(series=series)
        plan.bracket_series = fed
        if fed:
            plan.warnings.append(
                _("The bracket's next series %(series)s was paired on this result: it is "
                  "taken back until this series is decided again.")
                % {"series": ", ".join(str(s) for s in fed)}
            )  # fmt: skip
    return plan


def game_delete_check(*, game: Game, by: User | None) -> None:
    """Raise PermissionDenied unless ``by`` may delete ``game``."""
    if not may_delete_game(by, game.series.tournament):
        raise PermissionDenied(
            _("only the tournament's directors may delete a game"), code="not-director-game-delete"
        )


def game_delete_plan(*, game: Game) -> GameDeletionPlan:
    """What deleting ``game`` would do now (the confirmation pages)."""
    series, games = series_and_games(game.series, lock=False)
    current = next((g for g in games if g.pk == game.pk), None)
    if current is None:
        raise Game.DoesNotExist
    return _plan(series, games, current)


@transaction.atomic
def game_delete(*, game: Game, by: User | None, reason: str, confirmed: bool = False) -> Deletion:
    """Delete a game entered by mistake, the last of its series, with its record,
    corrections, submitted results and analysis: the series' score and status follow (a
    finished series is open again), its standings, the bracket and the ratings too (as if
    the game had never been entered), and an audit row keeps what went, with its record.
    Refused: a game that is not the series' last, a forfeited series, a bracket series
    whose result put players into a series with games. Asked to confirm (``confirmed``):
    the result of a finished series that later rounds were paired on, or that put
    players into a bracket series (taken back: it has no games)."""
    game_delete_check(game=game, by=by)
    text = deletion_reason_check(reason)
    series, games = series_and_games(game.series, lock=True)
    current = next((g for g in games if g.pk == game.pk), None)
    if current is None:
        raise ApplicationError(_("the game is deleted already"), code="game-delete-gone")
    plan = _plan(series, games, current)
    if plan.refusal is not None:
        raise plan.refusal
    if plan.needs_confirmation and not confirmed:
        raise NeedsConfirmation(
            _("The series' result was used already: confirm the deletion after reading what "
              "it changes."),
            warnings=plan.warnings, code="game-delete-confirm",
        )  # fmt: skip
    user = signed_in(by)
    deletion = Deletion.objects.create(
        kind=DeletionKind.GAME, label=plan.label[:300], object_id=current.pk,
        summary={
            "tournament": {"id": series.tournament_id, "name": series.tournament.name},
            "series": series.pk, "round": series.round.number if series.round else None,
            "number": current.number, "white": str(current.white), "black": str(current.black),
            "winner": str(current.winner) if current.winner_id else None,
            "kind": current.kind, "ended": current.ended, "cube": current.cube,
            "record": current.record, "corrections": plan.corrections,
            "submissions": plan.submissions, "analysed": plan.analysed,
            "score_before": plan.score_before, "score_after": plan.score_after,
            "reopened": plan.reopens, "warnings": plan.warnings,
            "bracket_series": [str(s) for s in plan.bracket_series],
        },
        by=user, by_name=user.get_username() if user else "", reason=text,
    )  # fmt: skip
    Submission.objects.filter(series=series, number=current.number).delete()
    for taken_back in plan.bracket_series:
        taken_back.delete()
    current.delete()  # its corrections and analysis with it
    series_settle(series, [g for g in games if g.pk != current.pk])
    return deletion


__all__ = [
    "GameDeletionPlan",
    "deletion_reason_check",
    "game_delete",
    "game_delete_check",
    "game_delete_plan",
    "game_label",
    "tournament_delete",
    "tournament_delete_check",
    "tournament_delete_summary",
]
