"""Settings for `make bench-web`: the site's own settings, plus a bare view as the floor.

The floor (`/_floor/`, ``HttpResponse("ok")``) goes through the same middleware as every
page, so a page's throughput divided by the floor's is what the page itself costs. The
API throttle rates are raised so that the load generator measures pages, not refusals.
"""

from config.settings import *  # noqa: F403
from config.settings import REST_FRAMEWORK

ROOT_URLCONF = "config.bench_urls"
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": dict.fromkeys(
        ("anon", "user", "token", "verify", "login"), "100000000/minute"
    ),
}
