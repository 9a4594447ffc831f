"""The whole API fed with data that does NOT fit its schema
(schemathesis' negative mode: wrong types, out-of-range numbers, missing or extra fields,
malformed bodies and query strings), as an anonymous visitor, a player and the director:
every answer is a 4xx or a success, never a server error."""

from __future__ import annotations

import itertools

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode

from tests.tournaments.helpers import World
from tournaments.services.results import game_enter_quick

pytestmark = pytest.mark.django_db

ROLES = itertools.cycle((None, "jana", "boss"))  # anonymous, a player, the director
negative = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
negative.config.generation.update(modes=[GenerationMode.NEGATIVE])


@pytest.fixture
def keep_connection():
    """The WSGI application closes the database connection after each request, which
    would end the test's transaction on PostgreSQL (as in test_api_schema.py)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@negative.parametrize()
@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_on_input_outside_the_schema(case, world: World, keep_connection):
    if not world.series.games.exists():
        p = world.players
        game_enter_quick(series=world.series, white=p["jana"], winner=p["jana"], kind="oin")
    role = next(ROLES)  # each operation's examples go round the three roles
    headers = {"Authorization": f"Token {world.token(role)}"} if role else {}
    response = case.call(headers=headers)
    assert response.status_code < 500, (role, case.method, case.path, response.text[:500])
