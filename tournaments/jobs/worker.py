"""The database's worker (``manage.py run_jobs``): without a broker, jobs wait in their
table and this process runs them one at a time, users' jobs first (imports, uploads,
verification, recomputation), analysis after them, each oldest first. ``make run``
starts it beside the server and stops it with the server.

Several such workers may run: a job is claimed by ``job_run``'s atomic update, so each
runs once. A worker asked to stop (SIGTERM, SIGINT) in the middle of an analysis puts
that job back in the queue (analysis can be repeated); any other job it was running is
marked interrupted, as a dead Celery worker's is, and offered again on its page."""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Callable
from types import FrameType

from django.db import close_old_connections, connection
from django.db.models import Case, IntegerField, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.jobs.heartbeat import INTERRUPTED, jobs_mark_interrupted
from tournaments.jobs.runner import job_run
from tournaments.models import Job, JobStatus
from tournaments.models.job import ANALYSIS_KINDS

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0  # how long an idle worker waits before it looks again
STALE_CHECK_SECONDS = 30.0  # how often it marks the jobs of dead workers interrupted


class Stop(BaseException):
    """Raised in the worker's thread by SIGTERM or SIGINT: not an ``Exception``, so that
    no job's own error handling takes it for the job's failure."""


QUEUES = ("all", "users", "analysis")


def next_job(queue: str = "all") -> int | None:
    """The id of the job to run next: users' jobs before analysis, oldest first; ``queue``
    ``users`` or ``analysis`` takes only those (make run starts one worker of each, so
    that a long analysis never keeps an import waiting)."""
    later = Case(When(kind__in=ANALYSIS_KINDS, then=Value(1)), default=Value(0),
                 output_field=IntegerField())  # fmt: skip
    waiting = Job.objects.filter(status=JobStatus.QUEUED)
    if queue == "users":
        waiting = waiting.exclude(kind__in=ANALYSIS_KINDS)
    elif queue == "analysis":
        waiting = waiting.filter(kind__in=ANALYSIS_KINDS)
    ordered = waiting.annotate(later=later).order_by("later", "pk")
    return ordered.values_list("pk", flat=True).first()


def jobs_work(
    *, once: bool = False, poll: float = POLL_SECONDS, parent: int | None = None,
    say: Callable[[str], None] = log.info, queue: str = "all",
) -> int:  # fmt: skip
    """Run waiting jobs until stopped (``once``: until none waits). ``parent``: stop when
    that process is gone (the server ``make run`` started beside this worker). Returns
    how many jobs ran."""
    ran = 0
    checked = 0.0

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Stop(signum)

    before = {signum: signal.signal(signum, stop) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        while True:
            if time.monotonic() - checked > STALE_CHECK_SECONDS:
                jobs_mark_interrupted()
                checked = time.monotonic()
            if not connection.in_atomic_block:  # a test's transaction keeps its connection
                close_old_connections()
            pk = next_job(queue)
            if pk is None:
                if once or (parent is not None and not _alive(parent)):
                    return ran
                time.sleep(poll)
                continue
            ran += _run_one(pk, say)
    except Stop:
        say(_("the jobs' worker stopped"))
        return ran
    finally:  # a caller in the same process (a test, a command) gets its handlers back
        for signum, handler in before.items():
            signal.signal(signum, handler)


def _run_one(pk: int, say: Callable[[str], None]) -> int:
    """Run one job and say how it ended; 1 when it ran, 0 when another worker took it."""
    try:
        status = job_run(job_id=pk, echo=say)
    except Stop:
        _put_back(pk)
        raise
    if status == "skipped":
        return 0
    job = Job.objects.filter(pk=pk).first()
    if job is not None:
        say(_("job %(id)s (%(kind)s): %(status)s")
            % {"id": pk, "kind": job.get_kind_display(),
               "status": job.get_status_display()})  # fmt: skip
    return 1


def _put_back(pk: int) -> None:
    """The job this worker was running when asked to stop: analysis waits again (it is
    repeated whole), anything else is marked interrupted."""
    now = timezone.now()
    running = Job.objects.filter(pk=pk, status=JobStatus.RUNNING)
    again = running.filter(kind__in=ANALYSIS_KINDS).update(
        status=JobStatus.QUEUED, started_at=None, done=0, total=None, stage="", updated_at=now
    )
    if not again:
        running.update(
            status=JobStatus.FAILED, error=str(INTERRUPTED), finished_at=now, updated_at=now
        )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
