"""Players submit the results of their own series; a result counts once the opponent or
a director confirms it (the game is then entered through the result services)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import (
    CLOSED_STATUSES,
    Game,
    GameKind,
    Player,
    Series,
    SeriesReport,
    Submission,
    SubmissionStatus,
)
from tournaments.selectors.access import User, is_director, signed_in
from tournaments.services.errors import ApplicationError, Conflict, PermissionDenied
from tournaments.services.result_rules import result_rules
from tournaments.services.results import (
    check_colours,
    game_enter_quick,
    game_enter_record,
    series_check_record,
)
from tournaments.services.series import series_decided_after, series_scores
from tournaments.services.sheets import SheetRowError


def player_of(user: User | None) -> Player | None:
    """The player linked to a user account, if any."""
    account = signed_in(user)
    if account is None:
        return None
    return Player.objects.filter(user=account).first()


def is_series_player(user: User | None, series: Series) -> bool:
    player = player_of(user)
    return player is not None and player.pk in (series.player1_id, series.player2_id)


def _submitter(series: Series, by: User) -> Any:
    """The account of a player of ``series`` who may submit its results now."""
    account = signed_in(by)
    if account is None or not is_series_player(account, series):
        raise PermissionDenied(
            _("only the players of a series may submit its results"), code="not-series-player"
        )
    if series.status in CLOSED_STATUSES:
        raise ApplicationError(
            _("the series is %(status)s: no more results can be submitted"),
            code="series-closed-submission",
            params={"status": series.get_status_display()},
        )
    return account


@transaction.atomic
def submission_create(
    *,
    series: Series,
    by: User,
    number: int,
    record: str = "",
    white: Player | None = None,
    winner: Player | None = None,
    kind: str = "",
    ended: str = "played",
    cube: int = 1,
) -> Submission:
    """A player of the series submits the result of game ``number``: a full record
    (checked by the engine now) or a quick result."""
    account = _submitter(series, by)
    games = list(series.games.select_related("white", "black", "winner").order_by("number"))
    # the games submitted and still waiting come first, in order: game 2 may be submitted
    # while game 1 waits for its confirmation, and is checked after it
    waiting = submissions_waiting(series=series, games=games)
    expected = len(games) + len(waiting) + 1
    if not len(games) < number <= expected:
        raise ApplicationError(
            _("the next game of this series is game %(expected)s, not %(number)s"),
            code="submission-game-number",
            params={"expected": expected, "number": number},
            field="number",
        )
    before = [*games, *waiting[: number - len(games) - 1]]
    if number > len(games) + 1 and series_decided_after(series, before) is not None:
        raise ApplicationError(
            _("the series is decided by game %(decided)s: there is no game %(number)s"),
            code="report-after-decided",
            params={"decided": series_decided_after(series, before), "number": number},
        )
    result = _checked_result(
        series=series, games=before, number=number, record=record, white=white,
        winner=winner, kind=kind, ended=ended, cube=cube,
    )  # fmt: skip
    try:
        with transaction.atomic():
            return Submission.objects.create(
                series=series, number=number, submitted_by=account, **result.fields()
            )
    except IntegrityError:
        raise _pending_conflict(series, number) from None


def submissions_waiting(*, series: Series, games: Sequence[Game]) -> list[Game]:
    """The games submitted after ``games`` and waiting for confirmation, each as the game
    it will be (unsaved), in order up to the first number not waiting."""
    pending = Submission.objects.filter(
        series=series, status=SubmissionStatus.PENDING, number__gt=len(games)
    ).select_related("white", "winner")
    by_number = {sub.number: sub for sub in pending}
    waiting: list[Game] = []
    number = len(games) + 1
    while number in by_number:
        sub = by_number[number]
        assert sub.white is not None
        black = series.player2 if sub.white_id == series.player1_id else series.player1
        assert black is not None
        result = CheckedResult(sub.record, sub.white, black, sub.winner, sub.kind, sub.ended,
                               sub.cube)  # fmt: skip
        waiting.append(_report_game(series, number, result))
        number += 1
    return waiting


def _pending_conflict(series: Series, number: int) -> Conflict:
    """Game ``number`` of ``series`` already has a submission waiting (alone or in a
    report): one at a time, so that a confirmation never meets two results."""
    pending = Submission.objects.get(series=series, number=number, status=SubmissionStatus.PENDING)
    return Conflict(
        _("a result for game %(number)s is already waiting for confirmation"),
        code="submission-pending",
        params={"number": number},
        current={
            "submission": pending.pk,
            "submitted_by": pending.submitted_by_id,
            "report": pending.report_id,
        },
    )


@dataclass(frozen=True, slots=True)
class CheckedResult:
    """A submitted result as it will be entered: a record kept as the game would be
    stored, with the result it tells, or a quick result."""

    record: str
    white: Player
    black: Player
    winner: Player | None
    kind: str
    ended: str
    cube: int

    def fields(self) -> dict[str, Any]:
        return {
            "record": self.record, "white": self.white, "winner": self.winner,
            "kind": self.kind, "ended": self.ended, "cube": self.cube,
        }  # fmt: skip


def _checked_result(
    *,
    series: Series,
    games: Sequence[Game],
    number: int,
    record: str,
    white: Player | None,
    winner: Player | None,
    kind: str,
    ended: str,
    cube: int,
) -> CheckedResult:
    """The checks the confirmation will make for game ``number`` after ``games`` (in
    order), so that what passes now counts then."""
    if record:
        entry = series_check_record(series=series, games=list(games), record=record, number=number)
        checked = entry.checked
        return CheckedResult(
            checked.text, entry.white, entry.black, entry.winner, checked.kind, checked.ended,
            checked.cube,
        )  # fmt: skip
    if white is None or kind not in GameKind.values:
        raise ApplicationError(
            _("give the record, or who had white, the winner and the result"),
            code="submission-incomplete",
        )
    rules = result_rules(series=series, games=games, number=number)
    black = check_colours(rules, series, white)
    rules.check(series=series, winner=winner, kind=kind, ended=ended, cube=cube)
    return CheckedResult("", white, black, winner, kind, ended, cube)


def _decider(series: Series, by: User, submitted_by_id: int) -> bool:
    """Whether ``by`` decides as a director; refused unless the opponent of the one who
    submitted (a player of the series) or a director."""
    director = is_director(by, series.tournament)
    account = signed_in(by)
    opponent = (
        is_series_player(by, series) and account is not None and account.pk != submitted_by_id
    )
    if not (director or opponent):
        raise PermissionDenied(
            _("the opponent or a director confirms a submitted result"), code="not-opponent"
        )
    return director


def _decidable(submission: Submission, by: User) -> tuple[Submission, bool]:
    submission = (
        Submission.objects.select_for_update().select_related("series").get(pk=submission.pk)
    )
    if submission.status != SubmissionStatus.PENDING:
        raise Conflict(
            _("this result is already %(status)s"),
            code="submission-decided",
            params={"status": submission.get_status_display()},
            current={"status": submission.status},
        )
    director = _decider(submission.series, by, submission.submitted_by_id)
    if submission.report_id is not None:
        raise ApplicationError(
            _("game %(number)s is part of a series report: confirm or reject the whole report"),
            code="submission-in-report",
            params={"number": submission.number, "report": submission.report_id},
        )
    return submission, director


def _enter(submission: Submission, by: User) -> Game:
    """Enter a pending submission's game through the result services and mark it
    confirmed."""
    if submission.record:
        game = game_enter_record(
            series=submission.series, record=submission.record, number=submission.number, by=by
        )
    else:
        assert submission.white is not None
        game = game_enter_quick(
            series=submission.series, white=submission.white, winner=submission.winner,
            kind=submission.kind, ended=submission.ended, cube=submission.cube,
            number=submission.number, by=by,
        )  # fmt: skip
    submission.status = SubmissionStatus.CONFIRMED
    submission.decided_by = signed_in(by)
    submission.decided_at = timezone.now()
    submission.game = game
    submission.save()
    return game


@transaction.atomic
def submission_confirm(*, submission: Submission, by: User) -> Game:
    """The opponent (or a director) confirms: the game is entered and counts."""
    submission, _ = _decidable(submission, by)
    return _enter(submission, by)


@transaction.atomic
def submission_reject(*, submission: Submission, by: User, note: str = "") -> Submission:
    """The opponent (or a director) disputes a submitted result; it does not count."""
    submission, _ = _decidable(submission, by)
    submission.status = SubmissionStatus.REJECTED
    submission.decided_by = signed_in(by)
    submission.decided_at = timezone.now()
    submission.note = note.strip()
    submission.save()
    return submission


# A whole series reported at once ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReportRow:
    """One game of a series report: a full record, or who had white, who won and how."""

    record: str = ""
    white: Player | None = None
    winner: Player | None = None
    kind: str = ""
    ended: str = "played"
    cube: int = 1


def _report_game(series: Series, number: int, result: CheckedResult) -> Game:
    """The game a checked result will be, unsaved: what the checks of the games after it
    read (the score, the Crawford game, who starts)."""
    return Game(
        series=series, number=number, white=result.white, black=result.black,
        winner=result.winner, kind=result.kind, ended=result.ended, cube=result.cube,
    )  # fmt: skip


@transaction.atomic
def report_create(*, series: Series, by: User, rows: Sequence[ReportRow]) -> SeriesReport:
    """A player of the series reports every game not yet entered (or the next few) at
    once: each game is checked as ``submission_create`` checks it, after the reported
    games before it; one refused game refuses the report, naming the game and why. The
    report is kept as pending submissions the opponent or a director decides together
    (``report_confirm``, ``report_reject``). A game with a result already waiting is a
    conflict: that result is decided first."""
    account = _submitter(series, by)
    if not rows:
        raise ApplicationError(_("the report has no games"), code="report-empty", field="games")
    games = list(series.games.select_related("white", "black", "winner").order_by("number"))
    first = len(games) + 1
    waiting = (
        Submission.objects.filter(series=series, status=SubmissionStatus.PENDING, number__gte=first)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    if waiting is not None:
        raise _pending_conflict(series, waiting)
    reported: list[Game] = list(games)
    results = []
    for row_index, row in enumerate(rows):
        number = first + row_index
        try:
            decided = series_decided_after(series, reported)
            if decided is not None:
                raise ApplicationError(
                    _("the series is decided by game %(decided)s: there is no game %(number)s"),
                    code="report-after-decided",
                    params={"decided": decided, "number": number},
                )
            result = _checked_result(
                series=series, games=reported, number=number, record=row.record,
                white=row.white, winner=row.winner, kind=row.kind, ended=row.ended,
                cube=row.cube,
            )  # fmt: skip
        except (Conflict, PermissionDenied):
            raise
        except ApplicationError as exc:
            raise SheetRowError(row_index, number, exc) from None
        results.append(result)
        reported.append(_report_game(series, number, result))
    report = SeriesReport.objects.create(series=series, submitted_by=account)
    for number, result in enumerate(results, start=first):
        try:
            with transaction.atomic():
                Submission.objects.create(
                    series=series, number=number, submitted_by=account, report=report,
                    **result.fields(),
                )  # fmt: skip
        except IntegrityError:  # submitted meanwhile
            raise _pending_conflict(series, number) from None
    return report


@dataclass(frozen=True, slots=True)
class ReportLine:
    """A reported game with the series' score after it (player1 first)."""

    submission: Submission
    score1: Decimal
    score2: Decimal


