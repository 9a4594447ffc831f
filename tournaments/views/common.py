"""Helpers shared by the page views: who may see and direct a tournament."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from tournaments.models import Tournament
from tournaments.services.results import User, is_director


def visible_tournament(request: HttpRequest, pk: int) -> tuple[Tournament, bool]:
    """The tournament and whether the user directs it; 404 for an unpublished one the
    user does not direct."""
    tournament = get_object_or_404(Tournament, pk=pk)
    directing = is_director(request.user, tournament)
    if not tournament.published and not directing:
        raise Http404
    return tournament, directing


def check_visible(user: User, tournament: Tournament) -> bool:
    directing = is_director(user, tournament)
    if not tournament.published and not directing:
        raise Http404
    return directing
