"""The bot game seen from the player's side (docs/play.md): a player who takes black sees
the board from black's side, and the offered turns, the bot's turns and the board's
numbers are all black's numbering (RULES "Point numbering", L1)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine import read_records
from engine.viewpoint import movetext_for
from tournaments.board import point_spot
from tournaments.services.botgames import botgame_start

pytestmark = pytest.mark.django_db
TURN = re.compile(r'<button type="submit" name="turn" value="([^"]*)"')
BOT_PLAYED = re.compile(r'<p id="bot-played">.*?<code>([^<]*)</code>', re.S)


def _page(colour: str) -> tuple[str, str]:
    ann = User.objects.create_user(f"ann-{colour}", password="pw-ann-123")
    game = botgame_start(user=ann, level="beginner", colour=colour)
    c = Client()
    c.force_login(ann)
    html = c.get(reverse("tournaments:play_game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    return html.content.decode(), game.record


def _head_stack(side: int, html: str) -> bool:
    """Whether ``side``'s checkers stand on the top-right point (point 24 of the board's
    numbering): the viewer's head at the start of long nardy (L1)."""
    x = point_spot(24).x
    return re.search(rf'href="#s{side}d5" x="{x:g}" y="18"', html) is not None


def test_black_sees_the_board_and_every_move_in_blacks_numbering() -> None:
    html, record = _page("black")
    # the board: black's head (its point 24) on the top right, where the viewer's 24 is
    assert _head_stack(1, html) and not _head_stack(0, html)
    # the offered turns: black's own numbering, from its head 24
    turns = [unescape(t) for t in TURN.findall(html)]
    assert turns and all(t.startswith("24/") for t in turns)
    # the bot's first turn (white's, written 24/... in the record) is shown in black's
    # numbering: white's 24 is black's 12 (L1)
    found = BOT_PLAYED.search(html)
    assert found is not None
    shown = unescape(found.group(1))
    written = read_records(record)[0].actions[0].text
    assert written.split(": ")[1].startswith("24/")
    assert shown == movetext_for(written, "long", mover=0, viewer=1)
    assert shown.split(": ")[1].startswith("12/")


def test_white_still_sees_whites_side() -> None:
    html, _ = _page("white")
    assert _head_stack(0, html) and not _head_stack(1, html)
    assert all(unescape(t).startswith("24/") for t in TURN.findall(html))
