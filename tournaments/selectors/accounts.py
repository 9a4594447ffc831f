"""The staff's list of accounts: who may create tournaments, found by name or address, in
a fixed number of queries whatever the page's length."""

from __future__ import annotations

from django.contrib.auth.models import Permission, User
from django.db.models import Exists, OuterRef, Q, QuerySet

QUERY_MAX_LENGTH = 120


def search_text(raw: str) -> str:
    """What a search box's text is searched for: control characters (which PostgreSQL
    refuses in text, NUL) taken out, spaces at the ends dropped, at most 120 characters."""
    kept = "".join(c for c in str(raw) if c.isprintable() or c == " ")
    return kept.strip()[:QUERY_MAX_LENGTH]


def accounts_matching(*, query: str = "") -> QuerySet[User]:
    """Users whose username, name, address or player name contains ``query`` (case
    ignored), by username; each with ``may_create`` (selectors/access.py's rule:
    staff, superusers, and the ``tournaments.add_tournament`` permission, given to the
    user or to one of their groups) and ``granted`` (given to the user itself)."""
    add = Permission.objects.filter(
        content_type__app_label="tournaments", codename="add_tournament"
    )
    own = User.user_permissions.through.objects.filter(user_id=OuterRef("pk"), permission__in=add)
    group = User.groups.through.objects.filter(user_id=OuterRef("pk"), group__permissions__in=add)
    users = User.objects.annotate(granted=Exists(own), by_group=Exists(group))
    query = search_text(query)
    if query:
        users = users.filter(
            Q(username__icontains=query)
            | Q(first_name__icontains=query)
            | Q(last_name__icontains=query)
            | Q(email__icontains=query)
            | Q(player__name__icontains=query)
        )
    return users.select_related("player").order_by("username")


def may_create(user: User) -> bool:
    """``may_create_tournaments`` for a user read by ``accounts_matching``, without a
    query of its own (the same rule as an expression; a test compares the two)."""
    granted = bool(getattr(user, "granted", False) or getattr(user, "by_group", False))
    return user.is_staff or user.is_superuser or (user.is_active and granted)
