"""The provably fair dice of a game room (engine/dice.py)."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from engine.dice import (
    combined_client_seed,
    die_values,
    fair_roll,
    new_server_seed,
    seed_hash,
    seed_matches,
)

SEED = "5eed" * 16


def test_same_seed_client_seed_and_number_give_the_same_dice() -> None:
    assert fair_roll(SEED, "a:b", 12) == fair_roll(SEED, "a:b", 12)


def test_the_dice_follow_the_published_hmac() -> None:
    # re-derived here from the contract's words, not from the module's code
    digest = hmac.new(SEED.encode(), b"c:0", hashlib.sha256).digest()
    faces = [b % 6 + 1 for b in digest if b < 252][:2]
    assert fair_roll(SEED, "c", 0) == tuple(faces)


def test_another_number_or_seed_changes_the_dice() -> None:
    rolls = [fair_roll(SEED, "a:b", n) for n in range(40)]
    assert len(set(rolls)) > 15
    other_client = [fair_roll(SEED, "a:c", n) for n in range(40)]
    other_server = [fair_roll(new_server_seed(), "a:b", n) for n in range(40)]
    assert rolls != other_client
    assert rolls != other_server


def test_faces_are_uniform_chi_square() -> None:
    counts: Counter[int] = Counter()
    pairs: Counter[tuple[int, int]] = Counter()
    rolls = 30_000
    for n in range(rolls):
        a, b = fair_roll(SEED, "x:y", n)
        counts[a] += 1
        counts[b] += 1
        pairs[(a, b)] += 1
    expected = 2 * rolls / 6
    chi = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    # 5 degrees of freedom: P(chi2 > 20.5) = 0.001
    assert chi < 20.5, chi
    expected_pair = rolls / 36
    chi_pairs = sum(
        (pairs[(a, b)] - expected_pair) ** 2 / expected_pair
        for a in range(1, 7)
        for b in range(1, 7)
    )
    # 35 degrees of freedom: P(chi2 > 66.6) = 0.001
    assert chi_pairs < 66.6, chi_pairs


def test_rejection_uses_more_blocks_when_one_runs_out() -> None:
    values = die_values(SEED, "a:b", 3, 100)
    assert len(values) == 100
    assert all(1 <= v <= 6 for v in values)
    assert values[:2] == fair_roll(SEED, "a:b", 3)


def test_the_hash_commits_to_the_seed() -> None:
    seed = new_server_seed()
    assert len(seed) == 64
    int(seed, 16)
    assert seed != new_server_seed()
    committed = seed_hash(seed)
    assert committed == hashlib.sha256(seed.encode()).hexdigest()
    assert seed_matches(seed, committed)
    assert seed_matches(seed, committed.upper())
    assert not seed_matches(seed[:-1] + ("0" if seed[-1] != "0" else "1"), committed)


def test_client_seed_joins_both_sides() -> None:
    assert combined_client_seed("ab", "cd") == "ab:cd"
    assert combined_client_seed("", "") == ":"


def test_negative_roll_number_is_refused() -> None:
    with pytest.raises(ValueError):
        fair_roll(SEED, "", -1)
