"""Words that Czech says by a player's grammatical gender (Player.gender): "odstoupila"
of a woman, "odstoupil" of a man, "odstoupil(a)" when it is not known. English says
them alike; the message's context (pgettext) names the gender, so that a translation
can tell them apart and tests/test_translations.py can check it does.

The gender is guessed for a new player from a Czech feminine surname (-ová, -á) only as
a default that the director can change (``gender_guess``)."""

from __future__ import annotations

from django.utils.translation import gettext, pgettext_lazy

FEMININE = "f"
MASCULINE = "m"
WITHDRAWN = {
    FEMININE: pgettext_lazy("feminine", "withdrawn"),
    MASCULINE: pgettext_lazy("masculine", "withdrawn"),
}


def withdrawn_word(gender: str) -> str:
    """The "withdrawn" beside a player's name: "odstoupila", "odstoupil", and
    "odstoupil(a)" when the gender is not known."""
    if gender in WITHDRAWN:
        return str(WITHDRAWN[gender])
    return gettext("withdrawn")


def gender_guess(name: str) -> str:
    """A default gender for a new player: feminine for a name of two words or more whose
    last ends in "á" (Nováková, Šťastná), else not known; never masculine by guess.

    >>> gender_guess("Hana Šťastná"), gender_guess("Jan Novák"), gender_guess("Alžběta")
    ('f', '', '')
    """
    words = name.split()
    if len(words) > 1 and words[-1].casefold().endswith("á"):
        return FEMININE
    return ""


__all__ = ["gender_guess", "withdrawn_word"]
