"""Helpers shared by the page views: who may see and direct a tournament."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from tournaments.models import Tournament
from tournaments.selectors.access import User, is_director, may_see_tournament


def visible_tournament(request: HttpRequest, pk: int) -> tuple[Tournament, bool]:
    """The tournament and whether the user directs it; 404 for an unpublished one the
    user does not direct."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return tournament, check_visible(request.user, tournament)


def check_visible(user: User, tournament: Tournament, *, directing: bool | None = None) -> bool:
    """Whether the user directs the tournament; 404 if they may not see it
    (tournaments/selectors/access.py). ``directing``: ``is_director`` read already (the
    series' ``director_flag``)."""
    if directing is None:
        directing = is_director(user, tournament)
    if not may_see_tournament(user, tournament, directing=directing):
        raise Http404
    return directing


def asked_turn(request: HttpRequest) -> int | None:
    """The replay's position asked for by ``?turn=`` (the page works without
    JavaScript); None: the last one."""
    try:
        return int(request.GET.get("turn", ""))
    except ValueError:
        return None
