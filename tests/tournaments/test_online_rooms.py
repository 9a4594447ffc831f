"""Game rooms through the service (docs/online.md): whole series of long nardy, short
backgammon and Lurč played out, each finished game's record verified by the engine and
its dice re-derived by engine/dice.py from the revealed seed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from engine import read_records, replay
from engine.dicecheck import check_dice_text
from engine.variants import variant_named
from tests.tournaments.online_play import new_room, play_out, seeded
from tournaments.models import (
    START_RATING,
    PlayerRating,
    RatingChange,
    RoomStatus,
    Series,
    SeriesStatus,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(db) -> User:
    return User.objects.create_user("ann", password="pw-ann-123")


@pytest.fixture
def bob(db) -> User:
    return User.objects.create_user("bob", password="pw-bob-123")


@pytest.mark.parametrize("variant", ["long", "short", "lurc"])
def test_a_whole_series_is_played_and_its_dice_check(
    ann: User, bob: User, variant: str, django_capture_on_commit_callbacks
) -> None:
    room = seeded(new_room(ann, bob, variant, length=2, clock="none"), ann, bob)
    with django_capture_on_commit_callbacks(execute=True):
        room = play_out(room, (ann, bob))
    assert room.status == RoomStatus.FINISHED
    games = list(room.games.order_by("number"))
    assert games and max(room.a_score, room.b_score) >= 2
    for game in games:
        done = replay(read_records(game.record)[0])
        assert done.ok, done.error
        assert dict(read_records(game.record)[0].tags)["DiceSeed"] == room.server_seed
    # a game with an evaluator is analysed once stored (as a bot game is)
    judged = variant_named(variant).evaluator is not None
    assert all((g.analysis is not None) == judged for g in games)
    verdicts = check_dice_text("\n".join(g.record for g in games))
    assert all(v.ok for v in verdicts), [v.describe() for v in verdicts]
    # a record whose dice were changed fails the check
    first = games[0].record
    turn = next(a for a in read_records(first)[0].actions if a.kind == "turn" and a.dice)
    assert turn.dice is not None
    a, b = turn.dice
    forged = first.replace(f"{a}{b}:", f"{a % 6 + 1}{b}:", 1) if a != b else first.replace(
        f"{a}{b}:", f"{a % 6 + 1}{b % 6 + 1}:", 1
    )  # fmt: skip
    assert not check_dice_text(forged)[0].ok


def test_a_finished_series_counts_in_the_ratings(ann: User, bob: User) -> None:
    """Its copy is a Series of the game's online-play tournament, its games verified,
    and the ratings follow (services/online/rated.py)."""
    room = seeded(new_room(ann, bob, "long", length=1, clock="none"), ann, bob)
    room = play_out(room, (ann, bob))
    series = Series.objects.get(tournament__name="Online play: long nardy")
    assert series.status == SeriesStatus.FINISHED and series.length == 1
    assert {series.player1.user, series.player2.user} == {ann, bob}
    game = series.games.get()
    assert game.verified and game.record == room.games.get().record
    winner = series.winner
    assert winner is not None and winner.user == (ann if room.winner == "a" else bob)
    assert PlayerRating.objects.get(player=winner, variant="long").rating > START_RATING
    assert RatingChange.objects.filter(series=series).count() == 2


def test_a_doubling_war_stops_at_the_cubes_highest_value(ann: User, bob: User) -> None:
    """Both players double whenever they may and take every double: at 4096 (MAX_CUBE)
    the room offers no double and refuses one, in the player's language (S7). A game
    against gnubg reached 2**31 before, which gnubg could not evaluate."""
    from django.utils import translation

    from engine import MAX_CUBE
    from tests.tournaments.online_play import act, first_choice, on_turn
    from tournaments.services.errors import ApplicationError

    room = seeded(new_room(ann, bob, "short", series_mode="games", length=1, clock="none"),
                  ann, bob)  # fmt: skip
    for _ in range(400):
        user, state = on_turn(room, (ann, bob))
        cube = state["cube"]
        if cube["value"] == MAX_CUBE and cube["owner"] == state["you"]:
            break
        action, fields = ("double", {}) if "double" in state["can"] else first_choice(state)
        room = act(room, user, action, **fields)
    else:
        raise AssertionError("the cube never reached its highest value")
    assert "double" not in state["can"]  # the owner on turn, the dice rolled at once
    with translation.override("cs"), pytest.raises(ApplicationError) as refused:
        act(room, user, "double")
    assert refused.value.code == "cube-max" and "nejvyšší hodnotu, 4096" in str(refused.value)
