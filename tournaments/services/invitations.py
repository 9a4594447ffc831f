"""Invitations: a player claims their profile with a login.

A director makes an invitation for a player who has no login yet: a signed token (no
table: Django's signing with the secret key) that names the player and is valid for
INVITATION_DAYS. Whoever opens its link signs in (or creates an account) and the player
is theirs. It works once: a claimed player refuses every further invitation, and a
director may hand out a new link at any time (the old one still works until claimed or
expired, so it is handed to the player only). A director who handed a link to the wrong
person withdraws every link made so far (``invitation_withdraw``): the token carries the
player's count of withdrawals, and a link made before the last one is refused."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Entry, Player, Tournament
from tournaments.services.accounts import account_check, signed_link_data
from tournaments.services.errors import ApplicationError

INVITATION_DAYS = 30
SALT = "tournaments.invitation"


def _refuse_claimed(player: Player, *, field: str) -> None:
    """A player with a login takes no invitation (made, opened, claimed or withdrawn)."""
    if player.user_id is not None:
        raise ApplicationError(
            _("%(name)s has claimed their profile already."),
            code="profile-claimed",
            params={"name": player.name},
            field=field,
        )


def _refuse_unregistered(tournament: Tournament, player: Player) -> None:
    if not Entry.objects.filter(tournament=tournament, player=player).exists():
        raise ApplicationError(
            _("The player is not registered for the tournament."),
            code="invitee-not-registered",
            field="player",
        )


def invitation_token(*, player: Player) -> str:
    """The token of an invitation for ``player`` (refused once they have a login)."""
    _refuse_claimed(player, field="player")
    return signing.dumps(
        {"p": player.pk, "w": player.invitations_withdrawn}, salt=SALT, compress=True
    )


def invitation_player(*, token: str) -> Player:
    """The player an invitation is for; a ApplicationError when it is forged, expired or
    used."""
    invalid = ApplicationError(
        _("This is not a valid invitation."), code="invitation-invalid", field="token"
    )
    expired = ApplicationError(
        _("The invitation has expired: ask the director for a new one."),
        code="invitation-expired",
        field="token",
    )
    data = signed_link_data(
        token, salt=SALT, days=INVITATION_DAYS, invalid=invalid, expired=expired
    )
    pk = data.get("p")
    player = Player.objects.filter(pk=pk).first() if isinstance(pk, int) else None
    if player is None:
        raise invalid
    if data.get("w", 0) != player.invitations_withdrawn:
        raise ApplicationError(
            _("The director has withdrawn this invitation: ask them for a new one."),
            code="invitation-withdrawn",
            field="token",
        )
    _refuse_claimed(player, field="token")
    return player


@transaction.atomic
def invitation_claim(*, token: str, user: User) -> Player:
    """The signed-in ``user`` becomes the invited player (one player per login)."""
    if not user.is_authenticated:
        raise ApplicationError(
            _("Sign in or create an account first."), code="sign-in-first", field="token"
        )
    player = invitation_player(token=token)
    player = Player.objects.select_for_update().get(pk=player.pk)
    _refuse_claimed(player, field="token")  # claimed meanwhile
    if Player.objects.filter(user=user).exists():
        raise ApplicationError(
            _("Your login belongs to another player already."), code="login-taken", field="token"
        )
    player.user = user
    player.save(update_fields=["user"])
    return player


@transaction.atomic
def invitation_claim_new_account(
    *, token: str, username: str, password: str, email: str = ""
) -> Player:
    """Create an account and claim the invited player with it."""
    invitation_player(token=token)  # a bad token makes no account
    user = account_check(username=username, password=password, email=email)
    user.save()
    return invitation_claim(token=token, user=user)


@transaction.atomic
def invitation_withdraw(*, tournament: Tournament, player: Player) -> None:
    """Every invitation link made so far for ``player`` stops working (a new one may be
    made at once). Only for a player registered in ``tournament`` who has no login yet."""
    _refuse_unregistered(tournament, player)
    locked = Player.objects.select_for_update().get(pk=player.pk)
    _refuse_claimed(locked, field="player")
    Player.objects.filter(pk=player.pk).update(invitations_withdrawn=F("invitations_withdrawn") + 1)
    player.refresh_from_db(fields=["invitations_withdrawn"])


def invitation_send(
    *, tournament: Tournament, player: Player, email: str, link: str, by: str = ""
) -> None:
    """Mail an invitation link (made with ``invitation_token``) to ``email``."""
    email = str(email).strip()
    try:
        validate_email(email)
    except ValidationError:
        raise ApplicationError(
            _("Enter a valid email address."), code="email-invalid", field="email"
        ) from None
    _refuse_unregistered(tournament, player)
    subject = _("Your player profile in %(tournament)s") % {"tournament": tournament.name}
    body = ngettext(
        "Hello %(name)s,\n\n%(by)s invites you to claim your player profile in the "
        "tournament %(tournament)s: you will see your series and submit your results.\n\n"
        "Open this link, then sign in or create an account:\n%(link)s\n\n"
        "The link is valid for %(days)d day and works once.",
        "Hello %(name)s,\n\n%(by)s invites you to claim your player profile in the "
        "tournament %(tournament)s: you will see your series and submit your results.\n\n"
        "Open this link, then sign in or create an account:\n%(link)s\n\n"
        "The link is valid for %(days)d days and works once.",
        INVITATION_DAYS,
    ) % {
        "name": player.name,
        "by": by or _("The director"),
        "tournament": tournament.name,
        "link": link,
        "days": INVITATION_DAYS,
    }
    send_mail(subject, body, None, [email])


__all__ = [
    "INVITATION_DAYS",
    "invitation_claim",
    "invitation_claim_new_account",
    "invitation_player",
    "invitation_send",
    "invitation_token",
    "invitation_withdraw",
]
