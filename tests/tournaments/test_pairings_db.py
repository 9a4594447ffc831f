"""Pairings on the database: rounds generated when the director asks, brackets that
move winners (and losers) on by themselves, and the director's changes."""

from __future__ import annotations

import datetime
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from django.utils import translation

from tests.tournaments.helpers import rated_player
from tournaments.models import Entry, Player, ProhibitedPair, Series, SeriesStatus, Tournament
from tournaments.selectors.brackets import bracket_of
from tournaments.services.errors import ApplicationError
from tournaments.services.pairings import (
    bracket_create,
    entry_late,
    entry_withdraw,
    round_generate,
    series_swap,
)
from tournaments.services.results import game_enter_quick
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """These tests read the refusals' English words (their msgids): said in English."""
    with translation.override("en"):
        yield


DAY = datetime.date(2026, 11, 29)


def make(format: str, count: int, **settings: object) -> tuple[Tournament, list[Player]]:
    t = tournament_create(name=f"{format} {count}", start_date=DAY, format=format,
                          series_length=1, **settings)  # fmt: skip
    players = [rated_player(f"P{i:02d}", 2000 - i) for i in range(count)]
    for p in players:
        entry_register(tournament=t, player=p)
    return t, players


def play(series: Series, rng: random.Random) -> None:
    """Random oins until the series is decided (white by the series rule)."""
    assert series.player1 and series.player2
    while series.status not in ("finished", "forfeited"):
        games = list(series.games.order_by("number"))
        white = series_next_white(series, games) or series.player1
        winner = rng.choice([series.player1, series.player2])
        game_enter_quick(series=series, white=white, winner=winner, kind="oin")
        series.refresh_from_db()


def play_round(t: Tournament, rng: random.Random) -> None:
    for s in Series.objects.filter(tournament=t).exclude(status__in=["finished", "forfeited"]):
        if s.player1 and s.player2:
            play(s, rng)


def pairs(t: Tournament) -> Counter[frozenset[int]]:
    return Counter(
        frozenset((s.player1_id, s.player2_id))
        for s in Series.objects.filter(tournament=t, player2__isnull=False)
    )


def test_round_robin_rounds_on_demand_with_byes():
    t, _ = make("round_robin", 5)
    rng = random.Random(1)
    for number in range(1, 6):
        rnd = round_generate(tournament=t)
        assert rnd.number == number
        assert rnd.series.filter(player2__isnull=True).count() == 1  # the bye
        with pytest.raises(ApplicationError, match=f"round {number} is not finished"):
            round_generate(tournament=t)
        play_round(t, rng)
    with pytest.raises(ApplicationError, match="all 5 rounds"):
        round_generate(tournament=t)
    assert set(pairs(t).values()) == {1} and len(pairs(t)) == 10  # every pair once


def test_double_round_robin_and_the_director_override():
    t, _ = make("double_round_robin", 4)
    round_generate(tournament=t)
    round_generate(tournament=t, override=True)  # round 1 still in play
    assert t.rounds.count() == 2


def test_swiss_never_rematches_and_explains_its_pairs():
    t, players = make("swiss", 9, swiss_rounds=4)
    ProhibitedPair.objects.create(tournament=t, player_a=players[0], player_b=players[1])
    rng = random.Random(2)
    for _ in range(4):
        rnd = round_generate(tournament=t)
        for s in rnd.series.all():
            assert s.pairing["reason"]
        play_round(t, rng)
    assert max(pairs(t).values()) == 1  # no rematch
    assert frozenset((players[0].pk, players[1].pk)) not in pairs(t)
    byes = Counter(s.player1_id for s in Series.objects.filter(tournament=t, player2=None))
    assert sum(byes.values()) == 4 and max(byes.values()) == 1
    with pytest.raises(ApplicationError, match="all 4 Swiss rounds"):
        round_generate(tournament=t)


def test_swiss_late_entry_and_withdrawal():
    t, players = make("swiss", 6, swiss_rounds=3)
    rng = random.Random(3)
    round_generate(tournament=t)
    play_round(t, rng)
    late = Player.objects.create(name="Late")
    entry_late(tournament=t, player=late)
    with pytest.raises(ApplicationError, match="already registered"):
        entry_late(tournament=t, player=late)
    entry_withdraw(tournament=t, player=players[0])
    rnd = round_generate(tournament=t)
    paired = {s.player1_id for s in rnd.series.all()} | {s.player2_id for s in rnd.series.all()}
    assert late.pk in paired and players[0].pk not in paired


def test_withdrawal_forfeits_the_remaining_series():
    t, players = make("round_robin", 4)
    round_generate(tournament=t)
    touched = entry_withdraw(tournament=t, player=players[0])
    s = Series.objects.get(tournament=t, player1=players[0])
    assert touched == 1 and s.status == SeriesStatus.FORFEITED and s.winner_id != players[0].pk
    with pytest.raises(ApplicationError, match="already withdrawn"):
        entry_withdraw(tournament=t, player=players[0])


def test_a_swap_before_the_round_starts():
    t, _ = make("round_robin", 4)
    rnd = round_generate(tournament=t)
    first, second = rnd.series.order_by("table")
    a, b = first.player1, second.player1
    assert a and b
    series_swap(first=first, second=second, player_a=a, player_b=b)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.player1 == b and second.player1 == a
    play(first, random.Random(4))
    with pytest.raises(ApplicationError, match="has started"):
        series_swap(first=first, second=second, player_a=b, player_b=a)


def test_single_elimination_moves_winners_on_to_a_champion():
    t, _ = make("single_elimination", 6, third_place=True,
                      lengths_by_stage={"final": 3})  # fmt: skip
    bracket_create(tournament=t)
    seeds = [e.player_id for e in Entry.objects.filter(tournament=t).order_by("seed")]
    byes = Series.objects.filter(tournament=t, player2__isnull=True)
    assert sorted(s.player1_id for s in byes) == sorted(seeds[:2])  # byes to the top seeds
    with pytest.raises(ApplicationError, match="already made"):
        bracket_create(tournament=t)
    rng = random.Random(5)
    for _ in range(10):
        play_round(t, rng)
    final = Series.objects.get(tournament=t, slot=bracket_of(t).finals[0])
    assert final.target == 3  # "final": 3 in lengths_by_stage, the others to 1 point
    assert final.status == SeriesStatus.FINISHED and final.winner is not None
    assert Series.objects.filter(tournament=t).exclude(status="finished").count() == 0


def test_double_elimination_ends_with_one_champion():
    t, players = make("double_elimination", 4, bracket_reset=True)
    bracket_create(tournament=t)
    rng = random.Random(6)
    for _ in range(10):
        play_round(t, rng)
    unfinished = Series.objects.filter(tournament=t).exclude(status="finished")
    assert not unfinished.exists()
    losses = Counter(
        s.player1_id if s.winner_id == s.player2_id else s.player2_id
        for s in Series.objects.filter(tournament=t, player2__isnull=False)
    )
    champions = [p.pk for p in players if losses[p.pk] < 2]
    assert len(champions) == 1


def test_rounds_and_brackets_refuse_the_wrong_format():
    t, _ = make("single_elimination", 4)
    with pytest.raises(ApplicationError, match="no rounds to generate"):
        round_generate(tournament=t)
    t2, _ = make("swiss", 4)
    with pytest.raises(ApplicationError, match="has no bracket"):
        bracket_create(tournament=t2)
