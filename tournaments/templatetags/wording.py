"""Template filters for words said by a player's grammatical gender (wording/gender.py)."""

from __future__ import annotations

from django import template

from tournaments.wording.gender import withdrawn_word as _withdrawn_word

register = template.Library()


@register.filter
def withdrawn_word(gender: object) -> str:
    """``{{ player.gender|withdrawn_word }}``: "odstoupila", "odstoupil", "odstoupil(a)"."""
    return _withdrawn_word(str(gender or ""))
