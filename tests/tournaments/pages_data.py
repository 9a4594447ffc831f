"""Small tournaments built through the services, for the page tests (not a test module)."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth.models import User

from engine import read_records, replay
from engine.selfplay import random_game
from tests.tournaments.helpers import rated_player
from tournaments.models import Game, Player, Series, SeriesStatus, Tournament
from tournaments.services.pairings import bracket_create, round_generate
from tournaments.services.results import game_enter_quick, game_enter_record
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create


def a_record(white: str, black: str, *, seed: int, want: str = "") -> str:
    """A legal long nardy game between two players (random play, the first seed from
    ``seed`` on whose result starts with ``want``)."""
    rng = random.Random(seed)
    while True:
        text = random_game("long", rng)
        outcome = replay(read_records(text)[0]).outcome
        assert outcome is not None
        if outcome.result.startswith(want):
            break
    text = text.replace('[White "Random A"]', f'[White "{white}"]')
    return text.replace('[Black "Random B"]', f'[Black "{black}"]')


def director(username: str = "director") -> User:
    return User.objects.create_user(username=username, password="a-long-secret-1")


def round_robin(players: int, *, by: User | None = None, name: str = "Club cup") -> Tournament:
    """A round robin of ``players`` players with round 1 paired and played (series to 1
    point: one quick game each, and one full record), round 2 paired."""
    t = tournament_create(
        name=name, start_date=datetime.date(2026, 5, 1), format="round_robin", series_length=1
    )
    if by is not None:
        t.directors.add(by)
    for i in range(players):
        entry_register(tournament=t, player=Player.objects.create(name=f"{name} player {i + 1}"))
    rnd = round_generate(tournament=t)
    first = True
    for s in Series.objects.filter(round=rnd, player2__isnull=False).select_related(
        "player1", "player2", "tournament"
    ):
        white = series_next_white(s, []) or s.player1
        assert white is not None
        if first:
            black = s.player2 if white == s.player1 else s.player1
            assert black is not None
            game_enter_record(series=s, record=a_record(white.name, black.name, seed=s.pk))
            first = False
        else:
            game_enter_quick(series=s, white=white, winner=white, kind="oin")
    round_generate(tournament=t)
    return t


def recorded_game(t: Tournament) -> Game:
    return Game.objects.filter(series__tournament=t).exclude(record="").get()


def knockout(
    count: int, *, played: int, format: str = "single_elimination", **kw: Any
) -> Tournament:
    """An elimination event of ``count`` players P1… (P1 the top seed), series to one
    point; the first ``played`` series (by id) won by their first player."""
    t = tournament_create(name=f"KO {count}", start_date=datetime.date(2026, 6, 1),
                          format=format, series_length=1, **kw)  # fmt: skip
    for i in range(1, count + 1):
        entry_register(tournament=t, player=rated_player(f"P{i}", 2000 - i))
    bracket_create(tournament=t)
    for _ in range(played):
        s = (
            Series.objects.filter(tournament=t, player2__isnull=False)
            .exclude(status__in=[SeriesStatus.FINISHED, SeriesStatus.FORFEITED])
            .select_related("player1", "player2", "tournament").order_by("id").first()
        )  # fmt: skip
        assert s is not None
        white = series_next_white(s, []) or s.player1
        assert white is not None
        game_enter_quick(series=s, white=white, winner=s.player1, kind="oin")
    return t
