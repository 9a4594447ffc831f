"""Plain helpers of the jobs' tests (test_jobs.py, test_jobs_interrupted.py): pages as a
role, uploads, the job a response started, and what a worker process needs."""

from __future__ import annotations

import io
import socket
from pathlib import Path
from typing import Any

from django.db import connection
from django.test import Client

from tests.tournaments.helpers import World
from tournaments.models import Job

ROOT = Path(__file__).resolve().parents[2]

PLAYERS = "name,club,rating\nFilip,Brno,1510\nFilip,Brno,1520\nGustav,Ostrava,\n"


def page(world: World, role: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")  # the tests read English words
    client.force_login(world.users[role])
    return client


def upload(text: str | bytes, name: str = "file.txt") -> io.BytesIO:
    data = io.BytesIO(text.encode("utf-8") if isinstance(text, str) else text)
    data.name = name
    return data


def started(response: Any) -> Job:
    assert response.status_code == 302, response.content.decode()[:2000]
    job = Job.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[1]))
    assert response["Location"] == f"/jobs/{job.pk}/"
    return job


def reachable(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def worker_database_url() -> str:
    """The pytest test database as a DATABASE_URL, for the worker's process."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
