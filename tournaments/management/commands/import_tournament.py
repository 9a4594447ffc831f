"""manage.py import_tournament FILE [--name NAME]: a tournament from a JSON archive."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.management.records import progress
from tournaments.services.archives import ArchiveImport, tournament_import
from tournaments.services.errors import ApplicationError
from tournaments.services.json_input import json_read


class Command(BaseCommand):
    help = (
        "Import a tournament archive written by export_tournament (here or elsewhere): new "
        "ids, players matched by name and club or created; all or nothing. Run by the "
        "server's operator, it imports the archive as it is (as staff do): its directors "
        "direct the copy too, and the accounts it names that are missing are created "
        "inactive, without a password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--name", help="import under another name")
        parser.add_argument(
            "--copy", action="store_true",
            help="import it although the tournament is here already (the archive's "
            "fingerprint): a copy of its own, named '… (copy)' unless --name is given",
        )  # fmt: skip
        parser.add_argument(
            "--as-archived", action="store_true",
            help="published and rated as the archive says (else it comes in unpublished "
            "and unrated until its director says otherwise)",
        )  # fmt: skip
        parser.add_argument(
            "--user",
            help="the account the import is made by: it directs the tournament, and the "
            "results and corrections are its (their archived authors are kept as text)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            archive = json_read(options["file"].read_bytes())
        except OSError as exc:
            raise CommandError(
                _("%(path)s cannot be read: %(reason)s") % {"path": options["file"], "reason": exc}
            ) from None
        except ApplicationError as exc:
            raise CommandError(
                _("%(path)s: %(message)s") % {"path": options["file"], "message": exc.message}
            ) from None

        by = None
        if options["user"]:
            by = get_user_model().objects.filter(username=options["user"]).first()
            if by is None:
                raise CommandError(_("there is no user “%(name)s”") % {"name": options["user"]})

        def bar(items: Any, *, desc: str, total: int | None = None) -> Any:
            return progress(
                items, command=self, desc=desc, total=total, verbosity=options["verbosity"]
            )

        try:
            result = tournament_import(
                archive=archive, by=by, name=options["name"], progress=bar,
                as_copy=options["copy"], as_archived=options["as_archived"],
            )  # fmt: skip
        except ApplicationError as exc:
            raise CommandError(
                _("%(path)s: %(message)s") % {"path": options["file"], "message": exc.message}
            ) from None
        self.stdout.write(_summary(result))


def _summary(result: ArchiveImport) -> str:
    """``tournament 7 Přebor: 4 players created, 2 matched[; inactive accounts created: …]``"""
    t = result.tournament
    created = ngettext(
        "%(count)s player created", "%(count)s players created", result.players_created
    ) % {"count": result.players_created}
    matched = ngettext("%(count)s matched", "%(count)s matched", result.players_matched) % {
        "count": result.players_matched
    }
    line = _("tournament %(id)s %(name)s: %(created)s, %(matched)s") % {
        "id": t.pk, "name": t.name, "created": created, "matched": matched}  # fmt: skip
    if result.users_created:
        accounts = ngettext(
            "inactive account created: %(names)s",
            "inactive accounts created: %(names)s",
            len(result.users_created),
        ) % {"names": ", ".join(result.users_created)}
        line = _("%(summary)s; %(accounts)s") % {"summary": line, "accounts": accounts}
    return line
