"""The database's worker (tournaments/jobs/worker.py, docs/jobs.md): without a broker a
request that starts a job answers at once, the job waiting in its table, and
`manage.py run_jobs` - a real process, as `make run` starts it - runs it, users' jobs
before analysis. The demo loads without analysing; long commands say their progress in
plain lines when their output is not a terminal. One user's jobs: the same job twice is
one, at most JOBS_QUEUED_PER_USER wait (429); games against the bot are rate-limited and
a finished one is analysed by the worker, not by the page that ended it."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils import translation
from rest_framework.throttling import SimpleRateThrottle

from tests.tournaments.helpers import World, a_record, make_world
from tests.tournaments.jobs_data import PLAYERS, ROOT, upload, worker_database_url
from tournaments.jobs.worker import next_job
from tournaments.management.records import plain_progress
from tournaments.models import (
    BotGameStatus,
    Game,
    GameAnalysis,
    Job,
    JobKind,
    JobStatus,
    Room,
    Tournament,
)
from tournaments.services.botgames import botgame_start
from tournaments.services.errors import ApplicationError
from tournaments.services.exports import tournament_archive
from tournaments.services.results import game_enter_record


@pytest.fixture
def embedded(settings: Any) -> None:
    """What `make run` does: no broker, jobs wait for the database's worker."""
    settings.CELERY_BROKER_URL = ""
    settings.JOBS_INLINE = False


def director(world: World) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(world.users["boss"])
    return client


def run_worker(tmp_path: Path) -> str:
    """`manage.py run_jobs --once` in its own process on the test database: every
    waiting job, then exit. PostgreSQL's test database is shared as it is; SQLite's (in
    memory) is copied to a file for the worker and copied back once it has run."""
    if connection.vendor == "postgresql":
        return _worker(worker_database_url())
    path = tmp_path / "worker.sqlite3"
    connection.ensure_connection()
    memory = connection.connection
    with sqlite3.connect(path) as file:
        memory.backup(file)
    try:
        return _worker(f"sqlite:///{path}")
    finally:
        with sqlite3.connect(path) as file:
            file.backup(memory)


def _worker(url: str) -> str:
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings_test",
           "JOBS_INLINE": "0"}  # fmt: skip
    env.pop("CACHE_URL", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "run_jobs", "--once"], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_request_answers_before_its_job_and_the_worker_process_runs_it(
    transactional_db: None, embedded: None, tmp_path: Path
) -> None:
    world = make_world()
    series = world.series
    # a record entered: its analysis waits (before, it ran before the page answered)
    game = game_enter_record(
        series=series, record=a_record(series.player1.name, series.player2.name, seed=3)
    )
    analysis = Job.objects.get(kind=JobKind.GAMES_ANALYSE)
    assert analysis.status == JobStatus.QUEUED and not GameAnalysis.objects.exists()
    started = time.monotonic()
    response = director(world).post(f"/tournaments/{world.tournament.pk}/jobs/verify_games/")
    answered = time.monotonic() - started
    assert response.status_code == 302
    verify = Job.objects.get(kind=JobKind.VERIFY_GAMES)
    assert response["Location"] == f"/jobs/{verify.pk}/"
    assert verify.status == JobStatus.QUEUED and verify.started_at is None  # not run
    assert answered < 5, answered
    page = director(world).get(f"/jobs/{verify.pk}/").content.decode()
    assert "job.js" in page  # the page polls until the worker has run it
    assert next_job() == verify.pk  # the user's job before the older analysis

    output = run_worker(tmp_path)

    verify.refresh_from_db()
    analysis.refresh_from_db()
    assert (verify.status, analysis.status) == (JobStatus.DONE, JobStatus.DONE), output
    assert verify.result is not None and verify.result["games"] == 1
    assert verify.started_at is not None and analysis.started_at is not None
    assert verify.started_at < analysis.started_at  # users' jobs first
    assert GameAnalysis.objects.filter(game=game).exists()
    assert f"{verify.pk}" in output and f"{analysis.pk}" in output


@pytest.mark.django_db
def test_the_same_job_started_twice_is_one_and_a_user_has_few_waiting(
    world: World, embedded: None, settings: Any
) -> None:
    settings.JOBS_QUEUED_PER_USER = 2
    boss = director(world)
    url = f"/tournaments/{world.tournament.pk}/jobs/verify_games/"
    first, again = boss.post(url), boss.post(url)
    assert first["Location"] == again["Location"]  # the one waiting, not a second
    assert Job.objects.filter(kind=JobKind.VERIFY_GAMES).count() == 1
    assert boss.post(f"/tournaments/{world.tournament.pk}/jobs/recompute/").status_code == 302
    refused = boss.post(
        f"/tournaments/{world.tournament.pk}/jobs/games_analyse/", HTTP_ACCEPT_LANGUAGE="cs"
    )
    assert refused.status_code == 429
    assert "máte už 2 úlohy ve frontě" in refused.content.decode()
    assert Job.objects.count() == 2
    # the API says it with its code; the upload pages too
    staff = Client(HTTP_ACCEPT_LANGUAGE="en")
    staff.force_login(world.users["staff"])
    for text in (PLAYERS, PLAYERS + "Hugo,,\n"):
        sent = staff.post("/jobs/import/players/", {"file": upload(text, "p.csv")})
        assert sent.status_code == 302
    page = staff.post("/jobs/import/players/", {"file": upload("name\nIda\n", "p.csv")})
    assert page.status_code == 429 and "2 jobs waiting already" in page.content.decode()
    archive = json.dumps(tournament_archive(world.tournament))
    answer = world.client("staff").post(
        "/api/tournaments/import/?async=1&copy=1", archive, content_type="application/json"
    )
    assert answer.status_code == 429 and answer.json()["code"] == "jobs-too-many"
    # once they have run, the user may start more
    Job.objects.update(status=JobStatus.DONE)
    assert boss.post(url).status_code == 302


