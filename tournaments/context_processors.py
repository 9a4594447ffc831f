"""Template context for every page: the count of results waiting for the signed-in
user's confirmation, for the header (one query, only when the header asks for it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from tournaments.selectors.sheets import waiting_count
from tournaments.services.online.room_lists import user_open_rooms


def waiting_confirmations(request: HttpRequest) -> dict[str, Callable[[], Any]]:
    """Also the user's tournament game rooms open now (room id, tournament's name): the
    header's notice that a room opened for them (services/online/room_lists.py)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # a callable: the template calls it once, pages without the header never do
    return {"waiting_confirmations": lambda: waiting_count(user=user),
            "online_rooms": lambda: user_open_rooms(user_id=user.pk)}  # fmt: skip


def live_interval(request: HttpRequest) -> dict[str, int]:
    """How often a live page polls its tournament's version (ms; settings.LIVE_POLL_SECONDS,
    10 s by default): templates/tournaments/_live.html."""
    return {"live_interval": int(getattr(settings, "LIVE_POLL_SECONDS", 10) * 1000)}
