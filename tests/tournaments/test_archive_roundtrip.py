"""An exported archive imports back. `export_tournament 1` then
`import_tournament` was refused ("the record says [Series "1"]: it belongs to another
series"): every record carries its series' id. Each tournament shape the site holds (the
three games, every format, records with their tags, corrections, submissions, withdrawn
players) is exported, imported through the service, the API and the command, and the
copy compared with the original field by field, ids aside."""

from __future__ import annotations

import datetime
import io
import json
import random
import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import Model
from rest_framework.test import APIClient

from engine import Rules, read_records, replay
from engine.selfplay import random_game
from tests.tournaments.helpers import rated_player
from tournaments.models import (
    Club,
    Correction,
    Entry,
    Game,
    Player,
    ProhibitedPair,
    Round,
    Series,
    SeriesStatus,
    Submission,
    Tournament,
)
from tournaments.services.archives import tournament_import
from tournaments.services.exports import PAIRING_PLAYERS, SNAPSHOT_PLAYERS, tournament_archive
from tournaments.services.pairings import bracket_create, entry_withdraw, round_generate
from tournaments.services.results import game_correct, game_enter_quick, game_enter_record
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create
from tournaments.services.submissions import submission_create, submission_reject

pytestmark = pytest.mark.django_db

# what an import renews by design: the ids, the cache's version, the archive's own marks
RENEWED = {"id", "cache_version", "fingerprint", "copied_from"}


def _key(obj: Model | None) -> Any:
    """A related object by what it is, not by its id."""
    if obj is None:
        return None
    if isinstance(obj, Player):
        return ("player", obj.name, obj.club.name if obj.club else None)
    if isinstance(obj, User):
        return ("user", obj.username)
    if isinstance(obj, Club):
        return ("club", obj.name)
    if isinstance(obj, Round):
        return ("round", obj.number)
    if isinstance(obj, Series):
        return ("series", _key(obj.round), obj.table, obj.slot)
    if isinstance(obj, Game):
        return ("game", _key(obj.series), obj.number)
    if isinstance(obj, Tournament):
        return ("tournament",)
    raise AssertionError(f"no key for {obj!r}")


def _players_named(value: Any, keys: tuple[str, ...]) -> Any:
    """A JSON snapshot or pairing note with its player ids made players' keys."""
    if not isinstance(value, dict):
        return value
    return {
        k: _key(Player.objects.get(pk=v)) if k in keys and isinstance(v, int) else v
        for k, v in value.items()
    }


def _row(obj: Model, skip: set[str] = RENEWED) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for f in obj._meta.concrete_fields:
        if f.name in skip:
            continue
        row[f.name] = _key(getattr(obj, f.name)) if f.is_relation else getattr(obj, f.attname)
    return row


def _record(text: str) -> str:
    """A record (or JSON holding records) with its [Series] tag's id left out: each site
    numbers its series."""
    return re.sub(r'\[Series (\\?)"\d+\\?"\]', "[Series …]", text)


def tournament_shape(
    t: Tournament, *, skip: frozenset[str] | set[str] = frozenset()
) -> dict[str, Any]:
    """Everything about a tournament, each row's fields with ids made keys."""
    skip = RENEWED | set(skip)
    games = []
    for g in Game.objects.filter(series__tournament=t).order_by(
        "series__round__number", "series__table", "series__slot", "number"
    ):
        row = _row(g, skip)
        row["record"] = _record(g.record)
        row["corrections"] = [
            {**_row(c, skip), "before": _players_named(c.before, SNAPSHOT_PLAYERS),
             "after": _players_named(c.after, SNAPSHOT_PLAYERS)}
            for c in Correction.objects.filter(game=g).order_by("at", "id")
        ]  # fmt: skip
        games.append(row)
    series = []
    for s in Series.objects.filter(tournament=t).order_by("round__number", "table", "slot"):
        row = _row(s, skip)
        row["pairing"] = _players_named(s.pairing, PAIRING_PLAYERS)
        series.append(row)
    return {
        "tournament": _row(t, skip),
        "directors": sorted(u.username for u in t.directors.all()),
        "entries": sorted((_row(e, skip) for e in Entry.objects.filter(tournament=t)), key=repr),
        "prohibited": sorted(
            (_row(p, skip) for p in ProhibitedPair.objects.filter(tournament=t)), key=repr
        ),
        "rounds": [_row(r, skip) for r in Round.objects.filter(tournament=t).order_by("number")],
        "series": series,
        "games": games,
        "submissions": sorted(
            (_row(s, skip) for s in Submission.objects.filter(series__tournament=t)), key=repr
        ),
    }


