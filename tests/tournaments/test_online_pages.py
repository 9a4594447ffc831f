"""The lobby (/play/) and the game room's page (docs/online.md): challenges made, accepted,
declined and cancelled through the lobby's forms; the room's page for a player (the board
from their side), a spectator and an anonymous visitor; the finished series' dice check."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import Challenge, ChallengeStatus, Room, RoomStatus
from tournaments.services.online.rooms import room_act
from tournaments.services.online.state import room_state

pytestmark = pytest.mark.django_db
STATE = re.compile(r'<script id="room-state" type="application/json">(.*?)</script>', re.S)

CHALLENGE = {
    "action": "challenge", "c-variant": "long", "c-opponent_kind": "anyone",
    "c-series_mode": "games", "c-length": "3", "c-mars": "on", "c-draw_scoring": "half",
    "c-first_move": "loser", "c-opening_roll": "lot", "c-clock": "live", "c-delay_s": "12",
    "c-reserve_s": "60", "c-days": "3", "c-timeout_costs": "game",
}  # fmt: skip


def _client(name: str) -> tuple[User, Client]:
    user = User.objects.create_user(name, password=f"pw-{name}-123")
    c = Client()
    c.force_login(user)
    return user, c


def _page_state(html: str) -> dict[str, object]:
    found = STATE.search(html)
    assert found is not None
    return json.loads(unescape(found.group(1)) if "&quot;" in found.group(1) else found.group(1))


def _room_of_two(**extra: str) -> tuple[Room, Client, Client]:
    ann, ann_c = _client("ann")
    _, bob_c = _client("bob")
    r = ann_c.post(reverse("tournaments:play"), CHALLENGE | extra, HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 302
    challenge = Challenge.objects.get(creator=ann)
    lobby = bob_c.get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'id="challenge-{challenge.pk}"' in lobby and "ann offers a series" in lobby
    r = bob_c.post(reverse("tournaments:play"), {"action": "accept", "challenge": challenge.pk})
    room = Room.objects.get(challenge=challenge)
    assert r.status_code == 302 and r["Location"] == reverse("tournaments:room", args=[room.pk])
    return room, ann_c, bob_c


def test_an_open_challenge_accepted_opens_a_room_with_its_settings() -> None:
    room, ann_c, _ = _room_of_two()
    assert room.settings["series_mode"] == "games" and room.settings["length"] == 3
    html = ann_c.get(reverse("tournaments:room", args=[room.pk]), HTTP_ACCEPT_LANGUAGE="cs")
    assert html.status_code == 200
    text = html.content.decode()
    assert "js/room.js" in text and 'id="room-board"' in text and "<svg" in text
    state = _page_state(text)
    assert state["status"] == "waiting" and state["you"] in ("white", "black")
    assert "Herní místnost" in text  # the title in Czech


def test_decline_and_cancel() -> None:
    ann, ann_c = _client("ann")
    bob, bob_c = _client("bob")
    ann_c.post(
        reverse("tournaments:play"), CHALLENGE | {"c-opponent_kind": "user", "c-opponent": "bob"}
    )
    direct = Challenge.objects.get(creator=ann)
    assert direct.opponent == bob
    lobby = bob_c.get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "ann challenges you" in lobby
    bob_c.post(reverse("tournaments:play"), {"action": "decline", "challenge": direct.pk})
    direct.refresh_from_db()
    assert direct.status == ChallengeStatus.DECLINED
    ann_c.post(reverse("tournaments:play"), CHALLENGE)
    open_one = Challenge.objects.filter(creator=ann, status=ChallengeStatus.OPEN).get()
    r = bob_c.post(reverse("tournaments:play"), {"action": "cancel", "challenge": open_one.pk})
    assert r.status_code == 400  # only its creator cancels
    ann_c.post(reverse("tournaments:play"), {"action": "cancel", "challenge": open_one.pk})
    open_one.refresh_from_db()
    assert open_one.status == ChallengeStatus.CANCELLED
    again = bob_c.post(reverse("tournaments:play"), {"action": "accept", "challenge": open_one.pk})
    assert again.status_code == 409


def test_a_challenge_by_link_is_accepted_through_its_page() -> None:
    ann, ann_c = _client("ann")
    _, bob_c = _client("bob")
    r = ann_c.post(
        reverse("tournaments:play"), CHALLENGE | {"c-opponent_kind": "link"}, follow=True
    )
    challenge = Challenge.objects.get(creator=ann)
    link = reverse("tournaments:challenge_link", args=[challenge.pk, challenge.token])
    assert link in r.content.decode()
    assert (
        bob_c.get(reverse("tournaments:challenge_link", args=[challenge.pk, "x" * 22])).status_code
        == 404
    )
    page = bob_c.get(link, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "ann challenges you" in page and 'id="challenge-accept"' in page
    r = bob_c.post(
        reverse("tournaments:play"),
        {"action": "accept", "challenge": challenge.pk, "token": challenge.token},
    )
    assert r.status_code == 302 and "/play/rooms/" in r["Location"]


def test_the_challenge_form_refuses_bad_settings_in_the_readers_language() -> None:
    _, ann_c = _client("ann")
    bad = CHALLENGE | {"c-length": "99", "c-opponent_kind": "user"}
    r = ann_c.post(reverse("tournaments:play"), bad, HTTP_ACCEPT_LANGUAGE="cs")
    assert "Napište jméno hráče, kterého vyzýváte." in r.content.decode()
    assert r.status_code == 400
    assert not Challenge.objects.exists()


def test_a_spectator_and_an_anonymous_visitor_watch() -> None:
    room, _, _ = _room_of_two()
    _, eve_c = _client("eve")
    for c in (eve_c, Client()):
        html = c.get(reverse("tournaments:room", args=[room.pk])).content.decode()
        state = _page_state(html)
        assert state["you"] is None and state["can"] == [] and state["chat"] == []


def test_the_room_page_is_drawn_from_the_players_side() -> None:
    room, ann_c, bob_c = _room_of_two()
    del ann_c, bob_c
    for user in (room.a_user, room.b_user):
        seq = Room.objects.get(pk=room.pk).seq
        room_act(room_id=room.pk, user=user, message={"action": "seed", "seq": seq, "seed": "ab"})
    room.refresh_from_db()
    assert room.status == RoomStatus.PLAYING
    black = room.b_user if room.a_white else room.a_user
    state = room_state(room, black)
    assert state["you"] == "black"
    # black's head (its 24, long nardy L1) on the top right of black's board
    from tournaments.board import point_spot

    assert f'href="#s1d5" x="{point_spot(24).x:g}" y="18"' in state["board_svg"]


def test_dice_check_of_an_unfinished_series_says_so() -> None:
    room, ann_c, _ = _room_of_two()
    r = ann_c.get(reverse("tournaments:room_dice", args=[room.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert r.json() == {"ok": False, "lines": ["The server seed is revealed when the series ends."]}
