"""Django settings for the nardy tournament manager.

Everything that differs between a developer's machine and a server comes from the
environment (docs/deploy.md lists every variable): DJANGO_SECRET_KEY, DJANGO_DEBUG,
DJANGO_ALLOWED_HOSTS, DATABASE_URL, CACHE_URL and the DJANGO_* security switches.
Safe by default: DEBUG is off unless DJANGO_DEBUG=1 (`make run` sets it).
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.redis_cache import redis_cache_settings

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


DEBUG = env_flag("DJANGO_DEBUG")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip()
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set and DEBUG is off: refusing to start with a public "
            "key. Set DJANGO_SECRET_KEY to a long random value (python -c 'from "
            "django.core.management.utils import get_random_secret_key as k; print(k())'), "
            "or set DJANGO_DEBUG=1 on a developer's machine."
        )
    SECRET_KEY = "django-insecure-dev-only-do-not-use-in-production"
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if host.strip()
]

INSTALLED_APPS = [
    # first: its runserver serves the ASGI application, WebSockets included (make run)
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "channels",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # the database unreachable (a restart): 503 and Retry-After instead of 500
    "tournaments.views.unavailable.DatabaseUnavailableMiddleware",
    # last: turns a lockout flagged by the axes backend into the lockout page (429)
    "axes.middleware.AxesMiddleware",
]

# Lockout after failed logins (django-axes) on the login page, the admin login and
# /api/token/: all three call django.contrib.auth.authenticate(), which the axes backend
# watches. Attempts live in the database, which every worker and machine shares.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("DJANGO_LOGIN_COOLOFF_MINUTES", 15))
# A username from one address: a whole venue behind one NAT address is not locked out
# by one player's typos, and nobody can lock a director out from elsewhere.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429
# Behind DJANGO_NUM_PROXIES reverse proxies the client is the address the outermost one
# saw: the N-th entry of X-Forwarded-For from the right (as DRF's NUM_PROXIES counts for
# the throttles). ipware counts the proxies listed in the header, which the proxy nearest
# to us (REMOTE_ADDR) is not, hence one less; and it counts from the right, so what a
# client writes into the header itself is never believed.
NUM_PROXIES = env_int("DJANGO_NUM_PROXIES", 0)
AXES_IPWARE_PROXY_COUNT = NUM_PROXIES - 1 if NUM_PROXIES > 0 else None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if NUM_PROXIES > 0 else ["REMOTE_ADDR"]
)
# django-ipware's strict mode drops a header with more entries than proxies and falls back
# to REMOTE_ADDR (the proxy: one address for everybody); the entry our proxy appended, at
# the right end, is the client's whatever the client wrote before it.
IPWARE_STRICT = False

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context_processors.waiting_confirmations",
                "tournaments.context_processors.live_interval",
                # after the builtin csrf one: the token's placeholder in a public copy
                "tournaments.caching.pages.placeholder_token",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# SQLite for development; set DATABASE_URL (postgres://...) for PostgreSQL.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        # a connection kept from an earlier request is checked before it is reused: after
        # a PostgreSQL restart the request opens a new one instead of answering 500
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # make run's threads (the server's, the sockets' pool, the jobs' worker) write beside
    # each other: a transaction takes SQLite's write lock as it begins (BEGIN IMMEDIATE)
    # and waits for it up to 20 s; a deferred one that tried to write after reading
    # failed at once ("database is locked") when another connection was writing
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )

# Throttle counters must be shared by every worker and machine: Redis in production
# (CACHE_URL=redis://host:6379/0), local memory for `make run` and the tests' default.
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
CACHES: dict[str, dict[str, Any]]
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": redis_cache_settings(
            CACHE_URL,
            prefix=os.environ.get("CACHE_KEY_PREFIX", "nardy"),
            # a Redis that answers nobody fails the call after this: the site goes on
            # without the cache (docs/caching.md, "When the cache server fails")
            timeout=float(os.environ.get("CACHE_TIMEOUT_SECONDS", "0.5")),
        )
    }
elif CACHE_URL in {"", "locmem://"}:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    raise ImproperlyConfigured(f"CACHE_URL must be redis://host:port/db, not {CACHE_URL!r}")


# The game rooms' channel layer (docs/online.md): Redis in production, so that every ASGI
# process hears every room (CHANNEL_LAYER_URL=redis://host:6379/1); in memory for `make
# run` and the tests (one process). Nothing a game needs lives only in the layer, so it
# is Redis's pub/sub: a message reaches the processes listening at that moment and is not
# queued (no capacity, no expiry), one PUBLISH a change, where the list layer kept each
# group in a sorted set and pushed every message onto each socket's own list.
def _channel_layers(url: str) -> dict[str, dict[str, Any]]:
    """The layer CHANNEL_LAYER_URL names. Redis's pub/sub channels are the server's, not
    a database's: the URL's database number goes into the channels' prefix, so that two
    sites (or benchmarks) on one Redis with different numbers still do not hear each
    other's rooms (room ids repeat across databases)."""
    from urllib.parse import parse_qs, urlsplit

    if url in {"", "memory://"}:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"CHANNEL_LAYER_URL must be redis://host:port/db, not {url!r}")
    parts = urlsplit(url)
    path = parts.path.strip("/") if parts.scheme != "unix" else ""
    db = parse_qs(parts.query).get("db", [path])[-1] or "0"  # as redis-py reads it
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": f"asgi.db{db}."},
        }
    }


