"""Long work run off the request (tournaments/jobs/): its input, progress and result.

Everything about a job lives in this row, so that any app server shows it and any worker
runs it: nothing depends on one process's memory."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.wording.names import job_stage_name


class JobKind(models.TextChoices):
    VERIFY_GAMES = "verify_games", _("verify the game records")
    RECOMPUTE = "recompute", _("recompute series and ratings")
    PLAYERS_IMPORT = "players_import_csv", _("import players from CSV")
    TOURNAMENT_IMPORT = "tournament_import", _("import a tournament archive")
    RECORDS_UPLOAD = "records_upload", _("upload game records")
    GAMES_ANALYSE = "games_analyse", _("analyse games")
    BOTGAME_ANALYSE = "botgame_analyse", _("analyse a game against the bot")
    DECISION_ROLLOUT = "decision_rollout", _("roll out a decision")


# Analysis waits behind what a user started (imports, uploads, verification): a queue of
# its own on Celery, taken last by the database's worker (docs/jobs.md).
ANALYSIS_KINDS = (JobKind.GAMES_ANALYSE, JobKind.BOTGAME_ANALYSE, JobKind.DECISION_ROLLOUT)


class JobStatus(models.TextChoices):
    QUEUED = "queued", _("waiting")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


FINISHED = (JobStatus.DONE, JobStatus.FAILED)


class Job(models.Model):
    kind = models.CharField(_("kind"), max_length=20, choices=JobKind.choices)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    # the uploaded file's text, kept in the database so that every worker reads it
    data = models.TextField(_("uploaded data"), blank=True)
    status = models.CharField(
        _("status"), max_length=7, choices=JobStatus.choices, default=JobStatus.QUEUED
    )
    stage = models.CharField(_("stage"), max_length=40, blank=True)
    done = models.PositiveIntegerField(_("done"), default=0)
    total = models.PositiveIntegerField(_("total"), null=True, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    # the language of whoever started it: a worker says the job's refusals in it
    language = models.CharField(_("language"), max_length=10, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("started by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    tournament = models.ForeignKey(
        "tournaments.Tournament", verbose_name=_("tournament"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="jobs",
    )  # fmt: skip
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    # what the job does to what, hashed (kind, parameters, tournament, author, input): a
    # second start of the same job while it waits or runs returns the first
    input_key = models.CharField(_("input key"), max_length=64, blank=True, db_index=True)
    # the refusal's stable code when it failed ("archive-already-here"): what to offer next
    error_code = models.CharField(_("error code"), max_length=60, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=JobStatus.values),
                name="job_status_known",
                violation_error_message=_("unknown job status"),
            ),
            models.CheckConstraint(
                condition=models.Q(total__isnull=True) | models.Q(done__lte=models.F("total")),
                name="job_done_at_most_total",
                violation_error_message=_("a job cannot have done more than its total"),
            ),
            models.UniqueConstraint(
                fields=["input_key"],
                condition=models.Q(status__in=["queued", "running"]) & ~models.Q(input_key=""),
                name="job_once_while_waiting",
                violation_error_message=_("the same job is waiting or running already"),
            ),
        ]

    def __str__(self) -> str:
        return _("job %(id)s: %(kind)s (%(status)s)") % {
            "id": self.pk,
            "kind": self.get_kind_display(),
            "status": self.get_status_display(),
        }

    @property
    def stage_text(self) -> str:
        """The stage in the reader's language (``stage`` is its stable code)."""
        return job_stage_name(self.stage)

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    @property
    def percent(self) -> int | None:
        if not self.total:
            return 100 if self.status == JobStatus.DONE else None
        return min(100, 100 * self.done // self.total)
