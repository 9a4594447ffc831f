"""Accounts without a command line (docs/director_rounds.md, "Accounts"), through the
pages: the sign-up confirmed by the mailed link, in Czech and English; a taken username
or address, expired, reused and forged links, hostile input and the mail throttle; the
staff's page that grants and revokes the right to create tournaments."""

from __future__ import annotations

import re
import threading
import time
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.core import mail, signing
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.throttling import SimpleRateThrottle

from tests.tournaments.helpers import EN
from tests.tournaments.pages_data import director, round_robin
from tournaments.models import Player
from tournaments.selectors.access import may_create_tournaments
from tournaments.selectors.accounts import accounts_matching, may_create
from tournaments.services import accounts as accounts_service
from tournaments.services.accounts import CONFIRM_DAYS
from tournaments.services.errors import ApplicationError
from tournaments.services.invitations import invitation_token

pytestmark = pytest.mark.django_db
SIGNUP = reverse("tournaments:signup")
AGAIN = reverse("tournaments:signup_again")
ACCOUNTS = reverse("tournaments:accounts")
SECRET = "a-long-secret-1"
FORM = {"username": "nova", "email": "nova@example.org", "password": SECRET}


@pytest.fixture(autouse=True)
def _fast(no_throttle: None) -> None:
    """Fast hashing, large rates and an empty cache (conftest.py)."""


def _link(body: object) -> str:
    found = re.search(r"https?://[^/\s]+(/\S+)", str(body))
    assert found, body
    return found.group(1)


def _sign_up(client: Client, language: str = "en", *, follow: bool = False, **data: str) -> Any:
    form = {**FORM, **data}
    return client.post(SIGNUP, form, follow=follow, HTTP_ACCEPT_LANGUAGE=language)


def _signed_in_as(client: Client) -> str:
    user = client.get(reverse("tournaments:home")).wsgi_request.user
    return user.get_username() if user.is_authenticated else ""


def _signs_in(username: str) -> bool:
    """The login page takes the password (it redirects)."""
    form = {"username": username, "password": SECRET}
    return Client().post(reverse("login"), form).status_code == 302


def _add_tournament() -> Permission:
    return Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")


@pytest.mark.parametrize(
    ("language", "subject", "button", "welcome"),
    [
        ("en", "Confirm your account", "Confirm the account and sign in", "is confirmed"),
        ("cs", "Potvrďte svůj účet", "Potvrdit účet a přihlásit se", "je potvrzen"),
    ],
)
def test_a_sign_up_is_confirmed_by_the_mailed_link_and_signs_in(
    client: Client, language: str, subject: str, button: str, welcome: str
) -> None:
    login_page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'href="{SIGNUP}"' in login_page
    assert client.get(SIGNUP, HTTP_ACCEPT_LANGUAGE=language).status_code == 200
    response = _sign_up(client, language)
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournaments:signup_sent"
    )
    user = User.objects.get(username="nova")
    assert not user.is_active and user.email == "nova@example.org"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["nova@example.org"]
    assert mail.outbox[0].subject == subject
    # not confirmed yet: the password does not sign in
    assert not _signs_in("nova")
    path = _link(mail.outbox[0].body)
    visitor = Client()
    page = visitor.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200 and button in page.content.decode()
    assert _signed_in_as(visitor) == ""  # opening the link confirms nothing
    done = visitor.post(path, HTTP_ACCEPT_LANGUAGE=language, follow=True)
    assert done.status_code == 200 and welcome in done.content.decode()
    assert _signed_in_as(visitor) == "nova"
    assert User.objects.get(username="nova").is_active
    assert _signs_in("nova")
    # the link works once
    again = Client().post(path, **EN)
    assert again.status_code == 400 and "has been used" in again.content.decode()
    assert reverse("login") in again.content.decode()


def test_the_header_offers_the_sign_up_to_visitors_and_the_accounts_page_to_staff() -> None:
    assert f'href="{SIGNUP}"' in Client().get("/", **EN).content.decode()
    plain, staff = Client(), Client()
    plain.force_login(User.objects.create_user("plain", password=SECRET))
    staff.force_login(User.objects.create_user("boss", password=SECRET, is_staff=True))
    assert ACCOUNTS not in plain.get("/", **EN).content.decode()
    assert SIGNUP not in plain.get("/", **EN).content.decode()
    assert f'href="{ACCOUNTS}"' in staff.get("/", **EN).content.decode()


