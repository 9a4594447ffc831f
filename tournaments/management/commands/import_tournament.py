"""manage.py import_tournament FILE [--name NAME]: a tournament from a JSON archive."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.management.records import progress
from tournaments.services.errors import ResultError
from tournaments.services.imports import tournament_import


class Command(BaseCommand):
    help = (
        "Import a tournament archive written by export_tournament (here or elsewhere): new "
        "ids, players matched by name and club or created; all or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--name", help="import under another name (a copy)")
        parser.add_argument(
            "--user",
            help="the account the import is made by: it directs the tournament, and the "
            "results and corrections are its (their archived authors are kept as text)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            archive = json.loads(options["file"].read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise CommandError(f"{options['file']}: cannot be read: {exc}") from None

        by = None
        if options["user"]:
            by = get_user_model().objects.filter(username=options["user"]).first()
            if by is None:
                raise CommandError(f"there is no user {options['user']!r}")

        def bar(items: Any, *, desc: str, total: int | None = None) -> Any:
            return progress(
                items, command=self, desc=desc, total=total, verbosity=options["verbosity"]
            )

        try:
            result = tournament_import(archive=archive, by=by, name=options["name"], progress=bar)
        except ResultError as exc:
            raise CommandError(f"{options['file']}: {exc.message}") from None
        t = result.tournament
        self.stdout.write(
            f"tournament {t.pk} {t.name}: {result.players_created} player(s) created, "
            f"{result.players_matched} matched"
            + (f"; inactive accounts created: {', '.join(result.users_created)}"
               if result.users_created else "")
        )  # fmt: skip
