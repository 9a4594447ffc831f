"""The data of migration 0022 (docs/ratings.md, "Migration 0022"): from one rating for
every game to one rating and history per game. On the historical models, so that later
changes to the models leave it as it was; the formula is the service's pure one.

A player's starting rating becomes the start of each game they played (a series) or were
entered in; a player with neither keeps a start other than 1500 as their long nardy one.
Then every game's history is replayed from the stored series, as ratings_recompute does:
finished, with a winner, a finish time and two players, of a rated tournament, in the
order (finish time, id)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tournaments.services.ratings import rating_change

START = 1500.0
LONG = "long"


def _starts(apps: Any) -> list[Any]:
    Player = apps.get_model("tournaments", "Player")
    PlayerRating = apps.get_model("tournaments", "PlayerRating")
    Series = apps.get_model("tournaments", "Series")
    Entry = apps.get_model("tournaments", "Entry")
    played: dict[int, set[str]] = defaultdict(set)
    for one, two, variant in Series.objects.values_list(
        "player1_id", "player2_id", "tournament__variant"
    ):
        for pk in (one, two):
            if pk is not None:
                played[pk].add(variant)
    for pk, variant in Entry.objects.values_list("player_id", "tournament__variant"):
        played[pk].add(variant)
    rows = []
    for pk, start in Player.objects.values_list("pk", "start_rating").order_by("pk"):
        games = played.get(pk) or ({LONG} if start != START else set())
        rows += [
            PlayerRating(player_id=pk, variant=v, rating=start, start_rating=start)
            for v in sorted(games)
        ]
    return rows


def ratings_per_variant(apps: Any, schema_editor: Any) -> None:
    PlayerRating = apps.get_model("tournaments", "PlayerRating")
    RatingChange = apps.get_model("tournaments", "RatingChange")
    Series = apps.get_model("tournaments", "Series")
    standing = {(r.player_id, r.variant): r for r in _starts(apps)}
    RatingChange.objects.all().delete()
    history = []
    rated = (
        Series.objects.filter(
            status="finished", winner__isnull=False, finished_at__isnull=False,
            player1__isnull=False, player2__isnull=False, tournament__rated=True,
        )
        .select_related("tournament")
        .order_by("finished_at", "id")
    )  # fmt: skip
    for series in rated:
        variant = series.tournament.variant
        for pk in (series.player1_id, series.player2_id):
            standing.setdefault(
                (pk, variant), PlayerRating(player_id=pk, variant=variant, rating=START)
            )
        loser_id = series.player2_id if series.winner_id == series.player1_id else series.player1_id
        won, lost = standing[(series.winner_id, variant)], standing[(loser_id, variant)]
        length = series.length or series.tournament.series_length
        gain, loss = rating_change(
            winner_rating=won.rating, loser_rating=lost.rating,
            winner_experience=won.experience, loser_experience=lost.experience, length=length,
        )  # fmt: skip
        for row, delta in ((won, gain), (lost, -loss)):
            history.append(
                RatingChange(
                    player_id=row.player_id, series_id=series.pk, variant=variant,
                    before=row.rating, after=row.rating + delta,
                    experience_before=row.experience, at=series.finished_at,
                )
            )  # fmt: skip
            row.rating += delta
            row.experience += length
    kept = [r for r in standing.values() if r.experience or r.start_rating != START]
    PlayerRating.objects.bulk_create(kept, batch_size=1000)
    RatingChange.objects.bulk_create(history, batch_size=1000)


def ratings_single(apps: Any, schema_editor: Any) -> None:
    """Back: the long nardy rating is the one rating (the other games' are lost; the
    history rows keep their series)."""
    Player = apps.get_model("tournaments", "Player")
    PlayerRating = apps.get_model("tournaments", "PlayerRating")
    players = []
    for row in PlayerRating.objects.filter(variant=LONG).select_related("player"):
        row.player.rating, row.player.start_rating = row.rating, row.start_rating
        row.player.experience = row.experience
        players.append(row.player)
    Player.objects.bulk_update(players, ["rating", "start_rating", "experience"], batch_size=1000)