def test_a_taken_username_is_refused_whatever_its_case(client: Client) -> None:
    User.objects.create_user("Nova", password=SECRET)
    response = _sign_up(client, username="nOVA")
    assert response.status_code == 400 and "This username is taken." in response.content.decode()
    czech = _sign_up(client, "cs", username="nova")
    assert "Toto uživatelské jméno je obsazené." in czech.content.decode()
    assert User.objects.count() == 1 and not mail.outbox


def test_an_address_with_an_account_is_not_revealed_and_its_owner_is_told(
    client: Client,
) -> None:
    User.objects.create_user("jana", email="jana@example.org", password=SECRET)
    fresh = _sign_up(Client(), email="fresh@example.org", follow=True)
    known = _sign_up(client, username="jana2", email="JANA@example.org", follow=True)
    # the visitor reads the same page for a known address as for a new one
    assert known.status_code == fresh.status_code == 200
    assert known.redirect_chain == fresh.redirect_chain
    assert known.content == fresh.content
    assert not User.objects.filter(username="jana2").exists()
    to_jana = [m for m in mail.outbox if m.to == ["jana@example.org"]]
    assert len(to_jana) == 1 and "jana" in to_jana[0].body
    assert reverse("password_reset") in to_jana[0].body
    assert "/accounts/confirm/" not in to_jana[0].body


def test_an_unconfirmed_account_is_sent_a_new_link_on_a_second_sign_up(client: Client) -> None:
    _sign_up(client)
    _sign_up(Client(), username="other", email="NOVA@example.org")
    assert not User.objects.filter(username="other").exists()
    assert len(mail.outbox) == 2
    path = _link(mail.outbox[1].body)
    assert Client().post(path).status_code == 302
    assert User.objects.get(username="nova").is_active


