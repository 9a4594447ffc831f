"""Putting stored results right again: every record verified anew, every series
recomputed from its games and every rating from the series. One place for the work that
`manage.py verify_games`, `manage.py recompute` and their background jobs share."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction

from tournaments.caching import tournaments_touch
from tournaments.models import Game, Series, Tournament
from tournaments.services.exports import Progress, no_progress
from tournaments.services.ratings import ratings_recompute
from tournaments.services.record_files import recheck_game
from tournaments.services.series import series_recompute


@dataclass
class Reverified:
    total: int = 0
    changed: int = 0
    failures: list[tuple[Game, str]] = field(default_factory=list)  # the game, why


def games_reverify(
    *, tournament: Tournament | None = None, progress: Progress = no_progress
) -> Reverified:
    """Verify every stored record again (and that it still tells the stored result);
    update the games' verified flag and message where they changed."""
    games = Game.objects.exclude(record="").select_related(
        "series__tournament", "series__player1", "series__player2", "white", "black"
    )
    if tournament is not None:
        games = games.filter(series__tournament=tournament)
    games = games.order_by("series__tournament_id", "series_id", "number")
    report = Reverified(total=games.count())
    for game in progress(games.iterator(chunk_size=200), desc="verifying", total=report.total):
        verified, found = recheck_game(game)
        if (verified, found) != (game.verified, game.verification_note):
            game.verified, game.verification_note = verified, found
            game.save(update_fields=["verified", "verification_note"])
            report.changed += 1
        if not verified:
            report.failures.append((game, game.verification))
    return report


@dataclass
class Recomputed:
    series: int = 0
    changed: int = 0
    rated: int = 0
    statuses: Counter[str] = field(default_factory=Counter)


@transaction.atomic
def series_recompute_all(
    *, tournament: Tournament | None = None, progress: Progress = no_progress
) -> Recomputed:
    """Every series (of ``tournament``) from its games, then every rating; one
    transaction."""
    series = Series.objects.select_related("tournament").order_by(
        "tournament_id", "round__number", "table", "id"
    )
    if tournament is not None:
        series = series.filter(tournament=tournament)
    todo = list(series)
    report = Recomputed(series=len(todo))
    for s in progress(todo, desc="series", total=len(todo)):
        before = (s.status, s.score1, s.score2, s.winner_id)
        series_recompute(series=s)
        report.changed += before != (s.status, s.score1, s.score2, s.winner_id)
        report.statuses[s.status] += 1
    report.rated = ratings_recompute()
    return report


@transaction.atomic
def caches_renew() -> int:
    """After a database restore (docs/deploy.md): every tournament gets a new
    ``cache_version`` (newer than any given out before the restore) and every generation
    in the shared cache a new token, so that no page, fragment or version cell stored
    from the database as it was before the restore is served again. Returns how many
    tournaments were renewed. Nothing is deleted from the cache; the old copies expire."""
    count = Tournament.objects.count()
    tournaments_touch()  # every tournament, and the generation every write renews
    return count
