"""Usernames that look like another: "admin" with a Cyrillic "a" is not "admin" to the
database, but is to a reader. A new username is refused when it mixes scripts (Latin
with Cyrillic or Greek letters), or when its skeleton, what it looks like, is the skeleton
of an existing username: NFKC, case folded, and the Cyrillic and Greek letters (and the
digits) that look like Latin ones read as those, after Unicode's confusables (UTS 39),
kept to the alphabets a club's players write in."""

from __future__ import annotations

import unicodedata

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from tournaments.services.errors import ApplicationError

# lower-case look-alikes of Latin letters (after casefold): Cyrillic, Greek, and a few
# Latin letters and digits read as another
LOOK_ALIKES = str.maketrans(
    # Cyrillic
    "\u0430\u0432\u0435\u0451\u0437\u043a\u043c\u043d\u043e\u0440"
    "\u0441\u0442\u0443\u0445\u0455\u0456\u0457\u0458\u04bb\u0501"
    "\u051b\u051d\u04cf\u044c\u043f\u0433\u04af\u0261"
    # Greek
    "\u03b1\u03b2\u03b3\u03b5\u03b7\u03b9\u03ba\u03bd\u03bf\u03c1"
    "\u03c4\u03c5\u03c7\u03c9\u03f2\u03f3\u03b6\u03bc"
    # Latin and digits
    "\u0131\u211301\u01c0",
    # read as
    "abee3kmhopctyxsiijhdqwlbnrygabyenikvoptuxwcjzuiloll",
)


def username_skeleton(name: str) -> str:
    """What a username looks like: two usernames of one skeleton are confused by a reader.

    >>> username_skeleton("\u0430dmin") == username_skeleton("ADMIN")  # a Cyrillic a
    True
    >>> username_skeleton("nova") == username_skeleton("nova1")
    False
    """
    return unicodedata.normalize("NFKC", name).casefold().translate(LOOK_ALIKES)


def username_scripts(name: str) -> set[str]:
    """The scripts of a username's letters (LATIN, CYRILLIC, GREEK...); digits and
    punctuation belong to none."""
    scripts = set()
    for char in unicodedata.normalize("NFKC", name):
        if char.isalpha():
            scripts.add(unicodedata.name(char, "UNKNOWN").split()[0])
    return scripts


def username_check_confusable(*, username: str) -> None:
    """Refuse a new username that mixes scripts, or that looks like an existing one."""
    if len(username_scripts(username)) > 1:
        raise ApplicationError(
            _("Write the username in one alphabet: it mixes letters of several."),
            code="username-mixed-scripts",
            field="username",
        )
    skeleton = username_skeleton(username)
    for other in User.objects.values_list("username", flat=True).iterator():
        if username_skeleton(other) == skeleton:
            raise ApplicationError(
                _("This username looks like an existing one: choose another."),
                code="username-confusable",
                field="username",
            )


__all__ = ["username_check_confusable", "username_scripts", "username_skeleton"]
