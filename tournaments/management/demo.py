"""The demo club and its tournaments, from fixtures/demo/ (written by tools/make_demo.py).

Everything is entered through the services, so every game record is verified by the engine
on the way in and the series, standings and ratings follow as they would in a real club.
The files:

* ``club.json``: ``{"club": {name, city, country}, "players": [{name, country}, ...]}``
* ``tournaments.json``: ``{"tournaments": [{name, dates, settings, "records": FILE,
  "players": [names], "rounds": [{number, "series": [{key, table, player1, player2}]}]}]}``
* ``knockout.json`` (optional): elimination events, ``{"tournaments": [{name, dates,
  settings, "players": [names, by seed], "games": [[slot, winner, kind], ...]}]}``: the
  bracket is made and the games entered as quick results, slot by slot.
* the record files: games tagged ``[Series "KEY"]`` with the key of their pairing; the
  key is replaced by the series' database id before the record is entered.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Club, Job, Player, Series, Tournament
from tournaments.services.errors import ApplicationError
from tournaments.services.json_input import json_read
from tournaments.services.pairings import bracket_create
from tournaments.services.record_files import RecordInFile, located, records_in_file
from tournaments.services.results import game_enter_quick, game_enter_record
from tournaments.services.series import series_next_white
from tournaments.services.setup import (
    entry_register,
    round_create,
    series_create,
    tournament_create,
)

DEMO_DIR = Path(settings.BASE_DIR) / "fixtures" / "demo"
TOURNAMENT_SETTINGS = (
    "end_date",
    "venue",
    "variant",
    "format",
    "series_mode",
    "series_length",
    "first_move",
    "published",
    "third_place",
)
KNOCKOUT_FILE = "knockout.json"
_SERIES_TAG = re.compile(r'^([ \t]*\[Series[ \t]+")([^"\\]*)("[ \t]*\][ \t]*)$', re.MULTILINE)


class DemoError(ApplicationError):
    """The demo files cannot be read or do not fit together: a gettext text with its
    code and params, as every refusal of the app (said in the command's language)."""

    code = "demo-error"


@dataclass(frozen=True, slots=True)
class DemoGame:
    """A game to enter: its series and its record (the [Series] tag holds the id)."""

    series: Series
    text: str
    source: str  # "prebor-2026.nrd game 3, line 41", for messages
    first_line: int


@dataclass
class DemoSummary:
    club: Club
    players: int = 0
    tournaments: list[tuple[Tournament, int, int]] = field(default_factory=list)  # series, games


Progress = Callable[[list[DemoGame]], Iterable[DemoGame]]


def _read_json(path: Path) -> Any:
    try:
        return json_read(path.read_bytes())
    except (OSError, ApplicationError) as exc:
        raise _unreadable(path, exc) from None


def _unreadable(path: Path, exc: Exception) -> DemoError:
    return DemoError(
        _("%(path)s cannot be read: %(reason)s"),
        code="demo-unreadable",
        params={"path": str(path), "reason": str(exc)},
    )


def demo_club_name(directory: Path = DEMO_DIR) -> str:
    name: str = _read_json(directory / "club.json")["club"]["name"]
    return name


def demo_exists(directory: Path = DEMO_DIR) -> bool:
    return Club.objects.filter(name=demo_club_name(directory)).exists()


@transaction.atomic
def demo_delete(directory: Path = DEMO_DIR) -> int:
    """Delete the demo club, its players and the demo tournaments they play in; how many
    tournaments went. A demo player who plays elsewhere too stops it (ProtectedError)."""
    club = Club.objects.filter(name=demo_club_name(directory)).first()
    if club is None:
        return 0
    names = [t["name"] for t in _read_json(directory / "tournaments.json")["tournaments"]]
    names += [t["name"] for t in _knockouts(directory)]
    ids = set(
        Tournament.objects.filter(name__in=names, entries__player__club=club).values_list(
            "pk", flat=True
        )
    )
    # its jobs (the analysis of its games) go with it, instead of staying as orphans
    Job.objects.filter(tournament__in=ids).delete()
    Tournament.objects.filter(pk__in=ids).delete()
    Player.objects.filter(club=club).delete()
    club.delete()
    return len(ids)


def _tournament(
    data: dict[str, Any], players: dict[str, Player]
) -> tuple[Tournament, dict[str, Series]]:
    """Create one tournament with its entries, rounds and pairings; its series by key."""
    options = {k: data[k] for k in TOURNAMENT_SETTINGS if k in data}
    if "end_date" in options:
        options["end_date"] = datetime.date.fromisoformat(options["end_date"])
    tournament = tournament_create(
        name=data["name"], start_date=datetime.date.fromisoformat(data["start_date"]), **options
    )
    for seed, name in enumerate(data["players"], start=1):
        entry_register(tournament=tournament, player=players[name], seed=seed)
    by_key: dict[str, Series] = {}
    for round_data in data["rounds"]:
        round_ = round_create(tournament=tournament, number=round_data["number"])
        for pairing in round_data["series"]:
            if pairing["key"] in by_key:
                raise DemoError(
                    _("%(tournament)s: the pairing %(key)s is given twice"),
                    code="demo-pairing-twice",
                    params={"tournament": data["name"], "key": pairing["key"]},
                )
            by_key[pairing["key"]] = series_create(
                tournament=tournament, round=round_, table=pairing.get("table"),
                player1=players[pairing["player1"]], player2=players[pairing["player2"]],
            )  # fmt: skip
    return tournament, by_key


def _knockouts(directory: Path) -> list[dict[str, Any]]:
    path = directory / KNOCKOUT_FILE
    found: list[dict[str, Any]] = _read_json(path)["tournaments"] if path.exists() else []
    return found


def _knockout(data: dict[str, Any], players: dict[str, Player]) -> tuple[Tournament, int, int]:
    """An elimination event: seeded in the order given, its games entered slot by slot."""
    options = {k: data[k] for k in TOURNAMENT_SETTINGS if k in data}
    tournament = tournament_create(
        name=data["name"], start_date=datetime.date.fromisoformat(data["start_date"]), **options
    )
    for seed, name in enumerate(data["players"], start=1):
        entry_register(tournament=tournament, player=players[name], seed=seed)
    bracket_create(tournament=tournament)
    for slot, winner, kind in data["games"]:
        series = (
            Series.objects.select_related("player1", "player2", "tournament")
            .filter(tournament=tournament, slot=slot).first()
        )  # fmt: skip
        if series is None or players[winner].pk not in (series.player1_id, series.player2_id):
            raise DemoError(
                _("%(tournament)s: %(player)s does not play in %(slot)s"),
                code="demo-not-in-slot",
                params={"tournament": data["name"], "player": winner, "slot": slot},
            )
        white = series_next_white(series, list(series.games.all())) or series.player1
        assert white is not None
        game_enter_quick(series=series, white=white, winner=players[winner], kind=kind)
    return tournament, tournament.series.count(), len(data["games"])


def _games(path: Path, by_key: dict[str, Series]) -> list[DemoGame]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise _unreadable(path, exc) from None
    games = []
    for record in records_in_file(text):
        source = _("%(file)s, game %(number)s") % {"file": path.name, "number": record.number}
        games.append(_with_series_id(record, by_key, source))
    return games


def _with_series_id(record: RecordInFile, by_key: dict[str, Series], source: str) -> DemoGame:
    tag = _SERIES_TAG.search(record.text)
    if tag is None:
        raise DemoError(
            _("%(source)s (line %(line)s): the game has no [Series] tag"),
            code="demo-no-series",
            params={"source": source, "line": record.line},
        )
    if tag.group(2) not in by_key:
        raise DemoError(
            _('%(source)s (line %(line)s): [Series "%(key)s"] is not the key of a pairing'),
            code="demo-unknown-series",
            params={"source": source, "line": record.line, "key": tag.group(2)},
        )
    series = by_key[tag.group(2)]
    text = _SERIES_TAG.sub(lambda m: f"{m.group(1)}{series.pk}{m.group(3)}", record.text, 1)
    return DemoGame(series, text, source, record.line)


@transaction.atomic
def demo_load(
    *, directory: Path = DEMO_DIR, replace: bool = False, progress: Progress | None = None
) -> DemoSummary | None:
    """Load the demo through the services, all or nothing; None when the demo club
    exists already (unless ``replace``: then the old demo is deleted first)."""
    club_data = _read_json(directory / "club.json")
    tournaments = _read_json(directory / "tournaments.json")["tournaments"]
    if demo_exists(directory):
        if not replace:
            return None
        demo_delete(directory)
    club = Club.objects.create(**club_data["club"])
    players = {p["name"]: Player.objects.create(club=club, **p) for p in club_data["players"]}
    summary = DemoSummary(club=club, players=len(players))
    todo: list[DemoGame] = []
    made: list[tuple[Tournament, dict[str, Series], int]] = []
    try:
        for data in tournaments:
            tournament, by_key = _tournament(data, players)
            games = _games(directory / data["records"], by_key)
            made.append((tournament, by_key, len(games)))
            todo += games
    except KeyError as exc:
        raise DemoError(
            _("the demo files name no %(name)s (a player or a setting)"),
            code="demo-missing-name",
            params={"name": str(exc)},
        ) from None
    for game in progress(todo) if progress else todo:
        try:
            game_enter_record(series=game.series, record=game.text)
        except ApplicationError as exc:
            raise DemoError(
                _("%(source)s: %(message)s"),
                code="demo-game-refused",
                params={"source": game.source,
                        "message": located(exc, first_line=game.first_line)},
            ) from exc  # fmt: skip
    summary.tournaments = [(t, len(by_key), count) for t, by_key, count in made]
    try:
        summary.tournaments += [_knockout(data, players) for data in _knockouts(directory)]
    except KeyError as exc:
        raise DemoError(
            _("the knockout demo names no %(name)s (a player or a setting)"),
            code="demo-knockout-missing-name",
            params={"name": str(exc)},
        ) from None
    except ApplicationError as exc:
        raise DemoError(
            _("the knockout demo: %(message)s"),
            code="demo-knockout-refused",
            params={"message": exc.message},
        ) from exc
    return summary