def report_lines(*, report: SeriesReport) -> list[ReportLine]:
    """Every game of a report in order, each with the score it leaves the series at
    (from the games entered before the report); the last line's is the final score."""
    series = report.series
    subs = list(report.submissions.select_related("white", "winner").order_by("number"))
    before = list(series.games.filter(number__lt=subs[0].number if subs else 1))
    games = list(before)
    lines = []
    for sub in subs:
        assert sub.white is not None
        black = series.player2 if sub.white_id == series.player1_id else series.player1
        assert black is not None
        games.append(
            _report_game(
                series, sub.number,
                CheckedResult(sub.record, sub.white, black, sub.winner, sub.kind, sub.ended,
                              sub.cube),
            )
        )  # fmt: skip
        lines.append(ReportLine(sub, *series_scores(series, games)))
    return lines


def _report_decidable(report: SeriesReport, by: User) -> tuple[SeriesReport, bool]:
    report = SeriesReport.objects.select_for_update().select_related("series").get(pk=report.pk)
    if report.status != SubmissionStatus.PENDING:
        raise Conflict(
            _("this report is already %(status)s"),
            code="report-decided",
            params={"status": report.get_status_display()},
            current={"status": report.status},
        )
    return report, _decider(report.series, by, report.submitted_by_id)


