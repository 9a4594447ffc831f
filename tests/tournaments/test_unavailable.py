"""While the database cannot be reached (PostgreSQL restarting), pages and the API answer
503 with Retry-After in the reader's language, not 500 (tournaments/views/unavailable.py).

The database really is unreachable here: the connection is pointed at a place where
none can be opened (a closed port for PostgreSQL, a missing directory for SQLite), and
the driver's own OperationalError is what the request meets."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from tests.tournaments.helpers import World, make_world


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nobody listens once it is closed


@pytest.fixture
def database_down(transactional_db: None, tmp_path: Path) -> Iterator[World]:
    world = make_world()
    connection.ensure_connection()
    kept, settings = connection.connection, dict(connection.settings_dict)
    connection.connection = None  # the open one is kept aside (SQLite's memory lives in it)
    if connection.vendor == "sqlite":
        connection.settings_dict["NAME"] = str(tmp_path / "gone" / "db.sqlite3")
    else:
        connection.settings_dict.update(HOST="127.0.0.1", PORT=str(closed_port()))
    try:
        yield world
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(settings)
        connection.connection = kept


def test_a_page_answers_503_in_czech_with_retry_after(database_down: World) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="cs", raise_request_exception=False)
    response = client.get(f"/tournaments/{database_down.tournament.pk}/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    html = response.content.decode()
    assert "Databáze se restartuje; zkuste to za chvíli znovu." in html
    assert '<html lang="cs">' in html


def test_the_api_answers_503_json_with_a_code(database_down: World) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    response = client.get("/api/tournaments/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    body = response.json()
    assert body["code"] == "database-unavailable"
    assert body["detail"] == "The database is restarting; try again in a moment."


def test_a_signed_in_write_answers_503_too(database_down: World) -> None:
    """A session read in a middleware meets the error before any view."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    client.cookies["sessionid"] = "x" * 32
    response = client.post("/play/", {"level": "beginner", "colour": "white"})
    assert response.status_code == 503, response.content.decode()[:500]
