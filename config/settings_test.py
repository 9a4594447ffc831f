"""Settings for the tests and the type checker: the real settings (DEBUG off, as in
production) with a secret key that is good for nothing but tests."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-secret-" + "x" * 40)

from config.settings import *  # noqa: F403
