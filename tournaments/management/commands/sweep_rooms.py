"""manage.py sweep_rooms: decide the game rooms' timeouts whose deadline has passed
(services/online/rooms.py::room_sweep_timeouts) and tell their sockets. Run it every few
seconds (``--every 2``: it loops), or from cron; every request to a room sweeps it too."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import ngettext

from tournaments.online.consumer import room_changed
from tournaments.services.online.rooms import room_sweep_timeouts


class Command(BaseCommand):
    help = (
        "Decide the timeouts of the game rooms whose turn's deadline has passed: the game "
        "or the series is lost, as the room's settings say. With --every N, loop."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--every", type=float, default=0, help="seconds between sweeps")

    def handle(self, *args: Any, **options: Any) -> None:
        while True:
            changed = room_sweep_timeouts()
            for room_id in changed:
                room_changed(room_id)
            if changed or not options["every"]:
                count = len(changed)
                self.stdout.write(
                    ngettext("%(count)d room timed out.", "%(count)d rooms timed out.", count)
                    % {"count": count}
                )
            if not options["every"]:
                return
            time.sleep(options["every"])
