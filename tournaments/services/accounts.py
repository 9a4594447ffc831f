"""Accounts without a command line: sign-up confirmed by e-mail, and the right to create
tournaments given and taken by staff (docs/director_rounds.md, "Accounts").

A sign-up makes an inactive user and mails a confirmation link: a signed token (Django's
signing with the secret key, no table) naming the user and the address, valid for
CONFIRM_DAYS. The link works once: it activates a sign-up still marked unconfirmed
(models.PendingSignup, made by the sign-up and gone at its confirmation), and the door then
signs them in. An account deactivated later has no such mark, so neither its old link nor a
new one reactivates it, whether or not it ever signed in on a page. An address that has
an account already gets a mail that says so (with a new link while that account is
unconfirmed) and the page says what it says to a new address, as Django's password reset
does: a sign-up tells nobody whose address it is.

"May create tournaments" is the ``tournaments.add_tournament`` permission given to the
user (selectors/access.py::may_create_tournaments); staff may always, so it is neither
given to nor taken from them here."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import password_validation
from django.contrib.auth.models import Permission, User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models.people import PendingSignup
from tournaments.selectors.access import is_staff, may_create_tournaments
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.usernames import username_check_confusable

CONFIRM_DAYS = 3
# the key of the PostgreSQL advisory lock that sign-ups take in turn (b"sign")
SIGNUP_LOCK = 0x7369676E
SALT = "tournaments.account-confirmation"
TOKEN_MAX_LENGTH = 400  # a real token is about 100 characters
# a path of the site as an absolute link (the door's request.build_absolute_uri)
LinkMaker = Callable[[str], str]


def _username(raw: object) -> str:
    """A username as it is stored: stripped and normalised as Django's forms do."""
    return User.normalize_username(str(raw).strip())


def account_check(*, username: str, password: str, email: str = "") -> User:
    """A new, unsaved user of ``username`` (normalised), once the username is free (case
    ignored) and the username, the address and the password pass Django's validators
    (AUTH_PASSWORD_VALIDATORS); the password is set."""
    username = _username(username)
    email = str(email).strip()
    if not username:
        raise ApplicationError(_("Choose a username."), code="username-missing", field="username")
    if User.objects.filter(username__iexact=username).exists():
        raise ApplicationError(
            _("This username is taken."), code="username-taken", field="username"
        )
    user = User(username=username, email=email)
    checks: tuple[tuple[str, Callable[[], object]], ...] = (
        ("username", lambda: UnicodeUsernameValidator()(username)),
        ("username", lambda: username_check_confusable(username=username)),
        ("email", lambda: validate_email(email) if email else None),
        ("password", lambda: password_validation.validate_password(password, user)),
    )
    for field, check in checks:
        try:
            check()
        except ValidationError as exc:
            raise ApplicationError.from_validation(exc, field=field) from None
    user.set_password(password)
    return user


def _unconfirmed(user: User) -> bool:
    """A sign-up not confirmed yet: inactive and marked so by the sign-up itself (not "never
    signed in": an account used only through API tokens, or deactivated by staff, is not
    one). One that staff activated by hand and that signed in since is not one either."""
    if user.is_active or user.last_login is not None:
        return False
    return PendingSignup.objects.filter(user=user).exists()


def accounts_unconfirmed_expired(*, now: datetime | None = None) -> QuerySet[User]:
    """Sign-ups never confirmed whose link has expired (joined more than CONFIRM_DAYS
    ago, inactive, still marked unconfirmed), that are not staff and that nothing refers to: no
    group or permission, no player claimed, nothing directed, logged or submitted (every
    relation to the user, found from the model, so that one added later counts too).
    Removing them frees their username and address, and deletes nobody's data."""
    cutoff = (now or timezone.now()) - timedelta(days=CONFIRM_DAYS)
    users = User.objects.filter(
        is_active=False,
        pending_signup__isnull=False,
        last_login__isnull=True,
        is_staff=False,
        is_superuser=False,
        date_joined__lt=cutoff,
    )
    for relation in User._meta.get_fields():
        if relation.name == "pending_signup":
            continue
        if relation.many_to_many or (relation.auto_created and not relation.concrete):
            users = users.exclude(**{f"{relation.name}__isnull": False})
    return users


