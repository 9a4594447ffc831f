"""Finding players by name as people type them: without accents and case ("kucerova"
finds "Kučerová"), and the similar names to warn about before a second player is made.

The folding is done in Python rather than with PostgreSQL's ``unaccent`` (an extension
and a migration): a club's register of a few thousand names is read in one query."""

from __future__ import annotations

import unicodedata
from difflib import SequenceMatcher

from django.db.models import QuerySet

from tournaments.models import Entry, Player, Tournament

SIMILAR_RATIO = 0.85  # "Eva Kucerova" / "Eva Kucerva" (a typo) are similar; "Eva" / "Iva" not


def name_folded(text: str) -> str:
    """The name as compared: no accents, no case, single spaces.

    >>> name_folded("  Eva   KUČEROVÁ ")
    'eva kucerova'
    """
    decomposed = unicodedata.normalize("NFKD", str(text))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def _register(exclude: Tournament | None = None) -> QuerySet[Player]:
    players = Player.objects.select_related("club", "user").order_by("name", "pk")
    if exclude is not None:
        entered = Entry.objects.filter(tournament=exclude).values("player_id")
        players = players.exclude(pk__in=entered)
    return players


def players_matching(
    *, query: str, exclude: Tournament | None = None, limit: int = 10
) -> list[Player]:
    """Players whose name contains every word typed (accent- and case-insensitive);
    names starting with the query first. ``exclude``: leave out a tournament's entries."""
    words = name_folded(query).split()
    if not words:
        return []
    found: list[tuple[bool, str, Player]] = []
    for player in _register(exclude):
        folded = name_folded(player.name)
        if all(w in folded for w in words):
            found.append((not folded.startswith(words[0]), folded, player))
    found.sort(key=lambda item: (item[0], item[1], item[2].pk))
    return [player for _, _, player in found[:limit]]


def players_similar(*, name: str, limit: int = 5) -> list[Player]:
    """Existing players whose name may be the same person as ``name``: equal without
    accents and case, the same words in another order, or a letter or two apart."""
    target = name_folded(name)
    if not target:
        return []
    words = sorted(target.split())
    scored: list[tuple[float, str, Player]] = []
    for player in _register():
        folded = name_folded(player.name)
        if folded == target or sorted(folded.split()) == words:
            scored.append((2.0, folded, player))
            continue
        matcher = SequenceMatcher(None, target, folded)
        if matcher.real_quick_ratio() >= SIMILAR_RATIO and matcher.ratio() >= SIMILAR_RATIO:
            scored.append((matcher.ratio(), folded, player))
    scored.sort(key=lambda item: (-item[0], item[1], item[2].pk))
    return [player for _, _, player in scored[:limit]]


__all__ = ["name_folded", "players_matching", "players_similar"]
