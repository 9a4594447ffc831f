"""What a public page shows, read as a version: small plain data that changes whenever
the page would (tournaments/page_cache.py, docs/performance.md). One query a page, except
the player's (two). The visibility rule is tournaments/selectors/access.py's: a page the
user may not see has no version (None) and is rendered as usual, which answers 404."""

from __future__ import annotations

from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.http import HttpRequest

from tournaments.models import Game, Player
from tournaments.selectors.access import (
    User,
    visible_rating_changes,
    visible_series,
    visible_tournaments,
)


def _id(pk: object) -> int | None:
    """The router passes ids as text: a malformed one has no version (the view's 404)."""
    text = str(pk)
    return int(text) if text.isdigit() and len(text) < 12 else None


def tournament_version(request: HttpRequest, pk: int) -> object:
    """The tournament page and its API reads: the tournament's cache version."""
    if _id(pk) is None:
        return None
    return visible_tournaments(request.user).filter(pk=pk).values_list("cache_version").first()


def series_version(request: HttpRequest, pk: int) -> object:
    """A series page shows its tournament's data only: the tournament's version."""
    return (
        visible_series(request.user)
        .filter(pk=pk)
        .values_list("tournament_id", "tournament__cache_version")
        .first()
    )


def game_version(request: HttpRequest, pk: int) -> object:
    """A game page (record, corrections, analysis): its tournament's version."""
    return (
        Game.objects.filter(pk=pk, series__tournament__in=visible_tournaments(request.user))
        .values_list("series__tournament_id", "series__tournament__cache_version")
        .first()
    )


def player_version(request: HttpRequest, pk: int) -> object:
    """A player page: the player's own row and rating history (a recompute rewrites its
    rows: new ids, new values), and the version of every tournament they played a series
    in that the user may see (results, opponents' names, records and the stats replayed
    from them). Two queries."""
    ratings = (
        visible_rating_changes(request.user)
        .filter(player=OuterRef("pk"))
        .order_by()
        .values("player")
    )
    row = (
        Player.objects.filter(pk=pk)
        .annotate(
            n=Subquery(ratings.annotate(x=Count("id")).values("x")),
            last=Subquery(ratings.annotate(x=Max("id")).values("x")),
            total=Subquery(ratings.annotate(x=Sum("after")).values("x")),
        )
        .values_list("name", "club__name", "rating", "experience", "club_id", "n", "last", "total")
        .first()
    )
    if row is None:
        return None
    return row, played_versions(player_id=pk, user=request.user)


def played_versions(*, player_id: int, user: User | None) -> tuple[tuple[int, int], ...]:
    """(tournament, cache version) of every tournament the user may see in which the
    player has a series: what the player's results and figures are computed from."""
    return tuple(
        visible_series(user)
        .filter(Q(player1=player_id) | Q(player2=player_id))
        .values_list("tournament_id", "tournament__cache_version")
        .distinct()
        .order_by("tournament_id")
    )


def tournaments_version(request: HttpRequest) -> object:
    """The home page and the API's tournament list: every visible tournament's version
    (a new one adds an id, a deleted one takes it away)."""
    return tuple(
        visible_tournaments(request.user).order_by("pk").values_list("pk", "cache_version")
    )


__all__ = [
    "game_version",
    "played_versions",
    "player_version",
    "series_version",
    "tournament_version",
    "tournaments_version",
]
