"""Resigning a game against the bot and a finished game's page (docs/play.md): the bot
wins oin or mars as the position stands (L9), the record ends with the resignation and
replays in the engine to that result, the game is analysed, and the page shows the replay
with the marked turns and the equity chart; refusals in the reader's language; the game
in the admin, to inspect and nothing more."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from engine import read_records, replay
from engine.evaluator.bot import bot_dice, bot_state
from engine.movegen import legal_turns
from tournaments.models import BotGame, BotGameStatus
from tournaments.services.botgames import botgame_play, botgame_resign, botgame_start
from tournaments.services.errors import ApplicationError

pytestmark = pytest.mark.django_db
VERSION = re.compile(r'name="version" value="(\d+)"')


@pytest.fixture
def ann(db) -> User:
    return User.objects.create_user("ann", password="pw-ann-123")


@pytest.fixture
def ann_client(ann: User) -> Client:
    c = Client()
    c.force_login(ann)
    return c


def _turns(game: BotGame, user: User, count: int) -> BotGame:
    """``count`` of the user's turns, the first legal one each time."""
    for _ in range(count):
        state = bot_state(game.record)
        dice = bot_dice(game.seed, state.number)
        turn = legal_turns(state.position, list(dice))[0].notation
        game = botgame_play(game_id=game.pk, user=user, version=game.version, turn=turn)
    return game


