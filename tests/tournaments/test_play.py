"""Playing against the bot (/play/, docs/play.md): the service and the pages. A game is
played to its end by always choosing the first legal turn; the record replays in the
engine to the same end; the analysis is stored and shown; hostile posts are refused
with a 4xx in the reader's language."""

from __future__ import annotations

import re
import threading
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.template.defaultfilters import floatformat
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import read_records, replay
from engine.evaluator.bot import bot_dice, bot_state
from engine.evaluator.levels import DEFAULT_LEVEL, LEVELS
from engine.movegen import legal_turns
from tournaments.models import BotGame, BotGameStatus
from tournaments.services.botgames import botgame_play, botgame_start
from tournaments.services.errors import ApplicationError
from tournaments.wording.names import BOT_LEVEL_NAMES

pytestmark = pytest.mark.django_db
BOUND = 200  # turns of the user's: a long-nardy game is about 50 each
TURN = re.compile(r'<button type="submit" name="turn" value="([^"]*)"')
VERSION = re.compile(r'name="version" value="(\d+)"')


@pytest.fixture
def ann(db) -> User:
    return User.objects.create_user("ann", password="pw-ann-123")


@pytest.fixture
def ann_client(ann: User) -> Client:
    c = Client()
    c.force_login(ann)
    return c


def _first_turn(game: BotGame) -> str:
    state = bot_state(game.record)
    return legal_turns(state.position, list(bot_dice(game.seed, state.number)))[0].notation


def _play_out(game: BotGame, user: User) -> BotGame:
    for _ in range(BOUND):
        if game.status == BotGameStatus.FINISHED:
            return game
        game = botgame_play(game_id=game.pk, user=user, version=game.version,
                            turn=_first_turn(game))  # fmt: skip
    raise AssertionError("the game did not end")


def test_every_engine_level_has_a_name_and_the_strongest_is_offered_first(ann_client):
    assert set(BOT_LEVEL_NAMES) == set(LEVELS)
    html = ann_client.get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert f'<option value="{DEFAULT_LEVEL}" selected>nejsilnější</option>' in html
    # the navigation leads to the lobby, where the bot is one more opponent
    assert 'id="nav-play">Hrát</a>' in html and "Hrát proti botovi" in html


def test_the_navigation_leads_to_the_lobby_where_the_bot_is_one_more_opponent(
    client: Client, ann_client: Client, ann: User
) -> None:
    lobby = reverse("tournaments:play")
    html = client.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'<a href="{lobby}" id="nav-play">Play</a>' in html
    assert "Play against the bot</a>" not in html
    page = ann_client.get(lobby).content.decode()
    assert 'value="bot"' in page and 'id="challenge-form"' in page  # the bot in a room
    assert 'id="play-start"' in page  # and the bot's game on its own page, as before
    game = botgame_start(user=ann, level="beginner", colour="white")
    page = ann_client.get(reverse("tournaments:play_game", args=[game.pk]),
                          HTTP_ACCEPT_LANGUAGE="en").content.decode()  # fmt: skip
    assert f'<a href="{lobby}">Play</a></nav>' in page  # its crumb: the lobby
    assert ann_client.get(reverse("tournaments:play_record", args=[game.pk])).status_code == 200


def test_anonymous_is_sent_to_sign_in(client: Client, ann):
    game = botgame_start(user=ann, level="beginner", colour="white")
    for url in (reverse("tournaments:play"), reverse("tournaments:play_game", args=[game.pk])):
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]
    response = client.post(reverse("tournaments:play_game", args=[game.pk]), {"version": 0})
    assert response.status_code == 302 and BotGame.objects.get().version == 0


def test_a_game_is_played_to_its_end_and_replays_to_the_same_result(ann):
    game = _play_out(botgame_start(user=ann, level="beginner", colour="black"), ann)
    assert game.kind in ("oin", "mars") and game.winner in ("white", "black")
    done = replay(read_records(game.record)[0])  # the Result tag is checked too
    assert done.ok and done.outcome is not None
    assert ("white", "black")[done.outcome.winner] == game.winner
    assert done.outcome.kind == game.kind
    assert done.position == bot_state(game.record).position
    assert 'Black "ann"' in game.record and 'White "Bot (beginner)"' in game.record
    game.refresh_from_db()
    assert game.analysis is not None and game.analysis["source"] == "net"
    assert len(game.analysis["turns"]) == bot_state(game.record).number


def test_the_bot_with_white_opens_at_once(ann):
    game = botgame_start(user=ann, level="casual", colour="black")
    state = bot_state(game.record)
    assert state.number == 1 and state.position.turn == 1


