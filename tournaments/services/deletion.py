"""Deleting a tournament (a copy imported by mistake, a test event) with everything in
it: the audit row says who deleted what and why, and the ratings are recomputed as if
it had never been played (docs/ratings.md). Every door (the page, the API, the admin)
calls ``tournament_delete``."""

from __future__ import annotations

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
    Tournament,
)
from tournaments.models.deletion import REASON_MAX
from tournaments.selectors.access import User, may_delete_tournament, signed_in
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.ratings import ratings_recompute


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


__all__ = [
    "deletion_reason_check",
    "tournament_delete",
    "tournament_delete_check",
    "tournament_delete_summary",
]
