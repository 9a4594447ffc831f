"""A room's clock, timeouts, aborts, the bot as an opponent, the challenges and the HTTP
doors (docs/online.md). A timeout is decided by the sweep (``room_sweep_timeouts``, the
``sweep_rooms`` command) from the deadline in the database, at both settings: it costs
the game (scored by the position as a resignation, L9) or the series."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import read_records, replay
from tests.tournaments.online_play import act, first_choice, new_room, on_turn, play_out, seeded
from tournaments.models import ChallengeStatus, Room, RoomGameEnd, RoomStatus
from tournaments.services.errors import ApplicationError
from tournaments.services.online.challenges import (
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_decline,
    challenge_rematch,
)
from tournaments.services.online.rooms import room_act, room_sweep_timeouts
from tournaments.services.online.state import room_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(db) -> User:
    return User.objects.create_user("ann", password="pw-ann-123")


@pytest.fixture
def bob(db) -> User:
    return User.objects.create_user("bob", password="pw-bob-123")


@pytest.mark.parametrize("costs", ["game", "series"])
def test_a_timeout_costs_the_game_or_the_series(ann: User, bob: User, costs: str) -> None:
    room = seeded(
        new_room(ann, bob, length=3, delay_s=5, reserve_s=10, timeout_costs=costs), ann, bob
    )
    user, state = on_turn(room, (ann, bob))
    room = Room.objects.get(pk=room.pk)
    assert room.deadline is not None and state["clock"]["running"] == state["you"]
    assert room_sweep_timeouts(now=room.deadline - timedelta(seconds=1)) == []
    later = room.deadline + timedelta(seconds=1)
    assert room_sweep_timeouts(now=later) == [room.pk]
    room = Room.objects.get(pk=room.pk)
    game = room.games.get()
    assert game.ended == RoomGameEnd.TIMEOUT and game.winner != state["you"]
    done = replay(read_records(game.record)[0])
    assert done.ok and done.outcome.resigned  # scored as a resignation (L9)
    assert done.outcome.kind == "mars"  # nothing borne off: mars (L8)
    seat = "a" if user == ann else "b"
    assert getattr(room, f"{seat}_reserve_ms") == 0
    if costs == "series":
        assert room.status == RoomStatus.FINISHED and room.winner == ("b" if seat == "a" else "a")
    else:
        assert room.status == RoomStatus.PLAYING and room.game_number == 2
    assert room_sweep_timeouts(now=later) == []  # decided once


def test_the_reserve_is_taken_only_beyond_the_delay(ann: User, bob: User) -> None:
    room = seeded(new_room(ann, bob, delay_s=5, reserve_s=10, length=1), ann, bob)
    user, state = on_turn(room, (ann, bob))
    seat = "a" if user == ann else "b"
    Room.objects.filter(pk=room.pk).update(turn_started=timezone.now() - timedelta(seconds=7))
    act(room, user, *[first_choice(state)[0]], **first_choice(state)[1])
    left = getattr(Room.objects.get(pk=room.pk), f"{seat}_reserve_ms")
    assert 7500 <= left <= 8100  # 10 s less the 2 s beyond the 5 s delay


def test_correspondence_days_a_move(ann: User, bob: User) -> None:
    room = seeded(new_room(ann, bob, clock="correspondence", days=2), ann, bob)
    room = Room.objects.get(pk=room.pk)
    assert (
        timedelta(days=2) - timedelta(minutes=1)
        < room.deadline - timezone.now()
        <= timedelta(days=2)
    )
    assert room_sweep_timeouts(now=timezone.now() + timedelta(days=1)) == []
    assert room_sweep_timeouts(now=timezone.now() + timedelta(days=3)) == [room.pk]


@pytest.mark.parametrize("costs", ["game", "series"])
def test_abort_only_before_each_sides_first_turn(ann: User, bob: User, costs: str) -> None:
    waiting = new_room(ann, bob, timeout_costs=costs)
    assert act(waiting, bob, "abort").status == RoomStatus.ABORTED
    room = seeded(new_room(ann, bob, timeout_costs=costs), ann, bob)
    user, state = on_turn(room, (ann, bob))
    assert "abort" in state["can"]
    action, fields = first_choice(state)
    room = act(room, user, action, **fields)
    user, state = on_turn(room, (ann, bob))
    action, fields = first_choice(state)
    room = act(room, user, action, **fields)  # both sides have played a turn
    with pytest.raises(ApplicationError) as refused:
        act(room, ann, "abort")
    assert refused.value.code == "abort-refused"
    room = Room.objects.get(pk=room.pk)
    assert room.status == RoomStatus.PLAYING and room_state(room, ann)["server_seed"] is None


def test_an_aborted_series_reveals_its_seed(ann: User, bob: User) -> None:
    room = act(seeded(new_room(ann, bob), ann, bob), ann, "abort")
    assert room_state(room, bob)["server_seed"] == room.server_seed


def test_the_bot_plays_its_turns_in_the_same_action(ann: User) -> None:
    challenge = challenge_create(user=ann, variant="long", bot_level="beginner",
                                 settings={"length": 1, "clock": "none"})  # fmt: skip
    room = act(challenge.room, ann, "seed", seed="ab" * 8)
    room = play_out(room, (ann,))
    assert room.status == RoomStatus.FINISHED
    game = room.games.get()
    assert replay(read_records(game.record)[0]).ok and "Bot (beginner)" in game.record


def test_the_bot_plays_only_a_game_with_an_evaluator(ann: User, settings) -> None:
    settings.GNUBG = "/nonexistent/gnubg"  # short backgammon's bot is gnubg, where installed
    with pytest.raises(ApplicationError) as refused:
        challenge_create(user=ann, variant="short", bot_level="beginner")
    assert refused.value.code == "bot-no-evaluator"


def test_challenges_open_direct_link_declined_cancelled_rematch(ann: User, bob: User) -> None:
    eve = User.objects.create_user("eve")
    direct = challenge_create(user=ann, variant="lurc", opponent="bob")
    with pytest.raises(ApplicationError) as refused:
        challenge_accept(challenge_id=direct.pk, user=eve)
    assert refused.value.code == "not-for-you"
    assert challenge_decline(challenge_id=direct.pk, user=bob).status == ChallengeStatus.DECLINED
    link = challenge_create(user=ann, variant="long", link=True)
    with pytest.raises(ApplicationError):
        challenge_accept(challenge_id=link.pk, user=eve, token="wrong")
    room = challenge_accept(challenge_id=link.pk, user=eve, token=link.token)
    assert room.a_user == ann and room.b_user == eve
    mine = challenge_create(user=ann, variant="short", settings={"cube": False})
    with pytest.raises(ApplicationError) as own:
        challenge_accept(challenge_id=mine.pk, user=ann)
    assert own.value.code == "own-challenge"
    assert challenge_cancel(challenge_id=mine.pk, user=ann).status == ChallengeStatus.CANCELLED
    with pytest.raises(ApplicationError) as closed:
        challenge_accept(challenge_id=mine.pk, user=bob)
    assert closed.value.code == "challenge-closed"
    act(room, ann, "abort")
    again = challenge_rematch(room_id=room.pk, user=eve)
    assert again.opponent == ann and again.rematch_of == room and again.settings == room.settings


def test_settings_are_checked(ann: User) -> None:
    bad: object
    for bad in ({"length": 0}, {"length": "3"}, {"mars": "yes"}, {"clock": "fast"}, []):
        with pytest.raises(ApplicationError):
            challenge_create(user=ann, variant="long", settings=bad)
    with pytest.raises(ApplicationError):
        challenge_create(user=ann, variant="chess")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(message=st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["action", "seq", "turn", "seed", "text", "x"]), inner, max_size=4),
    max_leaves=8,
))  # fmt: skip
def test_any_json_is_played_or_refused_with_a_code(ann: User, bob: User, message: object) -> None:
    room = Room.objects.filter(a_user=ann).first() or seeded(new_room(ann, bob), ann, bob)
    before = Room.objects.get(pk=room.pk)
    try:
        room_act(room_id=room.pk, user=ann, message=message)
    except ApplicationError as exc:
        assert exc.code and exc.message
        after = Room.objects.get(pk=room.pk)
        assert (after.seq, after.record, after.dice) == (before.seq, before.record, before.dice)


def test_http_doors_state_action_and_csrf(ann: User, bob: User) -> None:
    room = seeded(new_room(ann, bob), ann, bob)
    user, state = on_turn(room, (ann, bob))
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    url = reverse("tournaments:room-action", args=[room.pk])
    action, fields = first_choice(state)
    body = json.dumps({"action": action, "seq": state["seq"], **fields})
    assert client.post(url, body, content_type="application/json").status_code == 403  # CSRF
    client = Client()
    client.force_login(user)
    got = client.get(reverse("tournaments:room-state", args=[room.pk])).json()
    assert got["seq"] == state["seq"] and got["you"] == state["you"]
    answer = client.post(url, body, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["state"]["seq"] == state["seq"] + 1
    again = client.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="cs")
    assert again.status_code == 400 and again.json()["code"] == "stale-seq"
    assert again.json()["state"]["seq"] == state["seq"] + 1
    assert (
        client.post(url, "{not json", content_type="application/json").json()["code"]
        == "bad-message"
    )
    visitor = Client()
    assert visitor.post(url, body, content_type="application/json").status_code == 403
    assert Client().get(reverse("tournaments:room-state", args=[room.pk + 99])).status_code == 404


def test_sweep_rooms_command(ann: User, bob: User) -> None:
    room = seeded(new_room(ann, bob, delay_s=0, reserve_s=0, length=1), ann, bob)
    Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    call_command("sweep_rooms")
    assert Room.objects.get(pk=room.pk).status == RoomStatus.FINISHED


def test_an_action_after_the_deadline_finds_the_timeout(ann: User, bob: User) -> None:
    """No sweep ran: the next request to the room decides the timeout under its lock."""
    room = seeded(new_room(ann, bob, length=1, delay_s=1, reserve_s=1), ann, bob)
    user, state = on_turn(room, (ann, bob))
    Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    action, fields = first_choice(state)
    with pytest.raises(ApplicationError) as late:
        act(room, user, action, **fields)
    assert late.value.code == "timeout"
    room = Room.objects.get(pk=room.pk)
    assert room.status == RoomStatus.FINISHED and room.games.get().ended == RoomGameEnd.TIMEOUT


def test_a_resignation_is_scored_by_the_position(ann: User, bob: User) -> None:
    """L9: resigning before bearing off a checker loses a mars; the next game follows."""
    room = seeded(new_room(ann, bob, length=5, clock="none"), ann, bob)
    user, state = on_turn(room, (ann, bob))
    other = bob if user == ann else ann
    room = act(room, other, "resign")  # a player may resign on the opponent's turn too
    game = room.games.get()
    assert game.ended == "resigned" and game.kind == "mars" and game.points == 2
    assert game.winner == state["you"]
    assert room.status == RoomStatus.PLAYING and room.game_number == 2
    assert max(room.a_score, room.b_score) == 2
