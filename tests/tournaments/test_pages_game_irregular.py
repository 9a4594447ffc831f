"""The game page marks an irregular turn the opponent accepted (NOTATION 1, ``accepted``;
docs/notation.md): a visible mark and a translatable text in the move list and the turn info."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.pages_data import recorded_game, round_robin
from tournaments.models import Game

pytestmark = pytest.mark.django_db


def test_replay_page_marks_the_accepted_irregular_turn(client: Client) -> None:
    game = recorded_game(round_robin(4))
    lines = game.record.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    # white's first turn written with dice that cannot play its moves, then accepted
    match = re.match(r"1\. (\d)(\d): (\S+(?: \S+)*?) (\d\d:)", lines[first])
    assert match is not None, lines[first]
    dice = "21" if match.group(1, 2) != ("2", "1") else "43"
    lines[first] = lines[first].replace(
        match.group(0), f"1. {dice}: {match.group(3)} accepted {match.group(4)}"
    )
    Game.objects.filter(pk=game.pk).update(record="\n".join(lines))
    url = reverse("tournaments:game", args=[game.pk])
    html = client.get(url + "?turn=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The record stops at an illegal turn." not in html
    assert html.count("irregular, accepted") == 2  # the move list and the turn info
    assert 'class="white irregular-turn"' in html
    # the other turns carry no mark
    other = client.get(url + "?turn=2", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert other.count("irregular, accepted") == 1


def test_a_record_with_an_accepted_turn_is_stored_verified_with_the_turn_named(client: Client):
    """A record entered with an accepted turn (here by a director's correction, which
    takes the same record check as entry) is stored verified, and its page names the
    irregular turn in a badge (as `python -m engine verify` says it)."""
    from django.contrib.auth.models import User

    from tournaments.services.results import game_correct

    game = recorded_game(round_robin(4))
    lines = game.record.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    match = re.match(r"1\. (\d)(\d): (\S+(?: \S+)*?) (\d\d:)", lines[first])
    assert match is not None
    dice = "21" if match.group(1, 2) != ("2", "1") else "43"
    lines[first] = lines[first].replace(
        match.group(0), f"1. {dice}: {match.group(3)} accepted {match.group(4)}"
    )
    boss = User.objects.create_superuser("boss-irregular", password="x")
    stored = game_correct(
        game=game, by=boss, reason="the scoresheet shows the accepted turn",
        record="\n".join(lines) + "\n",
    )  # fmt: skip
    assert stored.verified
    assert stored.verification_note["params"]["irregular"] == [[1, "white"]]
    with translation.override("en"):
        assert "(irregular: turn 1 white accepted)" in stored.verification
    html = client.get(
        reverse("tournaments:game", args=[stored.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "irregular turns accepted by the opponent:" in html
    assert 'href="?turn=1#replay">turn 1 (white)</a>' in html
