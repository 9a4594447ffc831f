"""manage.py run_jobs [--once] [--parent PID]: the database's worker (docs/jobs.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.jobs.worker import POLL_SECONDS, QUEUES, jobs_work


class Command(BaseCommand):
    help = (  # Django's own options' help is English too: --help stays English
        "Run the background jobs waiting in the database, users' jobs before analysis, "
        "when no CELERY_BROKER_URL is set (make run starts it beside the server). Stops "
        "on SIGTERM or Ctrl-C; an analysis it was running waits again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--once", action="store_true", help="run the jobs waiting now, then exit"
        )
        parser.add_argument(
            "--poll", type=float, default=POLL_SECONDS, metavar="SECONDS",
            help="how long to wait before looking for jobs again",
        )  # fmt: skip
        parser.add_argument(
            "--queue", choices=QUEUES, default="all",
            help="only the users' jobs, or only the analysis (default: both, users' first)",
        )  # fmt: skip
        parser.add_argument(
            "--parent", type=int, metavar="PID",
            help="exit when this process is gone (the server it was started beside)",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        def say(line: str) -> None:
            if options["verbosity"] >= 1:
                self.stdout.write(line)
                self.stdout.flush()

        jobs_work(
            once=options["once"], poll=options["poll"], parent=options["parent"], say=say,
            queue=options["queue"],
        )  # fmt: skip
