"""The Celery app of the background jobs (docs/jobs.md): `celery -A config worker`.

Its settings are Django's CELERY_* settings (config/settings.py); jobs keep their state
in the database, so there is no result backend."""

from __future__ import annotations

import os

from celery import Celery
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# A worker started without -Q reads both queues: the users' jobs and the analysis
# (tournaments/jobs/runner.py::job_queue); `-Q nardy` or `-Q nardy-analysis` splits them.
_default = os.environ.get("CELERY_QUEUE", "nardy")
app.conf.task_queues = [
    Queue(_default),
    Queue(os.environ.get("CELERY_ANALYSIS_QUEUE", "") or f"{_default}-analysis"),
]
app.autodiscover_tasks()
