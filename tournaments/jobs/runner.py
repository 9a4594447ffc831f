"""Start a job and run it: on a Celery worker when CELERY_BROKER_URL is set, inline in
the request when it is not (``make run`` needs no broker).

A job is claimed by one atomic update from queued to running, so that a message
delivered twice never runs it twice; its state is only in the database."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.jobs.heartbeat import INTERRUPTED, Heartbeat
from tournaments.jobs.kinds import KINDS, Refused
from tournaments.jobs.progress import JobProgress
from tournaments.models import Job, JobKind, JobStatus, Tournament
from tournaments.selectors.access import User, signed_in
from tournaments.services.errors import ApplicationError

log = logging.getLogger(__name__)

BUG = gettext_lazy("the job stopped on an internal error; the administrators find it in the log")


class JobError(ApplicationError):
    """A job that cannot be started (unknown kind, input too large or not text)."""


def input_limit() -> int:
    return int(getattr(settings, "JOBS_INPUT_MAX_BYTES", 20 * 2**20))


def queued() -> bool:
    """Whether jobs go to a worker (a broker is configured) rather than run inline."""
    return bool(getattr(settings, "CELERY_BROKER_URL", ""))


def job_start(
    *, kind: str, params: dict[str, Any] | None = None, by: User | None,
    tournament: Tournament | None = None, data: str = "",
) -> Job:  # fmt: skip
    """Create the job and send it to the queue after the transaction commits, or run it
    now when no queue is configured. ``data`` is the uploaded text (at most
    JOBS_INPUT_MAX_BYTES in UTF-8)."""
    if kind not in KINDS:
        raise JobError(
            _("unknown kind of job %(kind)s"), code="job-kind", params={"kind": repr(kind)}
        )
    if "\x00" in data:
        raise JobError(
            _("the file holds a NUL character: it is not a text file"),
            code="file-nul",
            field="file",
        )
    if len(data) > input_limit() or len(data.encode("utf-8")) > input_limit():
        raise JobError(
            _("the file is larger than %(mb)s MB"),
            code="file-too-large",
            params={"mb": input_limit() // 2**20},
            field="file",
        )
    job = Job.objects.create(
        kind=kind, params=params or {}, data=data, created_by=signed_in(by),
        tournament=tournament, language=translation.get_language() or "",
    )  # fmt: skip
    if queued():
        transaction.on_commit(lambda: _send(job))
    else:
        job_run(job_id=job.pk)
        job.refresh_from_db()
    return job


def _send(job: Job) -> None:
    from tournaments.tasks import run_job  # Celery only where a broker is configured

    try:
        from config.celery import app

        with app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
            run_job.apply_async(
                args=(job.pk,), connection=conn,  # type: ignore[call-arg]  # an option
                queue=settings.CELERY_TASK_DEFAULT_QUEUE,
                retry=True, retry_policy={"max_retries": 2, "interval_start": 0.2},
            )  # fmt: skip
    except Exception:
        log.exception("job %s could not be sent to the queue", job.pk)
        _finish(
            job.pk, JobStatus.FAILED, error=_("the job queue cannot be reached; try again later")
        )


def job_restart(*, job: Job, by: User | None) -> Job:
    """Start a failed job again, as a new job with the same kind, input and tournament
    (an interrupted one, or one the queue could not take); the caller has checked that
    ``by`` may start it (``may_start``)."""
    if job.status != JobStatus.FAILED:
        raise JobError(
            _("only a failed job can be started again"), code="job-not-failed", field="job"
        )
    data = Job.objects.filter(pk=job.pk).values_list("data", flat=True).get()
    return job_start(kind=job.kind, params=job.params, by=by, tournament=job.tournament, data=data)


def _finish(pk: int, status: str, *, result: Any = None, error: str = "") -> None:
    Job.objects.filter(pk=pk).update(
        status=status, result=result, error=error, finished_at=timezone.now(),
        updated_at=timezone.now(),
    )  # fmt: skip


def job_run(*, job_id: int) -> str:
    """Run a queued job (the Celery task and the inline mode call this); return its final
    status, or ``skipped`` when the job is not waiting (already taken or finished). Its
    refusals are said in the language of whoever started it."""
    language = Job.objects.filter(pk=job_id).values_list("language", flat=True).first()
    with translation.override(language or settings.LANGUAGE_CODE):
        return _job_run(job_id)


def _job_run(job_id: int) -> str:
    claimed = Job.objects.filter(pk=job_id, status=JobStatus.QUEUED).update(
        status=JobStatus.RUNNING, started_at=timezone.now(), updated_at=timezone.now()
    )
    if not claimed:
        # Delivered again after a worker died in the middle (acks_late): the half-done
        # work is not repeated behind the user's back; they see it failed and start again.
        interrupted = Job.objects.filter(pk=job_id, status=JobStatus.RUNNING).update(
            status=JobStatus.FAILED, finished_at=timezone.now(), error=str(INTERRUPTED)
        )
        if interrupted:
            return JobStatus.FAILED
        log.info("job %s is not waiting: skipped", job_id)
        return "skipped"
    job = Job.objects.select_related("created_by", "tournament").get(pk=job_id)
    progress = JobProgress(job)
    heartbeat = Heartbeat(job.pk).start()
    try:
        result = KINDS[job.kind](job, progress)
    except Refused as exc:
        _finish(job.pk, JobStatus.FAILED, result=exc.result, error=exc.message)
        return JobStatus.FAILED
    except ApplicationError as exc:
        _finish(job.pk, JobStatus.FAILED, error=exc.message)
        return JobStatus.FAILED
    except Exception as exc:
        if type(exc).__name__ == "SoftTimeLimitExceeded":
            log.warning("job %s took too long", job.pk)
            _finish(job.pk, JobStatus.FAILED, error=_("the job took too long and was stopped"))
        else:
            log.exception("job %s (%s) failed on a bug", job.pk, job.kind)
            _finish(job.pk, JobStatus.FAILED, error=str(BUG))
        return JobStatus.FAILED
    finally:
        heartbeat.stop()
        progress.close()
    Job.objects.filter(pk=job.pk).update(done=progress.done, total=progress.total)
    _finish(job.pk, JobStatus.DONE, result=result)
    return JobStatus.DONE


__all__ = ["JobError", "JobKind", "job_run", "job_start", "queued"]
