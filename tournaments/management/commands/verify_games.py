"""manage.py verify_games [--tournament ID]: verify every stored record again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.jobs import job_start
from tournaments.management.records import progress, recheck_game
from tournaments.models import Game, JobKind, Tournament


class Command(BaseCommand):
    help = (
        "Verify every stored game record again with the engine (and that it still tells "
        "the stored result); update each game's verified flag and message where they "
        "change. Fails when a game does not verify."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, metavar="ID", help="only this tournament")
        parser.add_argument(
            "--background", action="store_true",
            help="run it as a job (on the worker when CELERY_BROKER_URL is set) and print its id",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.exclude(record="").select_related(
            "series__tournament", "series__player1", "series__player2", "white", "black"
        )
        if options["tournament"] is not None:
            tournament = Tournament.objects.filter(pk=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"there is no tournament with id {options['tournament']}")
            games = games.filter(series__tournament=tournament)
        if options["background"]:
            job = job_start(
                kind=JobKind.VERIFY_GAMES, params={"tournament": options["tournament"]}, by=None,
                tournament=Tournament.objects.filter(pk=options["tournament"]).first(),
            )  # fmt: skip
            self.stdout.write(f"job {job.pk}: {job.status}")
            return
        games = games.order_by("series__tournament_id", "series_id", "number")
        total = games.count()
        failures: list[str] = []
        changed = 0
        bar = progress(
            games.iterator(chunk_size=200), command=self, desc="verifying", total=total,
            unit="game", verbosity=options["verbosity"],
        )  # fmt: skip
        for game in bar:
            verified, message = recheck_game(game)
            if (verified, message) != (game.verified, game.verification):
                game.verified, game.verification = verified, message
                game.save(update_fields=["verified", "verification"])
                changed += 1
            if not verified:
                failures.append(
                    f"  game {game.pk} ({game.series.tournament}: {game.series}, game "
                    f"{game.number}): {message}"
                )
        self.stdout.write(
            f"{total} games with a record: {total - len(failures)} ok, {len(failures)} failed; "
            f"{changed} updated"
        )
        for line in failures:
            self.stdout.write(line)
        if failures:
            raise CommandError(f"{len(failures)} game(s) do not verify")
