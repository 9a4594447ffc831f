"""One JSON reader (services/json_input.py) with the same limits for
every door. JSON nested 100,000 deep made the job of /jobs/import/tournament/ stop "on an
internal error" (RecursionError) and /api/token/ answer 500; now every door refuses it
with ``json-too-deep``, in the user's language."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import World
from tournaments.jobs import job_start
from tournaments.models import Job, JobKind, JobStatus, Tournament
from tournaments.services.errors import ApplicationError
from tournaments.services.json_input import JSON_MAX_DEPTH, json_read

pytestmark = pytest.mark.django_db
DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000
TOO_DEEP_CS = "JSON je vnořen hlouběji než 32 úrovní"


def upload(text: str, name: str = "t.json") -> io.BytesIO:
    data = io.BytesIO(text.encode("utf-8"))
    data.name = name
    return data


@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT])
def test_the_token_door_refuses_deep_json_with_a_400_not_a_500(world: World, body):
    answer = world.client(None).post(
        "/api/token/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="cs"
    )
    assert answer.status_code == 400, answer.content[:300]
    assert answer.json()["code"] == "json-too-deep"
    assert answer.json()["detail"] == TOO_DEEP_CS


def test_the_token_door_still_reads_json(world: World):
    body = json.dumps({"username": "jana", "password": "pw-jana"})
    answer = world.client(None).post("/api/token/", body, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["token"]


def test_the_api_import_refuses_a_deep_file_and_a_deep_body_alike(world: World):
    client = world.client("staff")
    as_file = client.post(
        "/api/tournaments/import/", {"file": upload(DEEP_OBJECT)}, format="multipart",
        HTTP_ACCEPT_LANGUAGE="cs",
    )  # fmt: skip
    as_body = client.post(
        "/api/tournaments/import/", DEEP_OBJECT, content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="cs",
    )  # fmt: skip
    for answer in (as_file, as_body):
        assert answer.status_code == 400, answer.content[:300]
        assert (answer.json()["code"], answer.json()["detail"]) == ("json-too-deep", TOO_DEEP_CS)


def test_the_import_page_refuses_a_deep_file_before_a_job_starts(world: World, settings):
    settings.CELERY_BROKER_URL = ""
    client = Client(HTTP_ACCEPT_LANGUAGE="cs")
    client.force_login(world.users["staff"])
    answer = client.post("/jobs/import/tournament/", {"file": upload(DEEP)})
    assert answer.status_code == 400
    assert TOO_DEEP_CS in answer.content.decode()
    assert not Job.objects.exists()


def test_a_job_given_deep_json_fails_with_the_readers_message(world: World, settings):
    """The job reads with the same reader (an import job started by another door)."""
    settings.CELERY_BROKER_URL = ""
    with translation.override("en"):
        job = job_start(kind=JobKind.TOURNAMENT_IMPORT, by=world.users["staff"], data=DEEP)
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED
    assert job.error == f"the JSON is nested deeper than {JSON_MAX_DEPTH} levels"


def test_the_import_command_refuses_deep_json_with_the_readers_message(tmp_path: Path):
    path = tmp_path / "deep.json"
    path.write_text(DEEP_OBJECT, encoding="utf-8")
    before = Tournament.objects.count()
    with translation.override("en"), pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), stdout=io.StringIO())
    assert str(refused.value) == f"{path}: the JSON is nested deeper than 32 levels"
    assert Tournament.objects.count() == before


@pytest.mark.parametrize(
    ("text", "code"),
    [("[1]", "json-not-object"), ("7", "json-not-object"), ('{"a": NaN}', "not-json"),
     ("{", "not-json"), (b'{"a": "\xff"}', "not-utf8"), ('{"a": "x\x00"}', "nul-character")],
)  # fmt: skip
def test_the_reader_names_what_the_text_is_not(text, code):
    with pytest.raises(ApplicationError) as refused:
        json_read(text)
    assert refused.value.code == code


def test_the_reader_reads_up_to_its_depth_and_a_byte_order_mark():
    at_limit = '{"a":' * JSON_MAX_DEPTH + "1" + "}" * JSON_MAX_DEPTH
    assert json_read(at_limit)["a"]
    assert json_read("\ufeff{}".encode()) == {}
    with pytest.raises(ApplicationError):
        json_read('{"a":' * (JSON_MAX_DEPTH + 1) + "1" + "}" * (JSON_MAX_DEPTH + 1))


JSON_ISH = st.text(alphabet='[]{}",:\\ 0123456789.eE-+truefalsn\x00\ufeffé', max_size=300)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(JSON_ISH, st.binary(max_size=200)))
def test_the_reader_answers_any_text_with_an_object_or_a_refusal(text):
    try:
        data = json_read(text)
    except ApplicationError as exc:
        assert exc.code in ("json-too-deep", "not-json", "json-not-object", "not-utf8",
                            "nul-character")  # fmt: skip
    else:
        assert isinstance(data, dict)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(depth=st.integers(min_value=1, max_value=5000), opener=st.sampled_from(["[", '{"a":']))
def test_the_token_door_answers_any_depth_with_a_4xx(world: World, depth, opener):
    closer = "]" if opener == "[" else "}"
    body = opener * depth + ("1" if opener != "[" else "") + closer * depth
    answer = world.client(None).post("/api/token/", body, content_type="application/json")
    assert 400 <= answer.status_code < 500, answer.content[:300]
