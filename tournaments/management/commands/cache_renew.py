"""manage.py cache_renew: after a database restore, no cached page from before it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils.translation import ngettext

from tournaments.services.maintenance import caches_renew


class Command(BaseCommand):
    help = (
        "Run after restoring a database backup: every tournament gets a new cache version "
        "and every generation in the shared cache a new token, so that no page cached "
        "before the restore is served again. Safe to run at any time (the pages are "
        "rendered again once)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = caches_renew()
        self.stdout.write(
            ngettext(
                "cached pages renewed: %(count)s tournament",
                "cached pages renewed: %(count)s tournaments",
                count,
            )
            % {"count": count}
        )