@pytest.mark.django_db
def test_analysis_waits_behind_the_users_jobs(world: World, embedded: None) -> None:
    older = Job.objects.create(kind=JobKind.GAMES_ANALYSE, params={"tournament": 1})
    director(world).post(f"/tournaments/{world.tournament.pk}/jobs/recompute/")
    recompute = Job.objects.get(kind=JobKind.RECOMPUTE)
    assert older.pk < recompute.pk and next_job() == recompute.pk
    # make run's two workers: each takes its own kind of job only
    assert next_job("users") == recompute.pk and next_job("analysis") == older.pk
    Job.objects.filter(pk=recompute.pk).update(status=JobStatus.DONE)
    assert next_job("users") is None and next_job() == older.pk


def test_load_demo_leaves_the_analysis_to_the_worker_and_says_progress_in_a_log(
    transactional_db: None, embedded: None
) -> None:
    out, err = StringIO(), StringIO()  # not terminals: a log, make run's pipe
    with translation.override("en"):  # a command speaks the active language (cs by default)
        call_command("load_demo", stdout=out, stderr=err)
    assert Tournament.objects.count() == 3
    assert not GameAnalysis.objects.exists()  # nothing analysed inside the command
    waiting = Job.objects.filter(kind=JobKind.GAMES_ANALYSE, status=JobStatus.QUEUED)
    games = sum(len(job.params["games"]) for job in waiting)
    recorded = Game.objects.filter(series__tournament__variant="long").exclude(record="")
    assert games == recorded.count() > 100
    lines = err.getvalue().splitlines()
    assert lines and re.fullmatch(r".+: (\d+)/\1 \(100 %\)", lines[-1]), lines[-3:]
    assert "\r" not in err.getvalue() and "\x1b" not in err.getvalue()  # no bar's redraws
    assert f"{games} games are analysed in the background" in out.getvalue()


def test_plain_progress_writes_a_line_now_and_then_and_at_the_end() -> None:
    stream = StringIO()
    items = list(plain_progress(range(7), stream=stream, desc="games", every=0))
    assert items == list(range(7))
    lines = stream.getvalue().splitlines()
    assert lines[0] == "games: 1/7 (14 %)" and lines[-1] == "games: 7/7 (100 %)"
    quiet = StringIO()
    list(plain_progress(iter(range(3)), stream=quiet, desc="x", every=3600))
    assert quiet.getvalue() == "x: 3\n"  # no total known: the count


@pytest.fixture
def ann(db: None) -> User:
    return User.objects.create_user("ann", password="pw-ann")


def test_a_resigned_bot_game_answers_at_once_and_the_worker_analyses_it(
    ann: User, embedded: None
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ann)
    game = botgame_start(user=ann, level="beginner", colour="white")
    response = client.post(f"/play/{game.pk}/", {"version": game.version, "resign": "1"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == BotGameStatus.FINISHED and game.analysis is None
    job = Job.objects.get(kind=JobKind.BOTGAME_ANALYSE)
    assert job.status == JobStatus.QUEUED and job.params == {"botgame": game.pk}
    page = client.get(f"/play/{game.pk}/").content.decode()
    assert "the analysis runs in the background" in page
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    call_command("run_jobs", "--once", stdout=StringIO())
    # run in this process, the worker gives its signal handlers back: a process forked
    # later would otherwise raise the worker's Stop where it was meant to end
    assert {s: signal.getsignal(s) for s in handlers} == handlers
    game.refresh_from_db()
    assert game.analysis is not None and game.analysis["source"] == "net"
    assert Job.objects.get(pk=job.pk).status == JobStatus.DONE


def test_a_user_starts_only_so_many_bot_games_a_minute(
    ann: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit is in the service, counted in the shared cache: every door keeps it."""
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "botgame": "10/minute"}  # production's
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    client = Client(HTTP_ACCEPT_LANGUAGE="cs")
    client.force_login(ann)
    answers = [
        client.post("/play/", {"level": "beginner", "colour": "white"}).status_code
        for _ in range(12)
    ]
    assert answers[:10] == [302] * 10 and all(code >= 400 for code in answers[10:]), answers
    assert Room.objects.filter(a_user=ann, b_bot="beginner").count() == 10  # a room each
    refused = client.post("/play/", {"level": "beginner", "colour": "white"}, follow=True)
    assert "Příliš mnoho nových partií za krátkou dobu" in refused.content.decode()
    with pytest.raises(ApplicationError) as refusal:
        botgame_start(user=ann, level="beginner", colour="white")
    assert refusal.value.code == "bot-too-many"
