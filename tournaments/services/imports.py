"""Imports: game records into a series, player lists from CSV, and tournament archives
written by tournaments/services/exports.py (possibly by another installation)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext

from tournaments.caching import people_changed, tournaments_touch
from tournaments.models import (
    START_RATING,
    Club,
    Entry,
    Player,
    PlayerRating,
    Series,
    Tournament,
    Variant,
)
from tournaments.selectors.access import User
from tournaments.services.errors import ApplicationError
from tournaments.services.exports import (
    Progress,
    no_progress,
)
from tournaments.services.names import name_clean
from tournaments.services.people import rating_valid
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


# player lists ------------------------------------------------------------------------

COLUMNS = ("name", "club", "rating")


@dataclass
class PlayersImport:
    created: list[Player] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)  # (line, reason)
    matched: int = 0  # into a tournament: players already known, entered
    entered: int = 0  # into a tournament: entries made (created or matched players)


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


def _rating(value: str) -> float | None:
    if not value.strip():
        return START_RATING
    try:
        rating = float(value)
    except ValueError:
        return None
    return rating if rating_valid(rating) else None


def _existing_players(names: set[str]) -> dict[tuple[str, int | None], int]:
    """(case-folded name, club id) -> id of the players already named as in ``names``, in a
    query per 2,000 names. The database's lower() may know only ASCII (SQLite), so the
    exact names are asked for too and the comparison is Python's."""
    exact = sorted(names)
    found: dict[tuple[str, int | None], int] = {}
    for start in range(0, len(exact), 2000):  # within every database's parameter limit
        chunk = exact[start : start + 2000]
        rows = (
            Player.objects.annotate(lname=Lower("name"))
            .filter(Q(name__in=chunk) | Q(lname__in=[n.lower() for n in chunk]))
            .values_list("name", "club_id", "pk")
        )
        found.update(((name.casefold(), club), pk) for name, club, pk in rows)
    return found


def _players_csv(data: str | bytes) -> tuple[list[list[str]], list[str]]:
    """The rows of a players CSV and its header (folded), or ApplicationError."""
    try:
        rows = list(csv.reader(io.StringIO(upload_text(data))))
    except csv.Error as exc:
        raise ApplicationError(
            gettext("the file is not CSV: %(reason)s"),
            code="not-csv",
            params={"reason": str(exc)},
            field="file",
        ) from None
    header = [c.strip().casefold() for c in rows[0]] if rows else []
    if "name" not in header:
        raise ApplicationError(
            gettext("the first line must be the header: name,club,rating"),
            code="csv-header",
            field="file",
        )
    unknown = [c for c in header if c not in COLUMNS]
    if unknown or len(set(header)) != len(header):
        raise ApplicationError(
            gettext("unknown or repeated column %(column)s: the columns are name, club, rating"),
            code="csv-column",
            params={"column": repr((unknown or header)[0])},
            field="file",
        )
    return rows, header


def _row_problem(
    name: str, club_name: str, rating: float | None, values: dict[str, str], seen: int | None
) -> str | None:
    """Why a players CSV line is refused (``seen``: the line of an earlier duplicate)."""
    if not name:
        return gettext("missing name")
    elif len(name) > 120 or len(club_name) > 120:
        return gettext("name or club longer than 120 characters")
    elif rating is None:
        return gettext("bad rating %(rating)s") % {"rating": repr(values.get("rating", ""))}
    elif seen is not None:
        return gettext("duplicate of line %(line)s") % {"line": seen}
    return None


def _already_a_player(name: str, club: Club | None) -> str:
    if club:
        return gettext("%(name)s is already a player of club %(club)s") % {
            "name": name,
            "club": club.name,
        }
    return gettext("%(name)s is already a player without a club") % {"name": name}


def _clubs_for(names: list[str]) -> dict[str, Club]:
    """Every club by folded name, the missing ones of ``names`` created: a few queries for
    the whole file, whatever its length (10,000 players in seconds)."""
    clubs = {c.name.casefold(): c for c in Club.objects.all()}
    new_clubs: dict[str, Club] = {}
    for club_name in names:  # in file order: the first spelling of a new club wins
        if club_name.casefold() not in clubs:
            new_clubs.setdefault(club_name.casefold(), Club(name=club_name))
    clubs |= {c.name.casefold(): c for c in Club.objects.bulk_create(new_clubs.values())}
    return clubs


