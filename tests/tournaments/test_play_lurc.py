"""Lurč against the bot (/play/, docs/play.md): the service and the pages. The bot
plays black first (Z1); a houšek asks the paš first (Z8) and lists its plays once chosen;
a paš played in full gives its player another roll (Z7); the finished game is analysed by
Lurč's evaluator."""

from __future__ import annotations

import re
from html import unescape
from itertools import pairwise

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine import read_records, replay
from engine.evaluator.bot import bot_dice, bot_pas_choices, bot_state
from engine.movegen import legal_turns
from tests.tournaments.bot_dice import LURC_FORCED, force_dice
from tests.tournaments.online_play import act, play_out
from tournaments.models import BotGame, BotGameStatus, Room, RoomStatus
from tournaments.services.botgames import botgame_play, botgame_start
from tournaments.services.errors import ApplicationError

pytestmark = pytest.mark.django_db
BOUND = 400
TURN = re.compile(r'<button type="submit" name="turn" value="([^"]*)"')
VERSION = re.compile(r'name="version" value="(\d+)"')
STEP = re.compile(r'class="button secondary step-choice" href="\?([^"]*)"')
PAS_OPTION = re.compile(r'<option value="(\d)">')


@pytest.fixture
def ann(db) -> User:
    return User.objects.create_user("ann", password="pw-ann-123")


def _play_out(game: BotGame, user: User) -> BotGame:
    for _ in range(BOUND):
        if game.status == BotGameStatus.FINISHED:
            return game
        state = bot_state(game.record)
        dice = bot_dice(game.seed, state.number)
        choices = bot_pas_choices(state, dice)
        pas = choices[-1] if choices else None
        query = [*dice, pas, pas] if pas else list(dice)
        turn = legal_turns(state.position, query)[0].notation
        game = botgame_play(game_id=game.pk, user=user, version=game.version, turn=turn, pas=pas)
    raise AssertionError("the game did not end")


def _housek_and_pas(record: str) -> tuple[bool, bool]:
    played = replay(read_records(record)[0], check_result=False).played
    housek = any(p.action.pas is not None for p in played)
    again = any(
        a.action.dice is not None and a.action.dice[0] == a.action.dice[1] and a.side == b.side
        for a, b in pairwise(played)
    )
    return housek, again


def test_a_lurc_game_is_played_to_its_end_and_analysed(ann):
    game = botgame_start(user=ann, level="beginner", colour="white", variant="lurc")
    # black moves first in Lurč (Z1): the bot has played its first turn already
    assert game.variant == "lurc" and bot_state(game.record).number >= 1
    game = _play_out(game, ann)
    done = replay(read_records(game.record)[0])
    assert done.ok and done.outcome is not None and game.kind == "oin"
    assert '[Variant "lurc"]' in game.record or 'Variant "lurc"' in game.record
    game.refresh_from_db()
    assert game.analysis is not None and game.analysis["source"] == "net"
    assert game.analysis["evaluator"].startswith("lurc")


def test_a_housek_without_its_pas_is_refused(ann, monkeypatch):
    force_dice(monkeypatch, LURC_FORCED)

    def dice_of(seed: int, number: int) -> tuple[int, int]:
        return LURC_FORCED.get(number) or bot_dice(seed, number)

    game = botgame_start(user=ann, level="beginner", colour="black", variant="lurc")
    while bot_state(game.record).number < 16:
        state = bot_state(game.record)
        turn = legal_turns(state.position, list(dice_of(game.seed, state.number)))[0].notation
        game = botgame_play(game_id=game.pk, user=ann, version=game.version, turn=turn)
    state = bot_state(game.record)
    assert state.number == 16 and bot_pas_choices(state, (1, 2)) == [1, 2, 3, 4, 5, 6]
    turn = legal_turns(state.position, [1, 2, 4, 4])[0].notation
    with pytest.raises(ApplicationError) as refused:
        botgame_play(game_id=game.pk, user=ann, version=game.version, turn=turn)
    assert refused.value.code == "bot-choose-pas"
    with pytest.raises(ApplicationError) as refused:  # a paš of other faces (3 is 4-4 too)
        botgame_play(game_id=game.pk, user=ann, version=game.version, turn=turn, pas=1)
    assert refused.value.code == "bot-illegal-turn"
    played = botgame_play(game_id=game.pk, user=ann, version=game.version, turn=turn, pas=4)
    assert "21+44:" in played.record


def test_the_pages_play_lurc_with_the_pas_chosen_after_a_housek(ann, monkeypatch):
    force_dice(monkeypatch, LURC_FORCED)
    client = Client()
    client.force_login(ann)
    # a Lurč game begun on its own page (before the bot moved into the game rooms)
    started = botgame_start(user=ann, level="beginner", colour="black", variant="lurc")
    url = reverse("tournaments:play_game", args=[started.pk])
    chose = False
    for _ in range(BOUND):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        if 'id="play-pas-form"' in html:
            assert "a houšek" in html and not TURN.findall(html)
            pas = PAS_OPTION.findall(html)[-1]
            html = client.get(url, {"pas": pas}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
            assert f'name="pas" value="{pas}"' in html
            chose = True
        choices = TURN.findall(html)
        while not choices and STEP.search(html):  # too many turns to list: one die a time
            step = STEP.search(html)
            assert step is not None
            query = unescape(step[1])
            html = client.get(f"{url}?{query}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
            choices = TURN.findall(html)
        if not choices:
            break
        version = VERSION.search(html)
        assert version is not None
        data = {"version": version[1], "turn": unescape(choices[0])}
        hidden = re.search(r'type="hidden" name="pas" value="(\d)"', html)
        if hidden:
            data["pas"] = hidden[1]
        answer = client.post(url, data)
        assert answer.status_code == 302, answer.content.decode()[:2000]
    game = BotGame.objects.get()
    assert game.status == BotGameStatus.FINISHED and chose
    assert _housek_and_pas(game.record) == (True, True)
    assert "Luck-adjusted result" in html and "Lurč" in html


def test_a_lurc_room_against_the_bot_from_the_lobby(ann):
    """The lobby's challenge to the bot offers Lurč: the room starts at once and the bot
    plays its Lurč turns in it (paš and houšek included, its own search)."""
    client = Client()
    client.force_login(ann)
    html = client.get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "evaluator plays long nardy and Lurč, GNU Backgammon short" in html
    response = client.post(reverse("tournaments:play"), {
        "action": "challenge", "c-variant": "lurc", "c-opponent_kind": "bot",
        "c-bot_level": "beginner", "c-series_mode": "games", "c-length": 1,
        "c-draw_scoring": "half", "c-first_move": "alternate", "c-opening_roll": "lot",
        "c-clock": "none", "c-delay_s": 10, "c-reserve_s": 60, "c-days": 3,
        "c-timeout_costs": "game",
    })  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:3000]
    room = Room.objects.get()
    assert room.variant == "lurc" and room.b_bot == "beginner"
    room = play_out(act(room, ann, "seed", seed="ab" * 8), (ann,))
    assert room.status == RoomStatus.FINISHED
    game = room.games.get()
    played = replay(read_records(game.record)[0]).played
    assert "Bot (beginner)" in game.record and len(played) > 16  # past the placement
