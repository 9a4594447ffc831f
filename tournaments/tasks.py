# mypy: disallow-untyped-decorators=False
"""Celery tasks (found by config/celery.py's autodiscovery); each only calls a service."""

from __future__ import annotations

from celery import shared_task

from tournaments.jobs import job_run


@shared_task(name="tournaments.run_job", ignore_result=True)
def run_job(job_id: int) -> str:
    return job_run(job_id=job_id)
