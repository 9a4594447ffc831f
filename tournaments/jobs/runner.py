"""Start a job and run it: on a Celery worker when CELERY_BROKER_URL is set; else the
job waits in its table for the database's worker (``manage.py run_jobs``, which ``make
run`` starts beside the server); inline in the request only where JOBS_INLINE is set
(the tests: the same ``job_run`` as a worker's).

A job is claimed by one atomic update from queued to running, so that a message
delivered twice never runs it twice; its state is only in the database. The same job
(kind, parameters, tournament, author, input) started while it waits or runs is the one
already there; a user has at most JOBS_QUEUED_PER_USER jobs waiting."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.jobs.heartbeat import INTERRUPTED, Heartbeat
from tournaments.jobs.kinds import KINDS, Refused
from tournaments.jobs.progress import JobProgress
from tournaments.models import Job, JobKind, JobStatus, Tournament
from tournaments.models.job import ANALYSIS_KINDS
from tournaments.selectors.access import User, signed_in
from tournaments.services.errors import ApplicationError

log = logging.getLogger(__name__)

BUG = gettext_lazy("the job stopped on an internal error; the administrators find it in the log")


class JobError(ApplicationError):
    """A job that cannot be started (unknown kind, input too large or not text)."""


class TooManyJobs(JobError):
    """The user has JOBS_QUEUED_PER_USER jobs waiting already (HTTP 429)."""

    code = "jobs-too-many"


WAITING = (JobStatus.QUEUED, JobStatus.RUNNING)


def input_limit() -> int:
    return int(getattr(settings, "JOBS_INPUT_MAX_BYTES", 20 * 2**20))


def on_celery() -> bool:
    """Whether jobs go to Celery (a broker is configured)."""
    return bool(getattr(settings, "CELERY_BROKER_URL", ""))


def queued() -> bool:
    """Whether jobs go to a worker (Celery's, or the database's) rather than run inline
    in the request that starts them (JOBS_INLINE, the tests)."""
    return on_celery() or not getattr(settings, "JOBS_INLINE", False)


def per_user_limit() -> int:
    return int(getattr(settings, "JOBS_QUEUED_PER_USER", 5))


def input_key(
    *, kind: str, params: dict[str, Any], tournament: Tournament | None, by: int | None,
    data: str,
) -> str:  # fmt: skip
    """What makes two jobs the same one: kind, parameters, tournament, author and input."""
    digest = hashlib.sha256(data.encode("utf-8")).hexdigest()
    what = [kind, params, tournament.pk if tournament else None, by, digest]
    text = json.dumps(what, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _same_job(key: str) -> Job | None:
    return Job.objects.filter(input_key=key, status__in=WAITING).order_by("pk").first()


def job_start(
    *, kind: str, params: dict[str, Any] | None = None, by: User | None,
    tournament: Tournament | None = None, data: str = "",
) -> Job:  # fmt: skip
    """Create the job and send it to the queue after the transaction commits, or run it
    now when no queue is configured. ``data`` is the uploaded text (at most
    JOBS_INPUT_MAX_BYTES in UTF-8)."""
    _input_check(kind=kind, data=data)
    author = signed_in(by)
    params = params or {}
    key = input_key(
        kind=kind, params=params, tournament=tournament, by=author.pk if author else None,
        data=data,
    )  # fmt: skip
    same = _same_job(key)
    if same is not None:  # started twice (a double click, forty clicks): the first one
        return same
    if author is not None and queued():
        _waiting_check(author.pk)
    try:
        with transaction.atomic():
            job = Job.objects.create(
                kind=kind, params=params, data=data, created_by=author, tournament=tournament,
                language=translation.get_language() or "", input_key=key,
            )  # fmt: skip
    except IntegrityError:  # the same job, started at the same instant elsewhere
        same = _same_job(key)
        if same is None:
            raise
        return same
    if on_celery():
        transaction.on_commit(lambda: _send(job))
    elif not queued():
        job_run(job_id=job.pk)
        job.refresh_from_db()
    # else: the database's worker (manage.py run_jobs) takes it once it is committed
    return job


def _input_check(*, kind: str, data: str) -> None:
    """A known kind, and an input that is text within JOBS_INPUT_MAX_BYTES."""
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


def _waiting_check(user_id: int) -> None:
    """At most JOBS_QUEUED_PER_USER jobs of one user wait (the same job again is the one
    waiting, found before this)."""
    waiting = Job.objects.filter(created_by_id=user_id, status=JobStatus.QUEUED).count()
    if waiting >= per_user_limit():
        raise TooManyJobs(
            ngettext(
                "you have %(count)s job waiting already; start more when it has run",
                "you have %(count)s jobs waiting already; start more when they have run",
                waiting,
            ),
            params={"count": waiting},
        )


def job_queue(kind: str) -> str:
    """The Celery queue of a kind: analysis on a queue of its own, behind users' jobs."""
    default = str(settings.CELERY_TASK_DEFAULT_QUEUE)
    if kind in ANALYSIS_KINDS:
        return str(getattr(settings, "CELERY_ANALYSIS_QUEUE", "") or f"{default}-analysis")
    return default


