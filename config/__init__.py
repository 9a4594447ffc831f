# The Celery app is loaded with Django (Celery's Django guide) so that @shared_task uses
# it; without Celery installed the jobs simply run inline (tournaments/jobs/).
try:
    from config.celery import app as celery_app
except ImportError:  # pragma: no cover
    celery_app = None  # type: ignore[assignment]

__all__ = ["celery_app"]
