"""Settings for the tests and the type checker: the real settings (DEBUG off, as in
production) with a secret key that is good for nothing but tests."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-secret-" + "x" * 40)

from config.settings import *  # noqa: F403

# pytest-xdist (`make check` runs the tests in parallel): each worker gets its own Redis
# database, since every test starts by emptying the cache (tests/conftest.py) and Redis
# empties a whole database at once. Worker gwN uses CACHE_URL's database + N, as
# pytest-django gives each worker its own test database (test_<name>_gwN).
from config.settings import CACHES
from config.xdist import worker_cache_location

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and CACHES["default"]["BACKEND"].endswith("RedisCache"):
    CACHES["default"]["LOCATION"] = worker_cache_location(
        CACHES["default"]["LOCATION"], int(_worker[2:])
    )

# Jobs run inline in the request that starts them, through the same job_run a worker
# calls (tests/tournaments/test_jobs_worker.py starts the database's worker for real).
JOBS_INLINE = True

# A bad play's confirming rollout costs seconds of CPU (a random mover's game has dozens):
# tests of the analysis leave it off, and tests/tournaments/test_analysis_depth.py runs it.
ANALYSIS_CONFIRM = False
# Tests start many games against the bot; tests/tournaments/test_jobs_worker.py sets the
# real limit back to check it.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {
        **REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],  # type: ignore[dict-item]  # noqa: F405
        "botgame": "100000/minute",
    },
}
