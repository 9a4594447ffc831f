"""Swiss pairings: pure, no database. Hand-checked examples, brute force on small fields,
and random whole tournaments."""

import random
from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import networkx as nx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.pairing import PairingError, SwissPairing, SwissPlayer, pair_swiss_round, swiss
from tournaments.pairing.types import FloatDirection

Pairs = list[tuple[int, int]]


def player(
    n: int,
    score: float | Decimal = 0,
    opponents: Sequence[int] = (),
    *,
    had_bye: bool = False,
    floats: tuple[FloatDirection | None, ...] = (),
) -> SwissPlayer[int]:
    """Player ``n``, ranked ``n`` (pairing number)."""
    return SwissPlayer(n, score, n, had_bye, frozenset(opponents), floats)


def pairs_of(pairing: SwissPairing[int]) -> Pairs:
    return [(p.first, p.second) for p in pairing.pairs]


# Hand-checked against the FIDE Dutch System (FIDE Handbook C.04.3; the procedure as in
# the older text of the same rules, C.04.1 "C.4-C.6": put the highest p players of the
# score bracket in S1 and the others in S2, pair S1[i] with S2[i]; a player left unpaired
# moves down to the next bracket and is paired first there, A.3; a rematch is not allowed,
# B.1, so the next transposition of S2 is tried, C.7). Nardy has no colour allocation here,
# so the examples were chosen where colours cannot change who meets whom.


def test_dutch_round_one() -> None:
    """8 players, round 1: S1 = 1-4, S2 = 5-8: 1-5, 2-6, 3-7, 4-8."""
    pairing = pair_swiss_round([player(n) for n in range(1, 9)])
    assert pairs_of(pairing) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert pairing.bye is None and pairing.floats == 0


def test_dutch_round_two_when_the_favourites_win() -> None:
    """After 1-5, 2-6, 3-7, 4-8 all won by the higher seed: brackets {1,2,3,4} and
    {5,6,7,8}, each split in halves: 1-3, 2-4, 5-7, 6-8."""
    opponents = {1: [5], 2: [6], 3: [7], 4: [8], 5: [1], 6: [2], 7: [3], 8: [4]}
    players = [player(n, 1 if n <= 4 else 0, opponents[n]) for n in range(1, 9)]
    assert pairs_of(pair_swiss_round(players)) == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_dutch_round_two_with_a_downfloater() -> None:
    """6 players, round 1 was 1-4, 2-5, 3-6; 1 and 2 won, 6 beat 3.

    Bracket 1 point {1, 2, 6}: S1 = {1}, S2 = {2, 6}: 1-2, and 6 moves down.
    Bracket 0 points {6 | 3, 4, 5}: the moved-down 6 is paired first, with the top of the
    residents; 6-3 is a rematch, so the next transposition gives 6-4; remainder 3-5."""
    opponents = {1: [4], 2: [5], 3: [6], 4: [1], 5: [2], 6: [3]}
    scores = {1: 1, 2: 1, 6: 1, 3: 0, 4: 0, 5: 0}
    pairing = pair_swiss_round([player(n, scores[n], opponents[n]) for n in range(1, 7)])
    assert pairs_of(pairing) == [(1, 2), (6, 4), (3, 5)]
    float_pair = pairing.pairs[1]
    assert (float_pair.floated_down, float_pair.floated_up) == (6, 4)
    assert "odd number of players" in float_pair.reason
    assert pairing.floats == 1


def test_dutch_bye_goes_to_the_lowest_ranked() -> None:
    """5 players, round 1: the bye to 5 (C.04.1 c: lowest score, then lowest ranked),
    then 1-3, 2-4."""
    pairing = pair_swiss_round([player(n) for n in range(1, 6)])
    assert pairing.bye == 5
    assert pairs_of(pairing) == [(1, 3), (2, 4)]
    assert pairing.bye_reason is not None and "lowest-placed" in pairing.bye_reason


