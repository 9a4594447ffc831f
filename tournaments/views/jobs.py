"""Background jobs' pages (tournaments/jobs/): start an import, an upload, a verification
or a recomputation, then follow it on the job's page until its result is there."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.forms import add_service_error
from tournaments.jobs import JobError, job_start, visible_jobs
from tournaments.jobs.access import may_start
from tournaments.jobs.heartbeat import jobs_mark_interrupted
from tournaments.jobs.runner import TooManyJobs, input_limit, job_restart
from tournaments.models import JobKind, JobStatus, Series, Tournament
from tournaments.selectors.access import (
    is_director,
    is_staff,
    may_create_tournaments,
    may_import_players,
)
from tournaments.services.analysis import analyser
from tournaments.services.errors import ApplicationError
from tournaments.services.json_input import json_read
from tournaments.services.setup import entries_open_check


class UploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("File"))

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > input_limit():
            raise forms.ValidationError(
                _("The file is larger than %(mb)s MB.") % {"mb": input_limit() // 2**20}
            )
        try:
            return str(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from None


class PlayersForm(UploadForm):
    create_similar = forms.BooleanField(
        label=gettext_lazy("Create players whose names look like known players' (else those "
                           "lines are held back for you to decide)"),
        required=False,
    )  # fmt: skip


class ArchiveForm(UploadForm):
    name = forms.CharField(
        label=gettext_lazy("Import under another name"), max_length=200, required=False
    )
    copy = forms.BooleanField(
        label=gettext_lazy("Import as a copy, if the tournament is on the site already"),
        required=False,
    )
    as_archived = forms.BooleanField(
        label=gettext_lazy("Publish and rate it as the archive says (else it comes in "
                           "unpublished and unrated)"),
        required=False,
    )  # fmt: skip

    def clean_file(self) -> str:
        """An archive that is not JSON (or is nested too deep) is refused at once, by the
        reader the job reads it with."""
        text = super().clean_file()
        try:
            json_read(text)
        except ApplicationError as exc:
            raise forms.ValidationError(exc.message) from None
        return text


def _upload_page(
    request: HttpRequest, form_class: type[UploadForm], *, kind: str, title: str,
    params: dict[str, Any] | None = None, tournament: Tournament | None = None,
    context: dict[str, Any] | None = None,
) -> HttpResponse:  # fmt: skip
    posted = request.method == "POST"
    form = form_class(request.POST if posted else None, request.FILES if posted else None)
    if posted and form.is_valid():
        extra = {
            k: form.cleaned_data[k]
            for k in ("name", "copy", "as_archived", "create_similar")
            if k in form.fields
        }
        try:
            job = job_start(
                kind=kind, params={**(params or {}), **extra}, by=request.user,
                tournament=tournament, data=form.cleaned_data["file"],
            )  # fmt: skip
        except JobError as exc:
            add_service_error(form, exc)
            if isinstance(exc, TooManyJobs):
                page = {"form": form, "title": title, **(context or {})}
                return render(request, "tournaments/job_upload.html", page, status=429)
        else:
            return redirect("tournaments:job", pk=job.pk)
    status = 400 if form.is_bound else 200
    page = {"form": form, "title": title, **(context or {})}
    return render(request, "tournaments/job_upload.html", page, status=status)


@login_required
def players_import(request: HttpRequest) -> HttpResponse:
    if not may_import_players(request.user):
        raise PermissionDenied
    return _upload_page(
        request, PlayersForm, kind=JobKind.PLAYERS_IMPORT, title=_("Import players from CSV"),
        context={"help": _("UTF-8 CSV with the header name,club,rating (club and rating may "
                           "be empty). Refused lines are listed with the reason.")},
    )  # fmt: skip


@login_required
def tournament_players_import(request: HttpRequest, pk: int) -> HttpResponse:
    """A director enters a list of players (CSV) into their tournament."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not may_import_players(request.user, tournament):
        raise PermissionDenied
    try:  # a round robin already paired takes nobody: said before the file is sent
        entries_open_check(tournament=tournament)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:entries", pk=pk)
    return _upload_page(
        request, PlayersForm, kind=JobKind.PLAYERS_IMPORT,
        title=_("Register players from CSV"), params={"tournament": tournament.pk},
        tournament=tournament,
        context={"t": tournament,
                 "help": _("UTF-8 CSV with the header name,club,rating (club and rating may "
                           "be empty). A player already known by name and club is entered, "
                           "not created again. Refused lines are listed with the reason.")},
    )  # fmt: skip