CHANNEL_LAYER_URL = os.environ.get("CHANNEL_LAYER_URL", "").strip()
CHANNEL_LAYERS = _channel_layers(CHANNEL_LAYER_URL)
# In front of it, each process keeps the public pages it served last (tournaments/caching/pages.py):
# their keys carry the version, so a copy here is never stale; it saves the round trip
# to Redis, and is kept unpickled (config/local_objects.py).
CACHES["local"] = {
    "BACKEND": "config.local_objects.LocalObjects",
    "LOCATION": "public-pages",
    "TIMEOUT": 600,
    "OPTIONS": {"MAX_ENTRIES": 200},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "cs"
LANGUAGES = [
    ("cs", "Čeština"),
    ("en", "English"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Prague"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"
LOGOUT_REDIRECT_URL = "tournaments:home"

# The REST API (tournaments/api/): session and token authentication, public reads of
# published tournaments, throttling for anonymous and signed-in clients.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.ObjectJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": [
        # DRF's own, counted under a lock so that workers sharing Redis agree
        "tournaments.api.throttles.AnonThrottle",
        "tournaments.api.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "120/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "600/minute"),
        # own scopes (tournaments/api/files.py): guessing passwords, heavy verification
        "token": os.environ.get("API_THROTTLE_TOKEN", "10/minute"),
        "verify": os.environ.get("API_THROTTLE_VERIFY", "30/minute"),
        # the sign-up pages (views/accounts.py): from one client, and mails to one address
        "signup": os.environ.get("SIGNUP_THROTTLE", "30/hour"),
        "signup_mail": os.environ.get("SIGNUP_MAIL_THROTTLE", "3/hour"),
        # games against the bot one user starts (views/play.py)
        "botgame": os.environ.get("BOT_GAMES_THROTTLE", "10/minute"),
    },
    # behind a reverse proxy the client's address is in X-Forwarded-For
    "NUM_PROXIES": NUM_PROXIES or None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Nardy tournaments API",
    "DESCRIPTION": "Clubs, players, tournaments, series, games and records of long nardy, "
    "short backgammon and Lurč; verification of game records.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # documentation pages from local assets: no internet at the venue
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # an operation opened writes its address (#/tag/operation), and that address opens it
    # (static/js/api_docs.js takes the link out of the toggle button: a control nested in
    # a control); plain code examples rather than a dark highlighting theme
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "syntaxHighlight": False},
    # Two models have a "kind": name each choice set after its model.
    "ENUM_NAME_OVERRIDES": {
        "GameKindEnum": "tournaments.models.series.GameKind",
        "JobKindEnum": "tournaments.models.job.JobKind",
        # a submission's and a series report's status (pending, confirmed, rejected)
        "SubmissionStatusEnum": "tournaments.models.submission.SubmissionStatus",
    },
}


# Email (password reset, invitations). Development (DJANGO_DEBUG=1) prints mails on the
# console unless an SMTP server is given; production sends through SMTP, from EMAIL_URL
# (smtp://user:password@host:587, smtps:// for TLS on connect, ?tls=1 for STARTTLS) or
# EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS.
def _email_from_url(url: str) -> dict[str, object]:
    from urllib.parse import parse_qs, unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme not in {"smtp", "smtps", "submission"}:
        raise ImproperlyConfigured(f"EMAIL_URL must start with smtp:// or smtps://, not {url!r}")
    query = {k: v[-1].lower() for k, v in parse_qs(parts.query).items()}
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured("EMAIL_URL has a port that is not a number") from None
    return {
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": port or {"smtps": 465, "submission": 587}.get(parts.scheme, 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_SSL": parts.scheme == "smtps" or query.get("ssl") in {"1", "true"},
        "EMAIL_USE_TLS": parts.scheme == "submission" or query.get("tls") in {"1", "true"},
    }


EMAIL_URL = os.environ.get("EMAIL_URL", "").strip()
if EMAIL_URL:
    globals().update(_email_from_url(EMAIL_URL))