def test_bye_skips_players_who_had_one_and_stays_in_the_lowest_group() -> None:
    players = [
        player(1, 2),
        player(2, 1),
        player(3, 1),
        player(4, 0, had_bye=True),
        player(5, 0, had_bye=True),
    ]
    pairing = pair_swiss_round(players)
    assert pairing.bye == 3


def test_float_history_moves_the_float_to_someone_else() -> None:
    """One float is needed from {1,2,3} to {4,5,6}. By default 3 floats down to meet 4;
    if 3 floated down last round, 2 floats instead; if 4 floated up last round, 5 meets
    the downfloater instead."""
    base = [player(n, 1 if n <= 3 else 0) for n in range(1, 7)]
    assert pairs_of(pair_swiss_round(base)) == [(1, 2), (3, 4), (5, 6)]
    again = [player(3, 1, floats=("down",)) if p.id == 3 else p for p in base]
    assert pairs_of(pair_swiss_round(again)) == [(1, 3), (2, 4), (5, 6)]
    up = [player(4, 0, floats=(None, "up")) if p.id == 4 else p for p in base]
    assert pairs_of(pair_swiss_round(up)) == [(1, 2), (3, 5), (4, 6)]


def test_prohibited_pair_is_never_made() -> None:
    players = [player(n, 1 if n <= 2 else 0) for n in range(1, 5)]
    assert pairs_of(pair_swiss_round(players)) == [(1, 2), (3, 4)]
    pairing = pair_swiss_round(players, prohibited={frozenset((1, 2))})
    assert pairs_of(pairing) == [(1, 3), (2, 4)]
    assert "cannot all be paired among themselves" in pairing.pairs[0].reason


def test_half_points_and_mixed_score_types() -> None:
    players = [player(1, Decimal("1.5")), player(2, 1.5), player(3, Decimal(1)), player(4, 1)]
    pairing = pair_swiss_round(players)
    assert pairs_of(pairing) == [(1, 2), (3, 4)]
    assert pairing.pairs[0].reason == "1 and 2 both have 1.5: paired inside their group"


def test_no_legal_pairing_raises() -> None:
    everyone = {1: [2, 3, 4], 2: [1, 3, 4], 3: [1, 2, 4], 4: [1, 2, 3]}
    with pytest.raises(PairingError, match="no legal pairing"):
        pair_swiss_round([player(n, 0, everyone[n]) for n in range(1, 5)])
    with pytest.raises(PairingError, match="everyone has had a bye"):
        pair_swiss_round([player(n, 0, had_bye=True) for n in range(1, 4)])
    with pytest.raises(PairingError):
        pair_swiss_round([player(1), player(1)])
    with pytest.raises(PairingError):
        pair_swiss_round([])


def test_input_order_does_not_matter() -> None:
    rng = random.Random(7)
    players = [player(n, rng.choice([0, 1, 2]), rng.sample(range(1, 13), 2)) for n in range(1, 13)]
    shuffled = list(players)
    rng.shuffle(shuffled)
    assert pair_swiss_round(players) == pair_swiss_round(shuffled)


# Brute force: for up to 8 players, every perfect matching is enumerated and the first
# levels of the objective are computed independently of the module's weights.


def matchings(nodes: list[int], allowed: set[frozenset[int]]) -> Iterator[list[tuple[int, int]]]:
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for other in rest:
        if frozenset((first, other)) in allowed:
            remaining = [n for n in rest if n != other]
            for tail in matchings(remaining, allowed):
                yield [(first, other), *tail]


BYE = 0


