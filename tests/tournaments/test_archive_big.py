"""Issue 22 finding 8: an archive with 1,000 new players took over 54 s to import (0/100/
200/400 extra players: 2.0/3.3/6.2/13.4 s, quadratic). The players and entries are read
and written in bulk: the number of queries does not grow with the players."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.helpers import World
from tournaments.models import Entry, Player
from tournaments.services.archives import tournament_import
from tournaments.services.exports import tournament_archive

pytestmark = pytest.mark.django_db


def with_players(played: World, extra: int) -> dict[str, Any]:
    """The played tournament's archive, moved (a fingerprint of its own), with ``extra``
    new players entered."""
    played.tournament.refresh_from_db()
    archive = json.loads(json.dumps(tournament_archive(played.tournament)))
    archive["fingerprint"] = str(uuid.uuid4())
    first = max(p["ref"] for p in archive["players"]) + 1
    for ref in range(first, first + extra):
        archive["players"].append({"ref": ref, "name": f"Nový hráč {ref}", "club": None,
                                   "country": "CZ", "active": True,
                                   "rating": 1500.0, "experience": 0})  # fmt: skip
        archive["entries"].append({"player": ref, "seed": None, "withdrawn": False})
    return archive


def queries(archive: dict[str, Any], played: World) -> int:
    with CaptureQueriesContext(connection) as done:
        tournament_import(archive=archive, by=played.users["staff"])
    return len(done)


def test_the_queries_do_not_grow_with_the_players(played: World):
    few = queries(with_players(played, 10), played)
    many = queries(with_players(played, 100), played)
    assert many == few, (few, many)
    # the second archive names the first one's ten new players again: matched
    assert Player.objects.filter(name__startswith="Nový hráč").count() == 100
    assert Entry.objects.filter(player__name__startswith="Nový hráč").count() == 110


def test_a_thousand_new_players_import_in_seconds(played: World):
    archive = with_players(played, 1000)
    start = time.perf_counter()
    result = tournament_import(archive=archive, by=played.users["staff"])
    took = time.perf_counter() - start
    assert result.players_created == 1000
    assert took < 30, took  # 54 s and more before; seconds now, on a loaded machine too


def test_the_api_imports_as_a_job_when_asked(played: World, settings: Any):
    """?async=1: 202 with the job to follow (run inline here: no broker)."""
    settings.CELERY_BROKER_URL = ""
    client = played.client("staff")
    answer = client.post("/api/tournaments/import/?async=1", with_players(played, 20),
                         format="json")  # fmt: skip
    assert answer.status_code == 202, answer.json()
    job = answer.json()
    assert answer["Location"] == job["url"] == f"/api/jobs/{job['job']}/"
    state = client.get(job["url"]).json()
    assert state["status"] == "done", state
    assert Player.objects.filter(name__startswith="Nový hráč").count() == 20
    assert state["result"]["players_created"] == 20
