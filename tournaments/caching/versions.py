"""What a public page shows, read as a version: small plain data that changes whenever
the page would (pages.py, docs/caching.md).

For a visitor who is not signed in (the only one served a stored page) the version is
read from the shared cache: one cache read, no query, when warm (generations.py keeps it
never stale); the cells hold every tournament's ``published`` flag and the
visibility rule is applied to them with ``access.public_sees``. For a signed-in user it is
read from the database (one query a page, two for a player's). Either way a page the user
may not see has no version (None) and is rendered as usual, which answers 404."""

from __future__ import annotations

from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.http import HttpRequest

from tournaments.caching.generations import ALL, read_through, tournament_gen
from tournaments.models import Game, Player, PlayerRating, RatingChange, Series, Tournament
from tournaments.selectors.access import (
    User,
    public_sees,
    signed_in,
    visible_rating_changes,
    visible_series,
    visible_tournaments,
)

# (tournament id, published, cache_version): what a cell says about a tournament
Seen = tuple[int, bool, int]


def _id(pk: object) -> int | None:
    """The router passes ids as text: a malformed one has no version (the view's 404)."""
    text = str(pk)
    return int(text) if text.isdigit() and len(text) < 12 else None


def _public(request: HttpRequest) -> bool:
    return signed_in(request.user) is None


def _shown(seen: Seen | None) -> tuple[int, int] | None:
    """(tournament, version) of a tournament a visitor may see, else None."""
    if seen is None or not public_sees(published=seen[1]):
        return None
    return seen[0], seen[2]


def tournament_version(request: HttpRequest, pk: int) -> object:
    """The tournament page and its API reads: the tournament's cache version."""
    tid = _id(pk)
    if tid is None:
        return None
    if _public(request):
        _, seen = read_through(
            tournament_gen(tid),
            [tournament_gen(tid)],
            lambda: (
                Tournament.objects.filter(pk=tid)
                .values_list("pk", "published", "cache_version")
                .first()
            ),
        )
        shown = _shown(seen)
        return None if shown is None else shown[1]
    return visible_tournaments(request.user).filter(pk=pk).values_list("cache_version").first()


def series_version(request: HttpRequest, pk: int) -> object:
    """A series page shows its tournament's data only: the tournament's version."""
    sid = _id(pk)
    if sid is None:
        return None
    if _public(request):
        _, seen = read_through(
            f"s:{sid}",
            [ALL],
            lambda: (
                Series.objects.filter(pk=sid)
                .values_list("tournament_id", "tournament__published", "tournament__cache_version")
                .first()
            ),
        )
        return _shown(seen)
    return (
        visible_series(request.user)
        .filter(pk=pk)
        .values_list("tournament_id", "tournament__cache_version")
        .first()
    )


def game_version(request: HttpRequest, pk: int) -> object:
    """A game page (record, corrections, analysis): its tournament's version."""
    gid = _id(pk)
    if gid is None:
        return None
    if _public(request):
        _, seen = read_through(
            f"g:{gid}",
            [ALL],
            lambda: (
                Game.objects.filter(pk=gid)
                .values_list(
                    "series__tournament_id",
                    "series__tournament__published",
                    "series__tournament__cache_version",
                )
                .first()
            ),
        )
        return _shown(seen)
    return (
        Game.objects.filter(pk=pk, series__tournament__in=visible_tournaments(request.user))
        .values_list("series__tournament_id", "series__tournament__cache_version")
        .first()
    )


def player_version(request: HttpRequest, pk: int) -> object:
    """A player page: the player's own row and rating history (a recompute rewrites its
    rows: new ids, new values), and the version of every tournament they played a series
    in that the user may see (results, opponents' names, records and the stats replayed
    from them). Two queries, or one cache read for a visitor."""
    pid = _id(pk)
    if pid is None:
        return None
    if _public(request):
        _, cell = read_through(f"p:{pid}", [ALL], lambda: _player_cell(pid))
        if cell is None:
            return None
        row, played = cell
        return row, tuple(shown for seen in played if (shown := _shown(seen)) is not None)
    row = _player_row(pid, visible_rating_changes(request.user))
    return None if row is None else (row, played_versions(player_id=pid, user=request.user))


def _player_cell(pk: int) -> tuple[object, tuple[Seen, ...]] | None:
    """What a visitor's player page follows: the row and *all* its rating history (which
    entries show depends on the tournaments' ``published``, in the second part), and
    every tournament the player has a series in."""
    row = _player_row(pk, RatingChange.objects.all())
    if row is None:
        return None
    played = (
        Series.objects.filter(Q(player1=pk) | Q(player2=pk))
        .values_list("tournament_id", "tournament__published", "tournament__cache_version")
        .distinct()
        .order_by("tournament_id")
    )
    return row, tuple(played)


def _player_row(pk: int, changes: QuerySet[RatingChange]) -> object:
    ratings = changes.filter(player=OuterRef("pk")).order_by().values("player")
    # the ratings in each game (few rows a player): what the page shows of them
    games = PlayerRating.objects.filter(player=OuterRef("pk")).order_by().values("player")
    return (
        Player.objects.filter(pk=pk)
        .annotate(
            n=Subquery(ratings.annotate(x=Count("id")).values("x")),
            last=Subquery(ratings.annotate(x=Max("id")).values("x")),
            total=Subquery(ratings.annotate(x=Sum("after")).values("x")),
            games=Subquery(games.annotate(x=Count("id")).values("x")),
            rating=Subquery(games.annotate(x=Sum("rating")).values("x")),
            start=Subquery(games.annotate(x=Sum("start_rating")).values("x")),
            experience=Subquery(games.annotate(x=Sum("experience")).values("x")),
            rating_last=Subquery(games.annotate(x=Max("id")).values("x")),
        )
        .values_list(
            "name",
            "club__name",
            "games",
            "rating",
            "start",
            "experience",
            "rating_last",
            "club_id",
            "n",
            "last",
            "total",
        )
        .first()
    )


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


def _all_tournaments() -> tuple[Seen, ...]:
    return tuple(Tournament.objects.order_by("pk").values_list("pk", "published", "cache_version"))


def tournaments_version(request: HttpRequest) -> object:
    """The home page and the API's tournament list: every visible tournament's version
    (a new one adds an id, a deleted one takes it away)."""
    if _public(request):
        _, every = read_through("tournaments", [ALL], _all_tournaments)
        return tuple(shown for seen in every or () if (shown := _shown(seen)) is not None)
    return tuple(
        visible_tournaments(request.user).order_by("pk").values_list("pk", "cache_version")
    )


def site_version(request: HttpRequest, *args: object, **kwargs: object) -> object:
    """The API's other reads (rounds, series, games, submissions, players, clubs, and
    their details): every visible tournament's version, and the tokens of the generation
    every write renews and of the epoch (players, clubs and ratings have no version in
    the database). For visitors only: one cache read; a signed-in user's reads are not
    stored."""
    if not _public(request):
        return None
    tokens, every = read_through("tournaments", [ALL], _all_tournaments)
    if None in tokens:  # the cache server failing: rendered as usual
        return None
    return tuple(tokens), tuple(
        shown for seen in every or () if (shown := _shown(seen)) is not None
    )


__all__ = [
    "game_version",
    "played_versions",
    "player_version",
    "series_version",
    "site_version",
    "tournament_version",
    "tournaments_version",
]
