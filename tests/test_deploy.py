"""Safe to deploy (docs/deploy.md): settings that refuse to run unsafely,
`check --deploy` clean under the production environment of docs/deploy.md, a
Content-Security-Policy without inline scripts, lockout after failed sign-ins on every
door (login page, admin, /api/token/), own throttles for the token and verify endpoints,
errors logged with their path, styled error pages in Czech."""

from __future__ import annotations

import logging
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.helpers import ROOT, run_django

# The production environment documented in docs/deploy.md.
PRODUCTION_ENV = {
    "DJANGO_SECRET_KEY": "a-long-random-production-key-" + "k7Qz" * 12,
    "DJANGO_ALLOWED_HOSTS": "nardy.example.org",
    "DJANGO_SECURE_SSL_REDIRECT": "1",
    "DJANGO_HSTS_SECONDS": "31536000",
    "DJANGO_HSTS_INCLUDE_SUBDOMAINS": "1",
    "DJANGO_HSTS_PRELOAD": "1",
    "DJANGO_SECURE_COOKIES": "1",
    "DJANGO_BEHIND_TLS_PROXY": "1",
}


# --- settings -------------------------------------------------------------------------


def test_check_deploy_is_clean_with_the_production_environment():
    result = run_django(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION_ENV
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


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