def accounts_clear_unconfirmed(*, now: datetime | None = None, only: Q | None = None) -> int:
    """Delete the expired sign-ups (``accounts_unconfirmed_expired``), or those of them
    that ``only`` picks; how many went. Run daily (manage.py clear_unconfirmed_accounts,
    docs/deploy.md); a sign-up also clears the ones holding its username or address."""
    with transaction.atomic():
        users = accounts_unconfirmed_expired(now=now)
        if only is not None:
            users = users.filter(only)
        pks = list(users.select_for_update(of=("self",)).values_list("pk", flat=True))
        User.objects.filter(pk__in=pks).delete()
    return len(pks)


def account_unconfirmed_sign_in(*, username: object, password: object) -> bool:
    """A refused sign-in that failed only because the account is not confirmed yet: the
    username (exactly, as the sign-in looks it up) names an unconfirmed account and the
    password is its password. Only then may a door say so: whoever knows the password
    learns nothing they did not know, and anybody else is told what a wrong password is
    told. The doors ask after ``authenticate`` refused, and never during a lockout."""
    if not isinstance(username, str) or not isinstance(password, str) or not username:
        return False
    user = User.objects.filter(username=username).first()
    return user is not None and _unconfirmed(user) and user.check_password(password)


def unconfirmed_sign_in_error() -> ApplicationError:
    """What a door answers to ``account_unconfirmed_sign_in``."""
    return ApplicationError(
        _(
            "This account is not confirmed yet: open the link in the mail sent when you "
            "signed up, or ask for a new link."
        ),
        code="account-unconfirmed",
    )


def _token(user: User) -> str:
    return signing.dumps({"u": user.pk, "e": user.email.casefold()}, salt=SALT)


def _send_confirmation(user: User, link: LinkMaker) -> None:
    url = link(reverse("tournaments:signup_confirm", args=[_token(user)]))
    subject = _("Confirm your account")
    body = ngettext(
        "Hello %(name)s,\n\nyou (or somebody giving your address) created the account "
        "%(name)s on the long nardy tournaments site. Open this link to confirm it and "
        "sign in:\n%(link)s\n\nThe link is valid for %(days)d day and works once. If you "
        "did not sign up, ignore this mail: the account stays unconfirmed.",
        "Hello %(name)s,\n\nyou (or somebody giving your address) created the account "
        "%(name)s on the long nardy tournaments site. Open this link to confirm it and "
        "sign in:\n%(link)s\n\nThe link is valid for %(days)d days and works once. If you "
        "did not sign up, ignore this mail: the account stays unconfirmed.",
        CONFIRM_DAYS,
    ) % {"name": user.get_username(), "link": url, "days": CONFIRM_DAYS}
    send_mail(subject, body, None, [user.email])


def _send_existing(user: User, link: LinkMaker) -> None:
    """To the address of an account that is confirmed: it has an account already."""
    subject = _("You have an account already")
    body = _(
        "Hello,\n\nsomebody asked for an account on the long nardy tournaments site with "
        "this address, which has the account %(name)s already. Sign in here:\n%(login)s\n"
        "\nForgotten the password? Ask for a new one here:\n%(reset)s\n\nIf it was not you, "
        "ignore this mail: nothing has changed."
    ) % {
        "name": user.get_username(),
        "login": link(reverse("login")),
        "reset": link(reverse("password_reset")),
    }
    send_mail(subject, body, None, [user.email])


def _mail_owners(email: str, link: LinkMaker) -> bool:
    """Mail every account of ``email`` (case ignored): a new confirmation link to an
    unconfirmed one, "you have an account" to the others. False: the address has none."""
    owners = list(User.objects.filter(email__iexact=email).order_by("pk"))
    for user in owners:
        if _unconfirmed(user):
            _send_confirmation(user, link)
        elif user.is_active:
            _send_existing(user, link)
    return bool(owners)


