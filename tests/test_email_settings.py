"""Email (docs/deploy.md, "password reset says an email went out, but none can"): the console
in development, SMTP from the environment in production."""

from __future__ import annotations

from tests.helpers import run_django

SHOW = [
    "-c",
    "from django.conf import settings as s; print(s.EMAIL_BACKEND.rsplit('.', 2)[-2], "
    "s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS, "
    "s.EMAIL_USE_SSL, s.DEFAULT_FROM_EMAIL)",
]


def clean(**env: str) -> dict[str, str]:
    return {"EMAIL_URL": "", "EMAIL_HOST": "", "EMAIL_BACKEND": "", **env}


def test_development_prints_mail_on_the_console() -> None:
    out = run_django(SHOW, **clean(DJANGO_DEBUG="1")).stdout.split()
    assert out[0] == "console"


def test_production_sends_by_smtp_from_email_url() -> None:
    env = clean(
        DJANGO_SECRET_KEY="x" * 50,
        EMAIL_URL="smtp://club%40example.org:p%3Ass@mail.example.org:587?tls=1",
        DEFAULT_FROM_EMAIL="turnaje@example.org",
    )
    out = run_django(SHOW, **env).stdout.split()
    assert out == ["smtp", "mail.example.org", "587", "club@example.org", "p:ss", "True",
                   "False", "turnaje@example.org"]  # fmt: skip


def test_production_sends_by_smtp_from_email_host_variables() -> None:
    env = clean(
        DJANGO_SECRET_KEY="x" * 50, EMAIL_HOST="smtp.example.org", EMAIL_PORT="465",
        EMAIL_HOST_USER="u", EMAIL_HOST_PASSWORD="pw", EMAIL_USE_SSL="1",
    )  # fmt: skip
    out = run_django(SHOW, **env).stdout.split()
    assert out[:7] == ["smtp", "smtp.example.org", "465", "u", "pw", "False", "True"]


def test_a_bad_email_url_is_refused() -> None:
    result = run_django(["manage.py", "check"], **clean(DJANGO_DEBUG="1", EMAIL_URL="http://x"))
    assert result.returncode != 0 and "EMAIL_URL" in result.stderr
