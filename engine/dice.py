"""Dice anyone can check: the provably fair dice of a game room.

Before a series' first roll the server commits to a secret seed by showing its SHA-256
hash; each player's browser contributes a seed of its own; the dice of roll ``n`` (counted
over the whole series from 0, openings and Lurč's extra rolls included) are an HMAC-SHA256
of the server seed over the client seed and ``n``. When the series ends the server seed is
revealed and anyone can re-derive every roll (``python -m engine dice-check FILE``,
engine.dicecheck) and check the seed against the hash shown at the start.

>>> seed = "00" * 32
>>> fair_roll(seed, "a:b", 0) == fair_roll(seed, "a:b", 0)
True
>>> len(seed_hash(seed))
64
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = [
    "combined_client_seed",
    "die_values",
    "fair_roll",
    "new_server_seed",
    "seed_hash",
    "seed_matches",
]

# 252 = 6 * 42: a byte below it is uniform over the six faces; 252..255 are skipped
_LIMIT = 252


def new_server_seed() -> str:
    """A fresh secret server seed: 32 random bytes from ``secrets``, as 64 hex digits."""
    return secrets.token_hex(32)


def seed_hash(server_seed: str) -> str:
    """The commitment shown before the first roll: SHA-256 (hex) of the seed's UTF-8 text.

    >>> seed_hash("")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(server_seed.encode("utf-8")).hexdigest()


def seed_matches(server_seed: str, committed_hash: str) -> bool:
    """Whether a revealed seed is the one whose hash was committed (case-insensitive hex)."""
    return hmac.compare_digest(seed_hash(server_seed), committed_hash.strip().lower())


def combined_client_seed(white: str, black: str) -> str:
    """The client seed of a room: white's browser seed, a colon, black's (a bot's or an
    absent seed is the empty string).

    >>> combined_client_seed("ab", "")
    'ab:'
    """
    return f"{white}:{black}"


def die_values(server_seed: str, client_seed: str, n: int, count: int) -> tuple[int, ...]:
    """``count`` dice of roll ``n``: the bytes of HMAC-SHA256(key=server seed, message
    ``"{client_seed}:{n}"``), each byte below 252 giving ``byte % 6 + 1`` and the others
    skipped (rejection sampling keeps the faces uniform); when a block runs out, the
    next blocks hash ``"{client_seed}:{n}:{k}"`` for k = 1, 2, ..."""
    if n < 0:
        raise ValueError(f"a roll's number cannot be negative: {n}")
    key = server_seed.encode("utf-8")
    values: list[int] = []
    k = 0
    while len(values) < count:
        message = f"{client_seed}:{n}" if k == 0 else f"{client_seed}:{n}:{k}"
        block = hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()
        for byte in block:
            if byte < _LIMIT:
                values.append(byte % 6 + 1)
                if len(values) == count:
                    break
        k += 1
    return tuple(values)


def fair_roll(server_seed: str, client_seed: str, n: int) -> tuple[int, int]:
    """The two dice of roll ``n`` of a series, in the order they were drawn.

    >>> all(1 <= d <= 6 for d in fair_roll("seed", "x:y", 7))
    True
    """
    first, second = die_values(server_seed, client_seed, n, 2)
    return first, second
