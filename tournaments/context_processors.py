"""Template context for every page: the count of results waiting for the signed-in
user's confirmation, for the header (one query, only when the header asks for it)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest

from tournaments.selectors.sheets import waiting_count


def waiting_confirmations(request: HttpRequest) -> dict[str, Callable[[], int]]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # a callable: the template calls it once, pages without the header never do
    return {"waiting_confirmations": lambda: waiting_count(user=user)}


def live_interval(request: HttpRequest) -> dict[str, int]:
    """How often a live page polls its tournament's version (ms; settings.LIVE_POLL_SECONDS,
    10 s by default): templates/tournaments/_live.html."""
    return {"live_interval": int(getattr(settings, "LIVE_POLL_SECONDS", 10) * 1000)}
