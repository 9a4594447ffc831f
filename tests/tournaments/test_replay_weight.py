"""A finished game's page carries only the position shown: every other position (and the
best play at each error) comes as JSON from the page's own address followed by
``frames/`` (views/replays.py), fetched by static/js/replay.js once the replay is used.
Before, a long game against the bot was 147-345 KB of HTML (every position drawn into the
page, a whole board for every error), several times what a phone needs to show it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine.evaluator.bot import bot_dice, bot_state, bot_turn
from engine.movegen import legal_turns
from tests.tournaments.analysis_data import a_series, record_for
from tournaments.models import BotGame, BotGameStatus
from tournaments.services.analysis import game_analyse
from tournaments.services.botgames import botgame_play, botgame_start
from tournaments.services.results import game_enter_record

pytestmark = pytest.mark.django_db
EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}
# bytes of HTML, not compressed (409 KB and 718 KB before for these games); the rollout
# form's list of the turns to roll out adds about 5 KB to a game with an error every turn
LIMIT = 70_000


@pytest.fixture(autouse=True)
def _fast(no_throttle: None) -> None:
    """Fast hashing, large rates and an empty cache (conftest.py)."""


def _played_out(user: User, *, careless: bool) -> BotGame:
    """A game played to its end: the user plays as the bot would (a long race, few
    errors), or ``careless``, always the first legal turn (an error almost every turn)."""
    game = botgame_start(user=user, level="beginner", colour="white")
    BotGame.objects.filter(pk=game.pk).update(seed=20261206)  # the same dice every run
    game.refresh_from_db()
    rng = random.Random(7)
    while game.status != BotGameStatus.FINISHED:
        state = bot_state(game.record)
        dice = bot_dice(game.seed, state.number)
        if careless:
            turn = legal_turns(state.position, list(dice))[0]
        else:
            turn = bot_turn(state.position, list(dice), "advanced", rng)
        game = botgame_play(game_id=game.pk, user=user, version=game.version, turn=turn.notation)
    return game


def _last(html: str) -> int:
    found = re.search(r'id="replay" data-last="(\d+)"', html)
    assert found is not None
    return int(found.group(1))


@pytest.mark.parametrize("careless", [False, True])
def test_a_long_finished_bot_game_page_is_light_and_its_positions_come_as_json(
    careless: bool,
) -> None:
    ann = User.objects.create_user("ann", password="a-long-secret-1")
    game = _played_out(ann, careless=careless)
    client = Client()
    client.force_login(ann)
    page = client.get(reverse("tournaments:play_game", args=[game.pk]), **EN)
    html = page.content.decode()
    last = _last(html)
    assert last >= 80, "a long game"
    assert len(page.content) < LIMIT, (len(page.content), last)
    assert '<template id="frames">' not in html and 'data-frames="frames/"' in html
    assert html.count("<defs>") == 1  # the checkers drawn once, for both boards
    frames = client.get(reverse("tournaments:play_frames", args=[game.pk]), **EN)
    data = frames.json()
    assert frames["Content-Type"] == "application/json"
    assert len(data["frames"]) == last + 1
    label, pieces, pips_white, pips_black, to_move = data["frames"][0]
    assert label.startswith("Long nardy: white to move") and "<use " in pieces
    assert (pips_white, pips_black, to_move) == (360, 360, "white")
    marked = re.findall(r'<li class="(?:white|black)[^"]*marked-turn"><a href="\?turn=(\d+)', html)
    assert set(data["best"]) <= set(marked) and (data["best"] or not careless)
    assert html.count('<span class="best-turn">Best: ') == len(data["best"])
    for best_label, caption, best_pieces in data["best"].values():
        assert best_label.startswith("the best play: ") and caption.startswith("Best: ")
        assert "<use " in best_pieces
    # the positions are the player's, as the page is
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.get(reverse("tournaments:play_frames", args=[game.pk])).status_code == 404
    anonymous = Client().get(reverse("tournaments:play_frames", args=[game.pk]))
    assert anonymous.status_code == 302


def test_an_unfinished_bot_game_has_no_positions_to_fetch() -> None:
    ann = User.objects.create_user("ann", password="a-long-secret-1")
    game = botgame_start(user=ann, level="beginner", colour="white")
    client = Client()
    client.force_login(ann)
    assert client.get(reverse("tournaments:play_frames", args=[game.pk])).status_code == 404


def test_a_long_analysed_tournament_game_page_is_light(settings: Any) -> None:
    """The game page draws its replay through the same fragment: a random game of long
    nardy (an error almost every turn) carries only the position shown, the others
    fetched the same way."""
    settings.ANALYSIS_ON_STORE = False
    series = a_series()
    game = game_enter_record(series=series, record=record_for(series, 11))
    game_analyse(game=game)
    client = Client()
    page = client.get(reverse("tournaments:game", args=[game.pk]), **EN)
    html = page.content.decode()
    last = _last(html)
    assert last >= 80, "a long game"
    # 1,018 KB before; the rest beside the replay is mostly the pip chart's link to every turn
    assert len(page.content) < 100_000, (len(page.content), last)
    replay = html[html.index('id="replay"') : html.index('id="marks-legend"')]
    assert len(replay.encode()) < 30_000 and '<template id="frames">' not in html
    data = client.get(reverse("tournaments:game_frames", args=[game.pk]), **EN).json()
    assert len(data["frames"]) == last + 1 and data["best"]
    # the position asked for is drawn into the page, the best play beside it at an error
    turn = next(iter(data["best"]))
    at = client.get(reverse("tournaments:game", args=[game.pk]), {"turn": turn}, **EN)
    assert data["frames"][int(turn)][1] in at.content.decode()
    assert data["best"][turn][2] in at.content.decode()
    assert client.get(reverse("tournaments:game_frames", args=[10**6])).status_code == 404