def differences(copy: Any, original: Any, where: str = "") -> list[str]:
    """Where two shapes differ, field by field: ``series[2].version: 3 != 2``."""
    if isinstance(copy, dict) and isinstance(original, dict):
        return [
            d for k in sorted(set(copy) | set(original), key=str)
            for d in differences(copy.get(k), original.get(k), f"{where}.{k}")
        ]  # fmt: skip
    if isinstance(copy, list) and isinstance(original, list) and len(copy) == len(original):
        return [d for n, (c, o) in enumerate(zip(copy, original, strict=True))
                for d in differences(c, o, f"{where}[{n}]")]  # fmt: skip
    return [] if copy == original else [f"{where}: {copy!r} != {original!r}"]


# the shapes ----------------------------------------------------------------------------


def _game_text(variant: str, white: str, black: str, seed: int, series: Series) -> str:
    """A legal finished game of ``variant`` with its tags, [Series] among them (as every
    record entered on the site may carry it)."""
    rng = random.Random(seed)
    text = random_game(variant, rng, Rules())
    assert replay(read_records(text)[0]).outcome is not None
    text = text.replace('[White "Random A"]', f'[White "{white}"]')
    text = text.replace('[Black "Random B"]', f'[Black "{black}"]')
    return text.replace(f'[Black "{black}"]', f'[Black "{black}"]\n[Series "{series.pk}"]', 1)


def _play(t: Tournament, boss: User, *, records: int, seed: int = 1) -> None:
    """Every series of ``t`` with two players and no result played out: the first
    ``records`` series by full records, the others by quick entries."""
    done = 0
    while True:
        s = (
            Series.objects.filter(tournament=t, player2__isnull=False)
            .exclude(status__in=[SeriesStatus.FINISHED, SeriesStatus.FORFEITED])
            .select_related("player1", "player2", "tournament").order_by("id").first()
        )  # fmt: skip
        if s is None:
            return
        while not s.closed:
            games = list(s.games.order_by("number"))
            white = series_next_white(s, games) or s.player1
            assert white is not None and s.player1 is not None and s.player2 is not None
            black = s.player2 if white.pk == s.player1_id else s.player1
            if done < records:
                text = _game_text(t.variant, white.name, black.name, seed, s)
                try:
                    game_enter_record(series=s, record=text, by=boss)
                except ValueError:  # a game this series' rules refuse: another seed
                    seed += 1
                    continue
            else:
                game_enter_quick(series=s, white=white, winner=white, kind="oin", by=boss)
            seed += 1
            s.refresh_from_db()
        done += 1


def _players(t: Tournament, count: int, club: Club | None) -> list[Player]:
    players = [rated_player(f"{t.name} {n}", 1600 - n, club=club) for n in range(1, count + 1)]
    for p in players:
        entry_register(tournament=t, player=p)
    return players


def _extras(t: Tournament, boss: User, player_user: User) -> None:
    """A correction, a rejected submission and a prohibited pair where they fit."""
    last_games = [
        g for g in Game.objects.filter(series__tournament=t).order_by("record", "id")
        if g.number == g.series.games.count()
    ]  # fmt: skip
    game = last_games[0]
    # a verified record decides its game's result: a correction by hand drops the record
    game_correct(game=game, by=boss, reason="he resigned", ended="resigned",
                 drop_record=bool(game.verified and game.record))  # fmt: skip
    open_series = (
        Series.objects.filter(tournament=t, player2__isnull=False, status=SeriesStatus.SCHEDULED)
        .order_by("id").first()
    )  # fmt: skip
    if open_series is not None and open_series.player1 is not None:
        open_series.player1.user = player_user
        open_series.player1.save()
        sub = submission_create(
            series=open_series, by=player_user, number=1, white=open_series.player1,
            winner=open_series.player1, kind="oin",
        )  # fmt: skip
        submission_reject(submission=sub, by=boss, note="not so")


