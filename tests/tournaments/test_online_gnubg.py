"""Short backgammon against GNU Backgammon in a game room (services/online/room_bot.py,
docs/play.md, docs/online.md): the lobby's bot form opens a room, gnubg plays its turns
and its cube there (its double taken or dropped by the user, the user's double taken or
dropped by gnubg, no double in the Crawford game), the opening roll is never a double
whoever starts, and the finished game is verified and kept as a game against the bot,
analysed by gnubg. Runs where gnubg is installed (tests/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine import read_records, replay
from engine.dicecheck import check_dice
from tests.tournaments.online_play import act, on_turn
from tournaments.models import BotGame, Room, RoomStatus
from tournaments.services.errors import ApplicationError
from tournaments.services.online import room_bot
from tournaments.services.online.challenges import challenge_create
from tournaments.services.online.game import game_view

pytestmark = [pytest.mark.django_db, pytest.mark.gnubg]
BOUND = 400


@pytest.fixture
def ann(db) -> User:
    return User.objects.create_user("ann", password="pw-ann-123")


@pytest.fixture
def fixed_seed(monkeypatch) -> None:
    """The server seed fixed: the room's dice, and so gnubg's game, are the same each run."""
    monkeypatch.setattr("tournaments.services.online.rooms.new_server_seed", lambda: "5e" * 32)


def _client(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _bot_form_room(user: User, level: str = "gnubg-expert", colour: str = "white") -> Room:
    data = {"variant": "short", "level": level, "colour": colour}
    response = _client(user).post(reverse("tournaments:play"), data)
    room = Room.objects.get(a_user=user, status=RoomStatus.WAITING)
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:room", args=[room.pk])
    return act(room, user, "seed", seed="cd" * 8)


def _kinds(room: Room) -> list[tuple[int, str]]:
    """The current game's actions: (side, kind)."""
    return [(a.side, a.kind) for a in game_view(room.record).actions]


def _step(room: Room, user: User, answer: str = "take", double_at: int = -1) -> Room:
    """The user's next action: answer gnubg's double (``answer``), double at their turn
    ``double_at`` when allowed, else roll and play the first legal turn."""
    _user, state = on_turn(room, (user,))
    can = state["can"]
    if "take" in can:
        return act(room, user, answer)
    turns = game_view(Room.objects.get(pk=room.pk).record).turns
    if "double" in can and double_at >= 0 and sum(turns) >= double_at:
        return act(room, user, "double")
    if "roll" in can:
        return act(room, user, "roll")
    return act(room, user, "move", turn=state["legal"][0]["movetext"])


def _verified(record: str) -> None:
    game = read_records(record)[0]
    assert replay(game).ok
    assert check_dice(game).ok


def test_a_whole_game_against_gnubg_in_a_room_with_the_cube_both_ways(
    ann: User, fixed_seed: None, django_capture_on_commit_callbacks
) -> None:
    """The lobby's form opens the room; the user doubles early (gnubg answers), later
    takes gnubg's doubles; the game ends, its record verified, kept as a bot game with
    gnubg's analysis."""
    room = _bot_form_room(ann, colour="white")
    tags = dict(read_records(room.record)[0].tags)
    assert (tags["White"], tags["Black"]) == ("ann", "Bot (gnubg-expert)")
    assert tags["Cube"] == "on" and room.dice and room.dice[0] != room.dice[1]  # S2
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(BOUND):
            room = Room.objects.get(pk=room.pk)
            if room.status != RoomStatus.PLAYING:
                break
            room = _step(room, ann, double_at=4)
        else:
            raise AssertionError("the game did not end")
    assert room.status == RoomStatus.FINISHED
    game = room.games.get()
    _verified(game.record)
    kinds = [(p.side, p.action.kind) for p in replay(read_records(game.record)[0]).played]
    assert (0, "double") in kinds  # the user's double, answered by gnubg (black)
    answered = kinds[kinds.index((0, "double")) + 1]
    assert answered in ((1, "take"), (1, "drop"))
    kept = BotGame.objects.get(user=ann)
    assert kept.level == "gnubg-expert" and kept.variant == "short" and kept.colour == "white"
    assert kept.record == game.record and kept.room_game == game
    assert kept.analysis and kept.analysis["source"] == "gnubg"


def _until_gnubg_doubles(room: Room, user: User) -> Room:
    for _ in range(BOUND):
        room = Room.objects.get(pk=room.pk)
        assert room.status == RoomStatus.PLAYING, "gnubg never doubled"
        if game_view(room.record).offered:
            return room
        room = _step(room, user)
    raise AssertionError("gnubg never doubled")