@pytest.mark.parametrize(
    ("language", "resign", "result", "replay_word"),
    [("en", "Resign the game", "The bot won (mars, resignation)", "Forward"),
     ("cs", "Vzdát partii", "Vyhrál bot (mars, vzdáním)", "Vpřed")],
)  # fmt: skip
def test_resigning_through_the_page_gives_the_bot_the_game_analysed_and_replayed(
    ann_client, ann, language, resign, result, replay_word
):
    game = _turns(botgame_start(user=ann, level="beginner", colour="white"), ann, 6)
    url = reverse("tournaments:play_game", args=[game.pk])
    html = ann_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'name="resign"' in html and resign in html and 'id="replay"' not in html
    versions = VERSION.findall(html)
    assert versions == [str(game.version)] * 2  # the turns' form and the resignation's
    response = ann_client.post(url, {"version": versions[1], "resign": "1"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.winner, game.kind, game.ended) == (
        BotGameStatus.FINISHED, "black", "mars", "resigned",  # no checker of ann's off yet
    )  # fmt: skip
    assert game.record.rstrip().endswith("W resigns")
    done = replay(read_records(game.record)[0])  # the Result tag checked too
    assert done.error is None and done.outcome is not None and done.outcome.resigned
    assert game.analysis is not None and game.analysis["turns"]
    page = ann_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert result in page
    assert 'id="replay"' in page and replay_word in page and 'id="equity-chart"' in page
    assert 'name="resign"' not in page and 'name="turn" value' not in page  # no turn to play
    assert "W resigns" in page  # the last line of the move list


def test_the_finished_games_replay_carries_the_marks_and_steps_without_script(ann_client, ann):
    game = _turns(botgame_start(user=ann, level="beginner", colour="white"), ann, 12)
    game = botgame_resign(game_id=game.pk, user=ann, version=game.version)
    turns = game.analysis["turns"]
    errors = [t for t in turns if t["mark"]]
    assert errors, "the first legal turn is rarely the best"
    url = reverse("tournaments:play_game", args=[game.pk])
    page = ann_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    moves = page[page.index('id="moves"') : page.index("</ol>", page.index('id="moves"'))]
    assert moves.count('class="mark ') == len(errors)
    frame = re.search(r'<li class="[a-z ]*marked-turn"><a href="\?turn=(\d+)#replay"', moves)
    assert frame is not None
    at_error = ann_client.get(f"{url}?turn={frame[1]}", HTTP_ACCEPT_LANGUAGE="en")
    figure = at_error.content.decode().split('<figure class="best-turn-board" id="best-turn"')[1]
    assert figure.startswith(">") and "Best: " in figure.split("</figure>")[0]
    for hostile in ("abc", "-5", "99999", "9" * 5000, "1e3"):
        assert ann_client.get(url, {"turn": hostile}).status_code == 200


def test_the_finished_games_page_makes_a_fixed_number_of_queries(ann_client, ann):
    counts = []
    for turns in (2, 14):
        game = _turns(botgame_start(user=ann, level="beginner", colour="white"), ann, turns)
        botgame_resign(game_id=game.pk, user=ann, version=game.version)
        url = reverse("tournaments:play_game", args=[game.pk])
        with CaptureQueriesContext(connection) as queries:
            assert ann_client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 6, counts


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "out of date"), ("cs", "zastaralá")],
)
def test_a_stale_or_second_resignation_is_refused_in_the_readers_language(
    ann_client, ann, language, words
):
    game = _turns(botgame_start(user=ann, level="beginner", colour="white"), ann, 1)
    url = reverse("tournaments:play_game", args=[game.pk])
    stale = ann_client.post(url, {"version": game.version - 1, "resign": "1"},
                            HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip
    assert stale.status_code == 409 and words in stale.content.decode()
    assert BotGame.objects.get(pk=game.pk).status == BotGameStatus.PLAYING
    assert ann_client.post(url, {"version": game.version, "resign": "1"}).status_code == 302
    again = ann_client.post(url, {"version": game.version + 1, "resign": "1"},
                            HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip
    assert again.status_code == 409 and BotGame.objects.get(pk=game.pk).version == game.version + 1


def test_nobody_resigns_another_users_game(ann_client, ann):
    bob = User.objects.create_user("bob", password="pw-bob-123")
    game = botgame_start(user=bob, level="beginner", colour="white")
    url = reverse("tournaments:play_game", args=[game.pk])
    assert ann_client.post(url, {"version": 0, "resign": "1"}).status_code == 404
    with pytest.raises(BotGame.DoesNotExist):
        botgame_resign(game_id=game.pk, user=ann, version=0)
    assert Client().post(url, {"version": 0, "resign": "1"}).status_code == 302  # sign in
    assert BotGame.objects.get(pk=game.pk).status == BotGameStatus.PLAYING


@pytest.mark.parametrize("data", [{"resign": "1"}, {"version": "x", "resign": "1"},
                                  {"version": "9" * 40, "resign": "1"}])  # fmt: skip
def test_a_garbage_resignation_is_400_in_czech(ann_client, ann, data):
    game = botgame_start(user=ann, level="beginner", colour="white")
    url = reverse("tournaments:play_game", args=[game.pk])
    response = ann_client.post(url, data, HTTP_ACCEPT_LANGUAGE="cs")
    assert response.status_code == 400 and 'id="play-error"' in response.content.decode()
    assert BotGame.objects.get().status == BotGameStatus.PLAYING


def test_the_service_refuses_a_finished_game(ann):
    game = botgame_start(user=ann, level="beginner", colour="black")  # the bot opened
    game = botgame_resign(game_id=game.pk, user=ann, version=game.version)
    assert (game.winner, game.kind) == ("white", "mars")
    with pytest.raises(ApplicationError) as refused:
        botgame_resign(game_id=game.pk, user=ann, version=game.version)
    assert refused.value.code == "bot-game-over"


def test_the_admin_shows_bot_games_to_inspect_and_nothing_more(ann):
    game = _turns(botgame_start(user=ann, level="beginner", colour="white"), ann, 2)
    game = botgame_resign(game_id=game.pk, user=ann, version=game.version)
    staff = User.objects.create_superuser("root", password="pw-root-123")
    c = Client()
    c.force_login(staff)
    listing = c.get("/admin/tournaments/botgame/", HTTP_ACCEPT_LANGUAGE="en")
    assert listing.status_code == 200 and "ann" in listing.content.decode()
    change = c.get(f"/admin/tournaments/botgame/{game.pk}/change/", HTTP_ACCEPT_LANGUAGE="en")
    html = change.content.decode()
    assert change.status_code == 200 and "W resigns" in html and "resigned" in html
    assert str(game.seed) not in html and 'name="_save"' not in html
    assert c.get("/admin/tournaments/botgame/add/").status_code == 403
    delete = f"/admin/tournaments/botgame/{game.pk}/delete/"
    assert c.post(delete, {"post": "yes"}).status_code == 403
    assert BotGame.objects.filter(pk=game.pk).exists()
