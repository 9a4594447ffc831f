"""A running job's sign of life, and the jobs whose worker died.

While a job runs, a thread of its process touches the job's ``updated_at`` every
JOBS_HEARTBEAT_SECONDS (progress writes touch it too). A running job not touched for
JOBS_STALE_SECONDS has lost its process - a worker killed, a machine gone - whatever the
broker does with its message (Redis gives it back only after the visibility timeout, an
hour): the pages and the API mark it failed, "interrupted", when they read it, and offer
to start it again."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, connection, connections
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy

from tournaments.models import Job, JobStatus

log = logging.getLogger(__name__)

INTERRUPTED = gettext_lazy("the job was interrupted (its worker stopped); start it again")


def heartbeat_seconds() -> float:
    return float(getattr(settings, "JOBS_HEARTBEAT_SECONDS", 15))


def stale_seconds() -> float:
    return float(getattr(settings, "JOBS_STALE_SECONDS", 60))


class Heartbeat:
    """Touch a running job's row every ``every`` seconds from a thread of its own (with
    its own database connection) until ``stop()``."""

    def __init__(self, job_id: int, *, every: float | None = None) -> None:
        self.job_id = job_id
        self.every = heartbeat_seconds() if every is None else every
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Heartbeat:
        # inside a transaction (a job run inline in one) nobody else sees the job running
        # before it has finished, and the thread would wait for the transaction's lock
        if not connection.in_atomic_block:
            self._thread = threading.Thread(
                target=self._beat, name=f"job-{self.job_id}-heartbeat", daemon=True
            )
            self._thread.start()
        return self

    def _beat(self) -> None:
        try:
            while not self._stopped.wait(self.every):
                try:
                    Job.objects.filter(pk=self.job_id, status=JobStatus.RUNNING).update(
                        updated_at=timezone.now()
                    )
                except DatabaseError:  # the next beat tries again; staleness shows the rest
                    log.warning("job %s: heartbeat not written", self.job_id, exc_info=True)
        finally:
            connections.close_all()  # this thread's connections only

    def stop(self) -> None:
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=self.every + 5)


def jobs_mark_interrupted() -> int:
    """Mark failed ("interrupted") every running job whose process has given no sign of
    life for JOBS_STALE_SECONDS; the message is said in the language of whoever started
    the job. Returns how many."""
    cutoff = timezone.now() - timedelta(seconds=stale_seconds())
    stale = Job.objects.filter(status=JobStatus.RUNNING, updated_at__lt=cutoff)
    marked = 0
    for pk, language in stale.values_list("pk", "language"):
        with translation.override(language or settings.LANGUAGE_CODE):
            now = timezone.now()
            marked += stale.filter(pk=pk).update(
                status=JobStatus.FAILED, error=str(INTERRUPTED), finished_at=now, updated_at=now
            )
    if marked:
        log.warning("%d job(s) interrupted: no heartbeat for %s s", marked, stale_seconds())
    return marked
