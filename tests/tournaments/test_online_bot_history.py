"""A series against the bot played in a game room keeps the history of a game against the
bot (services/online/bot_history.py, docs/play.md): when it ends, each game is a finished
`BotGame` of the user linked to the room's game, with its verified record, listed in the
lobby and on the player's page, and its page /play/<id>/ has the replay, the analysis and
the record's download."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine import EngineError, read_records, replay
from tests.tournaments.online_play import act, new_room, play_out, seeded
from tournaments.models import BotGame, BotGameStatus, Player, Room, RoomStatus
from tournaments.services.online.bot_history import room_bot_history
from tournaments.services.online.challenges import challenge_create
from tournaments.services.online.state import room_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(db) -> User:
    return User.objects.create_user("ann", password="pw-ann-123")


@pytest.fixture
def bob(db) -> User:
    return User.objects.create_user("bob", password="pw-bob-123")


def _client(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _bot_room(user: User, variant: str, games: int) -> Room:
    challenge = challenge_create(
        user=user, variant=variant, bot_level="beginner",
        settings={"series_mode": "games", "length": games, "clock": "none"},
    )  # fmt: skip
    return act(challenge.room, user, "seed", seed="ab" * 8)


@pytest.mark.parametrize("variant", ["long", "lurc"])
def test_a_series_against_the_bot_is_kept_as_bot_games(
    ann: User, bob: User, variant: str, django_capture_on_commit_callbacks
) -> None:
    room = _bot_room(ann, variant, 2)
    with django_capture_on_commit_callbacks(execute=True):
        room = play_out(room, (ann,), games=1)
    assert room.status == RoomStatus.PLAYING and not BotGame.objects.exists()  # not over yet
    with django_capture_on_commit_callbacks(execute=True):
        room = play_out(room, (ann,))
    assert room.status == RoomStatus.FINISHED
    kept = list(BotGame.objects.filter(user=ann).order_by("room_game__number"))
    assert [b.room_game.number for b in kept if b.room_game] == [1, 2]
    for bot_game in kept:
        g = bot_game.room_game
        assert g is not None and bot_game.record == g.record
        tags = dict(read_records(bot_game.record)[0].tags)
        assert tags["DiceSeed"] == room.server_seed  # the record as the series revealed it
        assert replay(read_records(bot_game.record)[0]).ok
        assert bot_game.status == BotGameStatus.FINISHED and bot_game.variant == variant
        assert bot_game.level == "beginner" and bot_game.winner == g.winner
        mine = tags["White"] if bot_game.colour == "white" else tags["Black"]
        assert mine == "ann" and bot_game.analysis  # analysed as a bot game is
    # the history: the lobby, the player's page (the player's own account only)
    Player.objects.create(name="Ann", user=ann)
    player = Player.objects.get(user=ann)
    lobby = _client(ann).get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="en")
    own = _client(ann).get(reverse("tournaments:player", args=[player.pk])).content.decode()
    other = _client(bob).get(reverse("tournaments:player", args=[player.pk])).content.decode()
    for bot_game in kept:
        url = reverse("tournaments:play_game", args=[bot_game.pk])
        assert url in lobby.content.decode() and url in own and url not in other
    # the game's page: the result, the replay, the analysis; the record to download
    game = kept[0]
    page = _client(ann).get(reverse("tournaments:play_game", args=[game.pk]),
                            HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    html = page.content.decode()
    assert page.status_code == 200 and 'id="play-result"' in html
    assert 'id="replay"' in html and 'id="equity-chart"' in html and 'name="turn" value' not in html
    record = _client(ann).get(reverse("tournaments:play_record", args=[game.pk]))
    assert record.content.decode() == game.record
    assert _client(bob).get(reverse("tournaments:play_game", args=[game.pk])).status_code == 404
    # a finished game is not played on: its page refuses a turn
    refused = _client(ann).post(reverse("tournaments:play_game", args=[game.pk]),
                                {"turn": "", "version": game.version})  # fmt: skip
    assert refused.status_code == 409
    assert room_bot_history(room) == []  # kept once


def test_the_last_game_without_the_rooms_analysis_is_analysed_as_a_bot_game(
    ann: User, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """The room's analysis failing, the copy's is the bot game's job."""

    def fail(*args: object, **kwargs: object) -> None:
        raise EngineError("no analysis here")

    monkeypatch.setattr("tournaments.services.online.series.analyse_record", fail)
    room = _bot_room(ann, "long", 1)
    with django_capture_on_commit_callbacks(execute=True):
        room = play_out(room, (ann,))
    game = BotGame.objects.get(user=ann)
    assert game.room_game is not None and game.room_game.analysis is None
    assert game.analysis and game.analysis["evaluator"]


def test_a_series_of_two_users_or_an_aborted_one_keeps_no_bot_game(ann: User, bob: User) -> None:
    room = play_out(seeded(new_room(ann, bob, "long", length=1, clock="none"), ann, bob),
                    (ann, bob))  # fmt: skip
    assert room.status == RoomStatus.FINISHED and room_bot_history(room) == []
    aborted = act(_bot_room(ann, "long", 1), ann, "abort")
    assert aborted.status == RoomStatus.ABORTED
    assert not BotGame.objects.exists()


