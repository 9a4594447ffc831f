"""Player lists from CSV: the same checks as the registration form, for a whole file.

A name is cleaned as every door cleans it (services/names.py: no control characters, no
formula start); a line naming a known player of the same club - accents and case aside,
"Jana Novakova" for "Jana Nováková" - is that player, not a second one; a line whose name
looks like another known player's (another club, the words in another order, a letter or
two apart: selectors/people.py) is held back for the director to decide, as the form's
similar-name offer does, unless the import is told to create such players anyway; and a
round robin already paired takes nobody (services/setup.py::entries_open_check)."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from tournaments.caching import people_changed, tournaments_touch
from tournaments.models import START_RATING, Club, Entry, Player, PlayerRating, Tournament, Variant
from tournaments.selectors.people import SIMILAR_RATIO, name_folded
from tournaments.services.errors import ApplicationError
from tournaments.services.exports import Progress, no_progress
from tournaments.services.imports import upload_text
from tournaments.services.names import name_clean
from tournaments.services.people import rating_valid
from tournaments.services.setup import entries_open_check

COLUMNS = ("name", "club", "rating")
# letter-level likeness costs a comparison per file line and known player: above this many
# pairs (a 1,000-line file against a 1,000-player register) only the folded names and
# their words are compared, which stays a dictionary look-up
TYPO_PAIRS = 1_000_000


@dataclass(frozen=True)
class SimilarLine:
    """A line whose name looks like known players' (``players``: id and name with club);
    ``created`` is the player made anyway (the import was told to), for a merge."""

    line: int
    name: str
    players: tuple[tuple[int, str], ...]
    created: int | None = None


def similar_line_data(similar: SimilarLine) -> dict[str, Any]:
    """A held-back (or created anyway) line as plain data: a job's result, the API."""
    return {
        "line": similar.line, "name": similar.name, "created": similar.created,
        "players": [{"id": pk, "name": label} for pk, label in similar.players],
    }  # fmt: skip


@dataclass
class PlayersImport:
    created: list[Player] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)  # (line, reason)
    matched: int = 0  # into a tournament: players already known, entered
    entered: int = 0  # into a tournament: entries made (created or matched players)
    similar: list[SimilarLine] = field(default_factory=list)
    # lines matched to a known player spelled otherwise: (line, the file's name, the player's)
    spellings: list[tuple[int, str, str]] = field(default_factory=list)


def _labelled(name: str, club: str | None) -> str:
    return f"{name} ({club})" if club else name


class _Register:
    """The known players, their names folded once (accents, case, spaces)."""

    def __init__(self) -> None:
        rows = Player.objects.values_list("pk", "name", "club_id", "club__name")
        self.same: dict[tuple[str, int | None], tuple[int, str]] = {}
        self.words: dict[tuple[str, ...], list[tuple[int, str]]] = defaultdict(list)
        self.folded: list[tuple[str, int, str]] = []
        for pk, name, club_id, club_name in rows.order_by("pk"):
            folded = name_folded(name)
            self.same.setdefault((folded, club_id), (pk, name))
            self.words[tuple(sorted(folded.split()))].append((pk, _labelled(name, club_name)))
            self.folded.append((folded, pk, _labelled(name, club_name)))

    def known(self, name: str, club: Club | None) -> tuple[int, str] | None:
        """The player this line names: the same folded name in the same club (or both
        without one)."""
        return self.same.get((name_folded(name), club.pk if club else None))

    def similar(self, name: str, *, typos: bool) -> list[tuple[int, str]]:
        """Known players who may be the same person (not of the line's club)."""
        target = name_folded(name)
        found = dict(self.words.get(tuple(sorted(target.split())), []))
        if typos:
            for folded, pk, label in self.folded:
                matcher = SequenceMatcher(None, target, folded)
                if matcher.real_quick_ratio() >= SIMILAR_RATIO and matcher.ratio() >= SIMILAR_RATIO:
                    found.setdefault(pk, label)
        return sorted(found.items())[:5]


def _rating(value: str) -> float | None:
    if not value.strip():
        return START_RATING
    try:
        rating = float(value)
    except ValueError:
        return None
    return rating if rating_valid(rating) else None


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


@dataclass
class _Sorted:
    """The file's good lines sorted out against the register."""

    new: list[tuple[int, Player, float]] = field(default_factory=list)  # line, player, rating
    known: list[int] = field(default_factory=list)
    alike: dict[int, SimilarLine] = field(default_factory=dict)  # by line: created anyway


