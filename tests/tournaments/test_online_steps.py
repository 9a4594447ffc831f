"""A crowded Lurč paš in a game room (RULES Z7, Z10): its 32,509 legal turns are not
listed in the room's state (the state stays small and quick); the player to move enters
the turn step by step through the steps door, which offers the engine's legal next steps,
and sends the finished turn as any other. Hostile steps are refused with a code, never a
server error."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine import legal_turns, read_records, replay
from tests.tournaments.online_play import act, crowded_room
from tournaments.models import Room
from tournaments.services.online.game import game_view
from tournaments.services.online.state import room_state

# the first 54 actions of a random Lurč game: white to move, and 6-6 has 32,509 ends
ENDS = 32509

pytestmark = pytest.mark.django_db


Crowded = tuple[Room, Client, Client, User]


@pytest.fixture
def crowded() -> Crowded:
    """A room whose game stands at the crowded paš: the mover's client, the other
    player's, and the mover."""
    room, mover, other = crowded_room([6, 6])
    clients = []
    for user in (mover, other):
        c = Client()
        c.force_login(user)
        clients.append(c)
    return room, clients[0], clients[1], mover


def _steps(c: Client, room: Room, written: str, pas: str = "") -> tuple[int, dict[str, Any]]:
    r = c.get(reverse("tournaments:room-steps", args=[room.pk]), {"steps": written, "pas": pas})
    return r.status_code, r.json()


def test_the_crowded_paš_is_entered_step_by_step(crowded: Crowded) -> None:
    room, mover_c, _, mover = crowded
    view = game_view(room.record)
    assert view.position.turn == 0 and len(legal_turns(view.position, [6, 6])) == ENDS
    # the state door: no list of 32,509 turns (about 3 MB before), the steps door instead
    started = time.process_time()
    r = mover_c.get(reverse("tournaments:room-state", args=[room.pk]))
    spent = time.process_time() - started
    state = r.json()
    assert r.status_code == 200 and state["legal"] is None and "move" in state["can"]
    assert state["steps_url"] == reverse("tournaments:room-steps", args=[room.pk])
    assert len(r.content) < 40_000, len(r.content)
    assert spent < 10
    # the room's page carries the same state
    page = mover_c.get(reverse("tournaments:room", args=[room.pk]))
    assert page.status_code == 200 and len(page.content) < 120_000, len(page.content)
    # step by step, each answer quick, to a whole turn the room accepts
    played: list[str] = []
    slowest = 0.0
    while True:
        started = time.process_time()
        status, answer = _steps(mover_c, room, " ".join(played))
        slowest = max(slowest, time.process_time() - started)
        assert status == 200, answer
        if not answer["next"]:
            break
        assert answer["movetext"] is None or answer["complete"]
        frm, to = answer["next"][-1]
        played.append(f"{'bar' if frm == 25 else frm}/{'off' if to == 0 else to}")
    assert answer["complete"] and len(played) == 8  # Z7: the eight moves of the paš
    assert slowest < 3, slowest
    before = Room.objects.get(pk=room.pk).seq
    after = act(room, mover, "move", turn=answer["movetext"])
    assert after.seq > before
    assert replay(read_records(after.record)[0], check_result=False).error is None


def test_a_short_list_is_still_listed(crowded: Crowded) -> None:
    """A roll of few turns lists them as before (no steps door)."""
    room, _, _, mover = crowded
    room.dice = [6, 5]
    room.save()
    state = room_state(Room.objects.get(pk=room.pk), mover)
    assert state["legal"] and len(state["legal"]) <= 200 and state["steps_url"] is None


@pytest.mark.parametrize(
    ("written", "pas", "status", "code"),
    [
        ("20/15", "", 400, "steps-illegal"),  # a 5 in a paš of 6-6 and 1-1
        ("1/7", "", 400, "steps-illegal"),
        ("99/0", "", 400, "steps-illegal"),
        ("24-18", "", 400, "steps-malformed"),
        ("bar/bar", "", 400, "steps-malformed"),
        ("1/off " * 20, "", 400, "steps-too-many"),
        ("", "9", 400, "steps-bad-pas"),
    ],
)
def test_hostile_steps_are_refused_with_a_code(
    crowded: Crowded, written: str, pas: str, status: int, code: str
) -> None:
    room, mover_c, _, _ = crowded
    got, answer = _steps(mover_c, room, written, pas)
    assert (got, answer["code"]) == (status, code), answer
    assert answer["detail"]


def test_only_the_player_to_move_is_answered(crowded: Crowded) -> None:
    room, _, other_c, _ = crowded
    status, answer = _steps(other_c, room, "")
    assert (status, answer["code"]) == (400, "steps-not-your-turn")
    status, answer = _steps(Client(), room, "")
    assert (status, answer["code"]) == (403, "steps-spectator")


@hsettings(max_examples=60, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    written=st.one_of(
        st.text(max_size=60),
        st.lists(
            st.tuples(
                st.sampled_from(["bar", *map(str, range(0, 27))]),
                st.sampled_from(["off", *map(str, range(0, 27))]),
            ),
            max_size=9,
        ).map(lambda steps: " ".join(f"{a}/{b}" for a, b in steps)),
    ),
    pas=st.sampled_from(["", "1", "6", "0", "x", "66"]),
)
def test_any_steps_are_answered_or_refused_never_a_server_error(
    crowded: Crowded, written: str, pas: str
) -> None:
    room, mover_c, _, _ = crowded
    status, answer = _steps(mover_c, room, written, pas)
    assert status in (200, 400), (status, answer)
    if status == 400:
        assert answer["code"].startswith("steps-") and answer["detail"]
    else:
        json.dumps(answer)
        assert all(len(s) == 2 for s in answer["next"])
