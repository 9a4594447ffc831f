"""Names as people see them: players, clubs and tournaments (docs/deploy.md, What protects what).

A name is stored in NFC, without surrounding spaces, and without the invisible
characters that make one name look like another: control characters (NUL, which
PostgreSQL refuses, tabs, newlines), format characters (zero-width spaces and joiners,
right-to-left overrides and isolates, the byte order mark) and line separators. A name
does not start as a spreadsheet formula does (``=``, ``+``, ``-``, ``@``)."""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from tournaments.services.errors import ApplicationError

# Cc control, Cf format (bidi overrides, zero-width), Cs lone surrogates (not UTF-8),
# Zl/Zp line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# What a spreadsheet reads as a formula at a cell's start (and their full-width forms):
# a name "=cmd" or "@SUM(...)" in an exported list runs when the file is opened.
FORMULA_STARTS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20")


def name_clean(value: str, *, field: str = "name", max_length: int | None = None) -> str:
    """The name to store: NFC, stripped; refused (ApplicationError on ``field``) when it is
    empty, too long or holds an invisible or control character."""
    text = unicodedata.normalize("NFC", str(value)).strip()
    for position, char in enumerate(text, start=1):
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise ApplicationError(
                _(
                    "A name may not contain invisible or control characters "
                    "(U+%(code)04X at position %(position)d)."
                ),
                code="name-control-character",
                params={"code": ord(char), "position": position},
                field=field,
            )
    if not text:
        raise ApplicationError(_("A name is needed."), code="name-missing", field=field)
    if text[0] in FORMULA_STARTS:
        raise ApplicationError(
            _("A name may not start with %(char)s (a spreadsheet reads it as a formula)."),
            code="name-formula",
            params={"char": text[0]},
            field=field,
        )
    if max_length is not None and len(text) > max_length:
        raise ApplicationError(
            _("A name has at most %(n)d characters."),
            code="name-too-long",
            params={"n": max_length},
            field=field,
        )
    return text
