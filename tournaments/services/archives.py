"""A tournament archive (written by tournaments/services/exports.py, here or elsewhere)
read back through the same services as every other door: the tournament, its players,
rounds and series by the setup services, each game by quick or record entry, so that its
outcome, cube and colours are checked and every score is computed, never trusted. A score
the archive states must agree with its games. Who entered or corrected a result is the
importing user; a correction keeps its archived author's name as text."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db import transaction
from django.db.models import Q
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from tournaments.caching import people_changed, tournaments_touch
from tournaments.models import (
    START_RATING,
    Club,
    Correction,
    Entry,
    Game,
    GameEnd,
    GameKind,
    Player,
    PlayerRating,
    ProhibitedPair,
    Round,
    Series,
    SeriesStatus,
    Submission,
    Tournament,
)
from tournaments.selectors.access import User, signed_in
from tournaments.services.archive_damage import DAMAGE, Place, archive_damage
from tournaments.services.directing import tournament_create_by
from tournaments.services.errors import ApplicationError, Conflict
from tournaments.services.exports import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    PAIRING_PLAYERS,
    SETTINGS,
    SNAPSHOT_PLAYERS,
    Progress,
    no_progress,
)
from tournaments.services.names import name_clean
from tournaments.services.ratings import ratings_recompute
from tournaments.services.results import game_enter_quick, game_enter_record, game_snapshot
from tournaments.services.setup import round_create, seed_check, series_create, series_forfeit
from tournaments.wording.verification import Note, is_note, note_from_text


@dataclass
class ArchiveImport:
    tournament: Tournament
    players_created: int = 0
    players_matched: int = 0
    users_created: list[str] = field(default_factory=list)
    directors_skipped: list[str] = field(default_factory=list)
    # not trusted: submitted results left out, their authors' names (the importer's own
    # are kept), and the deciders' names left out of the kept ones
    submissions_skipped: int = 0
    authors_skipped: list[str] = field(default_factory=list)


def tournament_import(
    *, archive: Any, by: User | None = None, name: str | None = None,
    progress: Progress = no_progress, trusted: bool = True, as_copy: bool = False,
    as_archived: bool = False,
) -> ArchiveImport:  # fmt: skip
    """A tournament from an archive, with new ids, in one transaction: players are matched
    by name and club or created; the games are entered again through the result services
    and the series' scores, statuses and winners must agree with them. A refused archive
    changes nothing; the error names its place (series, game, field).

    ``trusted`` (staff and the command line): the archive's directors direct the copy
    too, and the accounts the archive names (directors, submitters, deciders) that this
    installation lacks are created, inactive and without a password (``users_created``).

    Not trusted (a director who is not staff): the import creates no account and names
    no one's but the importer's. The importer directs the copy alone (the archive's other
    directors are kept in ``directors_skipped``); a submitted result by anyone else is
    left out (``submissions_skipped``, its authors in ``authors_skipped``: the games
    themselves are imported, as the importer's), and a decision by anyone else is kept
    without its author.

    The archive's fingerprint names its tournament: an archive whose tournament is on
    the site already is refused (``archive-already-here``, 409), unless imported
    ``as_copy``: a tournament of its own, named "… (copy)" unless ``name`` is given.
    The import comes in unpublished and unrated (its series count in no rating) until its
    director says otherwise; ``as_archived`` keeps the archive's published and rated."""
    if not isinstance(archive, dict) or archive.get("format") != ARCHIVE_FORMAT:
        raise ApplicationError(
            gettext("this is not a tournament archive"), code="not-archive", field="file"
        )
    if archive.get("version") != ARCHIVE_VERSION:
        raise ApplicationError(
            gettext("archive version %(version)s is not supported (only %(supported)s)"),
            code="archive-version",
            params={"version": repr(archive.get("version")), "supported": ARCHIVE_VERSION},
            field="file",
        )
    if _holds_nul(archive):
        raise ApplicationError(
            gettext("the archive holds a NUL character, which no text may"),
            code="archive-nul",
            field="file",
        )
    fingerprint = _fingerprint(archive)
    if fingerprint is not None and not as_copy:
        here = Tournament.objects.filter(fingerprint=fingerprint).first()
        if here is not None:
            raise Conflict(
                gettext("this tournament is on the site already: %(name)s (id %(id)s); "
                        "import it as a copy to have it twice"),
                code="archive-already-here", params={"name": here.name, "id": here.pk},
                current=here.pk, field="file",
            )  # fmt: skip
    importer = _Importer(archive, progress, signed_in(by), trusted=trusted)
    importer.fingerprint = None if as_copy else fingerprint
    importer.as_copy, importer.as_archived = as_copy, as_archived
    try:
        with transaction.atomic():
            return importer.run(name=name)
    except ApplicationError:
        raise
    except DAMAGE as exc:  # said in words, with where the import stopped
        raise archive_damage(exc, importer.place) from None


def _fingerprint(archive: dict[str, Any]) -> uuid.UUID | None:
    """The archive's fingerprint (None in archives made before it was kept)."""
    value = archive.get("fingerprint")
    if value is None:
        return None
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise ApplicationError(
            gettext("the archive's fingerprint %(value)s is not one"),
            code="archive-fingerprint",
            params={"value": repr(value)[:60]},
            field="file",
        ) from None


def _holds_nul(archive: Any) -> bool:
    stack = [archive]
    while stack:  # no recursion: a hostile archive may be deeply nested
        value = stack.pop()
        if isinstance(value, str) and "\x00" in value:
            return True
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def _dt(value: str | None) -> datetime | None:
    return None if value is None else _required_dt(value)


def _required_dt(value: str) -> datetime:
    parsed = parse_datetime(value)
    if parsed is None:
        raise ValueError(f"not a date and time: {value!r}")
    return parsed


# "... (correction by boss, imported)": the archived author, kept as text.
_AUTHOR = re.compile(r"\(correction by .*, imported\)$")


def correction_reason(reason: str, author: str | None, importer: AuthUser | None) -> str:
    """The reason of an imported correction, naming its archived author unless that is
    the importing user or the reason names an author already (an archive imported twice).

    >>> correction_reason("it was a mars", "boss", None)
    'it was a mars (correction by boss, imported)'
    >>> correction_reason("it was a mars (correction by boss, imported)", "eva", None)
    'it was a mars (correction by boss, imported)'
    """
    reason = reason.strip()
    if not reason:
        raise ValueError("a correction without a reason")
    if author is None or _AUTHOR.search(reason):
        return reason
    if importer is not None and importer.username == author:
        return reason
    return f"{reason} (correction by {author}, imported)"


class _Importer:
    def __init__(
        self, archive: dict[str, Any], progress: Progress, by: AuthUser | None, *, trusted: bool
    ):
        self.a = archive
        self.progress = progress
        self.by = by
        self.trusted = trusted
        self.players: dict[int, Player] = {}
        self.users: dict[str, AuthUser] = {}
        self.result: ArchiveImport
        self.fingerprint: uuid.UUID | None = None
        self.as_copy = self.as_archived = False
        self.place = Place()  # where in the archive the import is (a refusal says it)

    def user(self, username: str | None) -> AuthUser | None:
        """The account the archive names: found, or (trusted) created inactive. Not
        trusted: the importer's own account, else None (no one else is named)."""
        if username is None:
            return None
        if not isinstance(username, str) or not username.strip():
            raise ValueError(f"not a username: {username!r}")
        if not self.trusted:
            return self.by if self.by is not None and username == self.by.get_username() else None
        if username not in self.users:
            model = get_user_model()
            found = model.objects.filter(username=username).first()
            if found is None:
                found = model(username=username, is_active=False)
                found.set_unusable_password()
                found.full_clean(exclude=["password"])
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

    def pid(self, keys: tuple[str, ...], snapshot: Any) -> dict[str, Any]:
        """A correction snapshot or pairing note with archive references made ids."""
        if not isinstance(snapshot, dict):
            raise ValueError(f"not an object: {snapshot!r}")
        return {
            k: self.required(v).pk if k in keys and isinstance(v, int) else v
            for k, v in snapshot.items()
        }

    def settings(self) -> tuple[dict[str, Any], list[str]]:
        """The archived tournament's settings as model values, and its directors."""
        settings = dict(self.a["tournament"])
        archived = settings.pop("directors", [])
        unknown = sorted(set(settings) - set(SETTINGS))
        if unknown:
            raise ApplicationError(
                gettext("the archive has settings this installation lacks: %(names)s"),
                code="archive-settings",
                params={"names": ", ".join(unknown)},
            )
        settings["start_date"] = date.fromisoformat(settings["start_date"])
        if settings.get("end_date"):
            settings["end_date"] = date.fromisoformat(settings["end_date"])
        for f in Tournament._meta.concrete_fields:
            if f.get_internal_type() == "DecimalField" and f.name in settings:
                settings[f.name] = Decimal(str(settings[f.name]))
        return settings, archived

    def register_entries(self, tournament: Tournament) -> list[int]:
        """Enter the archived players; the ids of the entries to withdraw at the end."""
        entries = []
        seen: set[int] = set()
        for e in self.a["entries"]:
            self.place.at("entry", ref=e.get("player"))
            seed_check(e["seed"])
            if self.required(e["player"]).pk in seen:
                raise ApplicationError(
                    gettext("player %(ref)s is entered twice"), code="archive-entry-twice",
                    params={"ref": e["player"]}, field="file",
                )  # fmt: skip
            seen.add(self.required(e["player"]).pk)
            entry = Entry(tournament=tournament, player=self.required(e["player"]), seed=e["seed"])
            entry.full_clean(
                exclude=["tournament", "player"], validate_unique=False, validate_constraints=False
            )
            entries.append((entry, bool(e["withdrawn"])))
        Entry.objects.bulk_create([entry for entry, _ in entries], batch_size=1000)
        tournaments_touch(where=Q(pk=tournament.pk))  # a bulk write: no signal
        return [entry.pk for entry, withdrawn in entries if withdrawn]

    def run(self, *, name: str | None) -> ArchiveImport:
        self.place.at("settings")
        settings, archived = self.settings()
        title = name or settings["name"]
        if self.as_copy and not name:
            title = gettext("%(name)s (copy)") % {"name": title}
        settings.pop("name", None)
        if not self.as_archived:  # seen and counted once its director says so
            settings["published"] = settings["rated"] = False
        if self.fingerprint is not None:
            settings["fingerprint"] = self.fingerprint
        tournament = tournament_create_by(by=self.by or AnonymousUser(), name=title, **settings)
        self.result = ArchiveImport(tournament)
        for username in archived:
            user = self.user(username)
            if user is None:  # not trusted: the importer directs the copy alone
                self.result.directors_skipped.append(str(username))
            else:
                tournament.directors.add(user)
        self.import_players(tournament.variant)
        withdrawn = self.register_entries(tournament)
        self.place.at("pair")
        for pp in self.a["prohibited_pairs"]:
            ProhibitedPair.objects.create(
                tournament=tournament, player_a=self.required(pp["player_a"]),
                player_b=self.required(pp["player_b"]), reason=pp["reason"],
            )  # fmt: skip
        rounds = self.create_rounds(tournament)
        # Every series first (bracket moves find them by slot), then their games.
        items = self.a["series"]
        created = [(s, self.create_series(tournament, rounds, s)) for s in items]
        played = sorted(created, key=_play_order)
        for s, series in self.progress(played, desc="series", total=len(played)):
            try:
                self.play_series(s, series)
            except ApplicationError as exc:
                raise exc.within(
                    gettext("series %(ref)s (%(series)s): %(message)s"),
                    ref=s["ref"],
                    series=str(series),
                    field=f"series[{s['ref']}].{exc.field or 'games'}",
                ) from None
        Entry.objects.filter(pk__in=withdrawn).update(withdrawn=True)
        tournaments_touch(where=Q(entries__in=withdrawn))  # a bulk write: no signal
        if tournament.rated and any(s.finished_at is not None for _, s in created):
            ratings_recompute()  # the archived finish times order the rated series
        return self.result

    def create_rounds(self, tournament: Tournament) -> dict[int, Round]:
        rounds: dict[int, Round] = {}
        for r in self.a["rounds"]:
            self.place.at("round", number=r.get("number"))
            rounds[r["number"]] = round_create(
                tournament=tournament, number=r["number"], name=r["name"]
            )
        return rounds

    def import_players(self, variant: str) -> None:
        clubs: dict[str, Club] = {}
        for c in self.a["clubs"]:
            self.place.at("club", name=c.get("name"))
            clubs[c["name"]], _ = Club.objects.get_or_create(
                name=c["name"], defaults={"city": c["city"], "country": c["country"]}
            )
        # A new player's history here starts where the archive's starts: the rating
        # before their first archived change, or their rating if they have none.
        starts: dict[int, float] = {}
        for c in sorted(self.a.get("rating_changes", []), key=lambda c: (c["at"], c["series"])):
            starts.setdefault(c["player"], c["before"])
        # linear in the players (test_archive_big.py): the known ones in a query per 2,000
        # names, the new ones checked one by one in memory and saved together
        archived = self.a["players"]
        names = sorted({str(p["name"]) for p in archived})
        known: dict[tuple[str, int | None], Player] = {}
        for first in range(0, len(names), 2000):
            for found in Player.objects.filter(name__in=names[first : first + 2000]):
                known[(found.name, found.club_id)] = found
        new: list[Player] = []
        new_starts: list[tuple[Player, float]] = []
        for p in archived:
            self.place.at("player", ref=p.get("ref"))
            club: Club | None = None if p["club"] is None else clubs[p["club"]]
            player = known.get((p["name"], club.pk if club else None))
            if player is None:
                player = Player(name=name_clean(p["name"]), club=club, country=p["country"],
                                active=p["active"])  # fmt: skip
                start = starts.get(p["ref"], p.get("rating"))
                if start is not None and start != START_RATING:
                    new_starts.append((player, start))
                player.full_clean(validate_unique=False, validate_constraints=False)
                known[(player.name, club.pk if club else None)] = player
                new.append(player)
            self.players[p["ref"]] = player
        Player.objects.bulk_create(new, batch_size=1000)
        # the archive is of one game: the starts are of the tournament's game
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(player=player, variant=variant, rating=start, start_rating=start)
                for player, start in new_starts
            ],
            batch_size=1000,
        )
        if new:
            people_changed()  # a bulk write: no signal
        self.result.players_created = len(new)
        self.result.players_matched = len(archived) - len(new)

    def create_series(
        self, tournament: Tournament, rounds: dict[int, Round], s: dict[str, Any]
    ) -> Series:
        self.place.at("series", ref=s.get("ref"))
        values = {"slot": s["slot"], "table": s["table"], "length": s["length"],
                  "pairing": self.pid(PAIRING_PLAYERS, s["pairing"])}  # fmt: skip
        Series(tournament=tournament, **values).full_clean(
            exclude=["tournament", "round", "player1", "player2", "winner"]
        )  # the values fit their columns
        series = series_create(
            tournament=tournament, round=rounds[s["round"]] if s["round"] is not None else None,
            slot=s["slot"], table=s["table"], player1=self.player(s["player1"]),
            player2=self.player(s["player2"]), length=s["length"],
        )  # fmt: skip
        series.pairing = values["pairing"]
        series.save(update_fields=["pairing"])
        return series

    def play_series(self, s: dict[str, Any], series: Series) -> None:
        """Enter the archived games through the result services, then check that the
        series' stated score, status and winner are what the games give."""
        self.place.at("series", ref=s.get("ref"))
        if s["status"] not in SeriesStatus.values:
            raise ApplicationError(
                gettext("unknown series status %(status)s"),
                code="unknown-series-status",
                params={"status": repr(s["status"])},
                field="status",
            )
        games: dict[int, Game] = {}
        for g in s["games"]:
            self.place.at("game", series=s.get("ref"), number=g.get("number"))
            try:
                games[g["number"]] = self.enter_game(series, g)
            except ApplicationError as exc:
                raise exc.within(
                    gettext("game %(number)s: %(message)s"),
                    number=g["number"],
                    field=f"games[{g['number']}].{exc.field or 'record'}",
                ) from None
        series.refresh_from_db()
        if s["status"] == SeriesStatus.FORFEITED and series.status != SeriesStatus.FORFEITED:
            series = series_forfeit(series=series, winner=self.required(s["winner"]))
        elif series.player2_id is None and not games and s["status"] == SeriesStatus.FINISHED:
            if s["winner"] is None or self.player(s["winner"]) != series.player1:
                raise ApplicationError(
                    gettext("a bye is won by its one player"), code="bye-winner", field="winner"
                )
            series.status, series.winner = SeriesStatus.FINISHED, series.player1
        stated = {
            "status": s["status"], "score1": Decimal(s["score1"]),
            "score2": Decimal(s["score2"]), "winner": self.player(s["winner"]),
        }  # fmt: skip
        for name, value in stated.items():
            computed = getattr(series, name)
            if value != computed:
                raise ApplicationError(
                    gettext(
                        "%(name)s is %(archived)s in the archive, but its games give %(computed)s"
                    ),
                    code="archive-series-differs",
                    params={"name": name, "archived": _shown(value), "computed": _shown(computed)},
                    field=name,
                )
        if series.status in (SeriesStatus.FINISHED, SeriesStatus.FORFEITED):
            series.finished_at = _dt(s["finished_at"]) or series.finished_at
        series.version = int(s.get("version", series.version))  # as often changed as it was
        series.save()
        self.import_submissions(s, series, games)

    def enter_game(self, series: Series, g: dict[str, Any]) -> Game:
        number, white, record = g["number"], self.required(g["white"]), g["record"] or ""
        if not isinstance(record, str):
            raise ApplicationError(
                gettext("a record is text"), code="record-not-text", field="record"
            )
        record = series_tag_renewed(record, series.pk)
        if record and g["verified"]:
            game = game_enter_record(series=series, record=record, number=number, by=self.by)
            if game.white_id != white.pk:
                raise ApplicationError(
                    gettext("the record has %(player)s with white"),
                    code="archive-white-differs",
                    params={"player": game.white.name},
                    field="white",
                )
        else:
            game = game_enter_quick(
                series=series, white=white, winner=self.player(g["winner"]), kind=g["kind"],
                number=number, ended=g["ended"], cube=g["cube"], by=self.by,
            )  # fmt: skip
        told = game_snapshot(game)
        for key in ("black", "winner", "kind", "ended", "cube"):
            archived = g[key]
            if key in SNAPSHOT_PLAYERS:
                archived = None if archived is None else self.required(archived).pk
            if told[key] != archived:
                raise ApplicationError(
                    gettext("%(name)s is %(archived)s, but the record tells %(told)s"),
                    code="archive-game-differs",
                    params={"name": key, "archived": repr(archived), "told": repr(told[key])},
                    field=key,
                )
        if record and not g["verified"]:
            # a record kept beside a result corrected by hand: stored, marked unverified
            game.record, game.verified = record, False
            game.verification_note = archived_note(g, cube=game.cube)
        corrections = g["corrections"]
        game.version = len(corrections)
        game.save(update_fields=["record", "verified", "verification_note", "version"])
        Game.objects.filter(pk=game.pk).update(entered_at=_dt(g["entered_at"]) or game.entered_at)
        for c in corrections:
            correction = Correction.objects.create(
                game=game, by=self.by, reason=correction_reason(c["reason"], c["by"], self.by),
                before=self.pid(SNAPSHOT_PLAYERS, c["before"]),
                after=self.pid(SNAPSHOT_PLAYERS, c["after"]),
            )  # fmt: skip
            Correction.objects.filter(pk=correction.pk).update(at=_required_dt(c["at"]))
        return game

    def import_submissions(self, s: dict[str, Any], series: Series, games: dict[int, Game]) -> None:
        for sub in s["submissions"]:
            if sub["submitted_by"] is None:
                raise ValueError("a submission without its author")
            submitted_by = self.user(sub["submitted_by"])
            if submitted_by is None:  # not trusted: another's submission is not made up
                self.result.submissions_skipped += 1
                if sub["submitted_by"] not in self.result.authors_skipped:
                    self.result.authors_skipped.append(str(sub["submitted_by"]))
                continue
            created = Submission(
                series=series, number=sub["number"], submitted_by=submitted_by,
                white=self.player(sub["white"]), winner=self.player(sub["winner"]),
                kind=sub["kind"], ended=sub["ended"], cube=sub["cube"], record=sub["record"],
                status=sub["status"], decided_by=self.user(sub["decided_by"]),
                decided_at=_dt(sub["decided_at"]), note=sub["note"],
                game=games[sub["game"]] if sub["game"] is not None else None,
            )  # fmt: skip
            if sub["kind"] not in ("", *GameKind.values) or sub["ended"] not in GameEnd.values:
                raise ValueError(f"submission {sub['number']}: unknown result")
            created.full_clean(exclude=["submitted_at"])
            created.save()
            Submission.objects.filter(pk=created.pk).update(submitted_at=_dt(sub["submitted_at"]))


