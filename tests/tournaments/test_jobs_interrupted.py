"""A job whose worker died is seen as interrupted within two minutes on either
broker (a heartbeat on the job's row, docs/jobs.md), the page says so and offers to start
it again; a job the queue could not take can be started again too."""

from __future__ import annotations

import contextlib
import datetime
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from tests.tournaments.helpers import make_world
from tests.tournaments.jobs_data import (
    PLAYERS,
    ROOT,
    page,
    reachable,
    started,
    upload,
    worker_database_url,
)
from tournaments.models import Job, JobKind, JobStatus, Player

BOUND = 120  # seconds: the "within two minutes"
BROKERS = {
    "redis": ("redis://127.0.0.1:6379/6", 6379),
    "rabbitmq": ("amqp://guest:guest@127.0.0.1:5672//", 5672),
}


def _interrupted_on_read(client: Client, job: Job, timeout: float) -> float:
    """Read the job through the API until it is failed; the seconds that took."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        body = client.get(f"/api/jobs/{job.pk}/").json()
        if body["status"] == "failed":
            assert "interrupted" in body["error"], body
            return time.monotonic() - start
        assert body["status"] == "running", body
        time.sleep(0.25)
    raise AssertionError(f"job {job.pk} still running {timeout} s after its worker died")


@pytest.mark.django_db
def test_a_running_job_without_a_sign_of_life_is_interrupted_in_its_starters_language(settings):
    settings.JOBS_STALE_SECONDS = 60
    world = make_world()
    old = timezone.now() - datetime.timedelta(seconds=61)
    dead = Job.objects.create(
        kind=JobKind.RECOMPUTE, status=JobStatus.RUNNING, created_by=world.users["boss"],
        tournament=world.tournament, language="cs",
    )  # fmt: skip
    alive = Job.objects.create(
        kind=JobKind.RECOMPUTE, status=JobStatus.RUNNING, created_by=world.users["boss"],
        tournament=world.tournament,
    )  # fmt: skip
    Job.objects.filter(pk=dead.pk).update(updated_at=old)
    client = page(world, "boss")
    assert client.get(f"/api/jobs/{alive.pk}/").json()["status"] == "running"
    body = client.get(f"/api/jobs/{dead.pk}/").json()
    assert body["status"] == "failed" and body["finished_at"]
    assert body["error"] == "Úloha byla přerušena (její proces se zastavil); spusťte ji znovu."
    html = client.get(f"/jobs/{dead.pk}/").content.decode()
    assert "Start it again" in html
    again = client.post(f"/jobs/{dead.pk}/again/")
    new = Job.objects.exclude(pk__in=[dead.pk, alive.pk]).get()
    assert again["Location"] == f"/jobs/{new.pk}/"
    assert (new.kind, new.tournament) == (dead.kind, world.tournament)
    assert new.created_by == world.users["boss"]
    # only a failed job, and only by who may start that kind
    assert "Start it again" not in client.get(f"/jobs/{alive.pk}/").content.decode()
    client.post(f"/jobs/{alive.pk}/again/")
    assert Job.objects.count() == 3
    jana = page(world, "jana")
    assert jana.post(f"/jobs/{dead.pk}/again/").status_code == 404  # not hers to see


@pytest.mark.django_db
def test_a_job_the_queue_could_not_take_can_be_started_again(
    settings, django_capture_on_commit_callbacks
):
    world = make_world()
    client = page(world, "staff")
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"  # the discard port: nobody there
    with django_capture_on_commit_callbacks(execute=True):
        job = started(client.post("/jobs/import/players/", {"file": upload(PLAYERS)}))
    job.refresh_from_db()
    assert job.status == "failed" and "queue cannot be reached" in job.error
    html = client.get(f"/jobs/{job.pk}/").content.decode()
    assert "queue cannot be reached" in html and "Start it again" in html
    settings.CELERY_BROKER_URL = ""  # the queue is back (here: jobs inline)
    new = started(client.post(f"/jobs/{job.pk}/again/"))
    assert new.status == "done" and new.result["created"] == 2
    assert Player.objects.filter(name="Gustav").exists()


# a real worker, killed -------------------------------------------------------------------


@pytest.fixture(params=sorted(BROKERS))
def killable_worker(
    request: Any, transactional_db: None, settings: Any, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """`celery -A config worker` on the broker and the test database, with a heartbeat
    every second; the test kills it."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: the worker must share the test database (CI runs it)")
    url, port = BROKERS[request.param]
    if not reachable(port):
        pytest.skip(f"no {request.param} broker on 127.0.0.1:{port}")
    from kombu.connection import Connection

    queue = f"nardy-test-killed-{request.param}"
    with Connection(url, connect_timeout=5) as conn, contextlib.suppress(Exception):
        conn.default_channel.queue_purge(queue)  # type: ignore[attr-defined]
    log = tmp_path / "worker.log"
    env = {**os.environ, "CELERY_BROKER_URL": url, "CELERY_QUEUE": queue,
           "DATABASE_URL": worker_database_url(), "JOBS_HEARTBEAT_SECONDS": "1"}  # fmt: skip
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "info",
               "-P", "solo", "-Q", queue, "-n", f"{queue}@%h", "--without-gossip",
               "--without-mingle", "--without-heartbeat"]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    settings.CELERY_BROKER_URL, settings.CELERY_TASK_DEFAULT_QUEUE = url, queue
    settings.JOBS_STALE_SECONDS = 5  # the readers' side of the short heartbeat
    try:
        yield process, log
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        with Connection(url, connect_timeout=5) as conn, contextlib.suppress(Exception):
            conn.default_channel.queue_purge(queue)  # type: ignore[attr-defined]


def test_a_job_whose_worker_is_killed_shows_as_interrupted_and_can_start_again(
    killable_worker: tuple[subprocess.Popen[bytes], Path],
):
    """Before: with Redis the job stayed running for the visibility timeout (3,720 s)."""
    process, log = killable_worker
    world = make_world()
    client = page(world, "staff")
    lines = "".join(f"Player {i},Club {i % 50},{1400 + i % 300}\n" for i in range(20000))
    csv = upload("name,club,rating\n" + lines)
    job = started(client.post("/jobs/import/players/", {"file": csv}))
    deadline = time.monotonic() + 90
    while Job.objects.get(pk=job.pk).done == 0:  # running, in the middle of its lines
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        assert Job.objects.get(pk=job.pk).status in ("queued", "running"), log.read_text()[-3000:]
        time.sleep(0.1)
    process.send_signal(signal.SIGKILL)
    process.wait()
    seconds = _interrupted_on_read(client, job, BOUND)
    # five seconds without a sign of life (the test's JOBS_STALE_SECONDS), then the read
    assert seconds <= 5 + 10, seconds
    print(f"\n{log.name}: interrupted job shown {seconds:.1f} s after SIGKILL")
    html = client.get(f"/jobs/{job.pk}/").content.decode()
    assert "the job was interrupted (its worker stopped); start it again" in html
    assert "Start it again" in html
    new = started(client.post(f"/jobs/{job.pk}/again/"))
    assert new.kind == job.kind and new.status == "queued"
    assert Job.objects.filter(pk=new.pk).values_list("data", flat=True).get().startswith("name,")