def test_the_pages_play_a_game_to_its_end_with_the_analysis_in_english(ann_client, ann):
    # a game begun on its own page before the bot moved into the game rooms goes on there
    game = botgame_start(user=ann, level="beginner", colour="white")
    url = reverse("tournaments:play_game", args=[game.pk])
    for _ in range(BOUND):
        html = ann_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        choices = TURN.findall(html)
        if not choices:
            break
        assert "You rolled" in html and 'id="play-board"' in html
        version = VERSION.search(html)
        assert version is not None
        answer = ann_client.post(url, {"version": version[1], "turn": unescape(choices[0])})
        assert answer.status_code == 302, answer.content.decode()[:2000]
    else:
        raise AssertionError("the game did not end")
    game = BotGame.objects.get()
    assert game.status == BotGameStatus.FINISHED
    assert ("You won" in html) == (game.winner == "white")
    assert "Luck-adjusted result" in html and "What these figures mean" in html
    record = ann_client.get(reverse("tournaments:play_record", args=[game.pk]))
    assert record["Content-Type"].startswith("text/plain")
    assert record.content.decode() == game.record
    listing = ann_client.get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="en")
    rate = game.analysis["white_error_rate"] if game.analysis else None
    with translation.override("en"):
        shown = floatformat(rate, 1)
    assert rate is not None and f"<td>{shown}</td>" in listing.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [("cs", "není přípustný tah"), ("en", "is not a legal turn")],
)
def test_an_illegal_turn_is_refused_in_the_readers_language(ann_client, ann, language, words):
    game = botgame_start(user=ann, level="beginner", colour="white")
    url = reverse("tournaments:play_game", args=[game.pk])
    response = ann_client.post(url, {"version": 0, "turn": "24/1"}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400 and words in response.content.decode()
    assert BotGame.objects.get().version == 0


@pytest.mark.parametrize(
    ("language", "words"), [("cs", "stránka byla zastaralá"), ("en", "page was out of date")]
)
def test_a_double_submit_is_played_once(ann_client, ann, language, words):
    game = botgame_start(user=ann, level="beginner", colour="white")
    url = reverse("tournaments:play_game", args=[game.pk])
    data = {"version": 0, "turn": _first_turn(game)}
    assert ann_client.post(url, data).status_code == 302
    again = ann_client.post(url, data, HTTP_ACCEPT_LANGUAGE=language)
    assert again.status_code == 409 and words in again.content.decode().lower()
    assert bot_state(BotGame.objects.get().record).number == 2  # one turn each, not two


def test_another_users_game_and_garbage_ids_are_not_found(ann_client, ann):
    bob = User.objects.create_user("bob", password="pw-bob-123")
    game = botgame_start(user=bob, level="beginner", colour="white")
    for pk in (game.pk, 0, 2**31, 10**30):
        for view in ("play_game", "play_record"):
            url = reverse(f"tournaments:{view}", args=[pk])
            assert ann_client.get(url).status_code == 404
        url = reverse("tournaments:play_game", args=[pk])
        assert ann_client.post(url, {"version": 0, "turn": ""}).status_code == 404
    assert ann_client.get("/play/abc/").status_code == 404
    with pytest.raises(BotGame.DoesNotExist):
        botgame_play(game_id=game.pk, user=ann, version=0, turn=_first_turn(game))
    assert BotGame.objects.get(pk=game.pk).version == 0


@pytest.mark.parametrize(("language", "words"), [("cs", "hra skončila"), ("en", "game is over")])
def test_a_finished_game_takes_no_more_turns(ann_client, ann, language, words):
    game = _play_out(botgame_start(user=ann, level="beginner", colour="white"), ann)
    url = reverse("tournaments:play_game", args=[game.pk])
    response = ann_client.post(url, {"version": game.version, "turn": ""},
                               HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip
    assert response.status_code == 409 and words in response.content.decode().lower()


@pytest.mark.parametrize(
    "data",
    [{}, {"version": "x"}, {"version": "-1", "turn": ""}, {"version": "9" * 40},
     {"version": "0", "turn": "x" * 500}, {"version": "0", "turn": "\x00"}],
)  # fmt: skip
def test_garbage_posts_are_400_in_czech(ann_client, ann, data):
    game = botgame_start(user=ann, level="beginner", colour="white")
    url = reverse("tournaments:play_game", args=[game.pk])
    response = ann_client.post(url, data, HTTP_ACCEPT_LANGUAGE="cs")
    assert response.status_code == 400 and 'id="play-error"' in response.content.decode()
    assert BotGame.objects.get().version == 0


@pytest.mark.parametrize(
    "data", [{}, {"level": "god", "colour": "white"}, {"level": "beginner", "colour": "red"}]
)
def test_a_bad_start_is_400(ann_client, data):
    response = ann_client.post(reverse("tournaments:play"), data, HTTP_ACCEPT_LANGUAGE="cs")
    assert response.status_code == 400 and not BotGame.objects.exists()


def test_the_service_refuses_a_bad_level_and_colour(ann):
    with pytest.raises(ApplicationError) as level:
        botgame_start(user=ann, level="god", colour="white")
    with pytest.raises(ApplicationError) as colour:
        botgame_start(user=ann, level="beginner", colour="red")
    assert (level.value.code, colour.value.code) == ("bot-unknown-level", "bot-unknown-colour")


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(turn=st.text(max_size=80))
def test_any_text_as_a_turn_is_a_4xx_or_a_legal_turn(ann_client, ann, turn):
    game = BotGame.objects.filter(user=ann).first() or botgame_start(
        user=ann, level="beginner", colour="white"
    )
    url = reverse("tournaments:play_game", args=[game.pk])
    response = ann_client.post(url, {"version": game.version, "turn": turn})
    assert response.status_code in (302, 400, 409)


def test_the_list_is_newest_first_with_results(ann_client, ann):
    old = _play_out(botgame_start(user=ann, level="beginner", colour="white"), ann)
    new = botgame_start(user=ann, level="casual", colour="white")
    html = ann_client.get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    first = html.index(reverse("tournaments:play_game", args=[new.pk]))
    assert first < html.index(reverse("tournaments:play_game", args=[old.pk]))
    assert "being played: go on" in html and " won (" in html


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite serialises every write, so the turns cannot race",
)
def test_the_same_turn_posted_twice_at_once_is_played_once(transactional_db):
    user = User.objects.create_user("cid", password="pw-cid-123")
    game = botgame_start(user=user, level="beginner", colour="white")
    turn = _first_turn(game)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def play() -> None:
        barrier.wait()
        try:
            botgame_play(game_id=game.pk, user=user, version=0, turn=turn)
            outcomes.append("played")
        except ApplicationError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=play) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["bot-stale-version", "played"]
    game.refresh_from_db()
    assert game.version == 1 and bot_state(game.record).number == 2
