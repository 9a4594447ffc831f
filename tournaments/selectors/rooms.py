"""Reads of the game rooms shared by the room services and the lobby's selectors
(docs/online.md): a seat's name, the challenges a user may see."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import Challenge, ChallengeStatus, Room
from tournaments.selectors.access import User, signed_in


def seat_name(room: Room, seat: str) -> str:
    """The name of seat ``a`` or ``b``: the user's username, or ``Bot (<level>)``."""
    user = getattr(room, f"{seat}_user")
    return user.get_username() if user is not None else f"Bot ({getattr(room, f'{seat}_bot')})"


def challenges_for(user: User | None) -> QuerySet[Challenge]:
    """The open challenges ``user`` may see in the lobby: open ones (no opponent, no link,
    not to the bot), those to the user and the user's own."""
    player = signed_in(user)
    mine = Q(creator_id=player.pk) | Q(opponent_id=player.pk) if player else Q(pk__in=[])
    public = Q(opponent__isnull=True, token="", bot_level="")
    return Challenge.objects.filter(
        Q(status=ChallengeStatus.OPEN) & (public | mine)
    ).select_related("creator", "opponent")
