"""Lists said as a sentence says them: "2, 3 and 4" in English, "2., 3. a 4." in Czech
(a round's number is an ordinal there), for a message chosen by ``ngettext`` on the
list's length ("Rounds 2 and 3 were paired", "2. a 3. kolo byla nalosována")."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import pgettext


def words_list(items: Sequence[str]) -> str:
    """``items`` joined with commas and the reader's "and" before the last."""
    if len(items) < 2:
        return "".join(items)
    return pgettext("list", "%(first)s and %(last)s") % {
        "first": ", ".join(items[:-1]),
        "last": items[-1],
    }


def round_numbers(numbers: Sequence[int]) -> str:
    """Round numbers as a sentence's list: "2 and 3" ("2. a 3.")."""
    return words_list([pgettext("round number", "%(n)s") % {"n": n} for n in numbers])


__all__ = ["round_numbers", "words_list"]
