"""Elimination brackets: pure, no database."""

import random
from collections import Counter

import pytest

from tournaments.pairing import (
    Bracket,
    BracketState,
    Bye,
    LoserOf,
    PairingError,
    Seed,
    WinnerOf,
    double_elimination,
    drop_orders,
    length_for,
    seeding_order,
    single_elimination,
)

# The standard seeded order, as printed on bracket sheets (1 v 16, 8 v 9, …).
STANDARD_8 = [1, 8, 4, 5, 2, 7, 3, 6]
STANDARD_16 = [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def names(n: int) -> list[str]:
    return [f"S{i}" for i in range(1, n + 1)]


def play_out(bracket: Bracket[str], rng: random.Random) -> tuple[BracketState[str], list[str]]:
    """Advance with random winners until nothing is left to play; the played ids too."""
    results: dict[str, int] = {}
    while True:
        state = bracket.advance(results)
        ready = state.ready()
        if not ready:
            return state, list(results)
        for m in ready:
            results[m.match.id] = rng.randrange(2)


def losses(state: BracketState[str]) -> Counter[str]:
    return Counter(m.loser for m in state.matches.values() if m.status == "played" and m.loser)


def test_standard_seeding_order() -> None:
    assert seeding_order(2) == [1, 2]
    assert seeding_order(8) == STANDARD_8
    assert seeding_order(16) == STANDARD_16
    with pytest.raises(PairingError):
        seeding_order(12)


def test_eight_and_sixteen_first_round() -> None:
    for size, standard in ((8, STANDARD_8), (16, STANDARD_16)):
        first = [m for m in single_elimination(names(size)).matches if m.round == 1]
        numbers = [s.number for m in first for s in m.sources if isinstance(s, Seed)]
        assert numbers == standard
        assert [m.id for m in first] == [f"W1-{k}" for k in range(1, size // 2 + 1)]


@pytest.mark.parametrize("n", range(2, 65))
def test_single_elimination_structure(n: int) -> None:
    bracket = single_elimination(names(n))
    slots = 1 << (n - 1).bit_length()
    first = [m for m in bracket.matches if m.round == 1]
    assert len(first) == slots // 2
    assert len(bracket.matches) == slots - 1
    sources = [s for m in first for s in m.sources]
    seeds = sorted(s.number for s in sources if isinstance(s, Seed))
    assert seeds == list(range(1, n + 1))
    assert sum(isinstance(s, Bye) for s in sources) == slots - n
    bye_seeds = sorted(
        s.number for m in first if Bye() in m.sources for s in m.sources if isinstance(s, Seed)
    )
    assert bye_seeds == list(range(1, slots - n + 1)), "byes go to the top seeds"
    earlier: set[str] = set()
    for m in bracket.matches:
        for s in m.sources:
            if isinstance(s, WinnerOf | LoserOf):
                assert s.match in earlier, "a match only depends on earlier ones"
        earlier.add(m.id)
    assert len(earlier) == len(bracket.matches)
    assert all(len(m.id) <= 20 for m in bracket.matches), "fits Series.slot"


@pytest.mark.parametrize("n", range(2, 65))
def test_single_elimination_has_one_champion(n: int) -> None:
    rng = random.Random(n)
    for _ in range(3):
        state, played = play_out(single_elimination(names(n)), rng)
        assert state.champion in names(n)
        assert len(played) == n - 1
        lost = losses(state)
        assert state.champion not in lost
        assert set(lost) == set(names(n)) - {state.champion}
        assert set(lost.values()) == {1}


def test_byes_resolve_by_themselves() -> None:
    bracket = single_elimination(names(5))
    state = bracket.advance({})
    # 8 slots: 1, 2 and 3 have byes, so 4 v 5 and 2 v 3 can be played at once.
    assert [m.match.id for m in state.ready()] == ["W1-2", "W2-2"]
    assert state.matches["W2-2"].players == ("S2", "S3")
    assert state.matches["W1-1"].status == "walkover"
    assert state.matches["W1-1"].winner == "S1"
    assert state.matches["W2-1"].status == "waiting"
    state = bracket.advance({"W1-2": 1})
    assert state.matches["W2-1"].players == ("S1", "S5")
    assert [m.match.id for m in state.ready()] == ["W2-1", "W2-2"]


def test_third_place() -> None:
    bracket = single_elimination(names(4), third_place=True)
    assert bracket.third_place == "P3"
    p3 = bracket.match("P3")
    assert p3.sources == (LoserOf("W1-1"), LoserOf("W1-2")) and p3.stage == "third-place"
    state = bracket.advance({"W1-1": 0, "W1-2": 1, "P3": 0, "W2-1": 1})
    assert (state.champion, state.third_place) == ("S3", "S4")
    for n in range(3, 33):
        state, played = play_out(single_elimination(names(n), third_place=True), random.Random(n))
        assert state.third_place is not None and state.third_place != state.champion
        assert len(played) == n - 1 + (n >= 4)


def test_consolation_for_first_round_losers() -> None:
    bracket = single_elimination(names(6), consolation=True)
    # 8 slots: 1 and 2 have byes; 4-5 and 3-6 are real; their losers meet in C1-1.
    c = [m for m in bracket.matches if m.bracket == "consolation"]
    assert [(m.id, m.sources) for m in c] == [("C1-1", (LoserOf("W1-2"), LoserOf("W1-4")))]
    assert c[0].stage == "consolation-final"
    state = bracket.advance({"W1-2": 0, "W1-4": 1, "C1-1": 1})
    assert state.consolation_winner == "S3"
    for n in range(3, 65):
        real_first_round = n - (1 << (n - 1).bit_length()) // 2
        if real_first_round < 2:  # 3, 5, 9, 17, 33: a single first-round series
            with pytest.raises(PairingError, match="at least two first-round series"):
                single_elimination(names(n), consolation=True)
            continue
        state, played = play_out(single_elimination(names(n), consolation=True), random.Random(n))
        first_round_losers = {
            m.loser for m in state.matches.values() if m.match.id.startswith("W1-") and m.loser
        }
        assert len(first_round_losers) == real_first_round
        assert state.consolation_winner in first_round_losers
        assert len(played) == (n - 1) + (real_first_round - 1)


def test_stages_and_lengths() -> None:
    stages = {m.id: m.stage for m in single_elimination(names(16), third_place=True).matches}
    assert stages["W1-1"] == "round-1"
    assert stages["W2-1"] == "quarterfinal"
    assert stages["W3-2"] == "semifinal"
    assert stages["W4-1"] == "final"
    assert stages["P3"] == "third-place"
    lengths = {"final": 9, "semifinal": 7}
    assert [length_for(stages[i], lengths, 5) for i in ("W1-1", "W3-1", "W4-1")] == [5, 7, 9]
    double = {m.id: m.stage for m in double_elimination(names(8)).matches}
    assert double["W3-1"] == "winners-final"
    assert double["L4-1"] == "losers-final"
    assert double["L2-1"] == "losers-round-2"
    assert double["GF-1"] == double["GF-2"] == "final"


@pytest.mark.parametrize(
    ("n", "per_round"),
    [
        (2, []),
        (3, [1, 1]),
        (4, [1, 1]),
        (5, [2, 2, 1, 1]),
        (6, [2, 2, 1, 1]),
        (7, [2, 2, 1, 1]),
        (8, [2, 2, 1, 1]),
        (16, [4, 4, 2, 2, 1, 1]),
    ],
)
def test_losers_bracket_sizes(n: int, per_round: list[int]) -> None:
    bracket = double_elimination(names(n))
    rounds = Counter(m.round for m in bracket.matches if m.bracket == "losers")
    assert [rounds[r] for r in sorted(rounds)] == per_round
    winners = [m for m in bracket.matches if m.bracket == "winners"]
    assert len(winners) == (1 << (n - 1).bit_length()) - 1
    # Losers' round 1: the losers of winners' round 1, two by two.
    l1 = [m for m in bracket.matches if m.bracket == "losers" and m.round == 1]
    assert [m.sources for m in l1] == [
        (LoserOf(f"W1-{2 * k - 1}"), LoserOf(f"W1-{2 * k}")) for k in range(1, len(l1) + 1)
    ]


def test_eight_player_drop_order() -> None:
    """Losers of winners' round 2 drop in reverse, so that W2-1's loser (from the top
    half) meets a survivor of the bottom half's first-round losers."""
    bracket = double_elimination(names(8))
    l2 = [m.sources for m in bracket.matches if m.bracket == "losers" and m.round == 2]
    assert l2 == [(LoserOf("W2-2"), WinnerOf("L1-1")), (LoserOf("W2-1"), WinnerOf("L1-2"))]
    assert drop_orders(8) == ["reverse", "natural"]
    assert drop_orders(64) == ["reverse", "half_shift", "reverse_half_shift", "reverse", "natural"]


@pytest.mark.parametrize("n", range(2, 65))
def test_double_elimination_has_one_champion(n: int) -> None:
    rng = random.Random(1000 + n)
    for _ in range(3):
        bracket = double_elimination(names(n))
        state, played = play_out(bracket, rng)
        champion = state.champion
        assert champion in names(n)
        lost = losses(state)
        reset = state.matches["GF-2"].status == "played"
        assert len(played) == 2 * n - 2 + reset
        if reset:
            assert state.matches["GF-2"].winner == champion
            assert lost[champion] == 1
        else:
            assert state.matches["GF-2"].status == "skipped"
            assert champion not in lost, "without a reset the champion is undefeated"
        others = set(names(n)) - {champion}
        assert all(lost[p] == 2 for p in others), "everyone else is out after two losses"


def test_double_elimination_without_reset() -> None:
    bracket = double_elimination(names(4), bracket_reset=False)
    assert bracket.finals == ("GF-1",)
    results = {"W1-1": 0, "W1-2": 0, "W2-1": 0, "L1-1": 0, "L2-1": 0, "GF-1": 1}
    assert bracket.advance(results).champion == "S2"


@pytest.mark.parametrize("n", [8, 12, 16, 24, 32, 64])
def test_no_immediate_rematch_in_the_losers_bracket(n: int) -> None:
    """A player dropping from winners' round r >= 2 never meets, in his first losers'
    match, the player he beat in winners' round r - 1 (the losers' final excepted: it has
    one survivor and one dropper, no choice)."""
    rng = random.Random(n)
    for _ in range(20):
        bracket = double_elimination(names(n))
        state, _ = play_out(bracket, rng)
        beaten_by = {
            (m.match.round, m.winner): m.loser
            for m in state.matches.values()
            if m.match.bracket == "winners" and m.status == "played"
        }
        final = max(m.round for m in bracket.matches if m.bracket == "losers")
        for m in state.matches.values():
            dropper_source = m.match.sources[0]
            if m.match.bracket != "losers" or m.match.round in (1, final) or m.status != "played":
                continue
            if not isinstance(dropper_source, LoserOf):
                continue
            w_round = int(dropper_source.match[1:].split("-")[0])
            dropper, survivor = m.players
            assert beaten_by.get((w_round - 1, dropper)) != survivor


def test_bracket_reset_happens_only_when_needed() -> None:
    bracket = double_elimination(names(2))
    assert [m.id for m in bracket.matches] == ["W1-1", "GF-1", "GF-2"]
    assert bracket.match("GF-1").sources == (WinnerOf("W1-1"), LoserOf("W1-1"))
    no_reset = bracket.advance({"W1-1": 0, "GF-1": 0})
    assert no_reset.champion == "S1" and no_reset.matches["GF-2"].status == "skipped"
    reset = bracket.advance({"W1-1": 0, "GF-1": 1})
    assert reset.champion is None and [m.match.id for m in reset.ready()] == ["GF-2"]
    assert bracket.advance({"W1-1": 0, "GF-1": 1, "GF-2": 1}).champion == "S2"
    with pytest.raises(PairingError, match="not needed"):
        bracket.advance({"W1-1": 0, "GF-1": 0, "GF-2": 1})


def test_results_that_do_not_fit() -> None:
    bracket = single_elimination(names(3))
    with pytest.raises(PairingError, match="not in this bracket"):
        bracket.advance({"W9-1": 0})
    with pytest.raises(PairingError, match="0 or 1"):
        bracket.advance({"W1-2": 2})
    with pytest.raises(PairingError, match="bye"):
        bracket.advance({"W1-1": 0})
    with pytest.raises(PairingError, match="not ready"):
        bracket.advance({"W2-1": 0})
    with pytest.raises(PairingError):
        single_elimination(["alone"])
    with pytest.raises(PairingError):
        double_elimination(["A", "B", "A"])
