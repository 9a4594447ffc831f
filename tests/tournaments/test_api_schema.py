"""The OpenAPI schema, its documentation pages (local assets only), and a property-based
run of the whole API against its own schema: no answer may be a server error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import schemathesis
from django.contrib.staticfiles import finders
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from tests.tournaments.helpers import World
from tournaments.api.docs import REDOC_BUNDLE
from tournaments.services.results import game_enter_quick

pytestmark = pytest.mark.django_db


def test_the_schema_is_openapi_3_and_documents_the_actions(client, no_throttle):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    quick = schema["paths"]["/api/series/{id}/games/quick/"]["post"]
    assert "QuickEntryInput" in str(quick["requestBody"])
    assert {"201", "400", "403", "409"} <= set(quick["responses"])
    assert "/api/verify/" in schema["paths"] and "/api/token/" in schema["paths"]


@pytest.mark.parametrize(
    ("url", "script"),
    [
        ("/api/docs/", "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js"),
        ("/api/redoc/", "/api/redoc/redoc.standalone.js"),
    ],
)
def test_the_documentation_pages_use_local_assets_only(client, no_throttle, url, script):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'src="{script}"' in html
    external = re.findall(r"""(?:src|href)=["'](https?:)?//""", html)
    assert not external, external
    assert "cdn." not in html and "unpkg" not in html and "jsdelivr" not in html


def test_redoc_is_served_without_the_logo_it_would_load_from_a_cdn(client, no_throttle):
    """Redoc's sidebar shows Redocly's logo from cdn.redoc.ly, which the CSP refuses
    (img-src 'self' data:): the script is served without it, whole otherwise."""
    shipped = Path(finders.find(REDOC_BUNDLE)).read_text(encoding="utf-8")
    assert "https://cdn.redoc.ly/" in shipped  # what is left out, so this test can fail
    response = client.get("/api/redoc/redoc.standalone.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    served = response.content.decode()
    assert "cdn.redoc.ly" not in served and "redocly logo" not in served
    assert "API docs by Redocly" in served
    assert len(shipped) - len(served) < 200


# The schema view needs no database: it is read once, when the tests are collected.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def keep_connection():
    """The WSGI application closes the database connection after each request, which
    would end the test's transaction on PostgreSQL; Django's test client avoids that the
    same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_against_its_schema(case, world: World, keep_connection):
    """Signed in as the tournament's director (a token), so that write endpoints are
    exercised too. Beyond "no server error", answers must be documented and match."""
    if not world.series.games.exists():
        p = world.players
        game_enter_quick(series=world.series, white=p["jana"], winner=p["jana"], kind="oin")
    response = case.call(headers={"Authorization": f"Token {world.token('boss')}"})
    assert response.status_code < 500, (case.method, case.path, response.text[:500])
    case.validate_response(response, checks=[response_schema_conformance, status_code_conformance])