def objective(
    players: dict[int, SwissPlayer[int]], pairs: Sequence[tuple[int, int]]
) -> tuple[Fraction | int, ...]:
    """(bye's score group from the bottom, floats, sum of squared score differences,
    repeated float directions, bye's place from the bottom of its group)."""
    scores = sorted({Fraction(str(p.score)) for p in players.values()})
    bye_group = bye_place = floats = repeats = 0
    squares = Fraction(0)
    for a, b in pairs:
        if BYE in (a, b):
            taker = players[a if b == BYE else b]
            score = Fraction(str(taker.score))
            bye_group = scores.index(score)
            bye_place = sum(
                1
                for p in players.values()
                if Fraction(str(p.score)) == score and p.rank > taker.rank
            )
            continue
        high, low = sorted(
            (players[a], players[b]), key=lambda p: (-Fraction(str(p.score)), p.rank)
        )
        difference = Fraction(str(high.score)) - Fraction(str(low.score))
        if difference:
            floats += 1
            squares += difference * difference
            repeats += (high.floats[-1:] == ("down",)) + (low.floats[-1:] == ("up",))
    return (bye_group, floats, squares, repeats, bye_place)


@st.composite
def small_rounds(
    draw: st.DrawFn,
) -> tuple[list[SwissPlayer[int]], set[frozenset[int]]]:
    n = draw(st.integers(1, 8))
    ids = list(range(1, n + 1))
    ranks = draw(st.permutations(ids))
    all_pairs = [frozenset((a, b)) for a in ids for b in ids if a < b]
    met = draw(st.sets(st.sampled_from(all_pairs))) if all_pairs else set()
    prohibited = draw(st.sets(st.sampled_from(all_pairs), max_size=2)) if all_pairs else set()
    score = st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1), Decimal(2), Decimal(3)])
    direction: st.SearchStrategy[Any] = st.sampled_from([None, "down", "up"])
    players = [
        SwissPlayer(
            i,
            draw(score),
            ranks[i - 1],
            draw(st.booleans()),
            frozenset(j for pair in met if i in pair for j in pair if j != i),
            (draw(direction),),
        )
        for i in ids
    ]
    return players, prohibited


@settings(max_examples=400, deadline=None, derandomize=True)
@given(small_rounds())
def test_small_fields_match_an_exhaustive_search(
    case: tuple[list[SwissPlayer[int]], set[frozenset[int]]],
) -> None:
    players, prohibited = case
    by_id = {p.id: p for p in players}
    allowed = {
        frozenset((a.id, b.id))
        for a in players
        for b in players
        if a.id < b.id and b.id not in a.opponents and frozenset((a.id, b.id)) not in prohibited
    }
    nodes = sorted(by_id)
    if len(nodes) % 2:
        nodes.insert(0, BYE)
        allowed |= {frozenset((BYE, p.id)) for p in players if not p.had_bye}
    candidates = [objective(by_id, m) for m in matchings(nodes, allowed)]
    if not candidates:
        with pytest.raises(PairingError):
            pair_swiss_round(players, prohibited=prohibited)
        return
    pairing = pair_swiss_round(players, prohibited=prohibited)
    made = pairs_of(pairing) + ([(BYE, pairing.bye)] if pairing.bye is not None else [])
    assert objective(by_id, made) == min(candidates)


# Whole tournaments with random results.


