"""manage.py clear_unconfirmed_accounts: sign-ups never confirmed, once their link has
expired, go (services/accounts.py::accounts_clear_unconfirmed)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import ngettext

from tournaments.services.accounts import (
    CONFIRM_DAYS,
    accounts_clear_unconfirmed,
    accounts_unconfirmed_expired,
)


class Command(BaseCommand):
    # the help, as Django's own commands', is English; what the command says is translated
    help = (
        "Delete the accounts signed up and never confirmed whose confirmation link has "
        f"expired ({CONFIRM_DAYS} days), freeing their usernames and addresses. Accounts that "
        "anything refers to (a player, a tournament, a permission) and staff are kept. "
        "Safe to run at any time; run it daily, as Django's clearsessions."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="only count them, delete nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["dry_run"]:
            count = accounts_unconfirmed_expired().count()
            text = ngettext(
                "would delete %(count)s unconfirmed account",
                "would delete %(count)s unconfirmed accounts",
                count,
            )
        else:
            count = accounts_clear_unconfirmed()
            text = ngettext(
                "deleted %(count)s unconfirmed account",
                "deleted %(count)s unconfirmed accounts",
                count,
            )
        self.stdout.write(text % {"count": count})
