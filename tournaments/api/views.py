# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""The API's resources and their actions. Views are thin: they check the shape of the
input, call one service and show the result (no ``serializer.save()``: every create,
update and delete goes through a service); the services hold the rules, and their errors
become 400/403/409 in tournaments/api/errors.py."""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from tournaments.api import serializers as s
from tournaments.api.access import (
    StaffWritesOrReadOnly,
    TournamentPermission,
    require_director,
    visible_tournaments,
)
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.api.filters import (
    GameFilter,
    PlayerFilter,
    RoundFilter,
    SeriesFilter,
    SubmissionFilter,
    TournamentFilter,
)
from tournaments.caching import cached, tournament_key
from tournaments.models import (
    Club,
    Correction,
    Game,
    OnlinePlay,
    Player,
    Series,
    SeriesReport,
    Submission,
    Variant,
)
from tournaments.selectors.access import visible_rounds, visible_series
from tournaments.selectors.pages import rating_history_visible
from tournaments.selectors.ratings import rating_in
from tournaments.selectors.standings import standings_for_tournament
from tournaments.services.deletion import game_delete, tournament_delete
from tournaments.services.directing import tournament_create_by, tournament_update
from tournaments.services.online.room_lists import rooms_shared, tournament_rooms
from tournaments.services.online.tournament_rooms import online_play_clear, online_play_set
from tournaments.services.pairings import bracket_create, round_generate
from tournaments.services.people import (
    club_create,
    club_delete,
    club_update,
    player_create,
    player_delete,
    player_update,
)
from tournaments.services.record_files import records_in_file
from tournaments.services.results import game_correct, game_enter_quick, game_enter_record
from tournaments.services.schedule import round_robin_pair_all
from tournaments.services.submissions import (
    ReportRow,
    report_confirm,
    report_create,
    report_reject,
    submission_confirm,
    submission_create,
    submission_reject,
)

ERRORS = {
    400: OpenApiResponse(s.ErrorOutput, description="refused: the input or a rule"),
    403: OpenApiResponse(s.ErrorOutput, description="not allowed"),
    404: OpenApiResponse(s.ErrorOutput, description="not found (or not visible)"),
    409: OpenApiResponse(s.ConflictOutput, description="changed meanwhile: the current value"),
    429: OpenApiResponse(s.ErrorOutput, description="too many requests or failed sign-ins"),
}


class ClubViewSet(ServiceErrorsMixin, viewsets.ModelViewSet):
    """Clubs: anyone reads, staff write."""

    queryset = Club.objects.all()
    serializer_class = s.ClubSerializer
    permission_classes = [StaffWritesOrReadOnly]
    filterset_fields = ["country"]
    ordering_fields = ["name", "city", "country"]

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = club_create(**serializer.validated_data)

    def perform_update(self, serializer: Any) -> None:
        serializer.instance = club_update(club=serializer.instance, **serializer.validated_data)

    def perform_destroy(self, instance: Club) -> None:
        club_delete(club=instance)


class PlayerViewSet(ServiceErrorsMixin, viewsets.ModelViewSet):
    """Players: anyone reads, staff write."""

    # rating, start_rating and experience: long nardy's (deprecated, docs/api.md)
    queryset = (
        Player.objects.select_related("club")
        .prefetch_related("ratings")
        .annotate(
            rating=rating_in(Variant.LONG),
            start_rating=rating_in(Variant.LONG, field="start_rating"),
            experience=rating_in(Variant.LONG, field="experience"),
        )
    )
    serializer_class = s.PlayerSerializer
    permission_classes = [StaffWritesOrReadOnly]
    filterset_class = PlayerFilter
    ordering_fields = ["name", "rating", "experience", "club__name"]

    def perform_create(self, serializer: Any) -> None:
        data = dict(serializer.validated_data)
        start = data.pop("start_rating", None)  # a new player's history starts there
        if start is not None and data.get("rating") is None:
            data["rating"] = start
        player = player_create(**data)
        serializer.instance = self.get_queryset().get(pk=player.pk)

    def perform_update(self, serializer: Any) -> None:
        player = player_update(player=serializer.instance, **serializer.validated_data)
        serializer.instance = self.get_queryset().get(pk=player.pk)

    def perform_destroy(self, instance: Player) -> None:
        player_delete(player=instance)

    @extend_schema(responses={200: s.RatingChangeSerializer(many=True), 404: ERRORS[404]})
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def ratings(self, request: Any, pk: Any = None) -> Response:
        """The player's rating history, oldest first, without the series of tournaments
        the caller may not see (their rating may still include them)."""
        changes = rating_history_visible(player=self.get_object(), user=request.user)
        return Response(s.RatingChangeSerializer(changes, many=True).data)


class TournamentViewSet(ServiceErrorsMixin, viewsets.ModelViewSet):
    """Tournaments: published ones are public; unpublished ones are seen only by their
    directors and superusers. Staff create tournaments (and direct what they create)."""

    serializer_class = s.TournamentSerializer
    permission_classes = [TournamentPermission]
    filterset_class = TournamentFilter
    ordering_fields = ["start_date", "name"]

    def get_queryset(self) -> QuerySet[Any]:
        return (
            visible_tournaments(self.request.user)
            .select_related("online_play")
            .prefetch_related("directors")
        )

    def perform_create(self, serializer: Any) -> None:
        """``online``: played online (the start window and the rooms' clock), null or
        left out: over the board."""
        data = dict(serializer.validated_data)
        online = data.pop("online_play", None)
        with transaction.atomic():
            serializer.instance = tournament_create_by(
                by=self.request.user, name=data.pop("name"), start_date=data.pop("start_date"),
                **data,
            )  # fmt: skip
            _online_apply(serializer.instance, online, given=online is not None)

    def perform_update(self, serializer: Any) -> None:
        """A new series length once paired answers 400 with ``warnings`` (what it alters)
        unless the request says ``?confirm=1``. ``online`` null: played over the board
        from now on; left out: unchanged."""
        confirmed = self.request.query_params.get("confirm") in ("1", "true")
        data = dict(serializer.validated_data)
        given = "online_play" in data
        online = data.pop("online_play", None)
        with transaction.atomic():
            serializer.instance = tournament_update(
                tournament=serializer.instance, confirmed=confirmed, **data
            )
            _online_apply(serializer.instance, online, given=given)

    @extend_schema(
        parameters=[s.TournamentRoomsQuery],
        responses={200: s.TournamentRoomOutput(many=True), 400: ERRORS[400], 404: ERRORS[404]},
        filters=False,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def rooms(self, request: Any, pk: Any = None) -> Response:
        """A tournament played online: each series' game room and its state (who is in
        it, the score, the clocks, a no-show's forfeit), by round and table; ``round``:
        one round's, ``live``: only the rooms waiting or playing."""
        tournament = self.get_object()
        query = s.TournamentRoomsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        number, live = query.validated_data.get("round"), query.validated_data["live"]

        def build() -> list[Any]:
            rows = tournament_rooms(tournament=tournament, round_number=number, live_only=live)
            data = s.TournamentRoomOutput(rows, many=True).data
            return json.loads(json.dumps(data, cls=JSONEncoder))

        # the same for everybody: one copy for ONLINE_ROOMS_CACHE_SECONDS (selectors)
        return Response(rooms_shared(f"api:{tournament.pk}:{number}:{int(live)}", build))

    @extend_schema(
        request=s.DeletionInput,
        responses={204: OpenApiResponse(description="deleted"), **ERRORS},
    )
    def destroy(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        """Directors: delete the tournament with everything in it, saying why in
        ``reason`` (400 without one). An audit row keeps who, when, why and what went;
        the ratings are recomputed as if it had never been played."""
        tournament = self.get_object()
        data = _valid(s.DeletionInput, request)
        tournament_delete(tournament=tournament, by=request.user, reason=data.get("reason", ""))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses={200: s.StandingOutput(many=True), 404: ERRORS[404]})
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request: Any, pk: Any = None) -> Response:
        """The standings, best first, with the tie-breaks in the tournament's order."""
        tournament = self.get_object()

        def build() -> list[Any]:
            rows = standings_for_tournament(tournament=tournament)
            return json.loads(json.dumps(s.StandingOutput(rows, many=True).data, cls=JSONEncoder))

        # the same for every caller who may see it: cached at the tournament's version
        return Response(cached(tournament_key("api-standings", tournament), build))

    @extend_schema(
        request=s.GenerateInput, responses={201: s.RoundSerializer, **ERRORS}, filters=False
    )
    @action(detail=True, methods=["post"], url_path="rounds/generate", url_name="generate",
            filter_backends=[])  # fmt: skip
    def generate(self, request: Any, pk: Any = None) -> Response:
        """Directors: pair the next round (round robin or Swiss); ``override`` pairs it
        even though the current round is not finished."""
        tournament = self.get_object()
        require_director(request.user, tournament)
        data = _valid(s.GenerateInput, request)
        rnd = round_generate(tournament=tournament, override=data["override"])
        return Response(s.RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None, responses={201: s.RoundSerializer(many=True), **ERRORS}, filters=False
    )
    @action(detail=True, methods=["post"], url_path="rounds/schedule", url_name="schedule",
            filter_backends=[])  # fmt: skip
    def schedule(self, request: Any, pk: Any = None) -> Response:
        """Directors: pair every round of a round robin not paired yet, by its Berger
        tables, unpublished (players and visitors do not see them); publish each with
        ``/api/rounds/{id}/publish/``."""
        tournament = self.get_object()
        require_director(request.user, tournament)
        rounds = round_robin_pair_all(tournament=tournament)
        return Response(s.RoundSerializer(rounds, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: s.BracketOutput, **ERRORS}, filters=False)
    @action(detail=True, methods=["post"], filter_backends=[])
    def bracket(self, request: Any, pk: Any = None) -> Response:
        """Directors: seed an elimination event and create its first series."""
        tournament = self.get_object()
        require_director(request.user, tournament)
        made = bracket_create(tournament=tournament)
        return Response({"series_created": made}, status=status.HTTP_201_CREATED)


class RoundViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Rounds of visible tournaments (made by /tournaments/{id}/rounds/generate/)."""

    serializer_class = s.RoundSerializer
    filterset_class = RoundFilter
    ordering_fields = ["number"]

    def get_queryset(self) -> QuerySet[Any]:
        return visible_rounds(self.request.user)


class SeriesViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Series of visible tournaments, and entering their games."""

    serializer_class = s.SeriesSerializer
    filterset_class = SeriesFilter
    ordering_fields = ["round__number", "table", "status", "finished_at", "id"]

    def get_queryset(self) -> QuerySet[Any]:
        return visible_series(self.request.user).select_related(
            "tournament", "round", "player1", "player2"
        )

    def _series_for_writing(self) -> Series:
        series: Series = self.get_object()
        require_director(self.request.user, series.tournament)
        return series

    @extend_schema(
        request=s.QuickEntryInput, responses={201: s.GameSerializer, **ERRORS}, filters=False
    )
    @action(detail=True, methods=["post"], url_path="games/quick", url_name="quick",
            permission_classes=[IsAuthenticated], filter_backends=[])  # fmt: skip
    def quick(self, request: Any, pk: Any = None) -> Response:
        """Directors: enter a game as written on a scoresheet. ``number`` guards against
        entering a game twice: a number already entered answers 409 with its value."""
        series = self._series_for_writing()
        data = _valid(s.QuickEntryInput, request)
        game = game_enter_quick(series=series, by=request.user, **data)
        return Response(s.GameSerializer(game).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.RecordEntryInput, responses={201: s.GameSerializer, **ERRORS}, filters=False
    )
    @action(detail=True, methods=["post"], url_path="games/record", url_name="record",
            permission_classes=[IsAuthenticated], filter_backends=[])  # fmt: skip
    def record(self, request: Any, pk: Any = None) -> Response:
        """Directors: enter a game from its full record, verified by the engine; an
        illegal record answers 400 with the line, column and rule."""
        series = self._series_for_writing()
        data = _valid(s.RecordEntryInput, request)
        game = game_enter_record(series=series, by=request.user, **data)
        return Response(s.GameSerializer(game).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.SubmissionInput, responses={201: s.SubmissionSerializer, **ERRORS},
        filters=False,
    )  # fmt: skip
    @action(detail=True, methods=["post"], url_path="submissions", url_name="submit",
            permission_classes=[IsAuthenticated], filter_backends=[])  # fmt: skip
    def submit(self, request: Any, pk: Any = None) -> Response:
        """Players of the series: submit a game's result, which counts once the opponent
        or a director confirms it."""
        series = self.get_object()
        data = _valid(s.SubmissionInput, request)
        sub = submission_create(series=series, by=request.user, **data)
        return Response(s.SubmissionSerializer(sub).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.ReportInput, responses={201: s.SeriesReportSerializer, **ERRORS},
        filters=False,
    )  # fmt: skip
    @action(detail=True, methods=["post"], url_path="report", url_name="report",
            permission_classes=[IsAuthenticated], filter_backends=[])  # fmt: skip
    def report(self, request: Any, pk: Any = None) -> Response:
        """Players of the series: report every game not yet entered (or the next few) at
        once, as results or as a record file; one wrong game refuses the report (400,
        ``params.n`` the game). It counts once the opponent or a director confirms it."""
        series = self.get_object()
        data = _valid(s.ReportInput, request)
        if data.get("records", "").strip():
            rows = [ReportRow(record=r.text) for r in records_in_file(data["records"])]
        else:
            rows = [ReportRow(**game) for game in data["games"]]
        report = report_create(series=series, by=request.user, rows=rows)
        report = SeriesReport.objects.prefetch_related("submissions").get(pk=report.pk)
        return Response(s.SeriesReportSerializer(report).data, status=status.HTTP_201_CREATED)


class GameViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Games of visible tournaments, with their records and corrections; their directors
    delete one entered by mistake."""

    serializer_class = s.GameSerializer
    filterset_class = GameFilter
    ordering_fields = ["number", "entered_at", "id"]

    def get_queryset(self) -> QuerySet[Any]:
        # the series' tournament: its variant words the verification (gammons or not)
        return (
            Game.objects.filter(series__tournament__in=visible_tournaments(self.request.user))
            .select_related("series__tournament")
            .prefetch_related(Prefetch("corrections", Correction.objects.select_related("by")))
        )

    @extend_schema(
        request=s.GameDeletionInput,
        responses={204: OpenApiResponse(description="deleted"), **ERRORS},
    )
    def destroy(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        """Directors: delete a game entered by mistake, the last of its series, saying why
        in ``reason``. A series whose result later rounds or the bracket used answers 400
        ``game-delete-confirm`` with ``warnings`` until the body says ``"confirm": true``.
        The series, standings and ratings follow; an audit row keeps the game."""
        game = self.get_object()
        data = _valid(s.GameDeletionInput, request)
        game_delete(game=game, by=request.user, reason=data.get("reason", ""),
                    confirmed=data["confirm"])  # fmt: skip
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=s.CorrectionInput, responses={200: s.GameSerializer, **ERRORS}, filters=False
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated],
            filter_backends=[])  # fmt: skip
    def correct(self, request: Any, pk: Any = None) -> Response:
        """Directors: correct a result, giving the reason and the game's version seen;
        a stale version answers 409 with the current value."""
        game = self.get_object()
        data = _valid(s.CorrectionInput, request)
        version = data.pop("version")
        game = game_correct(game=game, by=request.user, expected_version=version, **data)
        game = self.get_queryset().get(pk=game.pk)
        return Response(s.GameSerializer(game).data)


class SubmissionViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Results submitted by players, waiting for (or after) confirmation."""

    serializer_class = s.SubmissionSerializer
    filterset_class = SubmissionFilter
    ordering_fields = ["submitted_at", "number", "id"]

    def get_queryset(self) -> QuerySet[Any]:
        return Submission.objects.filter(
            series__tournament__in=visible_tournaments(self.request.user)
        )

    @extend_schema(request=None, responses={200: s.SubmissionSerializer, **ERRORS}, filters=False)
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated],
            filter_backends=[])  # fmt: skip
    def confirm(self, request: Any, pk: Any = None) -> Response:
        """The opponent or a director confirms: the game is entered."""
        sub = self.get_object()
        submission_confirm(submission=sub, by=request.user)
        sub.refresh_from_db()
        return Response(s.SubmissionSerializer(sub).data)

    @extend_schema(
        request=s.RejectInput, responses={200: s.SubmissionSerializer, **ERRORS}, filters=False
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated],
            filter_backends=[])  # fmt: skip
    def reject(self, request: Any, pk: Any = None) -> Response:
        """The opponent or a director rejects: the result does not count."""
        sub = self.get_object()
        data = _valid(s.RejectInput, request)
        sub = submission_reject(submission=sub, by=request.user, note=data["note"])
        return Response(s.SubmissionSerializer(sub).data)


class SeriesReportViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Series reports: several games of a series reported at once, confirmed or
    rejected together."""

    serializer_class = s.SeriesReportSerializer
    ordering_fields = ["submitted_at", "id"]
    filterset_fields = ["series", "status"]

    def get_queryset(self) -> QuerySet[Any]:
        return SeriesReport.objects.filter(
            series__tournament__in=visible_tournaments(self.request.user)
        ).prefetch_related("submissions")

    def _answer(self, report: SeriesReport) -> Response:
        return Response(s.SeriesReportSerializer(self.get_queryset().get(pk=report.pk)).data)

    @extend_schema(request=None, responses={200: s.SeriesReportSerializer, **ERRORS}, filters=False)
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated],
            filter_backends=[])  # fmt: skip
    def confirm(self, request: Any, pk: Any = None) -> Response:
        """The opponent or a director confirms: every game is entered, in order, all or
        none."""
        report = self.get_object()
        report_confirm(report=report, by=request.user)
        return self._answer(report)

    @extend_schema(
        request=s.RejectInput, responses={200: s.SeriesReportSerializer, **ERRORS}, filters=False
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated],
            filter_backends=[])  # fmt: skip
    def reject(self, request: Any, pk: Any = None) -> Response:
        """The opponent or a director rejects: none of the games counts."""
        report = self.get_object()
        data = _valid(s.RejectInput, request)
        report_reject(report=report, by=request.user, note=data["note"])
        return self._answer(report)


def _online_apply(tournament: Any, online: dict[str, Any] | None, *, given: bool) -> None:
    """The ``online`` setting of a created or changed tournament, through the service."""
    if not given:
        return
    if online is None:
        online_play_clear(tournament=tournament)
        return
    play = OnlinePlay.objects.filter(tournament=tournament).first()
    before: dict[str, Any] = {"window_minutes": 15, "window_until": None, "pair_next": False}
    if play is not None:  # a PATCH changes what it names
        before = {"window_minutes": play.window_minutes, "window_until": play.window_until,
                  "pair_next": play.pair_next, **play.clock}  # fmt: skip
    online = before | online
    clock = {k: online[k] for k in ("clock", "delay_s", "reserve_s", "days", "timeout_costs")
             if k in online}  # fmt: skip
    online_play_set(tournament=tournament, window_minutes=online["window_minutes"],
                    window_until=online.get("window_until"), clock=clock,
                    pair_next=online["pair_next"])  # fmt: skip


def _valid(serializer_class: Any, request: Any) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


__all__ = [
    "ClubViewSet",
    "GameViewSet",
    "PlayerViewSet",
    "RoundViewSet",
    "SeriesReportViewSet",
    "SeriesViewSet",
    "SubmissionViewSet",
    "TournamentViewSet",
]
