"""Tournaments played online (docs/online.md, "Tournaments played online"): a paired
round's series get their game rooms with the tournament's rules and clock (L12, L11), a
series played to its end in its room is entered into the tournament as a director's
entry of the same result would be, and a player who never joined their room loses by
forfeit when the round's start window closes (the rooms' sweep)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User

from tests.tournaments.online_play import act, play_out, seeded
from tournaments.models import (
    Format,
    Player,
    Room,
    RoomStatus,
    Series,
    SeriesRoom,
    SeriesStatus,
    Tournament,
)
from tournaments.selectors.standings import standings_for_tournament
from tournaments.services.errors import ApplicationError
from tournaments.services.online.rooms import room_sweep_timeouts
from tournaments.services.online.tournament_rooms import online_play_set
from tournaments.services.pairings import entries_seed, round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.rounds import series_starter_set
from tournaments.services.schedule import round_publish, round_robin_pair_all
from tournaments.services.setup import entry_register, series_forfeit, tournament_create

NAMES = ("Ann Nová", "Bob Král", "Cyril Malý", "Dana Veselá")


def _tournament(name: str, players: list[Player]) -> Tournament:
    t = tournament_create(
        name=name, start_date=date(2026, 12, 6), variant="long", format=Format.ROUND_ROBIN,
        series_mode="points", series_length=1,
    )  # fmt: skip
    for p in players:
        entry_register(tournament=t, player=p)
    entries_seed(tournament=t, order=players)
    return t


@pytest.fixture
def players(db) -> list[Player]:
    made = []
    for n, name in enumerate(NAMES):
        user = User.objects.create_user(f"user{n}", password="x" * 12)
        made.append(Player.objects.create(name=name, user=user))
    return made


def _row(r: object) -> tuple[object, ...]:
    return tuple(getattr(r, f) for f in (
        "player_name", "played", "won", "drawn", "lost", "game_points_for",
        "game_points_against", "mars_wins", "points", "tiebreaks", "rank"))  # fmt: skip


def test_an_online_round_robin_round(players: list[Player]) -> None:
    online = _tournament("Online cup", players)
    online_play_set(tournament=online, window_minutes=10, clock={"clock": "none"})
    by_hand = _tournament("The same cup by hand", players)

    rnd = round_generate(tournament=online)
    links = list(SeriesRoom.objects.filter(series__round=rnd).order_by("series__table"))
    assert len(links) == 2  # four players: two series, each with its room
    for link in links:
        room, s = link.room, link.series
        assert (room.a_user, room.b_user) == (s.player1.user, s.player2.user)
        assert room.variant == "long" and room.status == RoomStatus.WAITING
        assert room.settings["length"] == 1 and room.settings["clock"] == "none"
        assert room.settings["first_move"] == online.first_move
    twin_round = round_generate(tournament=by_hand)
    assert not SeriesRoom.objects.filter(series__round=twin_round).exists()

    # the first series is played to its end in its room; its director chose who starts
    played, absent = links
    one, two = played.series.player1.user, played.series.player2.user
    series_starter_set(series=played.series, starter=played.series.player2)
    room = seeded(played.room, one, two)
    assert room.games.count() == 0 and not room.a_white  # L12: the second seat starts
    assert 'DiceLot "' not in room.record  # no lot drawn (L2 is replaced by the choice)
    room = play_out(room, (one, two))
    assert room.status == RoomStatus.FINISHED
    series = Series.objects.get(pk=played.series_id)
    assert series.status == SeriesStatus.FINISHED
    game = series.games.get()
    assert game.white == played.series.player2
    room_game = room.games.get()
    assert game.verified and game.kind == room_game.kind and game.cube == room_game.cube
    winner = series.winner
    assert winner is not None and winner.user == (one if room.winner == "a" else two)
    assert not Series.objects.filter(tournament__name__startswith="Online play").exists()

    # the second: its first player joins, the second never does; the window closes
    late = absent.series.player2
    act(absent.room, absent.series.player1.user, "seed", seed="ab" * 16)
    assert room_sweep_timeouts(now=absent.window_closes - timedelta(seconds=1)) == []
    assert room_sweep_timeouts(now=absent.window_closes + timedelta(seconds=1)) == [absent.room_id]
    forfeited = Series.objects.get(pk=absent.series_id)
    assert forfeited.status == SeriesStatus.FORFEITED
    assert forfeited.winner == absent.series.player1 and forfeited.winner != late
    assert Room.objects.get(pk=absent.room_id).winner == "a"

    # the same results entered by hand give the same standings
    twin = {(s.player1_id, s.player2_id): s for s in twin_round.series.all()}
    hand = twin[(series.player1_id, series.player2_id)]
    game_enter_quick(series=hand, white=game.white, winner=game.winner, kind=game.kind,
                     ended=game.ended, cube=game.cube)  # fmt: skip
    series_forfeit(series=twin[(absent.series.player1_id, late.pk)],
                   winner=absent.series.player1)  # fmt: skip
    got = [_row(r) for r in standings_for_tournament(tournament=online)]
    assert got == [_row(r) for r in standings_for_tournament(tournament=by_hand)]
    assert sum(int(str(r[2])) for r in got) == 2  # two series won


def test_rounds_paired_ahead_open_their_rooms_when_published(players: list[Player]) -> None:
    t = _tournament("Online cup", players)
    online_play_set(tournament=t, window_minutes=30)
    director = User.objects.create_user("director", password="x" * 12)
    t.directors.add(director)
    first, second, *_ = round_robin_pair_all(tournament=t)
    assert not SeriesRoom.objects.exists()  # nobody is told of an unpublished round
    round_publish(round=first, by=director)
    assert SeriesRoom.objects.filter(series__round=first).count() == 2
    assert not SeriesRoom.objects.filter(series__round=second).exists()


def test_both_absent_is_left_to_the_director(players: list[Player]) -> None:
    t = _tournament("Online cup", players)
    online_play_set(tournament=t, window_minutes=5)
    round_generate(tournament=t)
    link = SeriesRoom.objects.order_by("series__table").first()
    assert link is not None
    assert room_sweep_timeouts(now=link.window_closes + timedelta(minutes=1)) == []
    assert Series.objects.get(pk=link.series_id).status == SeriesStatus.SCHEDULED


def test_the_setting_is_checked(players: list[Player]) -> None:
    t = _tournament("Online cup", players)
    with pytest.raises(ApplicationError) as refused:
        online_play_set(tournament=t, window_minutes=0)
    assert refused.value.code == "settings-number"
    with pytest.raises(ApplicationError) as refused:
        online_play_set(tournament=t, clock={"clock": "blitz"})
    assert refused.value.code == "settings-choice"
