"""manage.py export_tournament ID [-o FILE]: the whole tournament as one JSON archive."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.management.records import progress
from tournaments.models import Tournament
from tournaments.services.exports import tournament_archive


class Command(BaseCommand):
    help = (
        "Export everything about a tournament (settings, players, entries, rounds, series, "
        "games with records, corrections, submissions) as JSON, for import_tournament."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("-o", "--output", type=Path, help="file (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament_id"]).first()
        if tournament is None:
            raise CommandError(
                _("there is no tournament with id %(id)s") % {"id": options["tournament_id"]}
            )

        def bar(items: Any, *, desc: str, total: int | None = None) -> Any:
            return progress(
                items, command=self, desc=desc, total=total, verbosity=options["verbosity"]
            )

        archive = tournament_archive(tournament, progress=bar)
        text = json.dumps(archive, ensure_ascii=False, indent=1) + "\n"
        if options["output"]:
            try:
                options["output"].write_text(text, encoding="utf-8")
            except OSError as exc:
                raise CommandError(
                    _("%(path)s cannot be written: %(reason)s")
                    % {"path": options["output"], "reason": exc}
                ) from None
            count = len(archive["series"])
            self.stderr.write(
                ngettext("%(tournament)s: %(count)s series written",
                         "%(tournament)s: %(count)s series written", count)
                % {"tournament": tournament, "count": count}
            )  # fmt: skip
        else:
            self.stdout.write(text, ending="")
