# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""Files in and out of the API: records (.nrd), standings and crosstables (CSV), the
tournament archive (JSON), player lists (CSV); and verification of records."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib.auth.models import update_last_login
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token as AuthToken
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import engine
from tournaments.api import serializers as s
from tournaments.api.access import is_staff, require_director, visible_tournaments
from tournaments.api.errors import ServiceErrorsMixin, error_status
from tournaments.api.parsers import ObjectJSONParser
from tournaments.api.throttles import AnonThrottle, ScopedThrottle, UserThrottle
from tournaments.api.views import ERRORS
from tournaments.jobs import job_start
from tournaments.models import Game, JobKind, Series, Tournament
from tournaments.selectors.access import may_create_tournaments, may_import_players
from tournaments.services.accounts import account_unconfirmed_sign_in, unconfirmed_sign_in_error
from tournaments.services.archives import tournament_import
from tournaments.services.errors import ApplicationError, Conflict, PermissionDenied
from tournaments.services.exports import (
    crosstable_csv,
    game_nrd,
    series_nrd,
    standings_csv,
    tournament_archive,
    tournament_nrd,
)
from tournaments.services.imports import records_upload, upload_text
from tournaments.services.json_input import json_read
from tournaments.services.player_lists import players_import_csv, similar_line_data
from tournaments.services.records import verify_text
from tournaments.wording.engine_errors import engine_text


class TextRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, context: Any = None) -> bytes:
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        return text.encode("utf-8")


class CSVRenderer(TextRenderer):
    media_type = "text/csv"
    format = "csv"


