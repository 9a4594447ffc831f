"""WSGI entry point, e.g. `gunicorn config.wsgi`."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# What is loaded by now lives as long as the process (settings, models, the URLconf and
# every view module, loaded here on purpose): gc.freeze() takes it out of the collector's
# sight, so the full collections that a big page's allocations set off scan only what the
# request made. Without it one such collection costs a cold 128-player Swiss page tens of
# milliseconds (docs/performance.md).
get_resolver().url_patterns  # noqa: B018  (loads the views)
gc.collect()
gc.freeze()