def test_an_expired_link_says_so_and_a_new_one_is_sent(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    _sign_up(client)
    path = _link(mail.outbox[0].body)
    later = time.time() + 4 * 86400
    monkeypatch.setattr("django.core.signing.time.time", lambda: later)
    expired = Client().get(path, **EN)
    html = expired.content.decode()
    assert expired.status_code == 400 and "has expired" in html and AGAIN in html
    assert Client().post(path).status_code == 400
    assert not User.objects.get(username="nova").is_active
    sent = Client().post(AGAIN, {"email": "nova@example.org"}, **EN)
    assert sent.status_code == 302 and len(mail.outbox) == 2
    assert Client().post(_link(mail.outbox[1].body)).status_code == 302
    assert User.objects.get(username="nova").is_active


def test_sending_again_to_an_unknown_address_says_the_same_and_mails_nothing() -> None:
    answer = Client().post(AGAIN, {"email": "nobody@example.org"}, follow=True, **EN)
    assert answer.status_code == 200 and "Check your email" in answer.content.decode()
    assert not mail.outbox


def test_a_deactivated_account_is_not_reactivated_by_its_old_link(client: Client) -> None:
    _sign_up(client)
    path = _link(mail.outbox[0].body)
    assert Client().post(path).status_code == 302
    User.objects.filter(username="nova").update(is_active=False)  # the admin deactivated
    assert Client().post(path).status_code == 400
    assert not User.objects.get(username="nova").is_active


CONFIRMATION = "tournaments.account-confirmation"
# Signed tokens are made in the test, not here: they carry the time they were signed, and
# pytest-xdist's workers must collect the same test ids (they collect at other seconds).
FORGED: dict[str, str | tuple[object, str]] = {
    "garbage": "garbage",
    "long": "x" * 5000,
    "escapes": "%00%0a",
    "unicode": "é€‮",
    "other-salt": ({"u": 1, "e": "nova@example.org"}, "another.salt"),
    "id-as-text": ({"u": "1", "e": "nova@example.org"}, CONFIRMATION),
    "a-list": ([1, 2], CONFIRMATION),
    "other-address": ({"u": 1, "e": "other@example.org"}, CONFIRMATION),
}


@pytest.mark.parametrize("case", list(FORGED))
def test_a_forged_confirmation_link_is_400_and_confirms_nothing(client: Client, case: str) -> None:
    forged = FORGED[case]
    token = forged if isinstance(forged, str) else signing.dumps(forged[0], salt=forged[1])
    _sign_up(client)
    url = reverse("tournaments:signup_confirm", args=["placeholder"]).replace("placeholder", token)
    for answer in (Client().get(url, **EN), Client().post(url, **EN)):
        assert answer.status_code in (400, 404)
        if answer.status_code == 400:
            assert "not valid" in answer.content.decode()
    assert not User.objects.get(username="nova").is_active


@pytest.mark.parametrize(
    "changes",
    [
        {"username": "n" * 151},
        {"username": "nov\x00a"},
        {"username": "nov\x07a"},
        {"username": "no va"},
        {"username": "\u202enova"},
        {"username": "   "},
        {"email": "x" * 250 + "@example.org"},
        {"email": "nova@exa\x00mple.org"},
        {"email": "not an address"},
        {"email": ""},
        {"password": "1234"},
        {"password": "se\x00cret-" * 3},
        {"password": "p" * 5000},
        {"password": "nova@example.org"},
    ],
)
def test_hostile_sign_up_input_is_a_form_error(client: Client, changes: dict[str, str]) -> None:
    response = client.post(SIGNUP, {**FORM, **changes}, **EN)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not User.objects.exists() and not mail.outbox


def test_mails_to_one_address_are_throttled(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "signup_mail": "3/hour"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    assert _sign_up(client).status_code == 302
    for _ in range(2):
        assert Client().post(AGAIN, {"email": "nova@example.org"}).status_code == 302
    assert len(mail.outbox) == 3
    refused = Client().post(AGAIN, {"email": "nova@example.org"}, **EN)
    assert refused.status_code == 429 and "Too many requests" in refused.content.decode()
    czech = _sign_up(Client(), "cs", username="jiny", email="NOVA@example.org")
    assert czech.status_code == 429 and "Příliš mnoho" in czech.content.decode()
    assert len(mail.outbox) == 3 and User.objects.count() == 1
    # another address is not held back
    assert _sign_up(Client(), username="jiny", email="jiny@example.org").status_code == 302


# -- the staff's page ------------------------------------------------------------------


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("staff", password=SECRET, is_staff=True))
    return client


def _access(pk: int, action: str) -> str:
    return reverse("tournaments:account_access", args=[pk, action])


def test_only_staff_see_the_accounts_page() -> None:
    assert Client().get(ACCOUNTS).status_code == 302
    plain = Client()
    plain.force_login(User.objects.create_user("plain", password=SECRET))
    assert plain.get(ACCOUNTS).status_code == 403
    target = User.objects.create_user("target", password=SECRET)
    assert plain.post(_access(target.pk, "grant")).status_code == 403
    assert Client().post(_access(target.pk, "grant")).status_code == 302  # to sign in
    assert not target.user_permissions.exists()


def test_staff_grant_and_revoke_the_right_to_create_tournaments(staff: Client) -> None:
    eva = User.objects.create_user("eva", email="eva@example.org", password=SECRET)
    page = staff.get(ACCOUNTS, {"q": "EVA@example"}, **EN).content.decode()
    assert "eva@example.org" in page and _access(eva.pk, "grant") in page
    eva_client = Client()
    eva_client.force_login(eva)
    assert eva_client.get(reverse("tournaments:tournament_new")).status_code == 403
    done = staff.post(_access(eva.pk, "grant"), {"q": "eva", "page": "1"}, follow=True, **EN)
    assert done.redirect_chain[-1][0] == f"{ACCOUNTS}?q=eva&page=1"
    assert "eva may create tournaments now." in done.content.decode()
    assert _access(eva.pk, "revoke") in done.content.decode()
    assert eva_client.get(reverse("tournaments:tournament_new")).status_code == 200
    # granted twice: recorded once
    twice = staff.post(_access(eva.pk, "grant"), follow=True, **EN)
    assert "Nothing changed for eva." in twice.content.decode()
    through = User.user_permissions.through.objects.filter(user=eva)
    assert through.count() == 1
    revoked = staff.post(_access(eva.pk, "revoke"), follow=True, **EN)
    assert "eva may no longer create tournaments." in revoked.content.decode()
    assert not through.exists()
    assert eva_client.get(reverse("tournaments:tournament_new")).status_code == 403


def test_staff_and_group_rights_are_not_taken_here(staff: Client) -> None:
    other_staff = User.objects.create_user("helper", password=SECRET, is_staff=True)
    answer = staff.post(_access(other_staff.pk, "revoke"), follow=True, **EN)
    assert "helper is staff and may always create tournaments." in answer.content.decode()
    group = Group.objects.create(name="Directors")
    group.permissions.add(_add_tournament())
    member = User.objects.create_user("member", password=SECRET)
    member.groups.add(group)
    member.user_permissions.add(_add_tournament())
    answer = staff.post(_access(member.pk, "revoke"), follow=True, **EN)
    assert "through a group" in answer.content.decode()
    assert member.user_permissions.filter(pk=_add_tournament().pk).exists()  # kept


def test_the_grant_is_a_post_with_the_csrf_token(staff: Client) -> None:
    eva = User.objects.create_user("eva", password=SECRET)
    assert staff.get(_access(eva.pk, "grant")).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(User.objects.get(username="staff"))
    assert strict.post(_access(eva.pk, "grant")).status_code == 403
    assert not eva.user_permissions.exists()


@pytest.mark.parametrize(
    "params",
    [
        {"q": "\x00"},
        {"q": "x" * 10_000},
        {"q": "\u202e' OR 1=1 --"},
        {"q": "čá\x07ř"},
        {"page": "abc"},
        {"page": "99999999999999999999"},
        {"page": "-1"},
    ],
)
def test_hostile_search_and_page_parameters_are_answered(staff: Client, params) -> None:
    assert staff.get(ACCOUNTS, params, **EN).status_code == 200


def test_hostile_actions_and_accounts_are_4xx(staff: Client) -> None:
    eva = User.objects.create_user("eva", password=SECRET)
    assert staff.post(_access(eva.pk, "promote"), **EN).status_code == 400
    assert staff.post(_access(99999, "grant"), **EN).status_code == 404
    answer = staff.post(_access(eva.pk, "grant"), {"q": "a\r\nSet-Cookie: x", "page": "\x00"})
    assert answer.status_code == 302 and "\n" not in answer["Location"]


def test_the_list_is_paginated_and_found_by_player_name(staff: Client) -> None:
    for i in range(30):
        User.objects.create_user(f"user{i:02d}", password=SECRET)
    Player.objects.create(name="Zdeňka Hráčová", user=User.objects.get(username="user07"))
    first = staff.get(ACCOUNTS, **EN).content.decode()
    assert "user00" in first and "user29" not in first and "page 1 of 2" in first
    second = staff.get(ACCOUNTS, {"page": "2"}, **EN).content.decode()
    assert "user29" in second and "user00" not in second
    found = staff.get(ACCOUNTS, {"q": "hráčová"}, **EN).content.decode()
    assert "user07" in found and "user08" not in found


def test_the_list_says_what_may_create_tournaments_says(django_assert_max_num_queries) -> None:
    group = Group.objects.create(name="Directors")
    group.permissions.add(_add_tournament())
    User.objects.create_user("plain")
    User.objects.create_user("staffer", is_staff=True)
    User.objects.create_superuser("root")
    User.objects.create_user("granted").user_permissions.add(_add_tournament())
    User.objects.create_user("member").groups.add(group)
    gone = User.objects.create_user("gone", is_active=False)
    gone.user_permissions.add(_add_tournament())
    with django_assert_max_num_queries(1):
        listed = {u.username: may_create(u) for u in accounts_matching()}
    expected = {u.username: may_create_tournaments(u) for u in User.objects.all()}
    assert listed == expected
    assert listed["granted"] and listed["member"] and not listed["plain"] and not listed["gone"]


def test_a_confirmed_user_claims_their_player_profile_by_invitation(client: Client) -> None:
    boss = director()
    t = round_robin(4, by=boss)
    player = t.entries.select_related("player").first().player
    _sign_up(client)
    assert client.post(_link(mail.outbox[0].body)).status_code == 302
    claim = reverse("tournaments:claim", args=[invitation_token(player=player)])
    assert client.post(claim).status_code == 302
    player.refresh_from_db()
    assert player.user is not None and player.user.username == "nova"


def test_the_accounts_page_makes_as_many_queries_for_a_full_page_as_for_a_short_one(
    staff: Client,
) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert staff.get(ACCOUNTS, **EN).status_code == 200
        return len(captured)

    for i in range(3):
        Player.objects.create(name=f"Few {i}", user=User.objects.create_user(f"few{i}"))
    few = queries()
    for i in range(40):
        User.objects.create_user(f"many{i}").user_permissions.add(_add_tournament())
    assert queries() == few


# --- signing in before the e-mail is confirmed ------------------------------------------
UNCONFIRMED = {
    "en": ("This account is not confirmed yet", "Send me a new confirmation link"),
    "cs": ("Tento účet ještě není potvrzen", "Pošlete mi nový potvrzovací odkaz"),
}


@pytest.mark.parametrize("language", list(UNCONFIRMED))
def test_signing_in_before_confirming_says_to_confirm_and_links_a_new_link(
    client: Client, language: str
) -> None:
    """Before: "wrong username or password", though both were right."""
    _sign_up(client)
    said, link = UNCONFIRMED[language]
    page = Client().post(
        reverse("login"), {"username": "nova", "password": SECRET}, HTTP_ACCEPT_LANGUAGE=language
    )
    text = page.content.decode()
    assert page.status_code == 200 and said in text
    assert link in text and f'href="{AGAIN}"' in text
    assert "_auth_user_id" not in page.wsgi_request.session  # still not signed in


@pytest.mark.parametrize(
    ("username", "password"),
    [("nova", "a-wrong-password"), ("Nova", SECRET), ("nobody", SECRET), ("nova", "")],
)
def test_a_wrong_password_or_username_is_not_told_the_account_is_unconfirmed(
    client: Client, username: str, password: str
) -> None:
    _sign_up(client)
    text = Client().post(reverse("login"), {"username": username, "password": password}, **EN)
    body = text.content.decode()
    assert text.status_code == 200 and UNCONFIRMED["en"][0] not in body
    assert UNCONFIRMED["en"][1] not in body


def test_a_deactivated_account_that_signed_in_before_is_not_called_unconfirmed() -> None:
    user = User.objects.create_user("old", password=SECRET)
    assert _signs_in("old")  # it signed in once: last_login is set
    User.objects.filter(pk=user.pk).update(is_active=False)
    body = Client().post(reverse("login"), {"username": "old", "password": SECRET}, **EN)
    assert UNCONFIRMED["en"][0] not in body.content.decode()


@pytest.mark.parametrize("language", list(UNCONFIRMED))
def test_the_api_token_tells_an_unconfirmed_account_so(client: Client, language: str) -> None:
    _sign_up(client)
    api = Client()
    answer = api.post(
        "/api/token/", {"username": "nova", "password": SECRET}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert answer.status_code == 400 and "token" not in answer.json()
    assert answer.json()["code"] == "account-unconfirmed"
    assert UNCONFIRMED[language][0] in answer.json()["detail"]
    wrong = api.post("/api/token/", {"username": "nova", "password": "wrong-1"}, **EN)
    assert wrong.status_code == 400 and wrong.json().get("code") != "account-unconfirmed"


def test_a_locked_out_unconfirmed_account_is_told_only_of_the_lockout(
    client: Client, settings: Any
) -> None:
    """During a lockout the password is not checked, so the hint cannot help guess it."""
    settings.AXES_FAILURE_LIMIT = 2
    _sign_up(client)
    visitor = Client()
    for _ in range(2):
        visitor.post(reverse("login"), {"username": "nova", "password": "wrong-1"}, **EN)
    page = visitor.post(reverse("login"), {"username": "nova", "password": SECRET}, **EN)
    assert page.status_code == 429 and UNCONFIRMED["en"][0] not in page.content.decode()
    token = Client().post("/api/token/", {"username": "nova", "password": SECRET}, **EN)
    assert token.status_code == 429 and token.json()["code"] == "locked-out"


# --- expired sign-ups are cleared ------------------------------------------------------
def _expire(*usernames: str, days: float = CONFIRM_DAYS + 0.01) -> None:
    User.objects.filter(username__in=usernames).update(
        date_joined=timezone.now() - timedelta(days=days)
    )


def _clear(language: str = "en", *args: str) -> str:
    out = StringIO()
    with translation.override(language):
        call_command("clear_unconfirmed_accounts", *args, stdout=out)
    return out.getvalue()


def test_an_expired_sign_up_no_longer_holds_its_username_or_address(client: Client) -> None:
    """Before: a sign-up whose address had a typo kept the username for ever ("taken")."""
    _sign_up(client, email="typo@example.org")
    assert _sign_up(client, email="nova@example.org").status_code == 400  # taken
    _expire("nova")
    mail.outbox.clear()
    assert _sign_up(client, username="NOVA").status_code == 302
    assert list(User.objects.values_list("username", "email")) == [("NOVA", "nova@example.org")]
    assert mail.outbox[0].to == ["nova@example.org"]


def test_an_unexpired_sign_up_keeps_its_username(client: Client) -> None:
    _sign_up(client)
    _expire("nova", days=CONFIRM_DAYS - 0.01)
    assert _sign_up(client, email="other@example.org").status_code == 400  # taken
    assert User.objects.get().email == "nova@example.org"


@pytest.mark.parametrize(
    ("language", "dry", "done"),
    [
        ("en", "would delete 1 unconfirmed account", "deleted 1 unconfirmed account"),
        ("cs", "ke smazání: 1 nepotvrzený účet", "smazán 1 nepotvrzený účet"),
    ],
    ids=["en", "cs"],
)
def test_the_command_clears_expired_sign_ups_and_keeps_every_other_account(
    client: Client, language: str, dry: str, done: str
) -> None:
    _sign_up(client)  # expired below: the one to go
    _sign_up(client, username="fresh", email="fresh@example.org")  # not expired
    kept = {
        "active": User.objects.create_user("active", password=SECRET),
        "signed-in-once": User.objects.create_user("once", is_active=False),
        "staff": User.objects.create_user("staff", is_active=False, is_staff=True),
        "permitted": User.objects.create_user("permitted", is_active=False),
        "player": User.objects.create_user("player", is_active=False),
    }
    User.objects.filter(username="once").update(last_login=timezone.now())
    kept["permitted"].user_permissions.add(_add_tournament())
    Player.objects.create(name="Hráč Bez Účtu", user=kept["player"])
    _expire("nova", *(user.username for user in kept.values()))
    assert _clear(language, "--dry-run").strip() == dry
    assert User.objects.filter(username="nova").exists()
    assert _clear(language).strip() == done
    left = set(User.objects.values_list("username", flat=True))
    assert left == {"fresh", *(user.username for user in kept.values())}
    assert _clear(language).strip() != done  # nothing more to clear


# --- two sign-ups at the same instant -------------------------------------------------
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite writes one at a time, so the sign-ups cannot race",
)
@pytest.mark.parametrize(
    "second",
    [{"username": "nova2", "email": "NOVA@example.org"}, {"username": "Nova", "email": "b@x.cz"}],
    ids=["same-address", "same-username-other-case"],
)
def test_two_sign_ups_at_once_make_one_account(
    transactional_db: None,
    no_throttle: None,
    monkeypatch: pytest.MonkeyPatch,
    second: dict[str, str],
) -> None:
    """Before: both passed the check (the address or username free) before either was
    saved, and two accounts had one address or one username in two cases. Each sign-up
    here waits after its check for the other to reach the same point (3 s at most): with
    the sign-ups in turn the second one never gets there in time."""
    real_check = accounts_service.account_check
    barrier = threading.Barrier(2, timeout=3)
    met: list[bool] = []

    def check(**kwargs: Any) -> User:
        user = real_check(**kwargs)
        try:
            barrier.wait()
            met.append(True)
        except threading.BrokenBarrierError:
            met.append(False)
        return user

    monkeypatch.setattr(accounts_service, "account_check", check)
    forms = [{"username": "nova", "email": "nova@example.org"}, second]
    errors: list[str] = []

    def sign_up(form: dict[str, str]) -> None:
        try:
            accounts_service.account_signup(**form, password=SECRET, link=str)
        except ApplicationError as exc:
            errors.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(form,)) for form in forms]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert User.objects.count() == 1, list(User.objects.values_list("username", "email"))
    assert True not in met  # the second sign-up waited for the first to end
    assert errors == (["username-taken"] if second["username"] == "Nova" else [])
