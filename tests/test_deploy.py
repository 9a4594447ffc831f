"""Safe to deploy (docs/deploy.md): settings that refuse to run unsafely,
`check --deploy` clean under the production environment of docs/deploy.md, a
Content-Security-Policy without inline scripts, lockout after failed sign-ins on every
door (login page, admin, /api/token/), own throttles for the token and verify endpoints,
errors logged with their path, styled error pages in Czech."""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.helpers import ROOT, run_django

SECRET = "a-long-random-production-key-" + "k7Qz" * 12


def documented_env() -> dict[str, str]:
    """The variables the `export` of docs/deploy.md's steps sets, as an operator copies
    them (its placeholder secret key ``...`` replaced by a long random one)."""
    text = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    steps = text.split("## Steps", 1)[1]
    block = steps.split("```sh", 1)[1].split("```", 1)[0].replace("\\\n", " ")
    line = next(line for line in block.splitlines() if line.startswith("export "))
    env = dict(word.split("=", 1) for word in shlex.split(line, comments=True)[1:])
    assert env["DJANGO_SECRET_KEY"] == "..."
    return env | {"DJANGO_SECRET_KEY": SECRET}


PRODUCTION_ENV = documented_env()


# --- settings -------------------------------------------------------------------------


def test_check_deploy_is_clean_with_the_production_environment():
    """Issue 22.10. Before: the guide's own exports gave W005 and W021 (exit 1)."""
    assert {"DJANGO_HSTS_SECONDS", "DJANGO_NUM_PROXIES", "DATABASE_URL"} <= set(PRODUCTION_ENV)
    result = run_django(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION_ENV
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_checks_a_kept_connection_before_reusing_it():
    code = (
        "from django.conf import settings as s; d = s.DATABASES['default'];"
        "print(d['ENGINE'], d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
    )
    result = run_django(["-c", code], **PRODUCTION_ENV)
    assert result.stdout.split() == ["django.db.backends.postgresql", "60", "True"], result.stderr


def test_debug_is_off_unless_asked_for():
    show = ["-c", "from django.conf import settings; print(settings.DEBUG)"]
    assert run_django(show, DJANGO_SECRET_KEY="x" * 50).stdout.strip() == "False"
    # a developer's machine (`make run`): debug on, and the dev key is allowed
    assert run_django(show, DJANGO_DEBUG="1").stdout.strip() == "True"


@pytest.mark.parametrize(
    "args", [["manage.py", "check"], ["-c", "import config.wsgi"]], ids=["manage", "wsgi"]
)
def test_no_secret_key_with_debug_off_refuses_to_start(args):
    result = run_django(args)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_an_unknown_cache_url_is_refused():
    result = run_django(["manage.py", "check"], DJANGO_DEBUG="1", CACHE_URL="memcached://x")
    assert result.returncode != 0 and "CACHE_URL" in result.stderr


# --- Content-Security-Policy ----------------------------------------------------------


def script_src(response) -> str:
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    return directives["script-src"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/admin/login/", "/api/docs/"])
def test_pages_have_a_csp_without_inline_scripts(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert "'unsafe-inline'" not in script_src(response)
    assert "'unsafe-eval'" not in script_src(response)
    html = response.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline <script>"
    assert not re.search(r"\son[a-z]+=", html), "an inline event handler"


def test_no_template_has_inline_scripts_or_handlers():
    """CSP blocks them: scripts come from static/js/ only (the print button had an
    onclick)."""
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text) or re.search(r"\son[a-z]+=", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders


# --- error pages and logging ----------------------------------------------------------


@pytest.mark.django_db
def test_404_page_is_styled_and_czech(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Stránka nenalezena" in html
    assert "css/site.css" in html and 'lang="cs"' in html


@pytest.mark.django_db
def test_403_page_is_styled_and_czech(client):
    client.force_login(User.objects.create_user("guest", password="pw-guest-1"))
    response = client.get("/tournaments/new/")  # needs tournaments.add_tournament
    assert response.status_code == 403
    html = response.content.decode()
    assert "Nepřístupné" in html and "css/site.css" in html


@pytest.mark.django_db
def test_a_500_is_logged_with_its_path_and_shows_a_czech_page(monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("tournaments.views.public.tournaments_visible", broken)
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/?from=test")
    assert response.status_code == 500
    assert "Chyba serveru" in response.content.decode()
    errors = [r for r in caplog.records if r.name == "django.request"]
    assert errors and "/" in errors[0].getMessage() and errors[0].exc_info is not None
    assert "Internal Server Error: /" in errors[0].getMessage()


def test_errors_are_logged_to_stderr():
    """The LOGGING dict sends Django's errors to stderr (gunicorn/systemd collect it)."""
    code = (
        "import django, logging; django.setup();"
        "logging.getLogger('django.request').error('Internal Server Error: /x/')"
    )
    result = run_django(["-c", code], DJANGO_DEBUG="0", DJANGO_SECRET_KEY="x" * 50)
    assert "ERROR django.request: Internal Server Error: /x/" in result.stderr


# --- lockout after failed sign-ins (django-axes) --------------------------------------


@pytest.fixture
def fast_lockout(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AXES_FAILURE_LIMIT = 3
    return User.objects.create_user("boss", password="right-pw-1", is_staff=True)


@pytest.mark.django_db
def test_login_page_locks_out_after_failures(fast_lockout):
    client = Client()
    codes = [
        client.post("/accounts/login/", {"username": "boss", "password": "nope"}).status_code
        for _ in range(3)
    ]
    assert codes == [200, 200, 429]  # the form again with an error; the limit locks
    response = client.post("/accounts/login/", {"username": "boss", "password": "right-pw-1"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_admin_login_locks_out_after_failures(fast_lockout):
    client = Client()
    for _ in range(3):
        client.post("/admin/login/", {"username": "boss", "password": "nope"})
    response = client.post("/admin/login/", {"username": "boss", "password": "right-pw-1"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_token_endpoint_locks_out_after_failures(fast_lockout):
    client = APIClient()
    for _ in range(3):
        client.post("/api/token/", {"username": "boss", "password": "nope"})
    response = client.post(
        "/api/token/", {"username": "boss", "password": "right-pw-1"}, HTTP_ACCEPT_LANGUAGE="cs"
    )
    assert response.status_code == 429  # as the pages say it, not 400 "wrong password"
    assert "token" not in response.json()
    assert response.json()["code"] == "locked-out"
    assert "zablokováno" in response.json()["detail"]


@pytest.mark.django_db
def test_the_right_password_works_before_any_lockout(fast_lockout):
    response = APIClient().post("/api/token/", {"username": "boss", "password": "right-pw-1"})
    assert response.status_code == 200 and response.json()["token"]


# --- own throttle scopes --------------------------------------------------------------


@pytest.fixture
def low_rates(settings, monkeypatch):
    rates = {
        "anon": "1000/minute",
        "user": "1000/minute",
        "token": "4/minute",
        "verify": "3/minute",
    }
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    settings.AXES_FAILURE_LIMIT = 1000  # the throttle, not the lockout, answers here


@pytest.mark.django_db
def test_token_endpoint_has_its_own_throttle(low_rates):
    client = APIClient()
    codes = [
        client.post("/api/token/", {"username": f"u{i}", "password": "x"}).status_code
        for i in range(6)
    ]
    assert codes == [400] * 4 + [429] * 2


@pytest.mark.django_db
def test_verify_endpoint_has_its_own_throttle(low_rates):
    client = APIClient()
    codes = [client.post("/api/verify/", {"record": ""}).status_code for _ in range(5)]
    assert codes[3:] == [429, 429] and 429 not in codes[:3]


# --- the lockout behind a proxy (issue 22.9) ------------------------------------------


def _proxy_settings(num_proxies: str) -> dict[str, object]:
    """The axes and DRF settings config/settings.py derives from DJANGO_NUM_PROXIES."""
    code = (
        "import json; from django.conf import settings as s; print(json.dumps({k: getattr(s, k)"
        " for k in ('AXES_IPWARE_PROXY_COUNT', 'AXES_IPWARE_META_PRECEDENCE_ORDER')}))"
    )
    result = run_django(["-c", code], DJANGO_SECRET_KEY="x" * 50, DJANGO_NUM_PROXIES=num_proxies)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def behind_one_proxy(settings, fast_lockout):
    """docs/deploy.md: nginx in front, DJANGO_NUM_PROXIES=1; nginx sends the address it
    saw appended to X-Forwarded-For, from 127.0.0.1."""
    for name, value in _proxy_settings("1").items():
        setattr(settings, name, value)
    settings.AXES_FAILURE_LIMIT = 5
    return fast_lockout


A, B, PROXY = "198.51.100.7", "203.0.113.20", "127.0.0.1"


def _sign_in(path: str, password: str, forwarded: str) -> int:
    client = APIClient() if path.startswith("/api/") else Client()
    data = {"username": "boss", "password": password}
    return client.post(path, data, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded).status_code


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/api/token/"])
def test_five_failures_from_a_lock_a_out_but_not_the_director_at_b(behind_one_proxy, path):
    """Before: python-ipware was missing and axes counted the proxy's address, so five
    wrong passwords from anywhere locked the director out everywhere."""
    failed = 400 if path.startswith("/api/") else 200
    codes = [_sign_in(path, "nope", A) for _ in range(5)]
    assert codes == [failed] * 4 + [429]
    assert _sign_in(path, "right-pw-1", A) == 429  # A is locked out, even with the password
    assert _sign_in(path, "right-pw-1", B) in (200, 302)  # the director at B is not


@pytest.mark.django_db
def test_an_address_written_into_the_header_by_the_client_is_not_believed(behind_one_proxy):
    """nginx appends the address it saw: "spoofed, A". A client who writes a new address
    into X-Forwarded-For at every try is still counted as A."""
    codes = [_sign_in("/accounts/login/", "nope", f"10.9.8.{i}, {A}") for i in range(5)]
    assert codes[-1] == 429
    assert _sign_in("/accounts/login/", "right-pw-1", f"10.0.0.99, {A}") == 429
    assert _sign_in("/accounts/login/", "right-pw-1", B) == 302


def test_without_a_proxy_the_header_is_ignored():
    assert _proxy_settings("0") == {
        "AXES_IPWARE_PROXY_COUNT": None, "AXES_IPWARE_META_PRECEDENCE_ORDER": ["REMOTE_ADDR"],
    }  # fmt: skip


# --- a PostgreSQL connection dropped between two requests (issue 22.10) ---------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.django_db
def test_a_connection_killed_between_requests_is_not_a_500(settings):
    """gunicorn keeps its worker's connection (CONN_MAX_AGE 60); PostgreSQL ends it (as a
    restart does) between two requests. Before: the second request answered 500."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (pg_terminate_backend)")
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_"))}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_SECRET_KEY": SECRET,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DATABASE_URL": url}  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", "1", "--bind",
         f"127.0.0.1:{port}"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    page = f"http://127.0.0.1:{port}/api/clubs/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                first = _get(page)
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "no gunicorn"
                time.sleep(0.3)
        assert first == 200
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            assert cursor.fetchall() == [(True,)]  # the worker's kept connection
        assert _get(page) == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