@pytest.mark.parametrize("answer", ["take", "drop"])
def test_gnubg_doubles_and_the_user_takes_or_drops(ann: User, monkeypatch, answer: str) -> None:
    """gnubg's double offered when gnubg would (here: always, its words forced); the user's
    take goes on with gnubg rolling, the user's drop ends the game for gnubg."""
    asked: list[str] = []

    def double(position: Any, level: str, match: Any = None) -> str:
        asked.append(level)
        return "Double, take"

    monkeypatch.setattr(room_bot, "gnubg_cube", double)
    room = _bot_form_room(ann, level="gnubg-beginner", colour="white")
    room = _until_gnubg_doubles(room, ann)
    assert asked == ["gnubg-beginner"] and _kinds(room)[-1] == (1, "double")
    state = on_turn(room, (ann,))[1]
    assert "take" in state["can"] and "drop" in state["can"]
    with pytest.raises(ApplicationError) as refused:
        act(room, ann, "roll")
    assert refused.value.code == "answer-the-double"
    room = act(room, ann, answer)
    if answer == "drop":
        assert room.status == RoomStatus.FINISHED
        game = room.games.get()
        assert game.winner == "black" and game.ended == "dropped"
        _verified(game.record)
    else:
        assert room.status == RoomStatus.PLAYING
        kinds = _kinds(room)
        assert kinds[kinds.index((1, "double")) + 1] == (0, "take")
        assert kinds[kinds.index((0, "take")) + 1] == (1, "turn")  # gnubg rolled and played
        assert game_view(room.record).position.cube.owner == 0


def _until_user_may_double(room: Room, user: User) -> Room:
    for _ in range(BOUND):
        if "double" in on_turn(room, (user,))[1]["can"]:
            return room
        room = _step(room, user)
    raise AssertionError("the user never had the cube")


def test_the_user_doubles_and_gnubg_takes(ann: User, monkeypatch) -> None:
    """The user's double is answered in the same action as gnubg's words say (take);
    gnubg owns the cube at 2 and the user rolls on."""
    monkeypatch.setattr(room_bot, "gnubg_cube", lambda *a, **k: "No double, take")
    room = _bot_form_room(ann, level="gnubg-beginner", colour="black")
    assert dict(read_records(room.record)[0].tags)["White"] == "Bot (gnubg-beginner)"
    room = act(_until_user_may_double(room, ann), ann, "double")
    kinds = _kinds(room)
    assert kinds[-2:] == [(1, "double"), (0, "take")]
    cube = game_view(room.record).position.cube
    assert cube is not None and (cube.value, cube.owner) == (2, 0)
    assert room.status == RoomStatus.PLAYING and "move" in on_turn(room, (ann,))[1]["can"]


def test_gnubg_drops_the_users_double(ann: User, monkeypatch) -> None:
    """gnubg's words "..., pass": it drops, the user wins the cube's 1 point."""
    monkeypatch.setattr(room_bot, "gnubg_cube", lambda *a, **k: "Too good to double, pass")
    room = _bot_form_room(ann, level="gnubg-beginner", colour="white")
    room = act(_until_user_may_double(room, ann), ann, "double")
    assert room.status == RoomStatus.FINISHED
    game = room.games.get()
    assert game.winner == "white" and game.ended == "dropped" and game.points == 1
    _verified(game.record)


def test_no_double_in_the_crawford_game(ann: User, monkeypatch) -> None:
    """A series to 2 points against gnubg (no gammons): the user resigns game 1 (gnubg
    1 point: the Crawford game next); there gnubg, however keen (its words forced), never
    doubles, and the user's double is refused. In game 1 the same words double at once."""
    monkeypatch.setattr(room_bot, "gnubg_cube", lambda *a, **k: "Double, take")
    challenge = challenge_create(
        user=ann, variant="short", bot_level="gnubg-beginner",
        settings={"series_mode": "points", "length": 2, "mars": False, "clock": "none",
                  "first_move": "winner", "opening_roll": "fresh"},
    )  # fmt: skip
    room = act(challenge.room, ann, "seed", seed="ab" * 8)
    room = _until_gnubg_doubles(room, ann)  # game 1: gnubg doubles on its first roll
    room = act(room, ann, "drop")
    assert (room.game_number, room.b_score, room.crawford) == (2, 1, True)
    gnubg_played = False
    for _ in range(40):
        state = on_turn(room, (ann,))[1]
        assert "double" not in state["can"]
        if "move" in state["can"]:  # no cube: the user's dice are rolled at once
            with pytest.raises(ApplicationError) as refused:
                act(room, ann, "double")
            assert refused.value.code == "crawford-no-cube"
        room = _step(room, ann)
        if room.status != RoomStatus.PLAYING or room.game_number != 2:
            break  # the Crawford game ended (the dice are the room's own: it may, in 40)
        kinds = _kinds(room)
        assert all(kind != "double" for _side, kind in kinds)
        gnubg_played = gnubg_played or any(side == 1 and kind == "turn" for side, kind in kinds)
    assert gnubg_played