def long_round_robin(boss: User, player_user: User) -> Tournament:
    t = tournament_create(name="Long RR", start_date=datetime.date(2026, 5, 1),
                          format="round_robin", series_length=3)  # fmt: skip
    t.directors.add(boss)
    players = _players(t, 5, Club.objects.create(name="Brno", city="Brno", country="CZ"))
    ProhibitedPair.objects.create(tournament=t, player_a=players[0], player_b=players[1],
                                  reason="sisters")  # fmt: skip
    round_generate(tournament=t)
    _play(t, boss, records=2)
    round_generate(tournament=t)
    entry_withdraw(tournament=t, player=players[4])
    _extras(t, boss, player_user)
    return t


def short_swiss_with_cube(boss: User, player_user: User) -> Tournament:
    t = tournament_create(name="Short Swiss", start_date=datetime.date(2026, 6, 1),
                          variant="short", format="swiss", series_length=3, cube=True)  # fmt: skip
    t.directors.add(boss)
    _players(t, 4, None)
    round_generate(tournament=t)
    _play(t, boss, records=1, seed=11)
    round_generate(tournament=t)
    first = Series.objects.filter(tournament=t, status=SeriesStatus.SCHEDULED).first()
    assert first is not None and first.player1 is not None
    game_enter_quick(series=first, white=series_next_white(first, []) or first.player1,
                     winner=first.player1, kind="oin", cube=2, by=boss)  # fmt: skip
    _extras(t, boss, player_user)
    return t


def lurc_elimination(boss: User, player_user: User, *, fmt: str) -> Tournament:
    t = tournament_create(name=f"Lurč {fmt}", start_date=datetime.date(2026, 7, 1),
                          variant="lurc", format=fmt, series_length=1)  # fmt: skip
    t.directors.add(boss)
    _players(t, 6, None)
    bracket_create(tournament=t)
    _play(t, boss, records=2, seed=21)
    _extras(t, boss, player_user)
    return t


SHAPES: dict[str, Callable[[User, User], Tournament]] = {
    "long round robin": long_round_robin,
    "short swiss with cube": short_swiss_with_cube,
    "lurc single elimination": lambda b, u: lurc_elimination(b, u, fmt="single_elimination"),
    "lurc double elimination": lambda b, u: lurc_elimination(b, u, fmt="double_elimination"),
}


@pytest.fixture
def boss(db) -> User:
    return User.objects.create_user("boss", password="pw-boss", is_staff=True)


@pytest.fixture
def player_user(db) -> User:
    return User.objects.create_user("hrac", password="pw-hrac")


def _import_by(door: str, archive: dict[str, Any], boss: User, tmp_path: Path) -> Tournament:
    before = set(Tournament.objects.values_list("pk", flat=True))
    if door == "service":
        tournament_import(archive=archive, by=boss, as_archived=True)
    elif door == "api":
        client = APIClient()
        client.force_authenticate(boss)
        answer = client.post("/api/tournaments/import/?as_archived=1", archive, format="json")
        assert answer.status_code == 201, answer.json()
    else:
        path = tmp_path / "archive.json"
        path.write_text(json.dumps(archive, ensure_ascii=False), encoding="utf-8")
        call_command("import_tournament", str(path), "--user", boss.username,
                     "--as-archived", stdout=io.StringIO())  # fmt: skip
    (new,) = set(Tournament.objects.values_list("pk", flat=True)) - before
    return Tournament.objects.get(pk=new)


@pytest.mark.parametrize("door", ["service", "api", "command"])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_round_trips_through_every_door(
    shape: str, door: str, boss: User, player_user: User, tmp_path: Path
) -> None:
    original = SHAPES[shape](boss, player_user)
    original.refresh_from_db()  # its settings as stored (1.00, not the default's 1)
    assert Game.objects.filter(series__tournament=original).exclude(record="").exists()
    archive = tournament_archive(original)
    assert any('[Series "' in g["record"] for s in archive["series"] for g in s["games"])

    moved = json.loads(json.dumps(archive))
    moved["fingerprint"] = str(uuid.uuid4())  # as if the original were on another site
    copy = _import_by(door, moved, boss, tmp_path)

    assert differences(tournament_shape(copy), tournament_shape(original)) == []
    # and its archive is the original's, but for when it was made
    again = tournament_archive(copy)
    for a in (archive, again):
        a.pop("exported_at"), a.pop("fingerprint")
        a.pop("rating_changes")  # the ratings count both copies here (finding 2)
        for p in a["players"]:
            p.pop("rating"), p.pop("experience")
    assert differences(json.loads(_record(json.dumps(again))),
                       json.loads(_record(json.dumps(archive)))) == []  # fmt: skip
