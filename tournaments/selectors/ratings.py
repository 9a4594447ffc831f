"""Reads of the players' ratings, one for each game (variant) (docs/ratings.md): a player
without a rating in a game has its start, 1500, and no experience there."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Field, FloatField, OuterRef, PositiveIntegerField, Subquery, Value
from django.db.models.functions import Coalesce

from tournaments.models import START_RATING, PlayerRating

_NONE: dict[str, tuple[float, Field[Any, Any]]] = {
    "rating": (START_RATING, FloatField()),
    "start_rating": (START_RATING, FloatField()),
    "experience": (0, PositiveIntegerField()),
}


def rating_in(variant: str, *, player: str = "pk", field: str = "rating") -> Coalesce:
    """The rating (or ``start_rating``, ``experience``) in ``variant`` of the player at
    ``player`` (a path from the queryset's model), as an annotation: 1500 (experience 0)
    where there is none."""
    default, output = _NONE[field]
    rating = PlayerRating.objects.filter(player=OuterRef(player), variant=variant)
    return Coalesce(Subquery(rating.values(field)[:1]), Value(default), output_field=output)


def ratings_in(*, variant: str, players: Iterable[int]) -> dict[int, float]:
    """The players' ratings in ``variant``, by id, 1500 where there is none (one query)."""
    ids = set(players)
    found = dict(
        PlayerRating.objects.filter(player__in=ids, variant=variant).values_list(
            "player_id", "rating"
        )
    )
    return {pk: found.get(pk, START_RATING) for pk in ids}