def _new_and_known(
    wanted: list[tuple[int, str, str, float]],
    clubs: dict[str, Club],
    existing: dict[tuple[str, int | None], int],
    tournament: Tournament | None,
    report: PlayersImport,
) -> tuple[list[tuple[Player, float]], list[int]]:
    """The players to create, with their ratings, and the ids of those already known
    (entered into the ``tournament``); a known player is refused when there is no
    tournament to enter."""
    players: list[tuple[Player, float]] = []
    known: list[int] = []
    entered = set(tournament.entries.values_list("player_id", flat=True)) if tournament else set()
    for line, name, club_name, rating in wanted:
        club = clubs[club_name.casefold()] if club_name else None
        pk = existing.get((name.casefold(), club.pk if club else None))
        if pk is not None and tournament is None:
            report.rejected.append((line, _already_a_player(name, club)))
        elif pk is not None and pk in entered:
            report.rejected.append(
                (line, gettext("%(name)s is registered already.") % {"name": name})
            )
        elif pk is not None:
            known.append(pk)
        else:
            players.append((Player(name=name, club=club), rating))
    return players, known


@transaction.atomic
def players_import_csv(
    *, data: str | bytes, tournament: Tournament | None = None, progress: Progress = no_progress
) -> PlayersImport:
    """Players from CSV (header ``name,club,rating``; club and rating may be empty).
    Good lines are saved together; the others are reported with the reason.

    Into a ``tournament``: a player already known (same name and club) is not created
    again but entered, as a director registering a club's list expects; every player of
    the file is entered, except those entered already (reported)."""
    rows, header = _players_csv(data)
    report = PlayersImport()
    seen: dict[tuple[str, str], int] = {}
    wanted: list[tuple[int, str, str, float]] = []  # line, name, club, rating
    lines = list(enumerate(rows[1:], start=2))
    for line, row in progress(lines, desc="players", total=len(lines)):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            report.rejected.append(
                (line, gettext("%(n)s fields, the header has %(header)s")
                 % {"n": len(row), "header": len(header)})
            )  # fmt: skip
            continue
        values = dict(zip(header, (c.strip() for c in row), strict=False))
        name, club_name = values.get("name", ""), values.get("club", "")
        try:  # the same cleaning as every other door: NFC, no invisible characters
            name = name_clean(name) if name else ""
            club_name = name_clean(club_name, field="club") if club_name else ""
        except ApplicationError as exc:
            report.rejected.append((line, exc.message))
            continue
        rating = _rating(values.get("rating", ""))
        key = (name.casefold(), club_name.casefold())
        problem = _row_problem(name, club_name, rating, values, seen.get(key))
        if problem:
            report.rejected.append((line, problem))
        else:
            assert rating is not None
            seen[key] = line
            wanted.append((line, name, club_name, rating))
    clubs = _clubs_for([club_name for _, _, club_name, _ in wanted if club_name])
    existing = _existing_players({name for _, name, _, _ in wanted})
    players, known = _new_and_known(wanted, clubs, existing, tournament, report)
    report.created = Player.objects.bulk_create([p for p, _ in players], batch_size=1000)
    # the file's rating is where the new player's history in the tournament's game (long
    # nardy without a tournament) starts (docs/ratings.md); 1500 is everybody's start
    variant = tournament.variant if tournament is not None else Variant.LONG
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(player=p, variant=variant, rating=rating, start_rating=rating)
            for p, rating in players
            if rating != START_RATING
        ],
        batch_size=1000,
    )
    people_changed()  # a bulk write: no signal (clubs created above too)
    if tournament is not None:
        ids = known + [p.pk for p in report.created]
        Entry.objects.bulk_create(
            [Entry(tournament=tournament, player_id=pk) for pk in ids], batch_size=1000
        )
        tournaments_touch(where=Q(pk=tournament.pk))  # a bulk write: no signal
        report.matched, report.entered = len(known), len(ids)
    report.rejected.sort()
    return report


__all__ = [
    "PlayersImport",
    "RecordsUpload",
    "players_import_csv",
    "records_enter",
    "records_read",
    "records_upload",
    "upload_text",
]
