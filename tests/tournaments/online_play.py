"""Helpers of the game rooms' tests (docs/online.md): rooms made through the challenge
service, and a series played out through ``room_act`` by two players who each choose
the first legal turn (and cube actions when asked)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.models import User

from tournaments.models import Room, RoomStatus
from tournaments.services.online.challenges import challenge_accept, challenge_create
from tournaments.services.online.game import game_legal, game_view, turn_text
from tournaments.services.online.rooms import room_act
from tournaments.services.online.series import seat_of_side
from tournaments.services.online.state import room_state

BOUND = 3000  # actions of a whole series: a long-nardy game is about 100 turns


def new_room(creator: User, opponent: User, variant: str = "long", **settings: Any) -> Room:
    challenge = challenge_create(user=creator, variant=variant, settings=settings)
    return challenge_accept(challenge_id=challenge.pk, user=opponent)


def seeded(room: Room, *users: User) -> Room:
    """Every player's browser seed sent: the series starts."""
    for n, user in enumerate(users):
        room = act(room, user, "seed", seed=f"{n + 1:02x}" * 16)
    return room


def act(room: Room, user: User | None, action: str, **fields: Any) -> Room:
    fresh = Room.objects.get(pk=room.pk)
    return room_act(
        room_id=room.pk, user=user, message={"action": action, "seq": fresh.seq, **fields}
    )


def on_turn(room: Room, users: tuple[User, ...]) -> tuple[User, dict[str, Any]]:
    """The player who must act and their state."""
    for user in users:
        state = room_state(Room.objects.get(pk=room.pk), user)
        if state["turn"] == state["you"]:
            return user, state
    raise AssertionError("nobody is on turn")


def play_out(room: Room, users: tuple[User, ...], *, choose: Any = None,
             games: int | None = None) -> Room:  # fmt: skip
    """Play until the series ends (or ``games`` games are finished). ``choose(state)``
    picks the action of the player on turn (default: roll, take a double, the first
    legal turn)."""
    for _ in range(BOUND):
        room = Room.objects.get(pk=room.pk)
        if room.status != RoomStatus.PLAYING:
            return room
        if games is not None and room.games.count() >= games:
            return room
        user, state = on_turn(room, users)
        action, fields = (choose or first_choice)(state)
        room = act(room, user, action, **fields)
    raise AssertionError("the series did not end")


def first_choice(state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    can = state["can"]
    if "take" in can:
        return "take", {}
    if "roll" in can:
        return "roll", {}
    if state["legal"] is None and state.get("steps_url"):  # too many turns listed: the first
        room = Room.objects.get(pk=state["room"])
        turn = game_legal(game_view(room.record), (room.dice[0], room.dice[1]))[0]
        return "move", {"turn": turn_text(turn)}
    if state["legal"] is None:  # a Lurč houšek: too many plays to list (Z8)
        return "resign", {}
    return "move", {"turn": state["legal"][0]["movetext"]}


CROWDED_GAME = Path(__file__).parents[2] / "fixtures" / "lurc" / "crowded_game.txt"


def crowded_room(dice: list[int]) -> tuple[Room, User, User]:
    """A seeded Lurč room (ann, bob; one game, no clock) standing at the crowded board of
    ``fixtures/lurc/crowded_game.txt``, its player to move having rolled ``dice``: the
    room, the mover, the other player."""
    users = [User.objects.create_user(n, password=f"pw-{n}-123") for n in ("ann", "bob")]
    room = seeded(new_room(users[0], users[1], "lurc", series_mode="games", length=1,
                           clock="none"), *users)  # fmt: skip
    room = Room.objects.get(pk=room.pk)
    head = room.record.split("\n\n")[0]
    room.record = f"{head}\n\n{CROWDED_GAME.read_text()}"
    room.dice = dice
    room.save()
    mover = users[0] if seat_of_side(room, 0) == "a" else users[1]
    other = users[1] if mover is users[0] else users[0]
    return room, mover, other
