"""A Lurč houšek in a game room whose chosen paš is crowded (RULES Z8, Z7, Z10): its plays
are not listed (every paš: hundreds of thousands); once the player has chosen the paš,
the steps door answers the 1 and the 2 first, then the paš's moves, each answer quick
(listing the 243,496 ends of the 1-2 and 6-6 took half a minute a step), and the whole
turn is sent as any other, its paš in front."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine import read_records, replay
from tests.tournaments.online_play import act, crowded_room
from tournaments.models import Room
from tournaments.services.online.state import room_state

# the first 54 actions of a random Lurč game: white to move, a crowded board

pytestmark = pytest.mark.django_db

Housek = tuple[Room, Client, User]


@pytest.fixture
def housek() -> Housek:
    """A room whose player to move (white) has rolled 1-2 on the crowded board: the
    room, the mover's client, the mover."""
    room, mover, _other = crowded_room([1, 2])
    c = Client()
    c.force_login(mover)
    return room, c, mover


def _steps(c: Client, room: Room, written: str, pas: str = "") -> tuple[int, dict[str, Any]]:
    r = c.get(reverse("tournaments:room-steps", args=[room.pk]), {"steps": written, "pas": pas})
    return r.status_code, r.json()


def _word(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)


def test_a_housek_with_a_crowded_paš_is_entered_step_by_step(housek: Housek) -> None:
    room, c, mover = housek
    state = room_state(room, mover)
    assert state["legal"] is None and state["pas_choice"] and "move" in state["can"]
    # the room's page names the steps door, asked with the paš once it is chosen
    page = c.get(reverse("tournaments:room", args=[room.pk])).content.decode()
    assert f'data-steps-url="{reverse("tournaments:room-steps", args=[room.pk])}"' in page
    status, answer = _steps(c, room, "")
    assert (status, answer["code"]) == (400, "steps-pas-first"), answer
    played: list[str] = []
    slowest = 0.0
    while True:
        started = time.process_time()
        status, answer = _steps(c, room, " ".join(played), "6")
        slowest = max(slowest, time.process_time() - started)
        assert status == 200, answer
        if len(played) < 2:  # Z8: the 1 and the 2 before the paš
            assert answer["next"] and {a - b for a, b in answer["next"]} <= {1, 2}
        if not answer["next"]:
            break
        assert answer["movetext"] is None or answer["complete"]
        frm, to = answer["next"][-1]
        played.append(f"{_word(frm)}/{_word(to)}")
    # Z8: the 1, the 2 and the paš's eight moves, sent with the paš in front
    assert answer["complete"] and len(played) == 10
    assert answer["movetext"].startswith("+66: ")
    assert slowest < 3, slowest
    before = Room.objects.get(pk=room.pk).seq
    after = act(room, mover, "move", turn=answer["movetext"])
    assert after.seq > before and "21+66: " in after.record
    done = replay(read_records(after.record)[0], check_result=False)
    assert done.error is None and done.played[-1].action.pas is not None


def test_a_step_the_paš_does_not_allow_is_refused(housek: Housek) -> None:
    """A paš move before the 1 and the 2 (Z8), and a 5 in the paš of 6-6 and 1-1."""
    room, c, _ = housek
    status, first = _steps(c, room, "", "6")
    assert status == 200
    frm, to = first["next"][0]
    status, answer = _steps(c, room, "20/14", "6")  # a 6 leaves the 1 and the 2 behind
    assert (status, answer["code"]) == (400, "steps-dead-end"), answer
    status, answer = _steps(c, room, f"{_word(frm)}/{_word(to)} 20/15", "6")
    assert (status, answer["code"]) == (400, "steps-illegal"), answer
