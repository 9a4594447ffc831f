"""Imports: game records into a series, player lists from CSV, and tournament archives
written by tournaments/services/exports.py (possibly by another installation)."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User as AuthUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_datetime

from tournaments.management.records import located, records_in_file
from tournaments.models import (
    START_RATING,
    Club,
    Correction,
    Entry,
    Game,
    Player,
    ProhibitedPair,
    RatingChange,
    Round,
    Series,
    SeriesStatus,
    Submission,
    Tournament,
)
from tournaments.services.errors import ResultError
from tournaments.services.exports import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    PAIRING_PLAYERS,
    SETTINGS,
    SNAPSHOT_PLAYERS,
    Progress,
    no_progress,
)
from tournaments.services.results import User, game_enter_record, signed_in

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
    refused: ResultError | None = None

    @property
    def entered(self) -> int:
        return sum(g.ok for g in self.games)


def records_upload(
    *, series: Series, text: str, by: User | None = None, progress: Progress = no_progress
) -> RecordsUpload:
    """Enter the games of a record file into ``series`` in order, each in its own
    transaction (game_enter_record); stop at the first refused game, whose place is
    counted in the file. Games entered before it stay."""
    records = records_in_file(text)
    if not records:
        raise ResultError("the text holds no game", field="record")
    report = RecordsUpload()
    for rec in progress(records, desc="games", total=len(records)):
        try:
            game = game_enter_record(series=series, record=rec.text, by=by)
        except ResultError as exc:
            if exc.line is not None:
                exc.line = rec.line + exc.line - 1
            report.games.append(UploadedGame(rec.number, rec.line, False, located(exc)))
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


def _text(data: str | bytes) -> str:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ResultError(f"the file is not UTF-8 (byte {exc.start})", field="file") from None


def _rating(value: str) -> float | None:
    if not value.strip():
        return START_RATING
    try:
        rating = float(value)
    except ValueError:
        return None
    return rating if math.isfinite(rating) and 0 < rating < 10000 else None


@transaction.atomic
def players_import_csv(*, data: str | bytes, progress: Progress = no_progress) -> PlayersImport:
    """Players from CSV (header ``name,club,rating``; club and rating may be empty).
    Good lines are saved together; the others are reported with the reason."""
    try:
        rows = list(csv.reader(io.StringIO(_text(data))))
    except csv.Error as exc:
        raise ResultError(f"the file is not CSV: {exc}", field="file") from None
    header = [c.strip().casefold() for c in rows[0]] if rows else []
    if "name" not in header:
        raise ResultError("the first line must be the header: name,club,rating", field="file")
    unknown = [c for c in header if c not in COLUMNS]
    if unknown or len(set(header)) != len(header):
        raise ResultError(
            f"unknown or repeated column {(unknown or header)[0]!r}: the columns are name, "
            "club, rating",
            field="file",
        )
    report = PlayersImport()
    seen: dict[tuple[str, str], int] = {}
    clubs = {c.name.casefold(): c for c in Club.objects.all()}
    lines = list(enumerate(rows[1:], start=2))
    for line, row in progress(lines, desc="players", total=len(lines)):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            report.rejected.append((line, f"{len(row)} fields, the header has {len(header)}"))
            continue
        values = dict(zip(header, (c.strip() for c in row), strict=False))
        name, club_name = values.get("name", ""), values.get("club", "")
        rating = _rating(values.get("rating", ""))
        key = (name.casefold(), club_name.casefold())
        if not name:
            report.rejected.append((line, "missing name"))
        elif len(name) > 120 or len(club_name) > 120:
            report.rejected.append((line, "name or club longer than 120 characters"))
        elif rating is None:
            report.rejected.append((line, f"bad rating {values.get('rating', '')!r}"))
        elif key in seen:
            report.rejected.append((line, f"duplicate of line {seen[key]}"))
        else:
            seen[key] = line
            club: Club | None = clubs.get(club_name.casefold()) if club_name else None
            if club_name and club is None:
                club = clubs[club_name.casefold()] = Club.objects.create(name=club_name)
            if Player.objects.filter(name__iexact=name, club=club).exists():
                where = f"club {club.name}" if club else "no club"
                report.rejected.append((line, f"{name} is already a player of {where}"))
                continue
            report.created.append(Player.objects.create(name=name, club=club, rating=rating))
    return report


# tournament archives -----------------------------------------------------------------


@dataclass
class ArchiveImport:
    tournament: Tournament
    players_created: int = 0
    players_matched: int = 0
    users_created: list[str] = field(default_factory=list)


def tournament_import(
    *, archive: Any, by: User | None = None, name: str | None = None,
    progress: Progress = no_progress,
) -> ArchiveImport:  # fmt: skip
    """A tournament from an archive, with new ids, in one transaction: players are matched
    by name and club or created; user accounts (directors, who entered what) by username
    or created inactive without a password. A bad archive changes nothing."""
    if not isinstance(archive, dict) or archive.get("format") != ARCHIVE_FORMAT:
        raise ResultError("this is not a tournament archive", field="file")
    if archive.get("version") != ARCHIVE_VERSION:
        raise ResultError(
            f"archive version {archive.get('version')!r} is not supported (only {ARCHIVE_VERSION})",
            field="file",
        )
    try:
        with transaction.atomic():
            return _Importer(archive, progress).run(by=by, name=name)
    except ResultError:
        raise
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        InvalidOperation,
        ValidationError,
    ) as exc:
        raise ResultError(f"the archive is damaged: {type(exc).__name__} {exc}") from None
    except IntegrityError as exc:
        raise ResultError(f"the archive is inconsistent: {exc}") from None


def _dt(value: str | None) -> datetime | None:
    return None if value is None else _required_dt(value)


def _required_dt(value: str) -> datetime:
    parsed = parse_datetime(value)
    if parsed is None:
        raise ValueError(f"not a date and time: {value!r}")
    return parsed


class _Importer:
    def __init__(self, archive: dict[str, Any], progress: Progress) -> None:
        self.a = archive
        self.progress = progress
        self.players: dict[int, Player] = {}
        self.users: dict[str, AuthUser] = {}
        self.result: ArchiveImport

    def user(self, username: str | None) -> AuthUser | None:
        if username is None:
            return None
        if username not in self.users:
            model = get_user_model()
            found = model.objects.filter(username=username).first()
            if found is None:
                found = model(username=username, is_active=False)
                found.set_unusable_password()
                found.save()
                self.result.users_created.append(username)
            self.users[username] = found
        return self.users[username]

    def player(self, ref: int | None) -> Player | None:
        if ref is None:
            return None
        if ref not in self.players:
            raise ValueError(f"player {ref} is not in the archive")
        return self.players[ref]

    def required(self, ref: int) -> Player:
        player = self.player(ref)
        if player is None:
            raise ValueError("a player is missing")
        return player

    def required_user(self, username: str) -> AuthUser:
        user = self.user(username)
        if user is None:
            raise ValueError("a user is missing")
        return user

    def pid(self, keys: tuple[str, ...], snapshot: Any) -> Any:
        """A correction snapshot or pairing note with archive references made ids."""
        if not isinstance(snapshot, dict):
            return snapshot
        return {
            k: self.players[v].pk if k in keys and isinstance(v, int) else v
            for k, v in snapshot.items()
        }

    def run(self, *, by: User | None, name: str | None) -> ArchiveImport:
        settings = dict(self.a["tournament"])
        directors = settings.pop("directors", [])
        unknown = sorted(set(settings) - set(SETTINGS))
        if unknown:
            raise ResultError(f"the archive has settings this installation lacks: {unknown}")
        tournament = Tournament(**settings)
        if name:
            tournament.name = name
        tournament.start_date = date.fromisoformat(settings["start_date"])
        if settings.get("end_date"):
            tournament.end_date = date.fromisoformat(settings["end_date"])
        for f in Tournament._meta.concrete_fields:
            if f.get_internal_type() == "DecimalField" and f.name in settings:
                setattr(tournament, f.name, Decimal(str(settings[f.name])))
        tournament.full_clean(exclude=["id"])
        tournament.save()
        self.result = ArchiveImport(tournament)
        for username in directors:
            user = self.user(username)
            assert user is not None
            tournament.directors.add(user)
        account = signed_in(by)
        if account is not None:
            tournament.directors.add(account)
        self.import_players()
        for e in self.a["entries"]:
            Entry.objects.create(
                tournament=tournament, player=self.required(e["player"]), seed=e["seed"],
                withdrawn=e["withdrawn"],
            )  # fmt: skip
        for pp in self.a["prohibited_pairs"]:
            ProhibitedPair.objects.create(
                tournament=tournament, player_a=self.required(pp["player_a"]),
                player_b=self.required(pp["player_b"]), reason=pp["reason"],
            )  # fmt: skip
        rounds = {
            r["number"]: Round.objects.create(tournament=tournament, number=r["number"],
                                              name=r["name"])
            for r in self.a["rounds"]
        }  # fmt: skip
        series_by_ref = {}
        items = self.a["series"]
        for s in self.progress(items, desc="series", total=len(items)):
            series_by_ref[s["ref"]] = self.import_series(tournament, rounds, s)
        for c in self.a["rating_changes"]:
            change = RatingChange.objects.create(
                player=self.required(c["player"]), series=series_by_ref[c["series"]],
                before=c["before"], after=c["after"], experience_before=c["experience_before"],
                at=_required_dt(c["at"]),
            )  # fmt: skip
            assert change.pk
        return self.result

    def import_players(self) -> None:
        clubs: dict[str, Club] = {}
        for c in self.a["clubs"]:
            clubs[c["name"]], _ = Club.objects.get_or_create(
                name=c["name"], defaults={"city": c["city"], "country": c["country"]}
            )
        for p in self.a["players"]:
            club: Club | None = None if p["club"] is None else clubs[p["club"]]
            found = Player.objects.filter(name=p["name"], club=club).first()
            if found is None:
                found = Player.objects.create(
                    name=p["name"], club=club, country=p["country"], rating=p["rating"],
                    experience=p["experience"], active=p["active"],
                )  # fmt: skip
                self.result.players_created += 1
            else:
                self.result.players_matched += 1
            self.players[p["ref"]] = found

    def import_series(
        self, tournament: Tournament, rounds: dict[int, Round], s: dict[str, Any]
    ) -> Series:
        series = Series.objects.create(
            tournament=tournament, round=rounds[s["round"]] if s["round"] is not None else None,
            slot=s["slot"], table=s["table"], player1=self.player(s["player1"]),
            player2=self.player(s["player2"]), length=s["length"],
            status=SeriesStatus.SCHEDULED,  # games can be added only to an open series
            pairing=self.pid(PAIRING_PLAYERS, s["pairing"]),
        )  # fmt: skip
        games: dict[int, Game] = {}
        for g in s["games"]:
            game = Game.objects.create(
                series=series, number=g["number"], white=self.required(g["white"]),
                black=self.required(g["black"]), winner=self.player(g["winner"]), kind=g["kind"],
                ended=g["ended"], cube=g["cube"], record=g["record"], verified=g["verified"],
                verification=g["verification"], entered_by=self.user(g["entered_by"]),
                version=g["version"],
            )  # fmt: skip
            Game.objects.filter(pk=game.pk).update(entered_at=_dt(g["entered_at"]))
            games[game.number] = game
            for c in g["corrections"]:
                correction = Correction.objects.create(
                    game=game, by=self.user(c["by"]), reason=c["reason"],
                    before=self.pid(SNAPSHOT_PLAYERS, c["before"]),
                    after=self.pid(SNAPSHOT_PLAYERS, c["after"]),
                )  # fmt: skip
                Correction.objects.filter(pk=correction.pk).update(at=_dt(c["at"]))
        for sub in s["submissions"]:
            submitted_by = self.required_user(sub["submitted_by"])
            created = Submission.objects.create(
                series=series, number=sub["number"], submitted_by=submitted_by,
                white=self.player(sub["white"]), winner=self.player(sub["winner"]),
                kind=sub["kind"], ended=sub["ended"], cube=sub["cube"], record=sub["record"],
                status=sub["status"], decided_by=self.user(sub["decided_by"]),
                decided_at=_dt(sub["decided_at"]), note=sub["note"],
                game=games[sub["game"]] if sub["game"] is not None else None,
            )  # fmt: skip
            Submission.objects.filter(pk=created.pk).update(submitted_at=_dt(sub["submitted_at"]))
        if s["status"] not in SeriesStatus.values:
            raise ValueError(f"unknown series status {s['status']!r}")
        series.status = s["status"]
        series.score1, series.score2 = Decimal(s["score1"]), Decimal(s["score2"])
        series.winner = self.player(s["winner"])
        series.finished_at = _dt(s["finished_at"])
        series.version = s["version"]
        series.save()
        return series


__all__ = [
    "ArchiveImport",
    "PlayersImport",
    "RecordsUpload",
    "players_import_csv",
    "records_upload",
    "tournament_import",
]
