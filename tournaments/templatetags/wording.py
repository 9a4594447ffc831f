"""Template filters: words said by a player's grammatical gender (wording/gender.py), and
an account named as the player it is (its player profile's name, else the username)."""

from __future__ import annotations

from django import template

from tournaments.wording.gender import withdrawn_word as _withdrawn_word

register = template.Library()


@register.filter
def withdrawn_word(gender: object) -> str:
    """``{{ player.gender|withdrawn_word }}``: "odstoupila", "odstoupil", "odstoupil(a)"."""
    return _withdrawn_word(str(gender or ""))


@register.filter
def person(user: object) -> str:
    """``{{ sub.submitted_by|person }}``: the player profile's name of an account (select
    ``…__player`` with it), else its username; "?" for nobody."""
    if user is None:
        return "?"
    profile = getattr(user, "player", None)
    if profile is not None:
        return str(profile.name)
    get_username = getattr(user, "get_username", None)
    return str(get_username()) if get_username is not None else str(user)
