"""How much a record may hold before the reader refuses it (docs/deploy.md, What protects what).

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

from engine.values import Value


class ReadLimits(Value):
    """The reader's limits; ``None`` switches one off (the command line's choice)."""

    max_record_chars: int | None = 1_000_000
    max_tags: int | None = 100
    max_line_chars: int | None = 10_000
    max_games: int | None = 1_000

    @classmethod
    def unlimited(cls) -> ReadLimits:
        """No limit at all: for trusted files, read as a stream (the command line)."""
        return cls(None, None, None, None)


# The limits by name, in the order ``ReadLimits`` takes them.
LIMIT_NAMES = ReadLimits._fields
DEFAULT_LIMITS = ReadLimits()
UNLIMITED = ReadLimits.unlimited()
