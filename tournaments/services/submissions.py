"""Players submit the results of their own series; a result counts once the opponent or
a director confirms it (the game is then entered through the result services)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import (
    CLOSED_STATUSES,
    Game,
    GameKind,
    Player,
    Series,
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


def player_of(user: User | None) -> Player | None:
    """The player linked to a user account, if any."""
    account = signed_in(user)
    if account is None:
        return None
    return Player.objects.filter(user=account).first()


def is_series_player(user: User | None, series: Series) -> bool:
    player = player_of(user)
    return player is not None and player.pk in (series.player1_id, series.player2_id)


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
    games = list(series.games.select_related("white", "black", "winner").order_by("number"))
    if number != len(games) + 1:
        raise ApplicationError(
            _("the next game of this series is game %(expected)s, not %(number)s"),
            code="submission-game-number",
            params={"expected": len(games) + 1, "number": number},
            field="number",
        )
    # the same checks as the confirmation will make, so that what passes now counts then
    if record:  # kept as the game would be stored, with its result for the confirmation
        entry = series_check_record(series=series, games=games, record=record, number=number)
        record, white, winner = entry.checked.text, entry.white, entry.winner
        kind, ended, cube = entry.checked.kind, entry.checked.ended, entry.checked.cube
    elif white is None or kind not in GameKind.values:
        raise ApplicationError(
            _("give the record, or who had white, the winner and the result"),
            code="submission-incomplete",
        )
    else:
        rules = result_rules(series=series, games=games, number=number)
        check_colours(rules, series, white)
        rules.check(series=series, winner=winner, kind=kind, ended=ended, cube=cube)
    try:
        with transaction.atomic():
            return Submission.objects.create(
                series=series, number=number, submitted_by=account, record=record,
                white=white, winner=winner, kind=kind, ended=ended, cube=cube,
            )  # fmt: skip
    except IntegrityError:
        pending = Submission.objects.get(
            series=series, number=number, status=SubmissionStatus.PENDING
        )
        raise Conflict(
            _("a result for game %(number)s is already waiting for confirmation"),
            code="submission-pending",
            params={"number": number},
            current={"submission": pending.pk, "submitted_by": pending.submitted_by_id},
        ) from None


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
    series = submission.series
    director = is_director(by, series.tournament)
    opponent = is_series_player(by, series) and signed_in(by) != submission.submitted_by
    if not (director or opponent):
        raise PermissionDenied(
            _("the opponent or a director confirms a submitted result"), code="not-opponent"
        )
    return submission, director


@transaction.atomic
def submission_confirm(*, submission: Submission, by: User) -> Game:
    """The opponent (or a director) confirms: the game is entered and counts."""
    submission, _ = _decidable(submission, by)
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
def submission_reject(*, submission: Submission, by: User, note: str = "") -> Submission:
    """The opponent (or a director) disputes a submitted result; it does not count."""
    submission, _ = _decidable(submission, by)
    submission.status = SubmissionStatus.REJECTED
    submission.decided_by = signed_in(by)
    submission.decided_at = timezone.now()
    submission.note = note.strip()
    submission.save()
    return submission
