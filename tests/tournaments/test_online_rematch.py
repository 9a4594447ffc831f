"""A rematch offered from a finished room (docs/online.md): the offerer waits in the
finished room, whose state says who offered it; offering twice makes one offer; the
opponent accepts from the same page (or offers too, which accepts), and the state of the
finished room then names the new room, where both pages go. A spectator reads the
players' chat and cannot write in it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.online_play import act, new_room, seeded
from tournaments.models import Challenge, ChallengeStatus, Room, RoomStatus
from tournaments.services.errors import ApplicationError
from tournaments.services.online.challenges import challenge_rematch
from tournaments.services.online.state import room_state

pytestmark = pytest.mark.django_db


def _users() -> tuple[User, User, User]:
    return tuple(  # type: ignore[return-value]
        User.objects.create_user(n, password=f"pw-{n}-123") for n in ("ann", "bob", "eve")
    )


def _finished(ann: User, bob: User) -> Room:
    room = seeded(new_room(ann, bob, "long", clock="none", length=1), ann, bob)
    room = act(room, ann, "resign")
    assert room.status == RoomStatus.FINISHED
    return room


def _client(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _rematch(room: Room, viewer: User | None) -> object:
    return room_state(Room.objects.get(pk=room.pk), viewer)["rematch"]


def test_a_rematch_offered_waits_in_the_finished_room_and_accepted_opens_for_both() -> None:
    ann, bob, eve = _users()
    room = _finished(ann, bob)
    assert _rematch(room, ann) is None
    r = _client(ann).post(reverse("tournaments:play"), {"action": "rematch", "room": room.pk})
    assert r.status_code == 302 and r["Location"] == reverse("tournaments:room", args=[room.pk])
    offer = Challenge.objects.get(rematch_of=room)
    assert offer.status == ChallengeStatus.OPEN and offer.opponent == bob
    assert _rematch(room, ann) == {"by": "you", "from": "ann", "challenge": offer.pk,
                                   "room": None, "room_url": None}  # fmt: skip
    assert _rematch(room, bob)["by"] == "opponent"  # type: ignore[index]
    assert _rematch(room, eve)["by"] is None  # type: ignore[index]
    # a second click of the offerer makes no second offer
    assert challenge_rematch(room_id=room.pk, user=ann).pk == offer.pk
    assert Challenge.objects.filter(rematch_of=room).count() == 1
    # bob accepts from the finished room's page: the new room, named to both pages
    r = _client(bob).post(reverse("tournaments:play"), {"action": "accept", "challenge": offer.pk})
    new = Room.objects.get(challenge=offer)
    assert r["Location"] == reverse("tournaments:room", args=[new.pk])
    for viewer in (ann, bob, eve):
        assert _rematch(room, viewer)["room_url"] == reverse(  # type: ignore[index]
            "tournaments:room", args=[new.pk]
        )
    assert (new.a_user, new.b_user, new.settings) == (ann, bob, room.settings)


def test_both_offering_a_rematch_starts_it_and_a_stranger_cannot() -> None:
    ann, bob, eve = _users()
    room = _finished(ann, bob)
    offer = challenge_rematch(room_id=room.pk, user=bob)
    answer = challenge_rematch(room_id=room.pk, user=ann)
    assert answer.pk == offer.pk and answer.status == ChallengeStatus.ACCEPTED
    r = _client(ann).post(reverse("tournaments:play"), {"action": "rematch", "room": room.pk})
    assert r["Location"] == reverse("tournaments:room", args=[answer.room.pk])
    with pytest.raises(ApplicationError) as refused:
        challenge_rematch(room_id=room.pk, user=eve)
    assert refused.value.code == "rematch-not-yours"
    # a declined offer is no offer: the finished room offers a rematch again
    room2 = _finished(ann, bob)
    offer2 = challenge_rematch(room_id=room2.pk, user=ann)
    _client(bob).post(reverse("tournaments:play"), {"action": "decline", "challenge": offer2.pk})
    assert _rematch(room2, ann) is None


def test_a_spectator_reads_the_chat_and_a_player_who_turned_it_off_does_not() -> None:
    ann, bob, eve = _users()
    room = seeded(new_room(ann, bob, "long", clock="none"), ann, bob)
    act(room, ann, "chat", text="good luck")
    fresh = Room.objects.get(pk=room.pk)
    assert [c["text"] for c in room_state(fresh, eve)["chat"]] == ["good luck"]
    assert "chat" not in room_state(fresh, eve)["can"]
    with pytest.raises(ApplicationError) as refused:
        act(room, eve, "chat", text="hi")
    assert refused.value.code == "spectator"
    act(room, bob, "chat-off")
    fresh = Room.objects.get(pk=room.pk)
    assert room_state(fresh, bob)["chat"] is None
    assert room_state(fresh, eve)["chat"] and room_state(fresh, ann)["chat"]
