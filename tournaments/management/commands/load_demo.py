"""manage.py load_demo [--force]: the demo club and tournaments of fixtures/demo/."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import ProtectedError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.management.demo import DemoError, DemoGame, demo_club_name, demo_load
from tournaments.management.records import progress
from tournaments.services.errors import ApplicationError


class Command(BaseCommand):
    help = (  # Django's own options' help is English too: --help stays English
        "Load the demo club, its players and two tournaments from fixtures/demo/, every "
        "game entered (and verified) through the services. Does nothing when the demo "
        "club exists, unless --force."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="delete the demo club, its players and the demo tournaments first",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        verbosity: int = options["verbosity"]

        def bar(games: list[DemoGame]) -> Iterable[DemoGame]:
            return progress(games, command=self, desc=_("games"), unit="game", verbosity=verbosity)

        try:
            summary = demo_load(replace=options["force"], progress=bar)
        except (DemoError, ApplicationError) as exc:  # DemoError is a ApplicationError
            raise CommandError(
                _("the demo was not loaded: %(reason)s") % {"reason": exc.message}
            ) from exc
        except ProtectedError as exc:
            raise CommandError(
                _("the old demo cannot be deleted: its players play in other tournaments "
                  "too (%(reason)s)") % {"reason": exc.args[0]}
            ) from exc  # fmt: skip
        if summary is None:
            self.stdout.write(
                _("The demo club “%(club)s” exists already: nothing loaded (--force deletes "
                  "it and loads the demo again).") % {"club": demo_club_name()}
            )  # fmt: skip
            return
        self.stdout.write(
            ngettext("Loaded the demo club “%(club)s”: %(count)s player",
                     "Loaded the demo club “%(club)s”: %(count)s players", summary.players)
            % {"club": summary.club.name, "count": summary.players}
        )  # fmt: skip
        for tournament, series, games in summary.tournaments:
            self.stdout.write(
                _("  %(tournament)s (id %(id)s): %(series)s series, %(games)s games")
                % {"tournament": tournament.name, "id": tournament.pk, "series": series,
                   "games": games}
            )  # fmt: skip
