# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""The API of the directors' round and series pages (docs/director_rounds.md): delete or re-pair
a round, swap two players (or move the bye) with the pairing's warnings, choose who
starts game 1, enter a whole scoresheet, the warnings before a correction, the audit
trail, a user's submissions and the count of waiting confirmations. Same permissions as
the pages: the tournament's directors change; the services decide."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api import serializers as s
from tournaments.api.access import require_director, visible_tournaments
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.api.views import ERRORS
from tournaments.models import Game, Player, Round, Series
from tournaments.selectors.sheets import corrections_of, submissions_of, waiting_count
from tournaments.services.rounds import (
    round_delete,
    round_pairings_swap,
    round_repair,
    round_warnings,
    series_starter_set,
)
from tournaments.services.schedule import round_publish
from tournaments.services.sheets import SheetRow, correction_warnings, series_enter_sheet

players = Player.objects.all()


class WarningOutput(serializers.Serializer):
    series = serializers.IntegerField(source="series_id")
    code = serializers.CharField(help_text="repeat, prohibited, second_bye or float")
    message = serializers.CharField()


class SwapInput(serializers.Serializer):
    player_a = serializers.PrimaryKeyRelatedField(queryset=players)
    player_b = serializers.PrimaryKeyRelatedField(queryset=players)


class SwapOutput(serializers.Serializer):
    warnings = WarningOutput(many=True)


class DeletedOutput(serializers.Serializer):
    deleted = serializers.IntegerField(help_text="the number of the round deleted")


class StarterInput(serializers.Serializer):
    starter = serializers.PrimaryKeyRelatedField(
        queryset=players, allow_null=True, help_text="who starts game 1; null: by lot"
    )


class SheetLineInput(s.QuickEntryInput):
    """A game of the scoresheet: as a quick entry, numbered by its place on the sheet."""

    number = None  # type: ignore[assignment]  # DRF: None removes the inherited field


class SheetInput(serializers.Serializer):
    first = serializers.IntegerField(
        min_value=1, max_value=999, required=False, allow_null=True,
        help_text="the number of the first game on the sheet (guards against entering twice)",
    )  # fmt: skip
    # many=True makes a ListSerializer, which takes the lengths (the stubs do not say so)
    games = SheetLineInput(many=True, min_length=1, max_length=60)  # type: ignore[call-arg]


class CorrectionRowOutput(serializers.Serializer):
    id = serializers.IntegerField(source="correction.id")
    game = serializers.IntegerField(source="correction.game_id")
    number = serializers.IntegerField(source="correction.game.number")
    by = serializers.CharField(source="correction.by.username", default=None, allow_null=True)
    at = serializers.DateTimeField(source="correction.at")
    reason = serializers.CharField(source="correction.reason")
    before = serializers.CharField()
    after = serializers.CharField()


class WarningsOutput(serializers.Serializer):
    warnings = serializers.ListField(child=serializers.CharField())


class CountOutput(serializers.Serializer):
    count = serializers.IntegerField()


