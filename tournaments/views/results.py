"""Entering the next game of a series: a director enters it, a player of the series
submits it for the opponent to confirm; the record check as you type; the confirmations
page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.engine import variant_named
from tournaments.forms import QuickResultForm, RecordForm, RejectForm, add_service_error
from tournaments.models import Series, Submission
from tournaments.selectors.pages import pending_submissions, series_for
from tournaments.selectors.sheets import pending_reports, submissions_of
from tournaments.services.errors import ApplicationError
from tournaments.services.results import (
    game_enter_quick,
    game_enter_record,
    series_check_record,
)
from tournaments.services.submissions import (
    is_series_player,
    submission_confirm,
    submission_create,
    submission_reject,
    submissions_waiting,
)
from tournaments.views.common import check_visible
from tournaments.views.sheets import series_page_context
from tournaments.wording.names import result_text


def _series_for_entry(request: HttpRequest, pk: int) -> tuple[Series, bool]:
    try:
        series, directing = series_for(pk=pk, user=request.user)
    except Series.DoesNotExist:
        raise Http404 from None
    directing = check_visible(request.user, series.tournament, directing=directing)
    if not directing and not is_series_player(request.user, series):
        raise PermissionDenied
    return series, directing


def _again(
    request: HttpRequest,
    series: Series,
    directing: bool,
    quick: QuickResultForm | None = None,
    rec: RecordForm | None = None,
) -> HttpResponse:
    """The series page again with the refused form bound; the rest (the other form too) as
    on a fresh page."""
    context = series_page_context(request, series, directing, quick_form=quick, record_form=rec)
    return render(request, "tournaments/series.html", context, status=400)


def _done(request: HttpRequest, series: Series, directing: bool) -> HttpResponse:
    if directing:
        messages.success(request, _("The game is entered."))
    else:
        messages.success(request, _("The result is submitted: it counts once confirmed."))
    return redirect("tournaments:series", pk=series.pk)


@login_required
@require_POST
def enter_quick(request: HttpRequest, pk: int) -> HttpResponse:
    series, directing = _series_for_entry(request, pk)
    form = QuickResultForm(request.POST, series=series)
    if form.is_valid():
        data = form.cleaned_data
        white, winner = form.white_player(), form.player("winner")
        assert white is not None
        try:
            if directing:
                game_enter_quick(
                    series=series, white=white, winner=winner, kind=data["kind"],
                    ended=data["ended"], cube=data["cube"] or 1, number=data["number"],
                    by=request.user,
                )  # fmt: skip
            else:
                submission_create(
                    series=series, by=request.user, number=data["number"] or 0, white=white,
                    winner=winner, kind=data["kind"], ended=data["ended"], cube=data["cube"] or 1,
                )  # fmt: skip
        except ApplicationError as exc:
            add_service_error(form, exc)
        else:
            return _done(request, series, directing)
    return _again(request, series, directing, quick=form)


@login_required
@require_POST
def enter_record(request: HttpRequest, pk: int) -> HttpResponse:
    series, directing = _series_for_entry(request, pk)
    form = RecordForm(request.POST, request.FILES)
    if form.is_valid():
        data = form.cleaned_data
        try:
            if directing:
                game_enter_record(
                    series=series, record=data["record"], number=data["number"], by=request.user
                )
            else:
                submission_create(
                    series=series, by=request.user, number=data["number"] or 0,
                    record=data["record"],
                )  # fmt: skip
        except ApplicationError as exc:
            add_service_error(form, exc)
        else:
            return _done(request, series, directing)
    return _again(request, series, directing, rec=form)


@login_required
def confirmations(request: HttpRequest) -> HttpResponse:
    """Results waiting for the user's confirmation, as opponent or director."""
    return render(
        request,
        "tournaments/confirmations.html",
        {
            "pending": pending_submissions(user=request.user),
            "reports": pending_reports(user=request.user),
            "reject_form": RejectForm(),
            "mine": submissions_of(user=request.user),
        },
    )


@login_required
@require_POST
def decide(request: HttpRequest, pk: int, verdict: str) -> HttpResponse:
    submission = get_object_or_404(Submission, pk=pk)
    try:
        if verdict == "confirm":
            submission_confirm(submission=submission, by=request.user)
            messages.success(request, _("The result is confirmed and counts."))
        elif verdict == "reject":
            form = RejectForm(request.POST)
            if not form.is_valid():  # the note would be lost: nothing is rejected
                errors = " ".join(str(e) for e in form.errors["note"])
                messages.error(request, _("The result is not rejected: %(why)s") % {"why": errors})
                return redirect("tournaments:confirmations")
            submission_reject(
                submission=submission, by=request.user, note=form.cleaned_data["note"]
            )
            messages.success(request, _("The result is rejected."))
        else:
            raise Http404
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect("tournaments:confirmations")


@require_POST
def record_check(request: HttpRequest, pk: int) -> JsonResponse:
    """The verdict on a record typed for the next game of series ``pk``: exactly the
    check that saving makes (``series_check_record``: rule and match tags, players,
    colours, the Crawford game), nothing saved. A player's game 2 typed while game 1
    waits for confirmation is checked after it, as submitting it checks it."""
    try:
        series, directing = series_for(pk=pk, user=request.user)
    except Series.DoesNotExist:
        raise Http404 from None
    directing = check_visible(request.user, series.tournament, directing=directing)
    if not (directing or is_series_player(request.user, series)):
        return JsonResponse({"ok": False, "message": _("not allowed")}, status=403)
    text = request.POST.get("record", "")
    if not text.strip():
        return JsonResponse({"ok": False, "empty": True, "message": ""})
    number = request.POST.get("number", "")
    bounded = number.isascii() and number.isdigit() and len(number) < 7  # no 5,000 digits
    games = list(series.games.select_related("white", "black", "winner").order_by("number"))
    if not directing:  # a player's games waiting for confirmation come first, as on saving
        games += submissions_waiting(series=series, games=games)
    try:
        entry = series_check_record(
            series=series, games=games, record=text, number=int(number) if bounded else None,
        )  # fmt: skip
    except ApplicationError as exc:
        return JsonResponse({"ok": False, "message": exc.message, "code": exc.code,
                             "params": exc.params, "line": exc.line, "col": exc.col})  # fmt: skip
    checked = entry.checked
    winner = None if entry.winner is None else entry.winner.name
    told = result_text(
        winner=winner, kind=checked.kind, ended=checked.ended, cube=checked.cube,
        gammons=variant_named(series.tournament.variant).gammons,
    )  # fmt: skip
    message = f"{entry.white} - {entry.black}: {told}"
    return JsonResponse({"ok": True, "message": message})