def _attachment(text: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class _Download(ServiceErrorsMixin, APIView):
    # errors in JSON; the files themselves are plain responses
    renderer_classes = [JSONRenderer, TextRenderer]

    def tournament(self, pk: int) -> Tournament:
        return get_object_or_404(visible_tournaments(self.request.user), pk=pk)


NRD = {(200, "text/plain"): OpenApiTypes.STR, 404: ERRORS[404]}
CSV = {(200, "text/csv"): OpenApiTypes.STR, 404: ERRORS[404]}


class GameRecordDownload(_Download):
    @extend_schema(responses=NRD, operation_id="games_record_nrd")
    def get(self, request: Any, pk: int) -> HttpResponse:
        """A game's record (.nrd); a result entered without a record gives its tags."""
        game = get_object_or_404(
            Game.objects.filter(series__tournament__in=visible_tournaments(request.user))
            .select_related("series__tournament", "series__round", "white", "black"),
            pk=pk,
        )  # fmt: skip
        return _attachment(game_nrd(game), f"game-{game.pk}.nrd", "text/plain")


class SeriesRecordsDownload(_Download):
    @extend_schema(responses=NRD, operation_id="series_records_nrd")
    def get(self, request: Any, pk: int) -> HttpResponse:
        """Every game of a series (.nrd), in order."""
        series = get_object_or_404(
            Series.objects.filter(tournament__in=visible_tournaments(request.user)), pk=pk
        )
        return _attachment(series_nrd(series), f"series-{series.pk}.nrd", "text/plain")


class TournamentRecordsDownload(_Download):
    @extend_schema(responses=NRD, operation_id="tournaments_records_nrd")
    def get(self, request: Any, pk: int) -> HttpResponse:
        """Every game of a tournament (.nrd), round by round."""
        t = self.tournament(pk)
        return _attachment(tournament_nrd(t), f"tournament-{t.pk}.nrd", "text/plain")


class StandingsCSV(_Download):
    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(responses=CSV, operation_id="tournaments_standings_csv")
    def get(self, request: Any, pk: int) -> HttpResponse:
        """The standings as CSV, with the tie-breaks in the tournament's order."""
        t = self.tournament(pk)
        return _attachment(standings_csv(t), f"standings-{t.pk}.csv", "text/csv")


class CrosstableCSV(_Download):
    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(responses=CSV, operation_id="tournaments_crosstable_csv")
    def get(self, request: Any, pk: int) -> HttpResponse:
        """Players against players: the scores of their series (\"3-1\"), as CSV."""
        t = self.tournament(pk)
        return _attachment(crosstable_csv(t), f"crosstable-{t.pk}.csv", "text/csv")


class TournamentArchiveDownload(_Download):
    renderer_classes = [JSONRenderer]

    @extend_schema(
        responses={(200, "application/json"): OpenApiTypes.OBJECT, 403: ERRORS[403],
                   404: ERRORS[404]},
        operation_id="tournaments_archive",
    )  # fmt: skip
    def get(self, request: Any, pk: int) -> HttpResponse:
        """Directors: everything about the tournament as one JSON file, for
        /api/tournaments/import/ here or in another installation."""
        t = self.tournament(pk)
        require_director(request.user, t)
        text = json.dumps(tournament_archive(t), ensure_ascii=False, indent=1)
        return _attachment(text, f"tournament-{t.pk}.json", "application/json")


# The default cap on an uploaded file (and on the whole body of an upload request);
# settings.NARDY_MAX_UPLOAD_BYTES changes it. Record size and tag limits are the engine's
# (read_records); this cap is the door's, before anything is read.
MAX_UPLOAD_BYTES = 5 * 1024 * 1024


def upload_limit() -> int:
    return int(getattr(settings, "NARDY_MAX_UPLOAD_BYTES", MAX_UPLOAD_BYTES))


class UploadTooLarge(ApplicationError):
    """The request is larger than the upload limit: HTTP 413."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            gettext("the upload is larger than the limit of %(limit)s bytes (%(mb)s MB)"),
            code="upload-too-large",
            params={"limit": limit, "mb": f"{limit / 1_000_000:.1f}"},
            field="file",
        )
        self.limit = limit


def _body_limit(request: Any) -> int:
    """Files may fill the upload limit; other bodies (JSON, forms) stay within Django's
    DATA_UPLOAD_MAX_MEMORY_SIZE too, which DRF's JSON parser would not apply."""
    limit = upload_limit()
    if request.content_type.startswith("multipart/"):
        return limit
    memory = getattr(settings, "DATA_UPLOAD_MAX_MEMORY_SIZE", None)
    return limit if memory is None else min(limit, memory)


def _uploaded_text(request: Any, *names: str) -> str | bytes:
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size is not None and upload.size > upload_limit():
            raise UploadTooLarge(upload_limit())
        return bytes(upload.read())
    data = request.data
    if not isinstance(data, dict):
        raise ApplicationError(
            gettext("the JSON body must be an object, such as {%(name)s: ...}"),
            code="json-body-not-object",
            params={"name": f'"{names[0]}"'},
            field=names[0],
        )
    for name in names:
        value = data.get(name)
        if isinstance(value, str):
            return value
    raise ApplicationError(
        gettext("send a file or the text in %(name)s"),
        code="upload-missing",
        params={"name": repr(names[0])},
        field="file",
    )


class _Upload(ServiceErrorsMixin, APIView):
    parser_classes = [ObjectJSONParser, MultiPartParser, FormParser]
    permission_classes = [IsAuthenticated]

    def initial(self, request: Any, *args: Any, **kwargs: Any) -> None:
        """A body larger than the limit is refused before it is read (HTTP 413)."""
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = _body_limit(request)
        if length > limit:
            raise UploadTooLarge(limit)
        super().initial(request, *args, **kwargs)

    def handle_exception(self, exc: Exception) -> Any:
        if isinstance(exc, UploadTooLarge):
            return Response(
                {
                    "detail": exc.message,
                    "code": exc.code,
                    "params": exc.params,
                    "field": exc.field,
                    "limit": exc.limit,
                },
                status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
            )
        if isinstance(exc, RequestDataTooBig):
            return self.handle_exception(UploadTooLarge(_body_limit(self.request)))
        return super().handle_exception(exc)


class SeriesRecordsUpload(_Upload):
    @extend_schema(
        request={"application/json": s.RecordsInput, "multipart/form-data": s.RecordsInput},
        responses={201: s.RecordsOutput, 400: s.RecordsOutput, 403: ERRORS[403],
                   404: ERRORS[404], 409: s.RecordsOutput},
        operation_id="series_records_upload",
    )  # fmt: skip
    def post(self, request: Any, pk: int) -> Response:
        """Directors: enter the games of a .nrd text or file in order, each verified; the
        first refused game stops the upload (its line and column are in the file), the
        games entered before it stay. 201 when every game was entered."""
        series = get_object_or_404(
            Series.objects.filter(tournament__in=visible_tournaments(request.user))
            .select_related("tournament"),
            pk=pk,
        )  # fmt: skip
        require_director(request.user, series.tournament)
        text = upload_text(_uploaded_text(request, "record"), field="record")
        report = records_upload(series=series, text=text, by=request.user)
        refused: dict[str, object] | None = None
        code: int = status.HTTP_201_CREATED
        if report.refused is not None:
            exc = report.refused
            code = error_status(exc)
            refused = {"detail": exc.message, "code": exc.code, "params": exc.params,
                       "field": exc.field, "line": exc.line, "col": exc.col,
                       "rule": exc.rule}  # fmt: skip
            if isinstance(exc, Conflict):
                refused["current"] = exc.current
        body = {
            "entered": report.entered,
            "games": [vars(g) for g in report.games],
            "refused": refused,
        }
        return Response(body, status=code)


def _create_similar(request: Any) -> bool:
    """Whether a players list may create players whose names look like known players'
    (``create_similar``: true, 1 or on, in the form or the JSON body)."""
    value = request.data.get("create_similar") if isinstance(request.data, dict) else None
    return value is True or str(value).lower() in ("true", "1", "on")


class PlayersImport(_Upload):
    @extend_schema(
        request={"multipart/form-data": s.FileInput, "application/json": s.FileInput},
        responses={201: s.PlayersImportOutput, 400: ERRORS[400], 403: ERRORS[403]},
        operation_id="players_import",
    )  # fmt: skip
    def post(self, request: Any) -> Response:
        """Staff: players from a CSV file (UTF-8, header ``name,club,rating``); the lines
        refused are reported with the reason, the others saved."""
        if not may_import_players(request.user):
            raise PermissionDenied(gettext("only staff may import players"), code="not-staff")
        report = players_import_csv(
            data=_uploaded_text(request, "text"), create_similar=_create_similar(request)
        )
        body = {
            "created": len(report.created),
            "rejected": [{"line": line, "reason": why} for line, why in report.rejected],
            "similar": [similar_line_data(line) for line in report.similar],
        }
        return Response(body, status=status.HTTP_201_CREATED)


class TournamentPlayersImport(_Upload):
    @extend_schema(
        request={"multipart/form-data": s.FileInput, "application/json": s.FileInput},
        responses={201: s.TournamentPlayersImportOutput, 400: ERRORS[400], 403: ERRORS[403],
                   404: ERRORS[404]},
        operation_id="tournament_players_import",
    )  # fmt: skip
    def post(self, request: Any, pk: int) -> Response:
        """Directors: register the players of a CSV file (header ``name,club,rating``) in
        their tournament; a player known by name and club is entered, not created again.
        The lines refused are reported with the reason, the others saved."""
        tournament = get_object_or_404(visible_tournaments(request.user), pk=pk)
        if not may_import_players(request.user, tournament):
            raise PermissionDenied(
                gettext("only the tournament's directors may do this"), code="not-director-import"
            )
        report = players_import_csv(
            data=_uploaded_text(request, "text"), tournament=tournament,
            create_similar=_create_similar(request),
        )  # fmt: skip
        body = {
            "created": len(report.created),
            "matched": report.matched,
            "entered": report.entered,
            "rejected": [{"line": line, "reason": why} for line, why in report.rejected],
            "similar": [similar_line_data(line) for line in report.similar],
        }
        return Response(body, status=status.HTTP_201_CREATED)


class TournamentImport(_Upload):
    @extend_schema(
        request={"multipart/form-data": s.FileInput, "application/json": OpenApiTypes.OBJECT},
        responses={201: s.ArchiveImportOutput, 202: OpenApiTypes.OBJECT, 400: ERRORS[400],
                   403: ERRORS[403], 409: ERRORS[409]},
        operation_id="tournaments_import",
    )  # fmt: skip
    def post(self, request: Any) -> Response:
        """Those who may create tournaments: a new tournament from an archive (a file, or
        the archive as the JSON body) that they direct; new ids, players matched by name
        and club or created. Only staff import it as it is: the archive's directors
        direct it too, and the accounts it names that are missing are created inactive
        (``users_created``). Anyone else creates no account: they direct the copy alone
        (``directors_skipped``), and the results others submitted are left out
        (``submissions_skipped``, ``authors_skipped``). One transaction.

        With ``?async=1`` the import runs as a job: 202 with the job's id and its URL
        (``/api/jobs/<id>/``), whose result names the tournament made.

        A tournament already on the site (the archive's fingerprint) is refused with 409
        ``archive-already-here`` unless ``?copy=1`` (a copy named "… (copy)"). It comes
        in unpublished and unrated unless ``?as_archived=1``."""
        if not may_create_tournaments(request.user):
            raise PermissionDenied(
                gettext("only those who may create tournaments may import one"),
                code="may-not-import-tournament",
            )
        if request.FILES.get("file") is not None:
            archive = json_read(_uploaded_text(request, "file"))
        else:
            archive = request.data
        asked = request.query_params
        if _yes(asked.get("async")):  # long work: a job, followed at /api/jobs/<id>/
            job = job_start(
                kind=JobKind.TOURNAMENT_IMPORT, by=request.user,
                params={"copy": _yes(asked.get("copy")),
                        "as_archived": _yes(asked.get("as_archived"))},
                data=json.dumps(archive, ensure_ascii=False),
            )  # fmt: skip
            url = f"/api/jobs/{job.pk}/"
            body = {"job": job.pk, "status": job.status, "url": url}
            return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": url})
        result = tournament_import(
            archive=archive, by=request.user, trusted=is_staff(request.user),
            as_copy=_yes(asked.get("copy")), as_archived=_yes(asked.get("as_archived")),
        )  # fmt: skip
        body = {
            "tournament": result.tournament.pk,
            "players_created": result.players_created,
            "players_matched": result.players_matched,
            "directors_skipped": result.directors_skipped,
            "users_created": result.users_created,
            "submissions_skipped": result.submissions_skipped,
            "authors_skipped": result.authors_skipped,
        }
        return Response(body, status=status.HTTP_201_CREATED)


def _yes(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


class Verify(ServiceErrorsMixin, APIView):
    """Verify game records without a tournament: anyone may (throttled)."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonThrottle, UserThrottle, ScopedThrottle]
    throttle_scope = "verify"

    @extend_schema(
        request=s.VerifyInput, responses={200: s.VerifyOutput, 400: ERRORS[400]},
        operation_id="verify",
    )  # fmt: skip
    def post(self, request: Any) -> Response:
        """Verify every game of a record text; each game answers ``ok``, its outcome and
        the first error (line, column, turn, side, dice, rule, message)."""
        data = s.VerifyInput(data=request.data)
        data.is_valid(raise_exception=True)
        games: list[dict[str, Any]] = []
        for n, result in enumerate(verify_text(data.validated_data["record"]), 1):
            if isinstance(result, engine.RecordSyntaxError):
                error = {
                    "message": engine_text(result),
                    "code": result.code,
                    "params": result.params,
                    "line": result.line,
                    "col": result.col,
                    "turn": None,
                    "side": None,
                    "dice": None,
                    "text": None,
                    "rule": None,
                }
                games.append({"game": n, "ok": False, "outcome": None, "error": error})
                continue  # fmt: skip
            err = result.error
            games.append(
                {
                    "game": n,
                    "ok": err is None,
                    "outcome": result.outcome.result if result.outcome else None,
                    "error": None if err is None else {
                        "message": engine_text(err), "code": err.code, "params": err.params,
                        "line": err.line, "col": err.col,
                        "turn": err.turn, "side": err.side, "dice": err.dice, "text": err.text,
                        "rule": err.rule,
                    },
                }
            )  # fmt: skip
        return Response({"games": games})


class Token(ServiceErrorsMixin, ObtainAuthToken):
    """A token for a username and password: send it as ``Authorization: Token …``."""

    # DRF's ObtainAuthToken has no throttle; password guessing gets its own low rate
    throttle_classes = [AnonThrottle, ScopedThrottle]
    throttle_scope = "token"
    parser_classes = [FormParser, MultiPartParser, ObjectJSONParser]

    @extend_schema(
        request=s.TokenInput,
        responses={200: s.TokenOutput, 400: ERRORS[400], 429: ERRORS[429]},
        operation_id="token_create",
    )  # fmt: skip
    def post(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        try:
            serializer = self.get_serializer(data=request.data)
            serializer.is_valid(raise_exception=True)
        except ValidationError:
            # django-axes flags the request it was given (here DRF's, not Django's, so its
            # middleware never sees the flag): a locked-out sign-in is 429, as on the pages
            if getattr(request, "axes_locked_out", False):
                raise LockedOut from None
            # right password, but the account's e-mail is not confirmed yet: say so
            data = request.data if hasattr(request.data, "get") else {}
            if account_unconfirmed_sign_in(
                username=data.get("username"), password=data.get("password")
            ):
                raise unconfirmed_sign_in_error() from None
            raise
        # a sign-in like the pages' (DRF's own view leaves last_login empty)
        user = serializer.validated_data["user"]
        token, _created = AuthToken.objects.get_or_create(user=user)
        update_last_login(type(user), user)
        return Response({"token": token.key})


class LockedOut(APIException):
    """Too many failed sign-ins for this username from this address (django-axes)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_detail = _("Too many failed sign-ins: signing in is locked for a while.")
    default_code = "locked_out"
