"""Two actions sent at one sequence number (docs/online.md, the benchmark): a game action
is decided on the room's row read without a lock and written only if the row's seq is
still the one it read, so exactly one of them plays, even when the other committed
between its read and its write."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from tests.tournaments.online_play import act, new_room, on_turn, seeded
from tournaments.models import Room
from tournaments.services.errors import ApplicationError
from tournaments.services.online import rooms
from tournaments.services.online.game import game_view
from tournaments.services.online.room_rows import room_write


def _rolled(ann: User, bob: User) -> tuple[Room, User, list[str]]:
    """A room of long nardy whose mover has rolled: the mover and two of its legal turns."""
    room = seeded(new_room(ann, bob, "long", clock="none"), ann, bob)
    for _ in range(20):
        user, state = on_turn(room, (ann, bob))
        if "roll" in state["can"]:
            room = act(room, user, "roll")
            user, state = on_turn(room, (ann, bob))
        turns = [t["movetext"] for t in state["legal"] or []]
        if len(turns) >= 2:
            return Room.objects.get(pk=room.pk), user, turns[:2]
        room = act(room, user, "move", turn=turns[0])
    raise AssertionError("no roll with two legal turns")


def _last_turn(room: Room) -> str:
    last = game_view(room.record).last
    assert last is not None
    return last[2]


@pytest.mark.django_db
def test_an_action_is_not_written_over_one_committed_after_its_read(monkeypatch) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    room, mover, (first, second) = _rolled(ann, bob)
    seq = room.seq
    write = room_write
    raced: list[str] = []

    def late_write(late: Room, read: dict[str, Any]) -> bool:
        if not raced:  # the other turn, sent at the same seq, commits in between
            raced.append("in between")
            rooms.room_act(room_id=room.pk, user=mover,
                           message={"action": "move", "seq": seq, "turn": second})  # fmt: skip
        return write(late, read)

    monkeypatch.setattr(rooms, "room_write", late_write)
    with pytest.raises(ApplicationError) as refused:
        rooms.room_act(room_id=room.pk, user=mover,
                       message={"action": "move", "seq": seq, "turn": first})  # fmt: skip
    assert raced and refused.value.code == "stale-seq"
    room = Room.objects.get(pk=room.pk)
    assert room.seq == seq + 1  # one turn played: the one committed first
    assert _last_turn(room) == second


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite serialises every write, so the actions cannot race",
)
def test_two_turns_sent_at_one_seq_at_once_play_once(transactional_db) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    room, mover, turns = _rolled(ann, bob)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def send(turn: str) -> None:
        barrier.wait()
        try:
            rooms.room_act(room_id=room.pk, user=mover,
                           message={"action": "move", "seq": room.seq, "turn": turn})  # fmt: skip
            outcomes.append("played")
        except ApplicationError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(turn,)) for turn in turns]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["played", "stale-seq"]
    after = Room.objects.get(pk=room.pk)
    assert after.seq == room.seq + 1 and _last_turn(after) in turns
