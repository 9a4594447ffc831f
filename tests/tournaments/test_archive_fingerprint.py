"""Issue 22 finding 2: an archive imported where its tournament already is made a second
published copy, and its rated series counted twice in the ratings. The archive keeps the
tournament's fingerprint: such an import is refused through every door (409, in the
user's language) unless asked for as a copy (named "… (copy)", a fingerprint of its own);
and an import comes in unpublished and unrated until its director says otherwise."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import translation

from tests.tournaments.helpers import World
from tournaments.models import Job, JobStatus, RatingChange, Tournament
from tournaments.services.archives import tournament_import
from tournaments.services.directing import tournament_update
from tournaments.services.errors import Conflict
from tournaments.services.exports import tournament_archive

pytestmark = pytest.mark.django_db
HERE_CS = "Tento turnaj už na webu je"


def _archive(played: World) -> dict[str, Any]:
    played.tournament.refresh_from_db()
    return json.loads(json.dumps(tournament_archive(played.tournament)))


def test_the_archive_keeps_the_fingerprint(played: World):
    archive = _archive(played)
    assert archive["fingerprint"] == str(played.tournament.fingerprint)
    assert "fingerprint" not in archive["tournament"]  # not a setting


def test_an_archive_of_a_tournament_here_is_refused_by_the_service(played: World):
    before = Tournament.objects.count()
    with translation.override("en"), pytest.raises(Conflict) as refused:
        tournament_import(archive=_archive(played), by=played.users["staff"])
    assert refused.value.code == "archive-already-here"
    assert refused.value.message.startswith("this tournament is on the site already: Přebor")
    assert Tournament.objects.count() == before


def test_the_api_refuses_it_with_a_409_in_czech(played: World):
    client = played.client("staff")
    answer = client.post("/api/tournaments/import/", _archive(played), format="json",
                         HTTP_ACCEPT_LANGUAGE="cs")  # fmt: skip
    assert answer.status_code == 409, answer.json()
    assert answer.json()["code"] == "archive-already-here"
    assert answer.json()["detail"].startswith(HERE_CS)


def test_the_command_refuses_it(played: World, tmp_path: Path):
    path = tmp_path / "a.json"
    path.write_text(json.dumps(_archive(played)), encoding="utf-8")
    with translation.override("en"), pytest.raises(CommandError, match="on the site already"):
        call_command("import_tournament", str(path), stdout=io.StringIO())


def test_the_page_job_fails_with_the_reason(played: World, settings: Any):
    settings.CELERY_BROKER_URL = ""
    client = Client(HTTP_ACCEPT_LANGUAGE="cs")
    client.force_login(played.users["staff"])
    data = io.BytesIO(json.dumps(_archive(played)).encode())
    data.name = "a.json"
    answer = client.post("/jobs/import/tournament/", {"file": data})
    assert answer.status_code == 302
    job = Job.objects.get()
    assert job.status == JobStatus.FAILED and job.error.startswith(HERE_CS)


def test_a_copy_is_marked_and_comes_in_unpublished_and_unrated(played: World):
    rated_before = RatingChange.objects.count()
    assert rated_before > 0
    with translation.override("en"):
        result = tournament_import(archive=_archive(played), by=played.users["staff"], as_copy=True)
    copy = result.tournament
    assert copy.name == "Přebor (copy)"
    assert copy.fingerprint != played.tournament.fingerprint
    assert (copy.published, copy.rated) == (False, False)
    assert RatingChange.objects.count() == rated_before  # nothing counts twice
    assert not RatingChange.objects.filter(series__tournament=copy).exists()
    # its director says otherwise: its series count, ratings recomputed
    tournament_update(tournament=copy, rated=True)
    assert RatingChange.objects.filter(series__tournament=copy).exists()


def test_a_copy_through_the_api_and_the_command(played: World, tmp_path: Path):
    client = played.client("staff")
    answer = client.post("/api/tournaments/import/?copy=1", _archive(played), format="json")
    assert answer.status_code == 201, answer.json()
    path = tmp_path / "a.json"
    path.write_text(json.dumps(_archive(played)), encoding="utf-8")
    call_command("import_tournament", str(path), "--copy", "--name", "Druhá",
                 stdout=io.StringIO())  # fmt: skip
    # the API said it in the request's language (Czech by default)
    assert Tournament.objects.filter(name__in=["Přebor (kopie)", "Druhá"]).count() == 2


def test_an_archive_from_elsewhere_keeps_its_fingerprint_and_is_refused_next_time(
    played: World,
):
    archive = _archive(played)
    archive["fingerprint"] = "6f1c2d3e-0000-4000-8000-000000000001"
    moved = tournament_import(archive=archive, by=played.users["staff"], as_archived=True)
    assert str(moved.tournament.fingerprint) == archive["fingerprint"]
    assert (moved.tournament.published, moved.tournament.rated) == (True, True)
    with pytest.raises(Conflict):
        tournament_import(archive=archive, by=played.users["staff"])


@pytest.mark.parametrize("value", ["not-a-uuid", 7, ["x"]])
def test_a_damaged_fingerprint_is_a_400(played: World, value):
    archive = _archive(played)
    archive["fingerprint"] = value
    answer = played.client("staff").post("/api/tournaments/import/", archive, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "archive-fingerprint"