def _sort_lines(
    wanted: list[tuple[int, str, str, float]],
    clubs: dict[str, Club],
    tournament: Tournament | None,
    report: PlayersImport,
    create_similar: bool,
) -> _Sorted:
    """The players to create, with their ratings, and the ids of those already known
    (entered into the ``tournament``); a known player is refused when there is no
    tournament to enter, a name like a known player's unless ``create_similar``."""
    register = _Register()
    typos = len(register.folded) * len(wanted) <= TYPO_PAIRS
    out = _Sorted()
    entered = set(tournament.entries.values_list("player_id", flat=True)) if tournament else set()
    for line, name, club_name, rating in wanted:
        club = clubs[club_name.casefold()] if club_name else None
        hit = register.known(name, club)
        if hit is not None and hit[1] != name:
            report.spellings.append((line, name, hit[1]))
        if hit is not None and tournament is None:
            report.rejected.append((line, _already_a_player(hit[1], club)))
        elif hit is not None and hit[0] in entered:
            report.rejected.append(
                (line, gettext("%(name)s is registered already.") % {"name": hit[1]})
            )
        elif hit is not None:
            out.known.append(hit[0])
        elif (alike := register.similar(name, typos=typos)) and not create_similar:
            report.similar.append(SimilarLine(line, name, tuple(alike)))
            names = ", ".join(label for _, label in alike)
            report.rejected.append((line, gettext(
                "%(name)s looks like %(names)s: register the right player on the players "
                "page, or import the line again with similar names allowed"
            ) % {"name": name, "names": names}))  # fmt: skip
        else:
            out.new.append((line, Player(name=name, club=club), rating))
            if alike:
                out.alike[line] = SimilarLine(line, name, tuple(alike))
    return out


def _good_lines(
    rows: list[list[str]], header: list[str], report: PlayersImport, progress: Progress
) -> list[tuple[int, str, str, float]]:
    """The lines to import (line, name, club, rating); the others go to ``report``."""
    seen: dict[tuple[str, str], int] = {}
    wanted: list[tuple[int, str, str, float]] = []
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
        key = (name_folded(name), club_name.casefold())  # "Novakova" twice, or "Nováková"
        problem = _row_problem(name, club_name, rating, values, seen.get(key))
        if problem:
            report.rejected.append((line, problem))
        else:
            assert rating is not None
            seen[key] = line
            wanted.append((line, name, club_name, rating))
    return wanted


@transaction.atomic
def players_import_csv(
    *,
    data: str | bytes,
    tournament: Tournament | None = None,
    create_similar: bool = False,
    progress: Progress = no_progress,
) -> PlayersImport:
    """Players from CSV (header ``name,club,rating``; club and rating may be empty).
    Good lines are saved together; the others are reported with the reason.

    Into a ``tournament``: a player already known (the same name, accents and case aside,
    and the same club) is not created again but entered, as a director registering a
    club's list expects; every player of the file is entered, except those entered
    already (reported). A name like a known player's is held back (``report.similar``)
    unless ``create_similar``. A round robin already paired takes nobody (refused)."""
    if tournament is not None:
        entries_open_check(tournament=tournament)
    rows, header = _players_csv(data)
    report = PlayersImport()
    wanted = _good_lines(rows, header, report, progress)
    clubs = _clubs_for([club_name for _, _, club_name, _ in wanted if club_name])
    lines = _sort_lines(wanted, clubs, tournament, report, create_similar)
    report.created = Player.objects.bulk_create([p for _, p, _ in lines.new], batch_size=1000)
    for line, player, _rating in lines.new:
        if line in lines.alike:
            alike = lines.alike[line]
            report.similar.append(SimilarLine(line, alike.name, alike.players, player.pk))
    # the file's rating is where the new player's history in the tournament's game (long
    # nardy without a tournament) starts (docs/ratings.md); 1500 is everybody's start
    variant = tournament.variant if tournament is not None else Variant.LONG
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(player=p, variant=variant, rating=rating, start_rating=rating)
            for _, p, rating in lines.new
            if rating != START_RATING
        ],
        batch_size=1000,
    )
    people_changed()  # a bulk write: no signal (clubs created above too)
    if tournament is not None:
        ids = lines.known + [p.pk for p in report.created]
        Entry.objects.bulk_create(
            [Entry(tournament=tournament, player_id=pk) for pk in ids], batch_size=1000
        )
        tournaments_touch(where=Q(pk=tournament.pk))  # a bulk write: no signal
        report.matched, report.entered = len(lines.known), len(ids)
    report.rejected.sort()
    report.similar.sort(key=lambda s: s.line)
    return report


__all__ = ["PlayersImport", "SimilarLine", "players_import_csv", "similar_line_data"]