def _signups_in_turn() -> None:
    """Until the transaction ends, no other sign-up runs: two at the same instant could
    both find the username (case ignored; the table's own constraint minds the case) or
    the address free. A lock of its own (PostgreSQL's advisory lock), not of a table:
    sign-ups are rare, and nothing else waits for them. SQLite writes one at a time."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [SIGNUP_LOCK])


def account_signup(*, username: str, email: str, password: str, link: LinkMaker) -> User | None:
    """Sign up: a new inactive user and its confirmation mail; None when the address
    has an account already (its owner is mailed instead, and the door says the same as
    for a new address). A taken username is refused: usernames are public."""
    email = str(email).strip()
    if not email:
        raise ApplicationError(_("Enter a valid email address."), code="email-invalid",
                               field="email")  # fmt: skip
    with transaction.atomic():
        _signups_in_turn()
        # an expired sign-up no longer holds its username or address (a typo in the
        # address left the link unread, and the username taken for ever)
        only = Q(username__iexact=_username(username)) | Q(email__iexact=email)
        accounts_clear_unconfirmed(only=only)
        user = account_check(username=username, password=password, email=email)
        known = User.objects.filter(email__iexact=email).exists()
        if not known:
            user.is_active = False
            user.save()
            PendingSignup.objects.create(user=user)
    if known:
        _mail_owners(email, link)
        return None
    _send_confirmation(user, link)
    return user


def account_confirmation_resend(*, email: str, link: LinkMaker) -> None:
    """Send the confirmation again (the first one expired or was lost): to the accounts
    of ``email``, as ``account_signup`` mails them; nothing to an unknown address."""
    email = str(email).strip()
    try:
        validate_email(email)
    except ValidationError:
        raise ApplicationError(
            _("Enter a valid email address."), code="email-invalid", field="email"
        ) from None
    _mail_owners(email, link)


def signed_link_data(
    token: object, *, salt: str, days: int, invalid: ApplicationError, expired: ApplicationError
) -> dict[str, Any]:
    """What a signed link's token carries (Django's ``signing``, a dict): ``invalid`` when
    it is forged, longer than any real token, or not a dict, ``expired`` when signed more
    than ``days`` ago. The confirmation links and the invitations read theirs so."""
    text = str(token)
    if len(text) > TOKEN_MAX_LENGTH:
        raise invalid
    try:
        data = signing.loads(text, salt=salt, max_age=days * 86400)
    except signing.SignatureExpired:
        raise expired from None
    except signing.BadSignature:
        raise invalid from None
    if not isinstance(data, dict):
        raise invalid
    return data


def account_to_confirm(*, token: str, lock: bool = False) -> User:
    """The account a confirmation link confirms; refused when the link is forged,
    expired or used (the account is confirmed already)."""
    invalid = ApplicationError(
        _("This confirmation link is not valid."), code="confirmation-invalid", field="token"
    )
    expired = ApplicationError(
        _("The confirmation link has expired: ask for a new one."),
        code="confirmation-expired",
        field="token",
    )
    data = signed_link_data(token, salt=SALT, days=CONFIRM_DAYS, invalid=invalid, expired=expired)
    pk = data.get("u")
    users = User.objects.select_for_update() if lock else User.objects.all()
    user = users.filter(pk=pk).first() if isinstance(pk, int) else None
    if user is None or user.email.casefold() != data.get("e"):
        raise invalid
    if not _unconfirmed(user):
        raise ApplicationError(
            _("This link has been used: the account is confirmed. Sign in."),
            code="confirmation-used",
            field="token",
        )
    return user


@transaction.atomic
def account_confirm(*, token: str) -> User:
    """Activate the account of a confirmation link (``account_to_confirm`` refuses a
    forged, expired or used one)."""
    user = account_to_confirm(token=token, lock=True)
    user.is_active = True
    user.save(update_fields=["is_active"])
    PendingSignup.objects.filter(user=user).delete()
    return user


def _add_tournament() -> Permission:
    return Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")


@transaction.atomic
def account_set_may_create_tournaments(*, user: User, allowed: bool, by: User) -> bool:
    """Give ``user`` the right to create tournaments, or take it (staff only, and never
    from staff, who always have it, or from a group's members). True when it changed;
    giving it twice (or taking it from one without it) records nothing."""
    if not is_staff(by):
        raise PermissionDenied(
            _("Only staff may change who creates tournaments."), code="staff-only"
        )
    user = User.objects.select_for_update().get(pk=user.pk)
    if is_staff(user):
        raise ApplicationError(
            _("%(name)s is staff and may always create tournaments."),
            code="account-is-staff",
            params={"name": user.get_username()},
        )
    permission = _add_tournament()
    own = user.user_permissions.filter(pk=permission.pk).exists()
    if allowed == own:
        return False
    if allowed:
        user.user_permissions.add(permission)
        return True
    user.user_permissions.remove(permission)
    fresh = User.objects.get(pk=user.pk)  # has_perm caches the permissions it read
    if may_create_tournaments(fresh):
        raise ApplicationError(
            _("%(name)s may create tournaments through a group: change it in the admin."),
            code="account-group-permission",
            params={"name": user.get_username()},
        )
    return True


__all__ = [
    "CONFIRM_DAYS",
    "account_check",
    "account_confirm",
    "account_confirmation_resend",
    "account_set_may_create_tournaments",
    "account_signup",
    "account_to_confirm",
]
