"""A player reports a whole series at once (a line a game, or a record file); the
opponent or a director confirms or rejects the report once, on its own page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as Forbidden
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.forms import RecordForm, RejectForm, add_service_error
from tournaments.models import SeriesReport, SubmissionStatus
from tournaments.selectors.access import is_director, signed_in
from tournaments.selectors.sheets import report_with_series
from tournaments.services.errors import ApplicationError, Conflict, PermissionDenied
from tournaments.services.record_files import records_in_file
from tournaments.services.result_rules import crawford_notice
from tournaments.services.sheets import SheetRowError
from tournaments.services.submissions import (
    ReportRow,
    is_series_player,
    report_confirm,
    report_create,
    report_lines,
    report_reject,
)
from tournaments.views.common import check_visible
from tournaments.views.results import _series_for_entry
from tournaments.views.rounds import SheetRowForm, sheet_forms


def _rows(forms: list[SheetRowForm]) -> tuple[list[SheetRowForm], list[ReportRow]]:
    used = [f for f in forms if f.used]
    rows = []
    for f in used:
        rows.append(ReportRow(
            white=f.white_player(), winner=f.player("winner"), kind=f.cleaned_data["kind"],
            ended=f.cleaned_data["ended"], cube=f.cleaned_data["cube"] or 1,
        ))  # fmt: skip
    return used, rows


def _file_rows(form: RecordForm) -> list[ReportRow] | None:
    """The games of a pasted or uploaded record file (None: the form shows why not)."""
    if not form.is_valid():
        return None
    try:
        records = records_in_file(form.cleaned_data["record"])
    except ApplicationError as exc:
        add_service_error(form, exc)
        return None
    return [ReportRow(record=r.text) for r in records]


def _status(exc: ApplicationError) -> int:
    if isinstance(exc, Conflict):
        return 409
    return 403 if isinstance(exc, PermissionDenied) else 400


@login_required
def series_report_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Players of the series: report every game not yet entered, in one form (a line a
    game) or as a record file; it counts once the opponent or a director confirms it."""
    series, _directing = _series_for_entry(request, pk)
    if not is_series_player(request.user, series):
        raise Forbidden
    if series.closed or series.player2_id is None:
        messages.error(request, _("The series is closed: no more games can be entered."))
        return redirect("tournaments:series", pk=pk)
    posted = request.method == "POST"
    rows = sheet_forms(series, request.POST if posted else None)
    by_file = posted and bool(request.POST.get("record", "").strip() or request.FILES)
    file_form = RecordForm(request.POST, request.FILES) if by_file else RecordForm()
    error = ""
    used: list[SheetRowForm] = []
    report_rows = None
    if by_file:
        report_rows = _file_rows(file_form)
    elif posted and all(f.is_valid() for f in rows):
        used, report_rows = _rows(rows)
    if report_rows is not None:
        try:
            report = report_create(series=series, by=request.user, rows=report_rows)
        except SheetRowError as exc:
            if used:
                add_service_error(used[exc.row], exc)
            error = exc.message
        except ApplicationError as exc:
            error = exc.message
        else:
            messages.success(
                request, _("The series is reported: it counts once your opponent confirms it.")
            )
            return redirect("tournaments:report", pk=report.pk)
    first = len(series.games.all()) + 1
    context = {
        "s": series, "t": series.tournament, "first": first, "error": error,
        "numbered": [(first + i, f) for i, f in enumerate(rows)], "file_form": file_form,
        "crawford_notice": crawford_notice(series, list(series.games.all())),
    }  # fmt: skip
    return render(request, "tournaments/report_new.html", context, status=400 if posted else 200)


def _report(request: HttpRequest, pk: int) -> tuple[SeriesReport, bool]:
    """The report and whether the user may decide it; 404 for one the user may not
    see (only the series' players and the tournament's directors see it)."""
    try:
        report = report_with_series(pk=pk)
    except SeriesReport.DoesNotExist:
        raise Http404 from None
    series = report.series
    directing = check_visible(request.user, series.tournament)
    if not (directing or is_series_player(request.user, series)):
        raise Http404
    account = signed_in(request.user)
    mine = account is not None and account.pk == report.submitted_by_id
    may_decide = report.status == SubmissionStatus.PENDING and (
        is_director(request.user, series.tournament) or not mine
    )
    return report, may_decide


def _report_page(
    request: HttpRequest, report: SeriesReport, may_decide: bool, error: str = "", status: int = 200
) -> HttpResponse:
    lines = report_lines(report=report)
    context: dict[str, Any] = {
        "report": report, "s": report.series, "t": report.series.tournament, "lines": lines,
        "final": lines[-1] if lines else None, "may_decide": may_decide, "error": error,
        "reject_form": RejectForm(request.POST or None) if status != 200 else RejectForm(),
    }  # fmt: skip
    return render(request, "tournaments/report.html", context, status=status)


@login_required
def report_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Every reported game, who won, the series' score after each and at the end; for
    the opponent or a director, the one confirmation (or rejection)."""
    report, may_decide = _report(request, pk)
    return _report_page(request, report, may_decide)


@login_required
@require_POST
def report_decide(request: HttpRequest, pk: int, verdict: str) -> HttpResponse:
    report, may_decide = _report(request, pk)
    try:
        if verdict == "confirm":
            games = report_confirm(report=report, by=request.user)
            messages.success(
                request, _("The report is confirmed: %(n)d games count.") % {"n": len(games)}
            )
        elif verdict == "reject":
            form = RejectForm(request.POST)
            if not form.is_valid():
                errors = " ".join(str(e) for e in form.errors["note"])
                raise ApplicationError(
                    _("The report is not rejected: %(why)s"), code="report-reject-note",
                    params={"why": errors}, field="note",
                )  # fmt: skip
            report_reject(report=report, by=request.user, note=form.cleaned_data["note"])
            messages.success(request, _("The report is rejected: none of its games counts."))
        else:
            raise Http404
    except ApplicationError as exc:
        status = (
            409 if isinstance(exc, Conflict) else 403 if isinstance(exc, PermissionDenied) else 400
        )
        report.refresh_from_db()
        return _report_page(request, report, may_decide, error=exc.message, status=status)
    return redirect("tournaments:report", pk=report.pk)
