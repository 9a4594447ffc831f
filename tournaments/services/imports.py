"""Imports: game records into a series, and an upload's text (player lists from CSV:
services/player_lists.py; tournament archives: services/archives.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext

from tournaments.models import (
    Series,
)
from tournaments.selectors.access import User
from tournaments.services.errors import ApplicationError
from tournaments.services.exports import (
    Progress,
    no_progress,
)
from tournaments.services.record_files import RecordInFile, located, records_in_file
from tournaments.services.results import game_enter_record

# game records ------------------------------------------------------------------------


@dataclass
class UploadedGame:
    game: int  # place in the file, from 1
    line: int  # file line where it starts
    ok: bool
    message: str
    id: int | None = None
    number: int | None = None


@dataclass
class RecordsUpload:
    games: list[UploadedGame] = field(default_factory=list)
    refused: ApplicationError | None = None

    @property
    def entered(self) -> int:
        return sum(g.ok for g in self.games)


def records_read(data: str | bytes) -> list[RecordInFile]:
    """The games of an uploaded record file (a page, the API, a job, import_records): its
    text as every upload's, cut within the record limits; a file without a game is
    refused."""
    records = records_in_file(upload_text(data, field="record"))
    if not records:
        raise ApplicationError(
            gettext("the text holds no game"), code="text-no-game", field="record"
        )
    return records


def records_upload(
    *, series: Series, text: str | bytes, by: User | None = None, progress: Progress = no_progress
) -> RecordsUpload:
    """Enter the games of a record file into ``series`` in order (records_enter)."""
    return records_enter(series=series, records=records_read(text), by=by, progress=progress)


def records_enter(
    *, series: Series, records: list[RecordInFile], by: User | None = None,
    progress: Progress = no_progress,
) -> RecordsUpload:  # fmt: skip
    """Enter the games of a record file into ``series`` in order, each in its own
    transaction (game_enter_record); stop at the first refused game, whose place (the
    message's and the error's line) is counted in the file. Games entered before it
    stay."""
    report = RecordsUpload()
    for rec in progress(records, desc="games", total=len(records)):
        try:
            game = game_enter_record(series=series, record=rec.text, by=by)
        except ApplicationError as exc:
            where = located(exc, first_line=rec.line)
            if exc.line is not None:
                exc.line = rec.line + exc.line - 1
            report.games.append(UploadedGame(rec.number, rec.line, False, where))
            report.refused = exc
            break
        report.games.append(
            UploadedGame(rec.number, rec.line, True, game.verification, game.pk, game.number)
        )
    return report


def upload_text(data: str | bytes, *, field: str | None = "file") -> str:
    """Uploaded bytes (or text) as text: UTF-8, a byte order mark dropped, and no NUL
    character (no text holds one, and PostgreSQL refuses it)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ApplicationError(
                gettext("the file is not UTF-8 text (byte %(byte)s)"),
                code="not-utf8",
                params={"byte": exc.start},
                field=field,
            ) from None
    text = data.removeprefix("\ufeff")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise ApplicationError(
            gettext("line %(line)s holds a NUL character: this is not a text file"),
            code="nul-character",
            params={"line": line},
            field=field,
            line=line,
        )
    return text


__all__ = [
    "RecordsUpload",
    "records_enter",
    "records_read",
    "records_upload",
    "upload_text",
]