@pytest.mark.parametrize(("variant", "colour"), [("long", "white"), ("lurc", "black"),
                                                 ("long", "black")])  # fmt: skip
def test_the_lobbys_bot_form_starts_a_room_with_the_colour_chosen(
    ann: User, variant: str, colour: str, django_capture_on_commit_callbacks
) -> None:
    """Long nardy and Lurč against the bot are played in a game room (one game, no clock);
    the game joins the user's games against the bot when it ends."""
    client = _client(ann)
    response = client.post(reverse("tournaments:play"),
                           {"variant": variant, "level": "beginner", "colour": colour})  # fmt: skip
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournaments:room", args=[room.pk]
    )
    assert (room.a_user, room.b_bot, room.variant) == (ann, "beginner", variant)
    assert not BotGame.objects.exists()  # a game begins in the room
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    room = act(room, ann, "seed", seed="cd" * 8)
    assert room.status == RoomStatus.PLAYING
    tags = dict(read_records(room.record)[0].tags)
    assert tags["White" if colour == "white" else "Black"] == "ann"
    with django_capture_on_commit_callbacks(execute=True):
        room = play_out(room, (ann,))
    assert room.status == RoomStatus.FINISHED and room.games.count() == 1
    game = BotGame.objects.get(user=ann)
    assert game.colour == colour and game.room_game == room.games.get()
    lobby = client.get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert reverse("tournaments:play_game", args=[game.pk]) in lobby


def test_the_bot_form_refuses_a_bad_colour_and_level(ann: User) -> None:
    client = _client(ann)
    for data in ({"level": "beginner", "colour": "red"}, {"level": "god", "colour": "white"}):
        assert client.post(reverse("tournaments:play"), data).status_code == 400
    assert not Room.objects.exists() and not BotGame.objects.exists()


@pytest.mark.parametrize(("variant", "colour"), [("long", "black"), ("lurc", "white")])
def test_a_rematch_of_the_bot_forms_room_keeps_the_colour_chosen(
    ann: User, variant: str, colour: str
) -> None:
    """The rematch of a room the lobby's bot form made starts with the colour the user
    chose (not by lot), and so does the rematch of the rematch."""
    from tournaments.services.online.challenges import challenge_bot, challenge_rematch

    room = challenge_bot(user=ann, variant=variant, level="beginner", colour=colour)
    for _ in range(6):  # by lot, six rooms would each give the colour with odds 1/64
        room = act(room, ann, "seed", seed="ef" * 8)
        tags = dict(read_records(room.record)[0].tags)
        assert tags["White" if colour == "white" else "Black"] == "ann"
        room = act(room, ann, "resign")
        assert room.status == RoomStatus.FINISHED
        room = challenge_rematch(room_id=room.pk, user=ann).room


def test_a_rematch_of_a_random_colour_draws_it_again(ann: User, monkeypatch) -> None:
    from tournaments.services.online import challenges

    asked = ["black", "white", "white", "black", "white", "black"]
    drawn = iter(asked)
    monkeypatch.setattr("tournaments.services.online.challenges.secrets.choice",
                        lambda _colours: next(drawn, "white"))  # fmt: skip
    room = challenges.challenge_bot(user=ann, variant="long", level="beginner", colour="random")
    for colour in asked:
        room = act(room, ann, "seed", seed="ef" * 8)
        assert dict(read_records(room.record)[0].tags)[colour.title()] == "ann"
        room = act(room, ann, "resign")
        room = challenges.challenge_rematch(room_id=room.pk, user=ann).room


def test_the_bot_game_and_its_room_link_each_other(
    ann: User, bob: User, django_capture_on_commit_callbacks
) -> None:
    """The copied game's page /play/<id>/ links its room; the finished room's page links
    the copies for their user (not for a spectator, whose page would be a 404)."""
    room = _bot_room(ann, "long", 2)
    with django_capture_on_commit_callbacks(execute=True):
        room = play_out(room, (ann,))
    room_url = reverse("tournaments:room", args=[room.pk])
    kept = list(BotGame.objects.filter(user=ann).order_by("room_game__number"))
    page = _client(ann).get(room_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="room-bot-games"' in page
    for game in kept:
        assert reverse("tournaments:play_game", args=[game.pk]) in page
        html = _client(ann).get(reverse("tournaments:play_game", args=[game.pk]),
                                HTTP_ACCEPT_LANGUAGE="cs").content.decode()  # fmt: skip
        assert 'id="play-room"' in html and f'href="{room_url}"' in html
        assert f"Hráno v herní místnosti {room.pk}, hra {game.room_game.number}" in html
    # the live page draws them from the state, sent as the series ends
    links = [b["url"] for b in room_state(room, ann)["bot_games"]]
    assert links == [reverse("tournaments:play_game", args=[g.pk]) for g in kept]
    spectator = _client(bob).get(room_url).content.decode()
    assert room_state(room, bob)["bot_games"] == []
    assert not any(url in spectator for url in links)
    own = BotGame.objects.create(user=ann, level="beginner", colour="white", seed=1,
                                 record=kept[0].record, status=BotGameStatus.FINISHED)  # fmt: skip
    html = _client(ann).get(reverse("tournaments:play_game", args=[own.pk])).content.decode()
    assert 'id="play-room"' not in html  # a game played on its own page has no room
