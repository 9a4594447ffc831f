"""Players asking to play, and directors deciding (services/entry_requests.py decides)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import EntryRequest, EntryRequestStatus, Tournament
from tournaments.selectors.access import User, visible_tournaments
from tournaments.services.entry_requests import (
    entry_request_check,
    entry_request_create,
    entry_request_decide,
    player_of,
)
from tournaments.services.errors import ApplicationError
from tournaments.views.director import directed_tournament


def ask_offer(*, tournament: Tournament, user: User | None) -> dict[str, Any] | None:
    """What the tournament page says of asking to play: the button, or the request's
    state; None where the tournament takes no requests or the user has no player."""
    if not (tournament.published and tournament.self_registration):
        return None
    player = player_of(user)
    if player is None:
        return {"can": False, "sign_in": True}
    asked = EntryRequest.objects.filter(tournament=tournament, player=player).first()
    try:
        entry_request_check(tournament=tournament, user=user)
    except ApplicationError as exc:
        return {"can": False, "why": exc.message, "asked": asked}
    return {"can": True, "asked": asked}


@login_required
@require_POST
def entry_request_ask(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(visible_tournaments(request.user), pk=pk)
    try:
        entry_request_create(tournament=tournament, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your request to play is sent: the directors will decide."))
    return redirect("tournaments:tournament", pk=pk)


@login_required
@require_POST
def entry_request_verdict(
    request: HttpRequest, pk: int, request_pk: int, verdict: str
) -> HttpResponse:
    if verdict not in ("approve", "decline"):
        raise Http404
    tournament = directed_tournament(request, pk)
    asked = get_object_or_404(
        EntryRequest.objects.select_related("player"), pk=request_pk, tournament=tournament,
        status=EntryRequestStatus.PENDING,
    )  # fmt: skip
    try:
        entry_request_decide(request=asked, by=request.user, approve=verdict == "approve",
                             note=request.POST.get("note", ""))  # fmt: skip
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        done = (_("%(name)s is registered.") if verdict == "approve"
                else _("The request of %(name)s is declined."))  # fmt: skip
        messages.success(request, done % {"name": asked.player.name})
    return redirect("tournaments:entries", pk=pk)


# added to tournaments/urls.py's patterns (the app's namespace)
URLS = [
    path("tournaments/<int:pk>/ask/", entry_request_ask, name="entry_request"),
    path(
        "tournaments/<int:pk>/requests/<int:request_pk>/<str:verdict>/",
        entry_request_verdict,
        name="entry_request_decide",
    ),
]
