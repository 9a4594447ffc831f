"""The Celery app of the background jobs (docs/jobs.md): `celery -A config worker`.

Its settings are Django's CELERY_* settings (config/settings.py); jobs keep their state
in the database, so there is no result backend."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
