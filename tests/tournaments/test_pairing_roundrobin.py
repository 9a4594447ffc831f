"""Round robin schedules (Berger tables): pure, no database."""

import ast
import sys
from collections import Counter
from pathlib import Path

import pytest

from tournaments.pairing import PairingError, berger_numbers, berger_schedule

# FIDE Handbook C.05 Annex 1 (Berger tables for round-robin tournaments), 5 or 6 players.
FIDE_BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def test_berger_numbers_match_the_fide_tables() -> None:
    assert berger_numbers(4) == FIDE_BERGER_4
    assert berger_numbers(6) == FIDE_BERGER_6


def test_odd_field_uses_the_last_seat_as_the_bye() -> None:
    """5 players: the FIDE table for 6, whoever meets seat 6 has the bye (listed first)."""
    assert berger_schedule([1, 2, 3, 4, 5]) == [
        [(1, None), (2, 5), (3, 4)],
        [(4, None), (5, 3), (1, 2)],
        [(2, None), (3, 1), (4, 5)],
        [(5, None), (1, 4), (2, 3)],
        [(3, None), (4, 2), (5, 1)],
    ]


def rounds_expected(n: int, double: bool) -> int:
    single = n - 1 if n % 2 == 0 else n
    return 2 * single if double else single


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("n", range(2, 21))
def test_schedule_properties(n: int, double: bool) -> None:
    players = [f"P{i}" for i in range(1, n + 1)]
    schedule = berger_schedule(players, double=double)
    assert len(schedule) == rounds_expected(n, double)

    meetings: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for rnd in schedule:
        seen = [p for pair in rnd for p in pair if p is not None]
        assert len(seen) == len(set(seen)), "a player plays twice in one round"
        assert sorted(seen) == sorted(players), "every player is at a table (or has the bye)"
        round_byes = [a for a, b in rnd if b is None]
        assert len(round_byes) == n % 2
        assert all(a is not None for a, _ in rnd)
        byes.update(x for x in round_byes if x is not None)
        meetings.update(frozenset((a, b)) for a, b in rnd if a is not None and b is not None)

    times = 2 if double else 1
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {times}
    if n % 2:
        assert byes == Counter({p: times for p in players})
    else:
        assert not byes

    if double:
        half = len(schedule) // 2
        first, second = schedule[:half], schedule[half:]
        for r1, r2 in zip(first, second, strict=True):
            assert r2 == [(a, b) if b is None else (b, a) for a, b in r1]


@pytest.mark.parametrize("n", range(2, 21, 2))
def test_first_named_is_balanced(n: int) -> None:
    """Berger tables give every player n/2 or n/2 - 1 games as the first-named."""
    first = Counter(a for rnd in berger_schedule(list(range(n))) for a, _ in rnd)
    assert set(first.values()) <= {n // 2, n // 2 - 1}


def test_same_seeding_same_schedule() -> None:
    players = ["Aliyev", "Babayev", "Celik", "Demir", "Ersoy", "Farzaliyev", "Guliyev"]
    assert berger_schedule(players) == berger_schedule(list(players))
    numbers = berger_schedule(list(range(1, 8)))
    names = [
        [(players[a - 1], None if b is None else players[b - 1]) for a, b in r] for r in numbers
    ]
    assert berger_schedule(players) == names


def test_bad_input() -> None:
    with pytest.raises(PairingError):
        berger_schedule(["alone"])
    with pytest.raises(PairingError):
        berger_schedule(["A", "B", "A"])
    with pytest.raises(PairingError):
        berger_numbers(5)


def test_pairing_package_is_framework_free() -> None:
    """tournaments/pairing imports only the standard library, networkx and itself."""
    package = Path(__file__).resolve().parents[2] / "tournaments" / "pairing"
    offenders = []
    for module in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if not (
                    top in sys.stdlib_module_names
                    or top == "networkx"
                    or name.startswith("tournaments.pairing")
                ):
                    offenders.append(f"{module.name}:{node.lineno}: {name}")
    assert offenders == []
