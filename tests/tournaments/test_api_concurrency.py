"""Two directors enter the same game at the same moment through a live server: exactly
one is entered (201), the other answers 409 with the value now there."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest
from django.db import connection

from tests.tournaments.helpers import make_world
from tournaments.models import Game


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite serialises every write, so the requests cannot race",
)
def test_the_same_game_entered_twice_at_once(live_server, transactional_db, no_throttle):
    world = make_world()
    p = world.players
    url = f"{live_server.url}/api/series/{world.series.pk}/games/quick/"
    tokens = [world.token("boss"), world.token("staff")]
    world.tournament.directors.add(world.users["staff"])
    bodies = [
        {"white": p["jana"].pk, "winner": p["jana"].pk, "kind": "mars", "number": 1},
        {"white": p["jana"].pk, "winner": p["petr"].pk, "kind": "oin", "number": 1},
    ]
    barrier = threading.Barrier(2)
    answers: list[tuple[int, dict[str, object]]] = [(0, {}), (0, {})]

    def post(i: int) -> None:
        request = urllib.request.Request(
            url,
            data=json.dumps(bodies[i]).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Token {tokens[i]}"},
            method="POST",
        )
        barrier.wait()
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                answers[i] = (response.status, json.loads(response.read()))
        except urllib.error.HTTPError as exc:
            answers[i] = (exc.code, json.loads(exc.read()))

    threads = [threading.Thread(target=post, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201, 409], answers
    entered = next(body for status, body in answers if status == 201)
    refused = next(body for status, body in answers if status == 409)
    game = Game.objects.get()
    assert entered["id"] == game.pk
    current = refused["current"]
    assert isinstance(current, dict)
    assert (current["number"], current["kind"], current["winner"]) == (1, game.kind, game.winner_id)
