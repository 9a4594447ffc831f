"""Template context for every page: the count of results waiting for the signed-in
user's confirmation, for the header (one query, only when the header asks for it)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest

from tournaments.selectors.sheets import waiting_count


def waiting_confirmations(request: HttpRequest) -> dict[str, Callable[[], int]]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # a callable: the template calls it once, pages without the header never do
    return {"waiting_confirmations": lambda: waiting_count(user=user)}
