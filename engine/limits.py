"""How much a record may hold before the reader refuses it (issue 11).

The reader is linear in its input, so these limits bound the time and the memory of one
call of :func:`engine.read_records` on text from a stranger (an upload, an API call).
The defaults are generous for real play and safe for a web worker:

- ``max_record_chars`` 1,000,000: a long-nardy game is 1-3 KB written, so a record of
  some 300-1,000 games; reading it takes well under a second and some tens of MB.
- ``max_tags`` 100 a game: NOTATION.md knows 18 tags; a hundred leaves room for notes.
- ``max_line_chars`` 10,000: a tag line or a line of movetext is under 200 characters
  in practice (a whole game written on one line is some 3,000).
- ``max_games`` 1,000 a file: a season of a club's games.

The command line (``python -m engine verify``) reads without limits, game by game.
"""

from __future__ import annotations

# A plain class, not a dataclass: ``import dataclasses`` (it pulls in ``inspect``) and
# each dataclass built at import were most of ``python -m engine verify``'s start-up
# (issue 12). Its instances are values: never changed after they are made.


class ReadLimits:
    """The reader's limits; ``None`` switches one off (the command line's choice)."""

    __slots__ = ("max_games", "max_line_chars", "max_record_chars", "max_tags")

    def __init__(
        self,
        max_record_chars: int | None = 1_000_000,
        max_tags: int | None = 100,
        max_line_chars: int | None = 10_000,
        max_games: int | None = 1_000,
    ) -> None:
        self.max_record_chars = max_record_chars
        self.max_tags = max_tags
        self.max_line_chars = max_line_chars
        self.max_games = max_games

    @classmethod
    def unlimited(cls) -> ReadLimits:
        """No limit at all: for trusted files, read as a stream (the command line)."""
        return cls(None, None, None, None)

    def _values(self) -> tuple[int | None, int | None, int | None, int | None]:
        return self.max_record_chars, self.max_tags, self.max_line_chars, self.max_games

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReadLimits):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        given = ", ".join(f"{n}={v!r}" for n, v in zip(LIMIT_NAMES, self._values(), strict=True))
        return f"ReadLimits({given})"


# The limits by name, in the order ``ReadLimits`` takes them.
LIMIT_NAMES = ("max_record_chars", "max_tags", "max_line_chars", "max_games")
DEFAULT_LIMITS = ReadLimits()
UNLIMITED = ReadLimits.unlimited()
