"""Merging two players who are one person (services/merging.py decides): the merge page
of the player who goes, the undo, and what the player page offers."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as Forbidden
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Entry, Game, Player, PlayerMerge, Series
from tournaments.selectors.access import User, is_staff, signed_in
from tournaments.selectors.people import players_similar
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.merging import (
    merge_check,
    merge_undoable,
    player_merge,
    player_merge_undo,
)


def may_offer_merges(user: User | None) -> bool:
    """Whom the pages offer merging: staff and users who direct a tournament (the merge
    itself asks for every tournament involved)."""
    account = signed_in(user)
    return account is not None and (is_staff(account) or account.directed_tournaments.exists())


def merge_offer(*, player: Player, user: User | None) -> dict[str, Any] | None:
    """The player page's offer: players who may be the same person, and this player's
    merges that can still be undone; None for those who may not merge."""
    if not may_offer_merges(user):
        return None
    similar = [p for p in players_similar(name=player.name) if p.pk != player.pk]
    merges = [m for m in PlayerMerge.objects.filter(kept=player, undone_at=None)
              if merge_undoable(m)]  # fmt: skip
    return {"similar": similar, "merges": merges}


def _counts(player: Player) -> dict[str, int]:
    series = Series.objects.filter(player1=player) | Series.objects.filter(player2=player)
    games = Game.objects.filter(white=player) | Game.objects.filter(black=player)
    return {
        "entries": Entry.objects.filter(player=player).count(),
        "series": series.count(),
        "games": games.count(),
    }


def _into(request: HttpRequest) -> Player | None:
    raw = (request.POST.get("into") or request.GET.get("into") or "").strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) < 12):
        return None
    return Player.objects.select_related("club", "user").filter(pk=int(raw)).first()


@login_required
def player_merge_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge this player into another (``into``): what moves, what the rule says, then
    the button; without ``into``, the players who may be the same person."""
    if not may_offer_merges(request.user):
        raise Forbidden
    absorbed = get_object_or_404(Player.objects.select_related("club", "user"), pk=pk)
    kept = _into(request)
    refusal, status = "", 200
    try:
        if kept is not None:
            merge_check(user=request.user, kept=kept, absorbed=absorbed)
        if request.method == "POST" and kept is not None:
            merge = player_merge(
                kept=kept, absorbed=absorbed, by=request.user,
                reason=request.POST.get("reason", ""),
            )  # fmt: skip
    except PermissionDenied as exc:
        refusal, status = exc.message, 403
    except ApplicationError as exc:
        refusal, status = exc.message, 400
    else:
        if request.method == "POST" and kept is not None:
            messages.success(
                request,
                _("%(absorbed)s is merged into %(kept)s. You can undo it until the next "
                  "rating change.") % {"absorbed": merge.absorbed_name, "kept": kept.name},
            )  # fmt: skip
            return redirect("tournaments:player", pk=kept.pk)
    context = {
        "absorbed": absorbed, "kept": kept, "refusal": refusal,
        "counts": _counts(absorbed),
        "candidates": [p for p in players_similar(name=absorbed.name) if p.pk != absorbed.pk],
    }  # fmt: skip
    return render(request, "tournaments/player_merge.html", context, status=status)


@login_required
@require_POST
def merge_undo(request: HttpRequest, pk: int) -> HttpResponse:
    merge = get_object_or_404(PlayerMerge, pk=pk)
    try:
        player = player_merge_undo(merge=merge, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:player", pk=merge.kept_id)
    messages.success(request, _("The merge is undone: %(name)s is back.") % {"name": player.name})
    return redirect("tournaments:player", pk=player.pk)


# added to tournaments/urls.py's patterns (the app's namespace)
URLS = [
    path("players/<int:pk>/merge/", player_merge_page, name="player_merge"),
    path("merges/<int:pk>/undo/", merge_undo, name="merge_undo"),
]
