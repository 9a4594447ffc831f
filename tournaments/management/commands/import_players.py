"""manage.py import_players FILE: players from a CSV file (name,club,rating)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.management.records import progress
from tournaments.services.errors import ResultError
from tournaments.services.imports import players_import_csv


class Command(BaseCommand):
    help = (
        "Import players from a UTF-8 CSV file with the header name,club,rating (club and "
        "rating may be empty). Refused lines are listed with the reason; the others are saved."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = options["file"].read_bytes()
        except OSError as exc:
            raise CommandError(f"{options['file']}: cannot be read: {exc}") from None

        def bar(items: Any, *, desc: str, total: int | None = None) -> Any:
            return progress(
                items, command=self, desc=desc, total=total, verbosity=options["verbosity"]
            )

        try:
            report = players_import_csv(data=data, progress=bar)
        except ResultError as exc:
            raise CommandError(f"{options['file']}: {exc.message}") from None
        for line, reason in report.rejected:
            self.stdout.write(f"line {line}: {reason}")
        self.stdout.write(
            f"{len(report.created)} player(s) imported, {len(report.rejected)} line(s) refused"
        )
