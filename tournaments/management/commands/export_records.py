"""manage.py export_records (--tournament ID | --series ID | --game ID) [-o FILE]."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.management.records import progress
from tournaments.models import Game, Series, Tournament
from tournaments.services.exports import game_nrd, series_nrd, tournament_nrd


class Command(BaseCommand):
    help = "Write the game records of a tournament, a series or a game as .nrd text."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--tournament", type=int)
        which.add_argument("--series", type=int)
        which.add_argument("--game", type=int)
        parser.add_argument("-o", "--output", type=Path, help="file (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["tournament"] is not None:
            tournament = Tournament.objects.filter(pk=options["tournament"]).first()
            if tournament is None:
                raise CommandError(
                    _("there is no tournament with id %(id)s") % {"id": options["tournament"]}
                )

            def bar(items: Any, *, desc: str, total: int | None = None) -> Any:
                return progress(
                    items, command=self, desc=desc, total=total, verbosity=options["verbosity"]
                )

            text = tournament_nrd(tournament, progress=bar)
        elif options["series"] is not None:
            series = Series.objects.filter(pk=options["series"]).first()
            if series is None:
                raise CommandError(
                    _("there is no series with id %(id)s") % {"id": options["series"]}
                )
            text = series_nrd(series)
        else:
            game = Game.objects.filter(pk=options["game"]).first()
            if game is None:
                raise CommandError(_("there is no game with id %(id)s") % {"id": options["game"]})
            text = game_nrd(game)
        if options["output"]:
            options["output"].write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