def _decided(report: SeriesReport, by: User, status: str, note: str = "") -> None:
    report.status = status
    report.decided_by = signed_in(by)
    report.decided_at = timezone.now()
    report.note = note.strip()
    report.save()


@transaction.atomic
def report_confirm(*, report: SeriesReport, by: User) -> list[Game]:
    """The opponent (or a director) confirms a report: every game is entered in order
    through the result services, all in this one transaction - if one is refused now
    (the series changed meanwhile), none is entered and the report stays waiting."""
    report, _ = _report_decidable(report, by)
    entered = []
    subs = list(report.submissions.select_for_update().select_related("series").order_by("number"))
    for row_index, sub in enumerate(subs):
        try:
            entered.append(_enter(sub, by))
        except (Conflict, PermissionDenied):
            raise
        except ApplicationError as exc:
            raise SheetRowError(row_index, sub.number, exc) from None
    _decided(report, by, SubmissionStatus.CONFIRMED)
    return entered


@transaction.atomic
def report_reject(*, report: SeriesReport, by: User, note: str = "") -> SeriesReport:
    """The opponent (or a director) disputes a report: none of its games counts."""
    report, _ = _report_decidable(report, by)
    report.submissions.filter(status=SubmissionStatus.PENDING).update(
        status=SubmissionStatus.REJECTED, decided_by=signed_in(by), decided_at=timezone.now(),
        note=note.strip(),
    )  # fmt: skip
    _decided(report, by, SubmissionStatus.REJECTED, note)
    return report
