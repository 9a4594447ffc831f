"""The statistics of the API (/api/tournaments/<id>/stats/, /api/players/<id>/stats/)
are cached for visitors under the same versions as the statistics pages: a second read
computes nothing, a write shows at once (tournaments/caching/)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.helpers import World, a_record
from tournaments.services.results import game_enter_record

pytestmark = pytest.mark.django_db


def read(url: str) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = Client(HTTP_ACCEPT_LANGUAGE="en").get(url)
    assert response.status_code == 200, response.content.decode()[:500]
    return response.json(), [q["sql"] for q in queries.captured_queries]


def games_read(sql: list[str]) -> list[str]:
    return [q for q in sql if '"tournaments_game"' in q]


@pytest.mark.parametrize("door", ["tournament", "player"])
def test_a_second_visitor_read_computes_nothing_and_a_write_shows(world: World, door: str):
    world.tournament.published = True
    world.tournament.save()
    s = world.series
    game_enter_record(series=s, record=a_record(s.player1.name, s.player2.name, seed=3))
    url = (
        f"/api/tournaments/{world.tournament.pk}/stats/"
        if door == "tournament"
        else f"/api/players/{s.player1.pk}/stats/"
    )
    first, sql = read(url)
    assert games_read(sql)  # computed from the games
    again, sql = read(url)
    assert again == first and not games_read(sql)  # from the cache
    game_enter_record(series=s, record=a_record(s.player1.name, s.player2.name, seed=5))
    after, sql = read(url)
    assert games_read(sql) and after != first  # the write bumped the version
