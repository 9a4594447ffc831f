"""Background jobs (tournaments/jobs/, docs/jobs.md): inline without a broker (each kind,
through its page, the API and the commands), and through a real Celery worker on Redis
or RabbitMQ sharing the PostgreSQL test database."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils import translation

from tests.tournaments.helpers import World, a_record, make_world
from tests.tournaments.jobs_data import (
    PLAYERS,
    ROOT,
    page,
    reachable,
    started,
    upload,
    worker_database_url,
)
from tournaments.jobs import job_run, job_start
from tournaments.jobs import kinds as job_kinds
from tournaments.jobs.progress import JobProgress
from tournaments.models import Game, Job, JobKind, JobStatus, Player, Series, Tournament
from tournaments.services.exports import tournament_archive
from tournaments.services.results import game_enter_record


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """These tests read the refusals' English words (their msgids): said in English."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def inline(settings: Any) -> None:
    """No broker: every job runs in its request (what `make run` does)."""
    settings.CELERY_BROKER_URL = ""


def a_played_game(world: World) -> Game:
    s = world.series
    return game_enter_record(series=s, record=a_record(s.player1.name, s.player2.name, seed=3))


# inline: each kind through its page ----------------------------------------------------


@pytest.mark.django_db
def test_players_csv_page_runs_the_import_and_the_job_page_shows_the_result(world: World):
    client = page(world, "staff")
    assert client.get("/jobs/import/players/").status_code == 200
    job = started(client.post("/jobs/import/players/", {"file": upload(PLAYERS, "p.csv")}))
    assert (job.kind, job.status, job.done, job.total) == ("players_import_csv", "done", 3, 3)
    assert job.result["created"] == 2 and job.result["rejected"] == 1
    assert Player.objects.filter(name__in=["Filip", "Gustav"]).count() == 2
    html = client.get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 player(s) imported, 1 line(s) refused" in html
    assert "line 3: duplicate of line 2" in html
    assert "job.js" not in html  # a finished job's page does not poll


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("name\nM\xfcller\n".encode("latin-1"), "UTF-8"),
        ("name\nA\x00B\n", "NUL"),
    ],
)
def test_a_file_that_is_not_text_is_a_form_error_and_starts_nothing(world, data, message):
    response = page(world, "staff").post(
        "/jobs/import/players/", {"file": upload(data)}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Job.objects.exists()


@pytest.mark.django_db
def test_a_file_above_the_limit_is_refused_before_it_is_read(world: World, settings: Any):
    settings.JOBS_INPUT_MAX_BYTES = 2**20
    big = "name\n" + "x\n" * 2**19 + "y\n"
    response = page(world, "staff").post(
        "/jobs/import/players/", {"file": upload(big)}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400 and "larger than 1 MB" in response.content.decode()
    assert not Job.objects.exists()


@pytest.mark.django_db
def test_the_import_pages_are_for_staff_only(world: World):
    for url in ("/jobs/import/players/", "/jobs/import/tournament/"):
        assert page(world, "boss").get(url).status_code == 403
        assert page(world, "boss").post(url, {"file": upload(PLAYERS)}).status_code == 403
        assert Client().get(url).status_code == 302  # to the sign-in page
    assert not Job.objects.exists()


@pytest.mark.django_db
def test_archive_page_imports_a_copy_and_links_the_new_tournament(world: World):
    a_played_game(world)
    archive = json.dumps(tournament_archive(world.tournament))
    client = page(world, "staff")
    job = started(
        client.post(
            "/jobs/import/tournament/", {"file": upload(archive), "name": "Kopie", "copy": "on"}
        )
    )
    assert job.status == "done", job.error
    copy = Tournament.objects.get(name="Kopie")
    assert job.tournament == copy and job.result["tournament"] == copy.pk
    assert job.result["players_matched"] == 4 and job.result["players_created"] == 0
    assert Game.objects.filter(series__tournament=copy).count() == 1
    html = client.get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="/tournaments/{copy.pk}/"' in html and "4 matched" in html


@pytest.mark.django_db
def test_a_damaged_archive_fails_the_job_with_the_reason_and_changes_nothing(world: World):
    client = page(world, "staff")
    before = Tournament.objects.count()
    refused = client.post("/jobs/import/tournament/", {"file": upload("{not json")})
    assert refused.status_code == 400 and "the file is not JSON" in refused.content.decode()
    assert not Job.objects.exists()  # read by the one JSON reader before any job starts
    job = started(client.post("/jobs/import/tournament/", {"file": upload('{"format": 1}')}))
    assert (job.status, job.error) == ("failed", "this is not a tournament archive")
    assert Tournament.objects.count() == before
    html = client.get(f"/jobs/{job.pk}/").content.decode()
    assert "this is not a tournament archive" in html


@pytest.mark.django_db
def test_records_upload_page_enters_the_games_and_reports_the_refused_one(world: World):
    s = world.series
    good = a_record(s.player1.name, s.player2.name, seed=5)
    text = good + "\n" + good.replace("[White", "[Whyte", 1)
    client = page(world, "boss")
    job = started(client.post(f"/series/{s.pk}/upload/", {"file": upload(text, "g.nrd")}))
    assert job.tournament == world.tournament
    assert job.status == "failed" and job.error.startswith("game 2 (line ")
    assert "1 game(s) entered before it" in job.error
    assert job.result["entered"] == 1 and s.games.count() == 1
    html = client.get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 game(s) entered." in html and job.error.split(":")[0] in html
    # another tournament's director may neither upload nor see the job
    other = page(world, "otherboss")
    assert other.post(f"/series/{s.pk}/upload/", {"file": upload(good)}).status_code == 403
    assert other.get(f"/jobs/{job.pk}/").status_code == 404


@pytest.mark.django_db
def test_verify_games_job_finds_a_tampered_record(world: World):
    game = a_played_game(world)
    wrong = game.record.replace(f'"{game.white.name}"', '"Nobody"', 1)
    assert wrong != game.record
    Game.objects.filter(pk=game.pk).update(record=wrong)
    client = page(world, "boss")
    job = started(client.post(f"/tournaments/{world.tournament.pk}/jobs/verify_games/"))
    assert job.status == "done" and job.params == {"tournament": world.tournament.pk}
    assert {k: job.result[k] for k in ("games", "ok", "failed", "changed")} == {
        "games": 1, "ok": 0, "failed": 1, "changed": 1,
    }  # fmt: skip
    game.refresh_from_db()
    assert not game.verified and game.verification_note["params"]["record_white"] == "Nobody"
    assert "Nobody" in game.verification
    html = client.get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 games with a record: 0 ok, 1 failed" in html and f"/games/{game.pk}/" in html


@pytest.mark.django_db
def test_recompute_job_puts_a_tampered_series_right(world: World):
    a_played_game(world)
    Series.objects.filter(pk=world.series.pk).update(score1=7, score2=7)
    client = page(world, "boss")
    job = started(client.post(f"/tournaments/{world.tournament.pk}/jobs/recompute/"))
    assert job.status == "done" and job.result["changed"] == 1
    assert job.result["series"] == 2
    world.series.refresh_from_db()
    assert (world.series.score1 + world.series.score2) < 7


@pytest.mark.django_db
def test_tournament_jobs_are_for_its_directors_by_post_and_known_kinds(world: World):
    url = f"/tournaments/{world.tournament.pk}/jobs/"
    assert page(world, "otherboss").post(url + "recompute/").status_code == 403
    assert page(world, "boss").get(url + "recompute/").status_code == 405
    assert page(world, "boss").post(url + "tournament_import/").status_code == 404
    assert not Job.objects.exists()


# the API and the list ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_status_api_answers_the_creator_the_directors_and_nobody_else(world: World):
    job = job_start(
        kind=JobKind.VERIFY_GAMES, params={"tournament": world.tournament.pk},
        by=world.users["staff"], tournament=world.tournament,
    )  # fmt: skip
    for role in ("staff", "boss"):
        body = world.client(role).get(f"/api/jobs/{job.pk}/").json()
        assert body["status"] == "done" and body["kind"] == "verify_games"
        assert body["result"]["games"] == 0 and "data" not in body
    assert world.client("otherboss").get(f"/api/jobs/{job.pk}/").status_code == 404
    assert world.client(None).get(f"/api/jobs/{job.pk}/").status_code == 403
    assert world.client("staff").get("/api/jobs/999999/").status_code == 404
    mine = page(world, "boss").get("/jobs/").content.decode()
    assert f"/jobs/{job.pk}/" in mine
    assert f"/jobs/{job.pk}/" not in page(world, "jana").get("/jobs/").content.decode()


@pytest.mark.django_db
def test_a_running_job_page_polls_the_status_api_with_a_static_script(world: World):
    job = Job.objects.create(kind=JobKind.RECOMPUTE, created_by=world.users["boss"], total=10)
    Job.objects.filter(pk=job.pk).update(status=JobStatus.RUNNING, done=4, stage="series")
    html = page(world, "boss").get(f"/jobs/{job.pk}/").content.decode()
    assert f'data-status-url="/api/jobs/{job.pk}/"' in html
    assert 'src="/static/js/job.js"' in html and "<script>" not in html
    assert 'value="4"' in html and "4 / 10" in html


# the commands --------------------------------------------------------------------------


@pytest.mark.django_db
def test_commands_with_background_start_a_job_and_print_its_id(world: World):
    out = io.StringIO()
    call_command("verify_games", "--background", stdout=out)
    job = Job.objects.get(kind="verify_games")
    assert out.getvalue().strip() == f"job {job.pk}: done"
    out = io.StringIO()
    call_command("recompute", "--background", "--tournament", str(world.tournament.pk), stdout=out)
    job = Job.objects.get(kind="recompute")
    assert out.getvalue().strip() == f"job {job.pk}: done"
    assert job.tournament == world.tournament and job.result["series"] == 2


# the runner ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_job_runs_once_however_often_its_message_comes(world: World):
    job = job_start(kind=JobKind.RECOMPUTE, by=world.users["boss"])
    assert job.status == "done"
    assert job_run(job_id=job.pk) == "skipped"
    assert Job.objects.get(pk=job.pk).status == "done"
    # delivered again after its worker died in the middle: failed, not run twice
    Job.objects.filter(pk=job.pk).update(status=JobStatus.RUNNING)
    assert job_run(job_id=job.pk) == "failed"
    assert "interrupted" in Job.objects.get(pk=job.pk).error


@pytest.mark.django_db
def test_a_bug_fails_the_job_with_a_plain_message_and_is_logged(world, monkeypatch, caplog):
    def broken(job: Job, progress: Any) -> dict[str, Any]:
        raise ZeroDivisionError("oops")

    monkeypatch.setitem(job_kinds.KINDS, JobKind.RECOMPUTE, broken)
    with caplog.at_level(logging.ERROR, logger="tournaments.jobs.runner"):
        job = job_start(kind=JobKind.RECOMPUTE, by=world.users["boss"])
    assert job.status == "failed" and "internal error" in job.error and "oops" not in job.error
    assert "ZeroDivisionError" in caplog.text


@pytest.mark.django_db
def test_an_unreachable_broker_fails_the_job_instead_of_the_request(
    world, settings, django_capture_on_commit_callbacks
):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"  # the discard port: nobody there
    with django_capture_on_commit_callbacks(execute=True):
        response = page(world, "staff").post("/jobs/import/players/", {"file": upload(PLAYERS)})
    job = started(response)
    assert job.status == "failed" and "queue cannot be reached" in job.error
    assert not Player.objects.filter(name="Gustav").exists()


@pytest.mark.django_db(transaction=True)
def test_progress_is_written_at_most_once_per_interval():
    job = Job.objects.create(kind=JobKind.RECOMPUTE)
    progress = JobProgress(job, interval=3600)
    assert sum(1 for _ in progress(range(5000), desc="series", total=5000)) == 5000
    assert progress.writes == 2  # the start and the end of the stage, nothing between
    job.refresh_from_db()
    assert (job.stage, job.done, job.total) == ("series", 5000, 5000)
    fast = JobProgress(job, interval=0)
    list(fast(range(10), desc="games", total=10))
    assert fast.writes == 12


# a real worker ---------------------------------------------------------------------------

BROKERS = {
    "redis": ("redis://127.0.0.1:6379/7", 6379),
    "rabbitmq": ("amqp://guest:guest@127.0.0.1:5672//", 5672),
}


@pytest.fixture(params=sorted(BROKERS))
def worker(request: Any, transactional_db: None, settings: Any, tmp_path: Path) -> Iterator[Path]:
    """`celery -A config worker` in its own process, on the broker and the test database
    (rows committed: transactional_db); its log file is yielded."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: the worker must share the test database (CI runs it)")
    url, port = BROKERS[request.param]
    if not reachable(port):
        missing = f"no {request.param} broker on 127.0.0.1:{port}"
        if os.environ.get("NARDY_REQUIRE_SERVICES") == "1":  # .ci/run started them
            pytest.fail(missing)
        pytest.skip(missing)
    from kombu.connection import Connection

    # one queue per xdist worker: a worker must not take another test database's jobs
    queue = f"nardy-test-{request.param}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    # messages of an earlier, killed run (none when the queue does not exist yet)
    with Connection(url, connect_timeout=5) as conn, contextlib.suppress(Exception):
        conn.default_channel.queue_purge(queue)  # type: ignore[attr-defined]
    log = tmp_path / "worker.log"
    env = {**os.environ, "CELERY_BROKER_URL": url, "CELERY_QUEUE": queue,
           "DATABASE_URL": worker_database_url()}  # fmt: skip
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "info",
               "-P", "solo", "-Q", queue, "-n", f"{queue}@%h", "--without-gossip",
               "--without-mingle", "--without-heartbeat"]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    settings.CELERY_BROKER_URL, settings.CELERY_TASK_DEFAULT_QUEUE = url, queue
    try:
        yield log
    finally:
        process.send_signal(signal.SIGQUIT)  # cold shutdown: every job has finished
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def finished(client: Client, job: Job, log: Path, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(f"/api/jobs/{job.pk}/").json()
        if body["status"] in ("done", "failed"):
            return body
        time.sleep(0.3)
    raise AssertionError(f"job {job.pk} not finished in {timeout} s:\n{log.read_text()[-3000:]}")


def test_a_worker_runs_the_jobs_sent_through_the_pages(worker: Path):
    world = make_world()
    client = page(world, "staff")
    job = started(client.post("/jobs/import/players/", {"file": upload(PLAYERS, "p.csv")}))
    body = finished(client, job, worker)
    assert "Task tournaments.run_job[" in worker.read_text()  # the worker ran it
    assert body["status"] == "done", body
    assert body["result"]["created"] == 2 and (body["done"], body["total"]) == (3, 3)
    assert Player.objects.filter(name__in=["Filip", "Gustav"]).count() == 2
    html = client.get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 player(s) imported, 1 line(s) refused" in html
    # an archive: one transaction on the worker, the tournament made there
    archive = json.dumps(tournament_archive(world.tournament))
    job = started(
        client.post(
            "/jobs/import/tournament/", {"file": upload(archive), "name": "Kopie", "copy": "on"}
        )
    )
    body = finished(client, job, worker)
    assert body["status"] == "done", body
    assert body["tournament"] == Tournament.objects.get(name="Kopie").pk
    bad = started(client.post("/jobs/import/tournament/", {"file": upload('{"format": 1}')}))
    assert finished(client, bad, worker)["error"] == "this is not a tournament archive"


@pytest.mark.django_db
def test_a_running_jobs_stage_is_said_in_the_readers_language(world: World):
    """The stage is stored as its code ("verifying"); the page and the API the page's
    script polls say it in the reader's language."""
    job = Job.objects.create(
        kind=JobKind.VERIFY_GAMES, status="running", stage="verifying", done=3, total=9,
        created_by=world.users["boss"], tournament=world.tournament,
    )  # fmt: skip
    client = world.client("boss")
    english = client.get(f"/api/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    czech = client.get(f"/api/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="cs").json()
    assert english["stage"] == czech["stage"] == "verifying"
    assert english["stage_text"] == "verifying" and czech["stage_text"] != "verifying"
    html = page(world, "boss").get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert f'<span id="job-stage">{czech["stage_text"]}</span>' in html