def perfectly_pairable(ids: Sequence[int], allowed: set[frozenset[int]]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(tuple(pair) for pair in allowed if pair <= set(ids))
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(ids)


def floats_avoidable(players: Sequence[SwissPlayer[int]], allowed: set[frozenset[int]]) -> bool:
    """Whether every score group pairs inside itself, the bye (if any) going to someone
    who has not had one in the lowest score group with such a player."""
    groups: dict[Fraction, list[int]] = {}
    for p in players:
        groups.setdefault(Fraction(str(p.score)), []).append(p.id)
    takers: list[int | None] = [None]
    if len(players) % 2:
        eligible = [p for p in players if not p.had_bye]
        lowest = min(Fraction(str(p.score)) for p in eligible)
        takers = [p.id for p in eligible if Fraction(str(p.score)) == lowest]
    return any(
        all(perfectly_pairable([i for i in ids if i != taker], allowed) for ids in groups.values())
        for taker in takers
    )


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(2, 64), st.integers(1, 9), st.integers(0, 2**32))
@example(64, 9, 1)
@example(63, 9, 2)
def test_random_tournaments(size: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    ids = list(range(1, size + 1))
    score = {i: Decimal(0) for i in ids}
    met: dict[int, set[int]] = {i: set() for i in ids}
    byes: dict[int, int] = {i: 0 for i in ids}
    prohibited = {frozenset(rng.sample(ids, 2)) for _ in range(size // 8)} if size > 2 else set()
    for _ in range(rounds):
        players = [SwissPlayer(i, score[i], i, byes[i] > 0, frozenset(met[i])) for i in ids]
        allowed = {
            frozenset((a, b))
            for a in ids
            for b in ids
            if a < b and b not in met[a] and frozenset((a, b)) not in prohibited
        }
        try:
            pairing = pair_swiss_round(players, prohibited=prohibited)
        except PairingError:
            nodes = [*ids, BYE] if size % 2 else ids
            with_bye = allowed | {frozenset((BYE, i)) for i in ids if not byes[i]}
            assert not perfectly_pairable(nodes, with_bye)
            return
        seen = [x for pair in pairs_of(pairing) for x in pair]
        if pairing.bye is not None:
            seen.append(pairing.bye)
            assert byes[pairing.bye] == 0
            byes[pairing.bye] += 1
            score[pairing.bye] += 1
        assert sorted(seen) == ids
        assert (pairing.bye is not None) == (size % 2 == 1)
        for p in pairing.pairs:
            assert frozenset((p.first, p.second)) in allowed, "rematch or prohibited pair"
            assert p.is_float == (score[p.first] != score[p.second])
            assert str(p.first) in p.reason and str(p.second) in p.reason
        if floats_avoidable(players, allowed):
            assert pairing.floats == 0
        for p in pairing.pairs:
            met[p.first].add(p.second)
            met[p.second].add(p.first)
            outcome = rng.random()
            if outcome < 0.1:
                score[p.first] += Decimal("0.5")
                score[p.second] += Decimal("0.5")
            else:
                score[p.first if outcome < 0.6 else p.second] += 1
    assert max(byes.values()) <= 1


def total_weight(players: Sequence[SwissPlayer[int]], pairing: SwissPairing[int]) -> int:
    seats = {s.player.id: s for s in swiss._seat_players(players)}
    weights = swiss._Weights(list(seats.values()), max(s.group for s in seats.values()) + 1)
    total = sum(weights.pair(seats[p.first], seats[p.second]) for p in pairing.pairs)
    return total + (weights.bye(seats[pairing.bye]) if pairing.bye is not None else 0)


@pytest.mark.parametrize("seed", range(6))
def test_smaller_graph_first_gives_the_same_optimum(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pair_swiss_round first solves without most long pairs and keeps that result only
    when a bound proves it optimal; compare with the whole graph, round after round."""
    rng = random.Random(seed)
    ids = list(range(1, rng.randint(20, 90)))
    score = {i: Decimal(0) for i in ids}
    met: dict[int, set[int]] = {i: set() for i in ids}
    had_bye: set[int] = set()
    for _ in range(rng.randint(4, 8)):
        players = [SwissPlayer(i, score[i], i, i in had_bye, frozenset(met[i])) for i in ids]
        try:
            fast = pair_swiss_round(players)
        except PairingError:
            return
        with monkeypatch.context() as m:
            m.setattr(swiss, "_lower_bound", lambda *args: None)
            whole = pair_swiss_round(players)
        assert total_weight(players, fast) == total_weight(players, whole)
        for p in fast.pairs:
            met[p.first].add(p.second)
            met[p.second].add(p.first)
            if rng.random() < 0.15:
                score[p.first] += Decimal("0.5")
                score[p.second] += Decimal("0.5")
            else:
                score[rng.choice((p.first, p.second))] += 1
        if fast.bye is not None:
            had_bye.add(fast.bye)
            score[fast.bye] += 1
