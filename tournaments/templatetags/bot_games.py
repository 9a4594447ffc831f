"""The games against the bot on a player's page: seen by the player's own account only,
as the bot game pages are (views/play.py); anonymous copies of the page are cached, and
an anonymous visitor sees none."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.selectors.botgames import BotGameRow, user_bot_games

register = template.Library()


@register.simple_tag
def own_bot_games(player: Any, user: Any) -> list[BotGameRow]:
    """The bot games of ``player``'s account when ``user`` is that account, else none."""
    if player.user_id is None or getattr(user, "pk", None) != player.user_id:
        return []
    return user_bot_games(user)
