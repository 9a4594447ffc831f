"""manage.py load_demo [--force]: the demo club and tournaments of fixtures/demo/."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import ProtectedError

from tournaments.management.demo import DemoError, DemoGame, demo_club_name, demo_load
from tournaments.management.records import progress
from tournaments.services.errors import ResultError


class Command(BaseCommand):
    help = (
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
            return progress(games, command=self, desc="games", unit="game", verbosity=verbosity)

        try:
            summary = demo_load(replace=options["force"], progress=bar)
        except (DemoError, ResultError) as exc:
            raise CommandError(f"the demo was not loaded: {exc}") from exc
        except ProtectedError as exc:
            raise CommandError(
                "the old demo cannot be deleted: its players play in other tournaments "
                f"too ({exc.args[0]})"
            ) from exc
        if summary is None:
            self.stdout.write(
                f"The demo club {demo_club_name()!r} exists already: nothing loaded "
                "(--force deletes it and loads the demo again)."
            )
            return
        self.stdout.write(f"Loaded the demo club {summary.club.name!r}: {summary.players} players")
        for tournament, series, games in summary.tournaments:
            self.stdout.write(
                f"  {tournament.name} (id {tournament.pk}): {series} series, {games} games"
            )
