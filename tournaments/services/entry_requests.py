"""Players asking to play (docs/director_rounds.md, Players who ask to play).

A published tournament that allows it (``Tournament.self_registration``) takes requests
from signed-in users whose account has a player; a director approves (the player is
entered, through ``entry_register``: the same checks as the players page) or declines.
Asking and approving are refused once a round robin is paired, by the same rule that
refuses a late entry (services/setup.py::entries_open_check)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Entry, EntryRequest, EntryRequestStatus, Player, Tournament
from tournaments.selectors.access import User, is_director, signed_in
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.setup import entries_open_check, entry_register

NOTE_MAX = 300


def player_of(user: User | None) -> Player | None:
    """The player whose account ``user`` is (None: signed out, or no player)."""
    account = signed_in(user)
    return None if account is None else Player.objects.filter(user=account).first()


def entry_request_check(*, tournament: Tournament, user: User | None) -> Player:
    """Raise unless ``user`` may ask to play in ``tournament`` now; returns their player.
    The tournament page asks it before offering the button, ``entry_request_create``
    before saving: one rule."""
    if not (tournament.published and tournament.self_registration):
        raise ApplicationError(
            _("This tournament takes no requests to play: its directors register players."),
            code="self-registration-off",
        )
    player = player_of(user)
    if player is None:
        raise ApplicationError(
            _("Sign in with an account that has a player profile to ask to play."),
            code="self-registration-no-player",
        )
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise ApplicationError(
            _("You are registered already."), code="self-registration-registered"
        )
    asked = EntryRequest.objects.filter(tournament=tournament, player=player).first()
    if asked is not None and asked.status == EntryRequestStatus.PENDING:
        raise ApplicationError(
            _("You have asked already: the directors will decide."),
            code="self-registration-pending",
        )
    if asked is not None and asked.status == EntryRequestStatus.DECLINED:
        raise ApplicationError(
            _("The directors declined your request: ask them in person."),
            code="self-registration-declined",
        )
    entries_open_check(tournament=tournament)
    return player


@transaction.atomic
def entry_request_create(*, tournament: Tournament, by: User) -> EntryRequest:
    """``by`` asks to play in ``tournament`` (see ``entry_request_check``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    player = entry_request_check(tournament=tournament, user=by)
    request, _made = EntryRequest.objects.update_or_create(
        tournament=tournament, player=player,
        defaults={"status": EntryRequestStatus.PENDING, "at": timezone.now(),
                  "decided_by": None, "decided_at": None, "note": ""},
    )  # fmt: skip
    return request


@transaction.atomic
def entry_request_decide(
    *, request: EntryRequest, by: User, approve: bool, note: str = ""
) -> EntryRequest:
    """A director approves (the player is entered) or declines a waiting request."""
    request = (
        EntryRequest.objects.select_for_update()
        .select_related("tournament", "player")
        .get(pk=request.pk)
    )
    if not is_director(by, request.tournament):
        raise PermissionDenied(
            _("only the tournament's directors may do this"), code="entry-request-not-director"
        )
    if request.status != EntryRequestStatus.PENDING:
        raise ApplicationError(
            _("This request is decided already (%(status)s)."),
            code="entry-request-decided",
            params={"status": request.get_status_display()},
        )
    note = str(note).strip()
    if len(note) > NOTE_MAX:
        raise ApplicationError(_("The note is too long."), code="note-too-long", field="note")
    if approve:
        entry_register(tournament=request.tournament, player=request.player)
    request.status = EntryRequestStatus.APPROVED if approve else EntryRequestStatus.DECLINED
    request.decided_by, request.decided_at, request.note = signed_in(by), timezone.now(), note
    request.save()
    return request


def entry_requests_waiting(*, tournament: Tournament) -> list[EntryRequest]:
    """The requests the directors have to decide, oldest first."""
    rows = EntryRequest.objects.filter(tournament=tournament, status=EntryRequestStatus.PENDING)
    return list(rows.select_related("player__club").order_by("at", "pk"))


__all__ = [
    "entry_request_check",
    "entry_request_create",
    "entry_request_decide",
    "entry_requests_waiting",
    "player_of",
]
