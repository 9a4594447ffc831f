"""What the commands share: progress bars, and the frame of the commands that put stored
results right (verify_games, recompute). Record files are read by the services
(tournaments/services/record_files.py), as every other door reads them."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator, Sized
from typing import Any, TextIO, TypeVar

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from tqdm import tqdm

from tournaments.jobs import job_start
from tournaments.models import Tournament
from tournaments.services.exports import Progress
from tournaments.wording.names import job_stage_name

T = TypeVar("T")


def progress(
    items: Iterable[T],
    *,
    command: BaseCommand,
    desc: str,
    total: int | None = None,
    unit: str = "it",
    verbosity: int = 1,
) -> Iterable[T]:
    """A tqdm progress bar on the command's error stream on a terminal; elsewhere (a log,
    a pipe, ``make run``'s output) a plain line every PLAIN_EVERY seconds and at the end.
    A service's stage code (``desc="series"``) is named in the command's language."""
    # OutputWrapper ends every write with a newline, which would break tqdm's redraws.
    stream = getattr(command.stderr, "_out", sys.stderr)
    if verbosity < 1:
        return items
    if not _terminal(stream):
        return plain_progress(items, stream=stream, desc=job_stage_name(desc), total=total)
    return tqdm(
        items,
        desc=job_stage_name(desc),
        total=total,
        file=stream,
        unit=unit,
        dynamic_ncols=True,
        disable=True if verbosity < 1 else None,
    )


PLAIN_EVERY = 5.0  # seconds between two plain progress lines


def _terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def plain_progress(
    items: Iterable[T], *, stream: TextIO, desc: str, total: int | None = None,
    every: float = PLAIN_EVERY,
) -> Iterator[T]:  # fmt: skip
    """Progress as plain lines, ``games: 40/186 (21 %)``, at most one every ``every``
    seconds, and one at the end: readable in a log, and proof that work goes on."""
    if total is None and isinstance(items, Sized):
        total = len(items)
    done = 0
    shown = time.monotonic()

    def line() -> None:
        if total:
            text = _("%(stage)s: %(done)s/%(total)s (%(percent)s %%)") % {
                "stage": desc, "done": done, "total": total, "percent": done * 100 // total
            }  # fmt: skip
        else:
            text = _("%(stage)s: %(done)s") % {"stage": desc, "done": done}
        stream.write(text + "\n")
        stream.flush()

    for item in items:
        yield item
        done += 1
        if time.monotonic() - shown >= every:
            line()
            shown = time.monotonic()
    line()


class TournamentsCommand(BaseCommand):
    """A command over every tournament or one (``--tournament ID``), run now with a
    progress bar or as a background job (``--background``, its id printed): the frame of
    verify_games and recompute, which differ in their job's ``kind`` and ``work``."""

    kind: str  # the JobKind that --background starts
    unit = "it"  # what the progress bar counts
    tournament_help = "only this tournament"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, metavar="ID", help=self.tournament_help)
        parser.add_argument(
            "--background", action="store_true",
            help="run it as a job (on the worker when CELERY_BROKER_URL is set) and print its id",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = None
        if options["tournament"] is not None:
            tournament = Tournament.objects.filter(pk=options["tournament"]).first()
            if tournament is None:
                raise CommandError(
                    _("there is no tournament with id %(id)s") % {"id": options["tournament"]}
                )
        if options["background"]:
            job = job_start(
                kind=self.kind, params={"tournament": options["tournament"]}, by=None,
                tournament=tournament,
            )  # fmt: skip
            self.stdout.write(
                _("job %(id)s: %(status)s") % {"id": job.pk, "status": job.get_status_display()}
            )
            return

        def bar(items: Any, *, desc: str, total: int | None = None) -> Any:
            return progress(
                items, command=self, desc=desc, total=total, unit=self.unit,
                verbosity=options["verbosity"],
            )  # fmt: skip

        self.work(tournament=tournament, progress=bar)

    def work(self, *, tournament: Tournament | None, progress: Progress) -> None:
        raise NotImplementedError
