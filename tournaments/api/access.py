# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""Who sees and who changes what through the API.

Reading is public for published tournaments; an unpublished one is seen only by its
directors and superusers (the one rule: tournaments/selectors/access.py). Clubs and players
are changed by staff; a tournament by its directors; results of a series are submitted by
its players (tournaments/services)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from tournaments.models import Tournament
from tournaments.selectors.access import (
    User,
    is_director,
    is_staff,
    may_create_tournaments,
    may_delete_tournament,
    visible_tournaments,
)
from tournaments.services.errors import PermissionDenied


def require_director(user: User | None, tournament: Tournament) -> None:
    """Raise PermissionDenied (403) unless ``user`` directs ``tournament``."""
    if not is_director(user, tournament):
        raise PermissionDenied(
            _("only the tournament's directors may do this"), code="not-director-api"
        )


class StaffWritesOrReadOnly(BasePermission):
    """Anyone reads; staff and superusers write (clubs, players)."""

    message = "only staff may change clubs and players"

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in SAFE_METHODS or is_staff(request.user)


class TournamentPermission(BasePermission):
    """Anyone reads what is visible; those who may create tournaments (selectors/access.py)
    create them; directors change theirs.
    Signed-in users reach the actions, whose services decide (players submit, directors
    enter and correct)."""

    message = "only the tournament's directors may change it"

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if getattr(view, "action", None) == "create":
            return may_create_tournaments(request.user)
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        action = getattr(view, "action", None)
        if action in ("update", "partial_update"):
            return is_director(request.user, obj)
        if action == "destroy":
            return may_delete_tournament(request.user, obj)
        return True


__all__ = [
    "StaffWritesOrReadOnly",
    "TournamentPermission",
    "is_staff",
    "require_director",
    "visible_tournaments",
]