def _send(job: Job) -> None:
    from tournaments.tasks import run_job  # Celery only where a broker is configured

    try:
        from config.celery import app

        with app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
            run_job.apply_async(
                args=(job.pk,), connection=conn,  # type: ignore[call-arg]  # an option
                queue=job_queue(job.kind),
                retry=True, retry_policy={"max_retries": 2, "interval_start": 0.2},
            )  # fmt: skip
    except Exception:
        log.exception("job %s could not be sent to the queue", job.pk)
        _finish(
            job.pk, JobStatus.FAILED, error=_("the job queue cannot be reached; try again later")
        )


def job_restart(*, job: Job, by: User | None, as_copy: bool = False) -> Job:
    """Start a failed job again, as a new job with the same kind, input and tournament
    (an interrupted one, or one the queue could not take); ``as_copy``: an archive
    import refused as on the site already, imported as a copy. The caller has checked
    that ``by`` may start it (``may_start``)."""
    if job.status != JobStatus.FAILED:
        raise JobError(
            _("only a failed job can be started again"), code="job-not-failed", field="job"
        )
    params = dict(job.params)
    if as_copy and job.kind == JobKind.TOURNAMENT_IMPORT:
        params["copy"] = True
    data = Job.objects.filter(pk=job.pk).values_list("data", flat=True).get()
    return job_start(kind=job.kind, params=params, by=by, tournament=job.tournament, data=data)


def _finish(pk: int, status: str, *, result: Any = None, error: str = "", code: str = "") -> None:
    Job.objects.filter(pk=pk).update(
        status=status, result=result, error=error, error_code=code[:60],
        finished_at=timezone.now(), updated_at=timezone.now(),
    )  # fmt: skip


def job_run(*, job_id: int, echo: Callable[[str], None] | None = None) -> str:
    """Run a queued job (the workers and the inline mode call this); return its final
    status, or ``skipped`` when the job is not waiting (already taken or finished). Its
    refusals are said in the language of whoever started it; ``echo`` is told its
    progress now and then (the database's worker prints it)."""
    language = Job.objects.filter(pk=job_id).values_list("language", flat=True).first()
    with translation.override(language or settings.LANGUAGE_CODE):
        return _job_run(job_id, echo)


def _job_run(job_id: int, echo: Callable[[str], None] | None) -> str:
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
    progress = JobProgress(job, echo=echo)
    heartbeat = Heartbeat(job.pk).start()
    try:
        result = KINDS[job.kind](job, progress)
    except Refused as exc:
        _finish(job.pk, JobStatus.FAILED, result=exc.result, error=exc.message, code=exc.code)
        return JobStatus.FAILED
    except ApplicationError as exc:
        _finish(job.pk, JobStatus.FAILED, error=exc.message, code=exc.code)
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


__all__ = ["JobError", "JobKind", "TooManyJobs", "job_run", "job_start", "queued"]
