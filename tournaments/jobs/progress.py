"""Progress of a running job, written to its row at most every ``INTERVAL`` seconds.

Services wrap their loops in a ``Progress`` (tournaments/services/exports.py); this one
counts the items and stores the count. A service that works in one transaction (an
archive import, recompute) would hide its progress until the commit, so inside a
transaction the count goes through a second connection of its own (PostgreSQL); SQLite
allows one writer at a time, so there it is kept until the transaction ends."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, connections
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.models import Job
from tournaments.wording.names import job_stage_name

T = TypeVar("T")

INTERVAL = 0.5  # seconds between two writes of one job's progress
ECHO_INTERVAL = 5.0  # seconds between two lines of a worker that says its progress


class JobProgress:
    def __init__(
        self, job: Job, *, interval: float = INTERVAL, echo: Callable[[str], None] | None = None
    ) -> None:
        self.job = job
        self.interval = interval
        self.echo = echo  # the database's worker says the progress on its console
        self.echoed_at = 0.0
        self.stage = ""
        self.done = 0
        self.total: int | None = None
        self.written_at = 0.0
        self.writes = 0
        self._side: Any = None  # a second connection, opened on the first need

    def __call__(self, items: Iterable[T], *, desc: str, total: int | None = None) -> Iterable[T]:
        return self._count(items, desc=desc, total=total)

    def _count(self, items: Iterable[T], *, desc: str, total: int | None) -> Iterator[T]:
        self.stage, self.done, self.total = desc[:40], 0, total
        self.write(force=True)
        for item in items:
            yield item
            self.done += 1
            self.write()
        self.write(force=True)

    def write(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.written_at < self.interval:
            return
        self.written_at = now
        total = self.total if self.total is None else max(self.total, self.done)
        if self.echo is not None and (force or now - self.echoed_at >= ECHO_INTERVAL):
            self.echoed_at = now
            with translation.override(settings.LANGUAGE_CODE):  # the worker's console's
                self.echo(
                    _("job %(id)s (%(kind)s): %(stage)s %(done)s/%(total)s")
                    % {"id": self.job.pk, "kind": self.job.get_kind_display(),
                       "stage": job_stage_name(self.stage), "done": self.done,
                       "total": total if total is not None else "?"}
                )  # fmt: skip
        if not connection.in_atomic_block:
            Job.objects.filter(pk=self.job.pk).update(
                stage=self.stage, done=self.done, total=total, updated_at=timezone.now()
            )
        elif connection.vendor == "sqlite":
            return
        else:
            self._write_aside(total)
        self.writes += 1

    def _write_aside(self, total: int | None) -> None:
        if self._side is None:
            self._side = connections.create_connection("default")
        table = self._side.ops.quote_name(Job._meta.db_table)
        with self._side.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET stage = %s, done = %s, total = %s, updated_at = %s "
                "WHERE id = %s",
                [self.stage, self.done, total, timezone.now(), self.job.pk],
            )

    def close(self) -> None:
        if self._side is not None:
            self._side.close()
            self._side = None
