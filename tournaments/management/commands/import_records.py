"""manage.py import_records SERIES_ID FILE [FILE ...]: enter the games of record files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.management.records import RecordInFile, located, records_in_file
from tournaments.models import Series
from tournaments.services.errors import ResultError
from tournaments.services.imports import upload_text
from tournaments.services.results import game_enter_record


class Command(BaseCommand):
    help = (
        "Enter the games of .nrd record files into a series, in order, each verified by "
        "the engine and entered in its own transaction; stops at the first refused game."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("series_id", type=int, help="the series' id")
        parser.add_argument("files", nargs="+", type=Path, help="record files (.nrd)")

    def handle(self, *args: Any, **options: Any) -> None:
        series = Series.objects.filter(pk=options["series_id"]).first()
        if series is None:
            raise CommandError(
                _("there is no series with id %(id)s") % {"id": options["series_id"]}
            )
        files: list[tuple[Path, list[RecordInFile]]] = []
        for path in options["files"]:
            try:
                text = upload_text(path.read_bytes())
            except OSError as exc:
                raise CommandError(
                    _("%(path)s cannot be read: %(reason)s") % {"path": path, "reason": exc}
                ) from None
            except ResultError as exc:
                raise CommandError(
                    _("%(path)s: %(message)s") % {"path": path, "message": exc.message}
                ) from None
            records = records_in_file(text)
            if not records:
                raise CommandError(_("%(path)s holds no game") % {"path": path})
            files.append((path, records))
        entered = 0
        for path, records in files:
            if len(files) > 1:
                self.stdout.write(_("%(path)s:") % {"path": path})
            for record in records:
                try:
                    game = game_enter_record(series=series, record=record.text)
                except ResultError as exc:
                    where = located(exc, first_line=record.line)
                    self.stdout.write(
                        _("game %(number)s: %(note)s") % {"number": record.number, "note": where}
                    )
                    raise CommandError(
                        ngettext(
                            "%(path)s: game %(number)s was refused: %(why)s (%(entered)s game "
                            "entered before it)",
                            "%(path)s: game %(number)s was refused: %(why)s (%(entered)s games "
                            "entered before it)",
                            entered,
                        )
                        % {"path": path, "number": record.number, "why": where, "entered": entered}
                    ) from exc
                entered += 1
                self.stdout.write(
                    _("game %(number)s: %(note)s")
                    % {"number": record.number, "note": game.verification}
                )
        series.refresh_from_db()
        self.stdout.write(
            _("%(entered)s; series %(series)s: %(score1)s-%(score2)s, %(status)s")
            % {"entered": ngettext("%(count)s game entered", "%(count)s games entered", entered)
               % {"count": entered}, "series": series, "score1": series.score1,
               "score2": series.score2, "status": series.get_status_display()}
        )  # fmt: skip
