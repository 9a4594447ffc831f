"""Generate the demo data in fixtures/demo/ (loaded by ``manage.py load_demo``).

    .venv/bin/python tools/make_demo.py [--out fixtures/demo] [--seed 2026]

Deterministic: the same seed writes the same files, byte for byte.

* ``club.json``: the club and its ten players.
* ``tournaments.json``: two long-nardy round robins, their settings, players, rounds and
  pairings (Berger tables, computed here); every pairing has a key, ``R<round>-T<table>``.
* ``<tournament key>.nrd``: the games, one complete legal record each
  (``engine.selfplay.random_game``), tagged with the pairing's key
  (``[Series "R3-T2"]``: load_demo puts the database id of the series in its place),
  ``[Round]``, ``[Game]``, ``[White]``, ``[Black]``, ``[Event]`` and ``[Date]``.

Who has white follows the series rule: game 1 by lot (seeded), later games
``tournaments.services.series.series_next_white``, and a series stops when
``series_decided_after`` says it is decided. Those two functions are the ones the
services use, run here on unsaved model instances: no database is needed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from engine import read_records  # noqa: E402
from engine.notation import write_tags  # noqa: E402
from engine.selfplay import random_game  # noqa: E402
from tournaments.models import Game, Player, Series, Tournament  # noqa: E402
from tournaments.services.series import series_decided_after, series_next_white  # noqa: E402

CLUB = {"name": "Klub vrhcábů Brno", "city": "Brno", "country": "CZ"}
PLAYERS = [
    "Jana Nováková",
    "Petr Svoboda",
    "Tomáš Dvořák",
    "Lucie Černá",
    "Martin Procházka",
    "Eva Kučerová",
    "Jakub Veselý",
    "Kateřina Horáková",
    "Ondřej Němec",
    "Zdeněk Marek",
]
SETTINGS = {
    "variant": "long",
    "format": "round_robin",
    "series_mode": "points",
    "series_length": 3,
    "first_move": "loser",
    "published": True,
}
VENUE = "Klubovna, Kounicova 10, Brno"


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Round robin pairings by the Berger tables (FIDE), players numbered 1..n (n even):
    ``n - 1`` rounds of ``n / 2`` tables, (first, second) at each table.

    >>> berger_rounds(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    """
    if n < 2 or n % 2:
        raise ValueError(f"the Berger tables need an even number of players, not {n}")
    m = n - 1
    rounds = []
    for r in range(m):
        a = (r * n // 2) % m + 1  # n's opponent at table 1
        tables = [(a, n) if r % 2 == 0 else (n, a)]
        for t in range(1, n // 2):
            tables.append(((a - 1 + t) % m + 1, (a - 1 - t) % m + 1))
        rounds.append(tables)
    pairs = [frozenset(p) for tables in rounds for p in tables]
    assert len(set(pairs)) == n * (n - 1) // 2, "every two players meet exactly once"
    return rounds


def thursdays(first: datetime.date, count: int, *, step_days: int) -> list[datetime.date]:
    return [first + datetime.timedelta(days=step_days * i) for i in range(count)]


def second_thursdays(year: int, months: range) -> list[datetime.date]:
    out = []
    for month in months:
        day = datetime.date(year, month, 1)
        day += datetime.timedelta(days=(3 - day.weekday()) % 7 + 7)
        out.append(day)
    return out


def play_series(
    *,
    series: Series,
    rng: random.Random,
    tags: dict[str, str],
    max_games: int | None,
) -> list[str]:
    """The records of a series' games, played until it is decided (or ``max_games``)."""
    assert series.player1 is not None and series.player2 is not None
    games: list[Game] = []
    records = []
    while series_decided_after(series, games) is None and (
        max_games is None or len(games) < max_games
    ):
        white = series_next_white(series, games)
        if white is None:  # game 1: by lot
            white = series.player1 if rng.random() < 0.5 else series.player2
        black = series.player2 if white.pk == series.player1.pk else series.player1
        text = random_game("long", rng)
        result = read_records(text)[0].tag("Result")
        side, kind = result.split()
        winner = white if side == "white" else black
        number = len(games) + 1
        game = Game(series=series, number=number, white=white, black=black, winner=winner)
        game.kind = kind
        games.append(game)
        header = [
            ("Variant", "long"),
            *tags.items(),
            ("Game", str(number)),
            ("White", white.name),
            ("Black", black.name),
            ("Result", result),
        ]
        movetext = text.split("\n\n", 1)[1]
        records.append("\n".join(write_tags(header)) + "\n\n" + movetext)
    return records


def make_tournament(
    *,
    key: str,
    name: str,
    players: list[Player],
    dates: list[datetime.date],
    end_date: datetime.date,
    rng: random.Random,
    played: dict[str, int | None],
    rounds_played: int,
) -> tuple[dict[str, Any], list[str]]:
    """A round robin of ``players``: its description for tournaments.json and the game
    records. Rounds up to ``rounds_played`` are played out; ``played`` caps the games of
    single pairings (0: scheduled)."""
    tournament = Tournament(name=name, start_date=dates[0], **SETTINGS)
    rounds = []
    records = []
    for number, tables in enumerate(berger_rounds(len(players)), start=1):
        pairings = []
        for table, (first, second) in enumerate(tables, start=1):
            pairing = f"R{number}-T{table}"
            one, two = players[first - 1], players[second - 1]
            pairings.append({"key": pairing, "table": table, "player1": one.name,
                             "player2": two.name})  # fmt: skip
            max_games = played.get(pairing, None if number <= rounds_played else 0)
            if max_games == 0:
                continue
            series = Series(tournament=tournament, table=table, player1=one, player2=two)
            tags = {
                "Event": name,
                "Date": dates[number - 1].isoformat(),
                "Round": str(number),
                "Series": pairing,
            }
            records += play_series(series=series, rng=rng, tags=tags, max_games=max_games)
        rounds.append({"number": number, "date": dates[number - 1].isoformat(),
                       "series": pairings})  # fmt: skip
    description = {
        "key": key,
        "name": name,
        "start_date": dates[0].isoformat(),
        "end_date": end_date.isoformat(),
        "venue": VENUE,
        **SETTINGS,
        "records": f"{key}.nrd",
        "players": [p.name for p in players],
        "rounds": rounds,
    }
    return description, records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "fixtures" / "demo")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    # Unsaved players with ids: the series functions compare players by id.
    players = [Player(pk=i, name=name) for i, name in enumerate(PLAYERS, start=1)]

    prebor_dates = second_thursdays(2026, range(1, 10))
    prebor, prebor_records = make_tournament(
        key="prebor-2026",
        name="Klubový přebor 2026",
        players=players,
        dates=prebor_dates,
        end_date=prebor_dates[-1],
        rng=rng,
        played={},
        rounds_played=9,
    )
    autumn = [players[i] for i in (0, 1, 2, 4, 6, 8)]
    autumn_dates = thursdays(datetime.date(2026, 11, 19), 5, step_days=7)
    podzim, podzim_records = make_tournament(
        key="podzim-2026",
        name="Podzimní turnaj 2026",
        players=autumn,
        dates=autumn_dates,
        end_date=autumn_dates[-1],
        rng=rng,
        # Round 1 played out; in round 2 one series finished, one under way (one game),
        # one not begun; rounds 3-5 scheduled.
        played={"R2-T2": 1, "R2-T3": 0},
        rounds_played=2,
    )

    args.out.mkdir(parents=True, exist_ok=True)
    club = {"club": CLUB, "players": [{"name": p.name, "country": "CZ"} for p in players]}
    files = {
        "club.json": json.dumps(club, ensure_ascii=False, indent=2) + "\n",
        "tournaments.json": json.dumps(
            {"tournaments": [prebor, podzim]}, ensure_ascii=False, indent=2
        )
        + "\n",
        "prebor-2026.nrd": "\n".join(prebor_records),
        "podzim-2026.nrd": "\n".join(podzim_records),
    }
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
        path = (args.out / name).resolve()
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}: {len(text.encode())} bytes")
    print(f"{len(prebor_records)} + {len(podzim_records)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