else:
    EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost").strip() or "localhost"
    EMAIL_PORT = env_int("EMAIL_PORT", 25)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS")
    EMAIL_USE_SSL = env_flag("EMAIL_USE_SSL")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20)
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "").strip() or (
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG and not (EMAIL_URL or os.environ.get("EMAIL_HOST"))
    else "django.core.mail.backends.smtp.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or "webmaster@localhost"
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Security headers and cookies. Production turns these on through the environment
# (docs/deploy.md); `manage.py check --deploy` is clean with them.
SECURE_SSL_REDIRECT = env_flag("DJANGO_SECURE_SSL_REDIRECT")
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD")
SESSION_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES")
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
if env_flag("DJANGO_BEHIND_TLS_PROXY"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts and styles from our own static files only,
# never inline. The API documentation pages relax it for themselves
# (tournaments/api/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

# Errors with their request path ("Internal Server Error: /tournaments/3/") go to stderr,
# where gunicorn and systemd collect them.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["stderr"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        # Django's own handlers (console only with DEBUG, mail to nobody) give way to root's
        "django": {"handlers": [], "level": "INFO", "propagate": True},
    },
}

# Background jobs (tournaments/jobs/, docs/jobs.md): Celery on Redis or RabbitMQ when
# CELERY_BROKER_URL is set (redis://127.0.0.1:6379/0, amqp://guest:guest@127.0.0.1:5672//);
# unset, jobs wait in the database for `manage.py run_jobs` (make run starts it), or run
# inline in their request with JOBS_INLINE=1 (the tests). A job's state is in the
# database: no result backend. Redis redelivers a message not acknowledged within
# visibility_timeout, so that is kept above the time limit.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "nardy")
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = int(os.environ.get("JOBS_TIME_LIMIT", "1800"))
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 60
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 2 * CELERY_TASK_TIME_LIMIT}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# analysis on a queue of its own, behind the users' jobs (default: CELERY_QUEUE + "-analysis")
CELERY_ANALYSIS_QUEUE = os.environ.get("CELERY_ANALYSIS_QUEUE", "")
JOBS_INLINE = os.environ.get("JOBS_INLINE", "0") == "1"
# jobs one user may have waiting at once; the same job started again is the one waiting
JOBS_QUEUED_PER_USER = env_int("JOBS_QUEUED_PER_USER", 5)
JOBS_INPUT_MAX_BYTES = int(os.environ.get("JOBS_INPUT_MAX_BYTES", str(20 * 2**20)))
# docs/analysis.md: games of a variant with an evaluator are analysed when stored (a job);
# ANALYSIS_PLY=1 judges every play with the look-ahead (about five times slower).
ANALYSIS_ON_STORE = os.environ.get("ANALYSIS_ON_STORE", "1") != "0"
ANALYSIS_PLY = int(os.environ.get("ANALYSIS_PLY", "0"))
# rollouts asked on a game's page (tournaments/services/rollouts.py): the games a play is
# offered (ROLLOUT_GAMES, at most ROLLOUT_GAMES_MAX), the best plays by 0-ply rolled out
# beside the played one, the turns before the net values a game (0: played out), and the
# rollouts one user may have waiting or running
ROLLOUT_GAMES_MAX = env_int("ROLLOUT_GAMES_MAX", 1296)
ROLLOUT_CANDIDATES = env_int("ROLLOUT_CANDIDATES", 3)
ROLLOUT_TRUNCATE = env_int("ROLLOUT_TRUNCATE", 0)
ROLLOUTS_QUEUED_PER_USER = env_int("ROLLOUTS_QUEUED_PER_USER", 2)
# a running job's process touches its row every JOBS_HEARTBEAT_SECONDS; a running job not
# touched for JOBS_STALE_SECONDS is shown as interrupted (its worker died), whatever the
# broker does with its message (tournaments/jobs/heartbeat.py)
JOBS_HEARTBEAT_SECONDS = env_int("JOBS_HEARTBEAT_SECONDS", 15)
JOBS_STALE_SECONDS = env_int("JOBS_STALE_SECONDS", 60)

# Untrusted text (docs/deploy.md): an upload's size, and what one record may hold before
# the engine's reader refuses it (HTTP 413 naming the limit). None switches a limit off.
NARDY_MAX_UPLOAD_BYTES = env_int("NARDY_MAX_UPLOAD_BYTES", 5 * 2**20)
NARDY_RECORD_LIMITS = {
    "max_record_chars": env_int("NARDY_MAX_RECORD_CHARS", 1_000_000),
    "max_tags": env_int("NARDY_MAX_TAGS", 100),
    "max_line_chars": env_int("NARDY_MAX_LINE_CHARS", 10_000),
    "max_games": env_int("NARDY_MAX_GAMES", 1_000),
}
