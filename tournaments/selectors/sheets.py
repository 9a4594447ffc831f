"""Reads for the directors' and players' pages about results: the audit trail, submitted
results of a series and of a user, series reports, and the count of waiting
confirmations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext

from tournaments.models import (
    Correction,
    Game,
    Series,
    SeriesReport,
    Submission,
    SubmissionStatus,
)
from tournaments.selectors.access import User, visible_tournaments
from tournaments.wording.names import result_text


@dataclass(frozen=True, slots=True)
class CorrectionRow:
    """A line of the audit trail, the values before and after in words."""

    correction: Correction
    before: str
    after: str


def _result_text(snapshot: object, names: dict[int, str], gammons: bool) -> str:
    """A result before or after a correction, as every page says a result."""
    if not isinstance(snapshot, dict):
        return ""
    winner = snapshot.get("winner")
    name = None if winner is None else names.get(winner, "?")
    kind = str(snapshot.get("kind") or ("draw" if winner is None else "oin"))
    cube = snapshot.get("cube")
    text = result_text(
        winner=name, kind=kind, ended=str(snapshot.get("ended") or "played"),
        cube=cube if isinstance(cube, int) and cube > 1 else 1, gammons=gammons,
    )  # fmt: skip
    if snapshot.get("record"):
        text += ", " + gettext("with its record")
    return text


def _rows(corrections: list[Correction]) -> list[CorrectionRow]:
    names: dict[int, str] = {}
    for c in corrections:
        names[c.game.white_id] = c.game.white.name
        names[c.game.black_id] = c.game.black.name
    return [
        CorrectionRow(
            c,
            _result_text(c.before, names, c.game.gammons),
            _result_text(c.after, names, c.game.gammons),
        )
        for c in corrections
    ]


def corrections_of(*, series: Series) -> list[CorrectionRow]:
    """The audit trail of a series: every correction of its games, oldest first (one
    query)."""
    return _rows(
        list(
            Correction.objects.filter(game__series=series)
            .select_related("game__white", "game__black", "game__series__tournament", "by")
            .order_by("at", "id")
        )
    )


def corrections_of_game(*, game: Game) -> list[CorrectionRow]:
    """The audit trail of one game, oldest first (one query)."""
    return _rows(
        list(
            Correction.objects.filter(game=game)
            .select_related("game__white", "game__black", "game__series__tournament", "by")
            .order_by("at", "id")
        )
    )


def series_submissions(*, series: Series) -> list[Submission]:
    """The series' submitted results still waiting, and the rejected ones (with their
    notes), newest first (one query)."""
    return list(
        Submission.objects.filter(
            series=series, status__in=(SubmissionStatus.PENDING, SubmissionStatus.REJECTED)
        )
        .select_related("submitted_by__player", "decided_by__player", "white", "winner")
        .order_by("-submitted_at", "-id")
    )


def submissions_of(*, user: User, limit: int = 20) -> list[Submission]:
    """The results the user submitted, newest first, with the opponent's or director's
    decision and note (one query)."""
    if not user.is_authenticated:
        return []
    return list(
        Submission.objects.filter(submitted_by=user.pk)
        .select_related(
            "series__tournament", "series__player1", "series__player2", "decided_by__player"
        )
        .order_by("-submitted_at", "-id")[:limit]
    )


def waiting_count(*, user: User) -> int:
    """How many submitted results wait for this user's confirmation, as the opponent or
    as a director (one query; the rule of ``pending_submissions``)."""
    if not user.is_authenticated:
        return 0
    # a series report is one confirmation, however many games it reports
    counts = _decidable_by(user, Submission.objects.all()).aggregate(
        singles=Count("pk", filter=Q(report__isnull=True), distinct=True),
        reports=Count("report", distinct=True),
    )
    return int(counts["singles"]) + int(counts["reports"])


def _decidable_by(user: User, qs: QuerySet[Any]) -> QuerySet[Any]:
    """Of the pending ``qs`` (submissions or reports), those ``user`` may decide: as the
    opponent of the one who submitted, or as a director."""
    qs = qs.filter(status=SubmissionStatus.PENDING)
    if getattr(user, "is_superuser", False):
        return qs
    mine = Q(series__player1__user=user.pk) | Q(series__player2__user=user.pk)
    return qs.filter(mine | Q(series__tournament__directors=user.pk)).exclude(
        Q(submitted_by=user.pk) & ~Q(series__tournament__directors=user.pk)
    )


def pending_reports(*, user: User) -> list[SeriesReport]:
    """Series reports waiting for the user's confirmation, as the opponent or as a
    director, with how many games each reports (one query)."""
    if not user.is_authenticated:
        return []
    qs = _decidable_by(user, SeriesReport.objects.all()).filter(
        series__tournament__in=visible_tournaments(user)
    )
    return list(
        qs.select_related(
            "series__tournament", "series__player1", "series__player2", "submitted_by__player"
        )
        .annotate(games=Count("submissions", distinct=True))
        .order_by("submitted_at", "id")
    )


def report_with_series(*, pk: int) -> SeriesReport:
    """A series report with its series, tournament, players and the one who sent it."""
    return SeriesReport.objects.select_related(
        "series__tournament",
        "series__player1",
        "series__player2",
        "submitted_by__player",
        "decided_by__player",
    ).get(pk=pk)
