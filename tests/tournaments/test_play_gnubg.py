"""Short backgammon against GNU Backgammon (/play/, docs/play.md): gnubg's levels are
offered where it is installed (and not where it is absent), its plays are the engine's
legal turns, the cube works both ways (the user's double taken or dropped by gnubg, the
user answering gnubg's), the dice are hidden until the user rolls while a double is
allowed, and the finished game is analysed by gnubg."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine import read_records, replay
from engine.evaluator.bot import bot_dice, bot_state
from engine.movegen import legal_turns
from tournaments.models import BotGame, BotGameStatus
from tournaments.services import botgames
from tournaments.services.botgames import (
    bot_levels,
    bot_variants,
    botgame_cube,
    botgame_play,
    botgame_start,
)
from tournaments.services.errors import ApplicationError
from tournaments.services.gnubg_bot import GNUBG_LEVELS, gnubg_cube, gnubg_turn

BOUND = 300
VERSION = re.compile(r'name="version" value="(\d+)"')


@pytest.fixture
def ann(db) -> User:
    return User.objects.create_user("ann", password="pw-ann-123")


def _act(game: BotGame, user: User, *, double_at: int = -1) -> BotGame:
    """The user's next action: answer a double (take), double at turn ``double_at``,
    roll when a double is allowed, else play the first legal turn."""
    state = bot_state(game.record)
    if state.offered:
        return botgame_cube(game_id=game.pk, user=user, version=game.version, action="take")
    from tournaments.selectors.botgames import bot_user_may_double

    if bot_user_may_double(game, state) and not game.rolled:
        action = "double" if state.number >= double_at >= 0 else "roll"
        return botgame_cube(game_id=game.pk, user=user, version=game.version, action=action)
    turn = legal_turns(state.position, list(bot_dice(game.seed, state.number, lot=True)))[0]
    return botgame_play(game_id=game.pk, user=user, version=game.version, turn=turn.notation)


@pytest.mark.gnubg
def test_gnubg_plays_a_short_game_with_the_cube_to_its_end_and_analyses_it(ann):
    assert "short" in bot_variants() and bot_levels("short") == tuple(GNUBG_LEVELS)
    game = botgame_start(user=ann, level="gnubg-expert", colour="white", variant="short")
    assert 'Cube "on"' in game.record
    for _ in range(BOUND):
        if game.status == BotGameStatus.FINISHED:
            break
        game = _act(game, ann, double_at=6)
    else:
        raise AssertionError("the game did not end")
    done = replay(read_records(game.record)[0])
    assert done.ok and done.outcome is not None
    kinds = [p.action.kind for p in done.played]
    assert "double" in kinds and ("take" in kinds or "drop" in kinds)
    game.refresh_from_db()
    assert game.analysis is not None and game.analysis["source"] == "gnubg"
    assert game.analysis["white_error_rate"] is not None


@pytest.mark.gnubg
def test_the_dice_wait_for_the_roll_and_a_double_after_it_is_refused(ann):
    game = botgame_start(user=ann, level="gnubg-beginner", colour="white", variant="short")
    while bot_state(game.record).number == 0 or game.rolled:
        game = _act(game, ann)
    client = Client()
    client.force_login(ann)
    url = reverse("tournaments:play_game", args=[game.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="play-roll"' in html and 'id="play-double"' in html
    assert 'id="play-dice"' not in html
    version = VERSION.search(html)
    assert version is not None
    assert client.post(url, {"version": version[1], "cube": "roll"}).status_code == 302
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="play-dice"' in html and 'id="play-double"' not in html
    game.refresh_from_db()
    with pytest.raises(ApplicationError) as refused:
        botgame_cube(game_id=game.pk, user=ann, version=game.version, action="double")
    assert refused.value.code == "bot-no-double"


@pytest.mark.gnubg
def test_gnubg_doubles_a_won_position_and_would_drop_it(ann):
    from engine import Position

    # white (to move) bears off its last checker on any roll; black is off already with
    # one (no gammon): gnubg doubles, and the doubled side drops
    won = Position.from_json({
        "variant": "short", "turn": "white", "cube": {"value": 1, "owner": None},
        "white": {"1": 1, "off": 14}, "black": {"1": 14, "off": 1},
    })  # fmt: skip
    words = gnubg_cube(won, "gnubg-expert")
    assert words.startswith("Double") and words.rstrip().endswith("pass"), words
    assert gnubg_turn(won, (6, 5), "gnubg-expert").position.off(0) == 15


def test_no_gnubg_no_short_backgammon_bot(ann, settings):
    settings.GNUBG = "/nonexistent/gnubg"
    assert "short" not in bot_variants() and bot_levels("short") == ()
    with pytest.raises(ApplicationError) as refused:
        botgame_start(user=ann, level="gnubg-expert", colour="white", variant="short")
    assert refused.value.code == "bot-no-game"
    client = Client()
    client.force_login(ann)
    html = client.get(reverse("tournaments:play")).content.decode()
    assert (
        'value="gnubg-expert"' not in html
        and 'value="short"' not in html.split('id="lobby-bot-title"')[1]
    )
    assert botgames.bot_variants() == ["long", "lurc"]


@pytest.mark.gnubg
def test_the_levels_are_grouped_by_who_plays_and_a_level_of_another_game_is_refused(ann):
    client = Client()
    client.force_login(ann)
    html = client.get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<optgroup label="GNU Backgammon: short backgammon">' in html
    assert '<option value="gnubg-worldclass">gnubg world class</option>' in html
    with pytest.raises(ApplicationError) as refused:
        botgame_start(user=ann, level="gnubg-expert", colour="white", variant="lurc")
    assert refused.value.code == "bot-level-not-for-game"
    response = client.post(reverse("tournaments:play"), {"variant": "short",
                           "level": "strongest", "colour": "white"},
                           HTTP_ACCEPT_LANGUAGE="cs")  # fmt: skip
    assert response.status_code == 400
    assert "není úroveň bota" in response.content.decode()


@pytest.mark.gnubg
def test_a_double_past_the_cubes_highest_value_is_refused_in_czech(ann):
    """A doubling war against gnubg once took the cube to 2**31, which gnubg could not
    evaluate ("GNU Backgammon gave no answer"): at 4096 (MAX_CUBE) the user's double is
    refused and gnubg is not asked to double."""
    from django.utils import translation

    from engine import MAX_CUBE
    from engine.evaluator.bot import bot_may_double
    from tests.engine.cube_records import doubling_war

    game = botgame_start(user=ann, level="gnubg-expert", colour="white", variant="short")
    head = game.record.split("\n\n")[0] if "\n\n" in game.record else game.record.rstrip()
    game.record = head + "\n\n" + doubling_war(12).split("\n\n", 1)[1]
    game.save()
    state = bot_state(game.record)
    assert state.position.cube is not None and state.position.cube.value == MAX_CUBE
    assert state.position.turn == 0 and not bot_may_double(state)  # white, the user, owns it
    with translation.override("cs"), pytest.raises(ApplicationError) as refused:
        botgame_cube(game_id=game.pk, user=ann, version=game.version, action="double")
    assert refused.value.code == "cube-max" and "nejvyšší hodnotu, 4096" in str(refused.value)