def _valid(serializer_class: Any, request: Any) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class RoundDirectingViewSet(ServiceErrorsMixin, viewsets.GenericViewSet):
    """Directors: change a round before its results."""

    serializer_class = s.RoundSerializer
    permission_classes = [IsAuthenticated]
    filter_backends: list[Any] = []
    pagination_class = None

    def get_queryset(self) -> QuerySet[Any]:
        return Round.objects.filter(
            tournament__in=visible_tournaments(self.request.user)
        ).select_related("tournament")

    def _directed(self) -> Round:
        rnd: Round = self.get_object()
        require_director(self.request.user, rnd.tournament)
        return rnd

    @extend_schema(request=None, responses={200: DeletedOutput, **ERRORS})
    @action(detail=True, methods=["post"], url_path="delete", url_name="delete")
    def remove(self, request: Any, pk: Any = None) -> Response:
        """Delete the last round before any result (a game entered or submitted)."""
        return Response({"deleted": round_delete(round=self._directed())})

    @extend_schema(request=None, responses={200: s.RoundSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def publish(self, request: Any, pk: Any = None) -> Response:
        """Show a round paired ahead (``rounds/schedule``) to players and visitors; the
        rounds before it must be published first."""
        rnd = round_publish(round=self._directed(), by=request.user)
        return Response(s.RoundSerializer(rnd).data)

    @extend_schema(request=None, responses={201: s.RoundSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def repair(self, request: Any, pk: Any = None) -> Response:
        """Pair the last round again before any result (same number, new pairings)."""
        rnd = round_repair(round=self._directed())
        return Response(s.RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SwapInput, responses={200: SwapOutput, **ERRORS})
    @action(detail=True, methods=["post"])
    def swap(self, request: Any, pk: Any = None) -> Response:
        """Two players of the round change places (any two series, or with the bye);
        the pairing's concerns about the changed series are returned as warnings."""
        rnd = self._directed()
        data = _valid(SwapInput, request)
        warnings = round_pairings_swap(round=rnd, **data)
        return Response({"warnings": WarningOutput(warnings, many=True).data})

    @extend_schema(responses={200: WarningOutput(many=True), **ERRORS})
    @action(detail=True, methods=["get"])
    def warnings(self, request: Any, pk: Any = None) -> Response:
        """The pairing's checks on the round: repeat pairings, prohibited pairs, a second
        bye, Swiss floats the pairing does not explain."""
        return Response(WarningOutput(round_warnings(round=self._directed()), many=True).data)


class SeriesDirectingViewSet(ServiceErrorsMixin, viewsets.GenericViewSet):
    """Directors: who starts game 1, the whole scoresheet; everybody: the audit trail."""

    serializer_class = s.SeriesSerializer
    filter_backends: list[Any] = []
    pagination_class = None

    def get_queryset(self) -> QuerySet[Any]:
        return Series.objects.filter(
            tournament__in=visible_tournaments(self.request.user)
        ).select_related("tournament", "player1", "player2")

    def _directed(self) -> Series:
        series: Series = self.get_object()
        require_director(self.request.user, series.tournament)
        return series

    @extend_schema(request=StarterInput, responses={200: s.SeriesSerializer, **ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def starter(self, request: Any, pk: Any = None) -> Response:
        """Choose who starts game 1 instead of the lot (not where the lot is white's
        first roll, S2); null leaves it to the lot."""
        series = series_starter_set(series=self._directed(), **_valid(StarterInput, request))
        return Response(s.SeriesSerializer(self.get_queryset().get(pk=series.pk)).data)

    @extend_schema(request=SheetInput, responses={201: s.GameSerializer(many=True), **ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def sheet(self, request: Any, pk: Any = None) -> Response:
        """Enter several games from the scoresheet, in order: each checked as if entered
        alone; one refused game (400 naming it) saves none."""
        series = self._directed()
        data = _valid(SheetInput, request)
        rows = [SheetRow(**line) for line in data["games"]]
        games = series_enter_sheet(
            series=series, rows=rows, first=data.get("first"), by=request.user
        )
        return Response(s.GameSerializer(games, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: CorrectionRowOutput(many=True), 404: ERRORS[404]})
    @action(detail=True, methods=["get"])
    def corrections(self, request: Any, pk: Any = None) -> Response:
        """The audit trail: every correction of the series' games, oldest first."""
        rows = corrections_of(series=self.get_object())
        return Response(CorrectionRowOutput(rows, many=True).data)


class GameDirectingViewSet(ServiceErrorsMixin, viewsets.GenericViewSet):
    """Directors: what a correction of the game would change besides the game."""

    serializer_class = s.GameSerializer
    permission_classes = [IsAuthenticated]
    filter_backends: list[Any] = []
    pagination_class = None

    def get_queryset(self) -> QuerySet[Any]:
        return Game.objects.filter(
            series__tournament__in=visible_tournaments(self.request.user)
        ).select_related("series__tournament", "series__round")

    @extend_schema(responses={200: WarningsOutput, **ERRORS})
    @action(detail=True, methods=["get"], url_path="correction-warnings")
    def correction_warnings(self, request: Any, pk: Any = None) -> Response:
        """Ask before POST /games/{id}/correct/: later rounds paired on the old result,
        later bracket series."""
        game: Game = self.get_object()
        require_director(request.user, game.series.tournament)
        return Response({"warnings": correction_warnings(game=game)})


class MySubmissions(ServiceErrorsMixin, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.SubmissionSerializer(many=True)})
    def get(self, request: Any) -> Response:
        """The results the user submitted, newest first, with the decision and its note."""
        return Response(s.SubmissionSerializer(submissions_of(user=request.user), many=True).data)


class WaitingCount(ServiceErrorsMixin, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: CountOutput})
    def get(self, request: Any) -> Response:
        """How many submitted results wait for the user's confirmation."""
        return Response({"count": waiting_count(user=request.user)})