@pytest.mark.parametrize("colour", ["white", "black"])
def test_the_opening_roll_is_never_a_double_whoever_starts(
    ann: User, monkeypatch, colour: str
) -> None:
    """S2: the colour chosen starts, and its first roll is a lot's (ties rolled again)."""
    monkeypatch.setattr(room_bot, "gnubg_cube", lambda *a, **k: "No double, take")
    for n in range(6):
        monkeypatch.setattr("tournaments.services.online.rooms.new_server_seed",
                            lambda n=n: f"{n:02x}" * 32)  # fmt: skip
        room = _bot_form_room(ann, level="gnubg-beginner", colour=colour)
        first = game_view(room.record)
        if colour == "white":
            assert room.dice and room.dice[0] != room.dice[1]
        else:  # gnubg (white) played the opening roll at once
            assert first.last is not None and first.last[0] == 0
            assert first.last[1][0] != first.last[1][1]
        act(room, ann, "abort")


def test_the_lobbys_challenge_form_offers_gnubg_for_a_series_to_points(ann: User) -> None:
    """The challenge form lists gnubg's levels; a series to 3 points against gnubg starts
    at once, and an evaluator's level is refused for short backgammon."""
    client = _client(ann)
    html = client.get(reverse("tournaments:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    form = html.split('name="c-bot_level"')[1].split("</select>")[0]
    assert 'value="gnubg-worldclass"' in form and 'value="strongest"' in form
    data = {
        "action": "challenge", "c-variant": "short", "c-opponent_kind": "bot",
        "c-bot_level": "beginner", "c-series_mode": "points", "c-length": "3",
        "c-mars": "on", "c-cube": "on", "c-crawford": "on", "c-draw_scoring": "half",
        "c-first_move": "loser", "c-opening_roll": "lot", "c-clock": "none",
        "c-delay_s": "12", "c-reserve_s": "60", "c-days": "3", "c-timeout_costs": "game",
    }  # fmt: skip
    refused = client.post(reverse("tournaments:play"), data, HTTP_ACCEPT_LANGUAGE="cs")
    assert refused.status_code == 400 and "není úroveň bota" in refused.content.decode()
    response = client.post(reverse("tournaments:play"), {**data, "c-bot_level": "gnubg-expert"})
    room = Room.objects.get()
    assert response.status_code == 302
    assert (room.b_bot, room.variant, room.settings["length"]) == ("gnubg-expert", "short", 3)


def test_gnubg_weighs_the_series_score_from_the_bots_seat(ann: User) -> None:
    """After the Crawford game the trailer doubles at once (gnubg at the score), the
    leader never (a dead cube), one game none: the room passes the bot's score first."""
    from engine import Position
    from tournaments.services.gnubg_bot import MatchScore, gnubg_cube, gnubg_doubles
    from tournaments.services.online.settings import settings_of

    start = Position.start("short", cube=True)
    assert gnubg_doubles(gnubg_cube(start, "gnubg-expert", MatchScore(3, 0, 2)))
    assert not gnubg_doubles(gnubg_cube(start, "gnubg-expert", MatchScore(3, 2, 0)))
    assert not gnubg_doubles(gnubg_cube(start, "gnubg-expert"))
    challenge = challenge_create(user=ann, variant="short", bot_level="gnubg-expert",
                                 settings={"series_mode": "points", "length": 3})  # fmt: skip
    room = challenge.room
    room.a_score = 2
    s = settings_of(room.settings, room.variant)
    assert room_bot._match(room, s, "b") == MatchScore(3, 0, 2, False)
    one_game = settings_of({"series_mode": "games", "length": 1}, "short")
    assert room_bot._match(room, one_game, "b") is None


def test_a_rematch_against_gnubg_keeps_the_level_and_the_colour(ann: User, monkeypatch) -> None:
    from tournaments.services.online.challenges import challenge_rematch

    monkeypatch.setattr(room_bot, "gnubg_cube", lambda *a, **k: "No double, take")
    room = _bot_form_room(ann, level="gnubg-intermediate", colour="black")
    for _ in range(4):  # by lot, four rooms would each give black with odds 1/16
        assert dict(read_records(room.record)[0].tags)["Black"] == "ann"
        room = act(room, ann, "resign")
        assert room.status == RoomStatus.FINISHED
        room = challenge_rematch(room_id=room.pk, user=ann).room
        assert room.b_bot == "gnubg-intermediate"
        room = act(room, ann, "seed", seed="cd" * 8)
