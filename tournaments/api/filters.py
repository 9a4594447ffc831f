# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""Query filters of the list endpoints (django-filter)."""

from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet

from tournaments.models import (
    Format,
    Game,
    Player,
    Round,
    Series,
    SeriesStatus,
    Submission,
    Tournament,
)


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["club", "active", "name", "country"]


# Foreign keys are filtered by number, never as a choice among every row of the table: a
# choice filter answers 400 for an id that does not exist and 200 for one that exists but
# is not visible, which told anyone which unpublished tournaments exist. By number, both
# give the same empty list (the viewsets' querysets hold only what the user may see).


class RoundFilter(django_filters.FilterSet):
    tournament = django_filters.NumberFilter(field_name="tournament")

    class Meta:
        model = Round
        fields = ["tournament", "number"]


class SeriesFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=SeriesStatus.choices)
    player = django_filters.NumberFilter(method="filter_player", label="player (either side)")
    tournament = django_filters.NumberFilter(field_name="tournament")
    round = django_filters.NumberFilter(field_name="round")

    class Meta:
        model = Series
        fields = ["tournament", "round", "status", "player"]

    def filter_player(self, queryset: QuerySet[Series], name: str, value: int) -> QuerySet[Series]:
        return queryset.filter(Q(player1=value) | Q(player2=value))


class GameFilter(django_filters.FilterSet):
    tournament = django_filters.NumberFilter(field_name="series__tournament")
    series = django_filters.NumberFilter(field_name="series")

    class Meta:
        model = Game
        fields = ["series", "tournament", "verified", "kind"]


class SubmissionFilter(django_filters.FilterSet):
    tournament = django_filters.NumberFilter(field_name="series__tournament")
    series = django_filters.NumberFilter(field_name="series")

    class Meta:
        model = Submission
        fields = ["series", "tournament", "status"]


class TournamentFilter(django_filters.FilterSet):
    """``event_format``, not ``format``: DRF reads ``?format=`` as the output format (and
    answered 404 for "swiss")."""

    event_format = django_filters.ChoiceFilter(field_name="format", choices=Format.choices)

    class Meta:
        model = Tournament
        fields = ["variant", "event_format", "published"]
