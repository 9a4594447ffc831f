"""A crowded Lurč paš against the bot (RULES Z7, Z10): its 32,509 legal turns are not
listed as buttons (the page stays small); the user plays the turn one die at a time, each
page offering the engine's legal next steps, an undo, and once whole, the turn to play.
Hostile steps in the address are refused with a code, never a server error."""

from __future__ import annotations

import re
import time
from html import unescape
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.evaluator.bot import bot_state
from tests.tournaments.bot_dice import force_dice
from tournaments.models import BotGame
from tournaments.services.botgames import botgame_start

CROWDED = Path(__file__).parents[2] / "fixtures" / "lurc" / "crowded_game.txt"
STEP = re.compile(r'<a class="button secondary step-choice" href="\?([^"]*)">([^<]*)</a>')
CODE = re.compile(r'id="play-error" data-code="([a-z-]+)"')


@pytest.fixture
def crowded(db: None, monkeypatch: pytest.MonkeyPatch) -> tuple[BotGame, Client]:
    """The user (white) to play 6-6 in the crowded position of the fixture game."""
    ann = User.objects.create_user("ann", password="pw-ann-123")
    game = botgame_start(user=ann, level="beginner", colour="white", variant="lurc")
    head = game.record.split("\n\n")[0]
    game.record = f"{head}\n\n{CROWDED.read_text()}"
    game.save()
    state = bot_state(game.record)
    assert state.position.turn == 0 and state.on_turn == 0
    force_dice(monkeypatch, {state.number: (6, 6)})
    c = Client()
    c.force_login(ann)
    return game, c


def _page(c: Client, game: BotGame, query: str = "") -> tuple[int, str]:
    url = reverse("tournaments:play_game", args=[game.pk]) + (f"?{query}" if query else "")
    r = c.get(url, HTTP_ACCEPT_LANGUAGE="en")
    return r.status_code, r.content.decode()


def test_the_crowded_paš_is_played_step_by_step(crowded: tuple[BotGame, Client]) -> None:
    game, c = crowded
    started = time.process_time()
    status, html = _page(c, game)
    spent = time.process_time() - started
    # 32,509 buttons before (about 2.5 MB); now the first steps only
    assert status == 200 and 'id="play-steps"' in html and 'secondary turn-choice"' not in html
    assert len(html.encode()) < 60_000, len(html.encode())
    assert spent < 10
    links = STEP.findall(html)
    assert links and 'id="play-steps-undo"' not in html
    # one die at a time to a whole turn; an undo on the way
    query, played = "", 0
    while links:
        query = unescape(links[-1][0])
        played += 1
        status, html = _page(c, game, query)
        assert status == 200 and 'id="play-steps-undo"' in html
        links = STEP.findall(html)
    assert played == 8  # Z7: the paš's eight moves
    turn = re.search(r'name="turn" value="([^"]*)" id="play-steps-send"', html)
    assert turn is not None
    version = BotGame.objects.get(pk=game.pk).version
    r = c.post(reverse("tournaments:play_game", args=[game.pk]),
               {"version": version, "turn": unescape(turn.group(1))})  # fmt: skip
    assert r.status_code == 302
    after = bot_state(BotGame.objects.get(pk=game.pk).record)
    assert after.number > bot_state(game.record).number


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("steps=20/15", "steps-illegal"),  # a 5 in a paš of 6-6 and 1-1
        ("steps=1/7", "steps-illegal"),
        ("steps=24-18", "steps-malformed"),
        ("steps=" + "1/off+" * 20, "steps-too-many"),
    ],
)
def test_hostile_steps_are_refused_with_a_code(
    crowded: tuple[BotGame, Client], query: str, code: str
) -> None:
    game, c = crowded
    status, html = _page(c, game, query)
    assert status == 400
    found = CODE.search(html)
    assert found is not None and found.group(1) == code
    assert STEP.findall(html)  # the first steps offered again


@hsettings(max_examples=10, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    written=st.one_of(
        st.text(max_size=40),
        st.lists(
            st.tuples(
                st.sampled_from(["bar", *map(str, range(0, 27))]),
                st.sampled_from(["off", *map(str, range(0, 27))]),
            ),
            max_size=9,
        ).map(lambda steps: " ".join(f"{a}/{b}" for a, b in steps)),
    ),
)
def test_any_steps_are_answered_or_refused_never_a_server_error(
    crowded: tuple[BotGame, Client], written: str
) -> None:
    game, c = crowded
    r = c.get(reverse("tournaments:play_game", args=[game.pk]), {"steps": written})
    assert r.status_code in (200, 400)
    if r.status_code == 400:
        assert CODE.search(r.content.decode()) is not None