@login_required
def tournament_import(request: HttpRequest) -> HttpResponse:
    if not may_create_tournaments(request.user):
        raise PermissionDenied
    return _upload_page(
        request, ArchiveForm, kind=JobKind.TOURNAMENT_IMPORT,
        title=_("Import a tournament archive"),
        context={"help": _("A JSON archive exported from this or another installation "
                           "becomes a new tournament that you direct: new ids, players "
                           "matched by name and club or created; all or nothing.")},
    )  # fmt: skip


@login_required
def records_upload(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("tournament"), pk=pk)
    if not is_director(request.user, series.tournament):
        raise PermissionDenied
    return _upload_page(
        request, UploadForm, kind=JobKind.RECORDS_UPLOAD, title=_("Upload game records"),
        params={"series": series.pk}, tournament=series.tournament,
        context={"series": series, "t": series.tournament,
                 "help": _("A .nrd file: its games are entered in order; the first refused "
                           "game stops the upload, the games before it stay.")},
    )  # fmt: skip


ALREADY_HERE = "archive-already-here"  # services/archives.py's refusal of a second import
TOURNAMENT_JOBS = (JobKind.VERIFY_GAMES, JobKind.RECOMPUTE, JobKind.GAMES_ANALYSE)


@login_required
@require_POST
def tournament_job(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """Directors: verify a tournament's records again, recompute its series (and the
    ratings, which depend on every tournament), or analyse its games again (where
    something analyses its variant)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not is_director(request.user, tournament):
        raise PermissionDenied
    if kind not in TOURNAMENT_JOBS:
        raise Http404
    if kind == JobKind.GAMES_ANALYSE and analyser(tournament.variant) is None:
        raise Http404
    try:
        job = job_start(
            kind=kind, params={"tournament": tournament.pk}, by=request.user,
            tournament=tournament,
        )  # fmt: skip
    except JobError as exc:
        status = 429 if isinstance(exc, TooManyJobs) else 400
        page = {"message": exc.message, "t": tournament}
        return render(request, "tournaments/job_refused.html", page, status=status)
    return redirect("tournaments:job", pk=job.pk)


@login_required
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    jobs_mark_interrupted()
    job = get_object_or_404(visible_jobs(request.user).defer("data"), pk=pk)
    may = job.status == JobStatus.FAILED and may_start(
        request.user, kind=job.kind, tournament=job.tournament
    )
    # a refusal (a code) fails again with the same input: only an interruption, an
    # unreachable queue or a bug is offered again; an archive on the site already, as a copy
    again = may and not job.error_code
    as_copy = may and job.error_code == ALREADY_HERE and not job.params.get("copy")
    page = {"job": job, "again": again, "as_copy": as_copy}
    return render(request, "tournaments/job.html", page)


@login_required
@require_POST
def job_again(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a failed job again (interrupted, or never sent): a new job, same input."""
    job = get_object_or_404(visible_jobs(request.user).defer("data"), pk=pk)
    if not may_start(request.user, kind=job.kind, tournament=job.tournament):
        raise PermissionDenied
    try:
        new = job_restart(job=job, by=request.user, as_copy=bool(request.POST.get("copy")))
    except JobError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:job", pk=job.pk)
    return redirect("tournaments:job", pk=new.pk)


@login_required
def job_list(request: HttpRequest) -> HttpResponse:
    jobs_mark_interrupted()
    jobs = visible_jobs(request.user).defer("data", "result")[:50]
    return render(request, "tournaments/jobs.html", {
        "jobs": jobs, "staff": is_staff(request.user),
        "may_import": may_create_tournaments(request.user),
    })  # fmt: skip
