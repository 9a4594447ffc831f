"""What an attacker's probe found in the accounts: a deactivated account (staff too) that
never signed in on a page was reactivated by a confirmation link sent again, a stranger's
sign-up cleared such an account to take its username, and look-alike usernames ("admin"
with a Cyrillic "a") were accepted. Unconfirmed sign-ups are now marked as such."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail, signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.helpers import EN
from tournaments.models.people import PendingSignup
from tournaments.services.accounts import CONFIRM_DAYS, SALT
from tournaments.services.usernames import username_scripts, username_skeleton

pytestmark = pytest.mark.django_db
SIGNUP = reverse("tournaments:signup")
AGAIN = reverse("tournaments:signup_again")
SECRET = "a-long-secret-1"


@pytest.fixture(autouse=True)
def _fast(no_throttle: None) -> None:
    """Fast hashing, large rates and an empty cache (conftest.py)."""


def _confirm_link(user: User) -> str:
    token = signing.dumps({"u": user.pk, "e": user.email.casefold()}, salt=SALT)
    return reverse("tournaments:signup_confirm", args=[token])


def _sign_up(username: str, email: str = "new@example.org") -> Any:
    form = {"username": username, "email": email, "password": SECRET}
    return Client().post(SIGNUP, form, **EN)


def test_the_api_token_sign_in_sets_the_last_sign_in_as_the_pages_do() -> None:
    user = User.objects.create_user("robot", password=SECRET)
    answer = Client().post("/api/token/", {"username": "robot", "password": SECRET}, **EN)
    assert answer.status_code == 200 and answer.json()["token"]
    user.refresh_from_db()
    assert user.last_login is not None
    again = Client().post("/api/token/", {"username": "robot", "password": SECRET}, **EN)
    assert again.json()["token"] == answer.json()["token"]  # the same token, as DRF's


@pytest.mark.parametrize("role", ["player", "staff", "superuser"])
def test_a_deactivated_account_that_never_signed_in_on_a_page_stays_deactivated(
    role: str,
) -> None:
    """Before: its owner's mailbox got a confirmation link that reactivated and signed it in."""
    user = User.objects.create_user(
        "robot", email="robot@example.org", password=SECRET,
        is_staff=role != "player", is_superuser=role == "superuser", is_active=False,
    )  # fmt: skip
    sent = Client().post(AGAIN, {"email": "ROBOT@example.org"}, **EN)
    assert sent.status_code == 302  # says what it says to any address
    assert not any("/accounts/confirm/" in message.body for message in mail.outbox)
    visitor = Client()
    link = _confirm_link(user)  # a link of the kind the mail carried
    assert visitor.get(link, **EN).status_code == 400
    assert visitor.post(link, **EN).status_code == 400
    user.refresh_from_db()
    assert not user.is_active
    assert "_auth_user_id" not in visitor.session


def test_a_sign_up_does_not_clear_a_deactivated_account_to_take_its_username() -> None:
    """Before: after three days a stranger's sign-up deleted it and took the username."""
    User.objects.create_user("robot", email="robot@example.org", is_active=False)
    User.objects.filter(username="robot").update(
        date_joined=timezone.now() - timedelta(days=CONFIRM_DAYS + 1)
    )
    answer = _sign_up("Robot", "stranger@example.org")
    assert answer.status_code == 400
    assert list(User.objects.values_list("username", "email")) == [("robot", "robot@example.org")]


def test_an_expired_sign_up_is_still_cleared_and_a_confirmed_one_is_unmarked() -> None:
    assert _sign_up("nova", "typo@example.org").status_code == 302
    assert PendingSignup.objects.filter(user__username="nova").exists()
    User.objects.filter(username="nova").update(
        date_joined=timezone.now() - timedelta(days=CONFIRM_DAYS + 1)
    )
    assert _sign_up("nova", "nova@example.org").status_code == 302
    user = User.objects.get(username="nova")
    assert user.email == "nova@example.org"
    found = re.search(r"https?://[^/\s]+(/\S+)", str(mail.outbox[-1].body))
    assert found
    path = found.group(1)
    assert Client().post(path).status_code == 302
    assert not PendingSignup.objects.filter(user=user).exists()
    User.objects.filter(pk=user.pk).update(is_active=False, last_login=None)  # staff deactivate
    mail.outbox.clear()
    assert Client().post(AGAIN, {"email": "nova@example.org"}, **EN).status_code == 302
    assert not any("/accounts/confirm/" in m.body for m in mail.outbox)


MESSAGES = {
    "username-confusable": "looks like an existing one",
    "username-mixed-scripts": "in one alphabet",
    "username-taken": "is taken",
}


@pytest.mark.parametrize(
    ("taken", "username", "code"),
    [
        ("admin", "\u0430dmin", "username-mixed-scripts"),  # a Cyrillic a
        ("admin", "ADM\u0406N", "username-mixed-scripts"),  # a Cyrillic I among Latin
        ("admin", "\uff41dmin", "username-taken"),  # a full-width "a" (NFKC)
        ("\u0430\u0501\u043c\u0456\u043f", "admin", "username-confusable"),  # all Cyrillic
        ("\u0430\u0501\u043c\u0456\u043f", "\u0430\u0501\u043c\u0456n", "username-mixed-scripts"),
        ("nova", "n\u03bfva", "username-mixed-scripts"),  # Greek omicron
        ("olga", "0lga", "username-confusable"),
        ("", "\u0430\u0434\u043c\u0438\u043dx", "username-mixed-scripts"),
    ],
)
def test_a_username_that_looks_like_another_is_refused(
    taken: str, username: str, code: str
) -> None:
    if taken:
        User.objects.create_user(taken, email=f"{taken}@example.org")
    form = {"username": username, "email": "new@example.org", "password": SECRET}
    page = Client().post(SIGNUP, form, **EN)
    assert page.status_code == 400
    assert not User.objects.filter(email="new@example.org").exists()
    text = page.content.decode()
    assert MESSAGES[code] in text
    api = Client().post("/api/token/", {"username": username, "password": SECRET}, **EN)
    assert api.status_code == 400
    from tournaments.services.accounts import account_check
    from tournaments.services.errors import ApplicationError

    with pytest.raises(ApplicationError) as refused:
        account_check(username=username, password=SECRET)
    assert refused.value.code == code


def test_one_script_usernames_that_look_like_nobody_are_accepted() -> None:
    User.objects.create_user("admin")
    for number, name in enumerate(["иван", "Νίκος", "nová", "admin2", "jana.k"]):
        answer = _sign_up(name, f"u{number}@example.org")
        assert answer.status_code == 302, name


def test_the_skeleton_and_the_scripts() -> None:
    assert username_skeleton("\u0410dmin") == username_skeleton("admin")
    assert username_skeleton("\u03c1aypal") == username_skeleton("paypal")
    assert username_skeleton("nova") != username_skeleton("nová")
    assert username_scripts("jana_2") == {"LATIN"}
    assert username_scripts("\u0430dmin") == {"LATIN", "CYRILLIC"}
    assert username_scripts("12-34") == set()
