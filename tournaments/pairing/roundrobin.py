"""Round robin schedules from Berger tables (FIDE Handbook C.05, Annex 1).

Players are numbered 1..n in seeding order. With an odd number of players a dummy
number n + 1 is added, and whoever meets the dummy has the bye that round, so every
player has exactly one bye. The schedule is a function of the seeding alone.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from tournaments.pairing.types import PairingError

T = TypeVar("T", bound=Hashable)

Pair = tuple[T | None, T | None]


def berger_numbers(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for an even number ``n`` of seats, as 1-based seat numbers.

    The first-named seat of each pair is the one that moves first (White in chess).
    Round 1 is 1-n, 2-(n-1), …; each later round adds n/2 to the seats 1..n-1
    (modulo n-1), and seat n alternates between first and second place.

    >>> berger_numbers(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    """
    if n < 2 or n % 2:
        raise PairingError(
            f"a Berger table needs an even number of seats, not {n}",
            code="berger-seats",
            params={"seats": n},
        )
    half = n // 2
    base = [(i, n + 1 - i) for i in range(1, half + 1)]
    rounds = []
    for r in range(n - 1):

        def shift(seat: int, r: int = r) -> int:
            return seat if seat == n else (seat - 1 + r * half) % (n - 1) + 1

        pairs = [(shift(a), shift(b)) for a, b in base]
        # Seat n sits at the first table; it is second-named in odd rounds (1, 3, …).
        first, last = pairs[0]
        pairs[0] = (first, last) if r % 2 == 0 else (last, first)
        rounds.append(pairs)
    return rounds


def berger_schedule(players: Sequence[T], *, double: bool = False) -> list[list[Pair[T]]]:
    """Every round of a round robin, as ``(first, second)`` pairs in table order.

    ``players`` is the seeding (seat 1 first). A bye is ``(player, None)``; with an even
    number of players there are none. ``double=True`` plays the table twice, the second
    cycle with every pair in swapped order.

    >>> berger_schedule(["A", "B", "C"])
    [[('A', None), ('B', 'C')], [('C', None), ('A', 'B')], [('B', None), ('C', 'A')]]
    """
    if len(players) < 2:
        raise PairingError("a round robin needs at least two players", code="too-few-players")
    if len(set(players)) != len(players):
        raise PairingError("a player appears twice in the round robin", code="player-twice")
    seats = len(players) + len(players) % 2
    seat_player: dict[int, T | None] = dict(enumerate(players, start=1))

    def pair(a: int, b: int) -> Pair[T]:
        first, second = seat_player.get(a), seat_player.get(b)
        return (second, None) if first is None else (first, second)

    single = [[pair(a, b) for a, b in rnd] for rnd in berger_numbers(seats)]
    if not double:
        return single
    second_cycle: list[list[Pair[T]]] = [
        [(a, b) if b is None else (b, a) for a, b in rnd] for rnd in single
    ]
    return single + second_cycle
