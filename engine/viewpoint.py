"""Moves written in the other side's numbering: what a board drawn from one player's side
shows of the opponent's turns.

A record writes every move in the mover's own numbering (RULES "Point numbering",
NOTATION 1). A page that draws the board from a player's side writes the opponent's turns
in that player's numbering instead, so that the numbers under the points and the numbers
of the moves agree. The map is the variant's (``Variant.opp_map``): ``25 - p`` in short
backgammon, ``p ± 12`` in long nardy, Lurč's crossing routes (Z2). ``bar`` and ``off``
stay as they are.

>>> movetext_for("64: 24/18/14", "long", mover=0, viewer=1)
'64: 12/6/2'
>>> movetext_for("13/7* 8/7", "short", mover=1, viewer=0)
'12/18* 17/18'
"""

from __future__ import annotations

import re

from engine.variants import variant_named

__all__ = ["movetext_for", "point_for"]

_MOVE_WORD = re.compile(r"(?:bar|off|[0-9]+)\*?(?:/(?:bar|off|[0-9]+)\*?)+(?:\([0-9]+\))?")
_POINT = re.compile(r"(?<![0-9(])([0-9]+)(?![0-9)])")


def point_for(variant: str, point: int, *, mover: int, viewer: int) -> int:
    """The mover's point ``point`` (1-24; 0 off and 25 bar stay) in the viewer's numbering.

    >>> point_for("short", 24, mover=0, viewer=1), point_for("short", 0, mover=0, viewer=1)
    (1, 0)
    """
    if mover == viewer or not 1 <= point <= 24:
        return point
    return variant_named(variant).opp_map[mover][point]


def movetext_for(text: str, variant: str, *, mover: int, viewer: int) -> str:
    """A turn's movetext (``"64: 24/18 13/7*(2)"`` or just its moves) written by ``mover``
    in ``viewer``'s numbering; the dice, repeats, hit marks and words are kept. An unknown
    variant raises the engine's error for it."""
    if mover == viewer:
        return text
    table = variant_named(variant).opp_map[mover]

    def point(m: re.Match[str]) -> str:
        number = int(m.group(1))
        return str(table[number]) if 1 <= number <= 24 else m.group(1)

    def word(m: re.Match[str]) -> str:
        return _POINT.sub(point, m.group(0))

    return " ".join(
        _MOVE_WORD.sub(word, part) if _MOVE_WORD.fullmatch(part) else part
        for part in text.split(" ")
    )
