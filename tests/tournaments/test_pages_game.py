"""The game page: the board drawn from the engine's positions, the move list and the
replay; a record that fails verification stops at the illegal turn. The board drawing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine import Position
from tests.tournaments.pages_data import recorded_game, round_robin
from tournaments.board import board_svg, point_spot
from tournaments.models import Game

pytestmark = pytest.mark.django_db


def test_game_page_draws_the_board_and_every_position(client: Client) -> None:
    game = recorded_game(round_robin(4))
    response = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<svg id="board"' in html and "verified by the rules engine" in html
    turns = html.count('data-turn="') // 2  # one frame and one move link per position
    assert turns > 10 and 'aria-current="step"' in html
    assert "Pips" in html


def test_game_page_without_javascript_steps_with_turn_links(client: Client) -> None:
    game = recorded_game(round_robin(4))
    html = client.get(reverse("tournaments:game", args=[game.pk]) + "?turn=1").content.decode()
    assert 'href="?turn=0#replay" data-go="prev"' in html
    assert 'href="?turn=2#replay" data-go="next"' in html
    # a turn out of range is clamped, not an error
    assert client.get(reverse("tournaments:game", args=[game.pk]) + "?turn=9999").status_code == 200
    assert client.get(reverse("tournaments:game", args=[game.pk]) + "?turn=x").status_code == 200


def test_unverifiable_record_stops_at_the_illegal_turn(client: Client) -> None:
    game = recorded_game(round_robin(4))
    lines = game.record.splitlines()
    # the first turn: white plays a six from the head to a point a five would reach
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[first] = "1. 63: 24/19/16 33: 24/21/18(2)"
    Game.objects.filter(pk=game.pk).update(record="\n".join(lines), verified=False)
    html = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = html.content.decode()
    assert "The record stops at an illegal turn." in text and "record not verified" in text
    assert 'id="illegal"' in text


def test_scoresheet_game_has_no_replay(client: Client) -> None:
    t = round_robin(4)
    game = Game.objects.filter(series__tournament=t, record="").first()
    assert game is not None
    html = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "there is no record to replay" in html.content.decode()


def test_game_page_query_count_is_fixed(client: Client, django_assert_max_num_queries: Any) -> None:
    game = recorded_game(round_robin(6))
    with django_assert_max_num_queries(4):  # 3, and the version of the public copy
        client.get(reverse("tournaments:game", args=[game.pk]))


def test_record_check_answers_with_the_engines_verdict(client: Client) -> None:
    from tests.tournaments.pages_data import director

    boss = director()
    t = round_robin(4, by=boss)
    series = t.series.filter(games__isnull=True, player2__isnull=False).first()
    assert series is not None
    url = reverse("tournaments:record_check", args=[series.pk])
    assert client.post(url, {"record": "x"}).status_code == 403  # only who may enter it
    client.force_login(boss)
    answer = client.post(url, {"record": '[Variant "long"]\n\n1. 99: 24/15'}).json()
    assert answer["ok"] is False and answer["line"] == 3


@pytest.mark.parametrize("variant", ["long", "short", "lurc"])
def test_board_draws_every_variant(variant: str) -> None:
    svg = board_svg(Position.start(variant), dice=(6, 5), dice_side=0)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<polygon") == 24


def test_points_are_laid_out_like_a_real_board() -> None:
    assert point_spot(13).top and point_spot(24).top and not point_spot(1).top
    assert point_spot(13).x == point_spot(12).x  # 13 above 12, on the left
    assert point_spot(24).x == point_spot(1).x  # 24 above 1, on the right
    assert point_spot(18).x < point_spot(19).x - 40  # the bar between 18 and 19


def test_pages_are_compressed_for_phones(client) -> None:
    """A replay draws every position; gzip makes it several times smaller on the wire."""
    from tests.tournaments.pages_data import recorded_game, round_robin

    game = recorded_game(round_robin(4))
    plain = client.get(f"/games/{game.pk}/")
    packed = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) * 3 < len(plain.content)