# a record's [Series "..."] tag line (tags come first; a tag's value escapes " and \\)
_SERIES_TAG = re.compile(r'^(\[Series\s+")((?:[^"\\]|\\.)*)("\]\s*)$', re.MULTILINE)


def series_tag_renewed(record: str, series_id: int) -> str:
    """A record's [Series] tag naming the series it is imported into. The tag holds the
    exporting site's id of the series (the record check refuses a record naming another
    series); the archive places each game in its series, so the id is renewed, and the
    imported record says where it is now. Only the tag section is read.

    >>> series_tag_renewed('[Variant "long"]\\n[Series "12"]\\n\\n1. 64: 24/18/14\\n', 7)
    '[Variant "long"]\\n[Series "7"]\\n\\n1. 64: 24/18/14\\n'
    """
    head, blank, moves = record.partition("\n\n")
    renewed = _SERIES_TAG.sub(lambda m: f"{m[1]}{series_id}{m[3]}", head, count=1)
    return renewed + blank + moves


def _play_order(item: tuple[dict[str, Any], Series]) -> tuple[int, str]:
    """Series are played again in the order their first games were entered: a bracket's
    later series (a grand final, a losers' round) wait for those that feed them, which
    the archive lists after them; series without a game come last, as listed."""
    times = [str(g.get("entered_at") or "") for g in item[0]["games"]]
    return (0, min(times)) if times else (1, "")


def _shown(value: Any) -> str:
    if isinstance(value, Decimal):
        return str(value.normalize())
    return "nobody" if value is None else str(value)


__all__ = ["ArchiveImport", "correction_reason", "tournament_import"]


def archived_note(g: dict[str, Any], *, cube: int) -> Note:
    """An archived game's verification note: the data (``verification_note``) where the
    archive has it, else its text (archives made before the note was data) read as
    migration 0013 reads it; an archive's note is checked to be a note before it is kept."""
    stored = g.get("verification_note")
    if isinstance(stored, dict) and is_note(stored):
        return stored
    return note_from_text(str(g.get("verification") or ""), cube=cube)
