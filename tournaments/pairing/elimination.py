"""Single and double elimination brackets as plain data, and their advance function.

A bracket is a tuple of matches, each after the matches it depends on. Each match names
its two sources: a seed, a bye, the winner or the loser of an earlier match.
``Bracket.advance(results)`` takes the results so far (match id -> winning side, 0 or 1)
and says who plays in every match, what is left to play, and who has won. Byes resolve
by themselves: a player facing a bye goes through, and a bye's "loser" is a bye again.

Match ids: ``W<round>-<n>`` (winners' bracket, the only one in single elimination),
``L<round>-<n>`` (losers' bracket), ``GF-1`` and ``GF-2`` (grand final and bracket reset),
``P3`` (third place), ``C<round>-<n>`` (consolation). See docs/pairings.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Literal

from tournaments.pairing.types import (
    BracketMatch,
    BracketName,
    BracketState,
    Bye,
    LoserOf,
    MatchState,
    PairingError,
    Seed,
    Source,
    Status,
    T,
    WinnerOf,
)


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_BYE = _Marker("BYE")
_UNKNOWN = _Marker("UNKNOWN")


@dataclass(frozen=True, slots=True)
class Bracket(Generic[T]):
    """A whole bracket. The champion is the winner of the last match of ``finals`` that
    is not skipped (``GF-2`` when the bracket is reset, else ``GF-1``)."""

    kind: Literal["single", "double"]
    seeds: tuple[T, ...]
    matches: tuple[BracketMatch, ...]
    finals: tuple[str, ...]
    third_place: str | None = None
    consolation_final: str | None = None

    def match(self, match_id: str) -> BracketMatch:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise PairingError(
            f"there is no match {match_id} in this bracket",
            code="no-such-match",
            params={"match": match_id},
        )

    def advance(self, results: Mapping[str, int]) -> BracketState[T]:
        """Who plays where, given the winning side (0: first, 1: second) of each match
        played so far. Raises ``PairingError`` for a result that does not fit."""
        self._check_results(results)
        winners: dict[str, T | _Marker] = {}
        losers: dict[str, T | _Marker] = {}
        states: dict[str, MatchState[T]] = {}

        def resolve(source: Source) -> T | _Marker:
            if isinstance(source, Seed):
                return self.seeds[source.number - 1]
            if isinstance(source, Bye):
                return _BYE
            if isinstance(source, WinnerOf):
                return winners.get(source.match, _UNKNOWN)
            return losers.get(source.match, _UNKNOWN)

        for m in self.matches:
            a, b = resolve(m.sources[0]), resolve(m.sources[1])
            state = _match_state(m, a, b, results, states)
            if state.status in ("played", "walkover", "empty"):
                winners[m.id] = _BYE if state.winner is None else state.winner
                losers[m.id] = _BYE if state.loser is None else state.loser
            states[m.id] = state
        return BracketState(
            states,
            self._champion(states),
            states[self.third_place].winner if self.third_place else None,
            states[self.consolation_final].winner if self.consolation_final else None,
        )

    def _check_results(self, results: Mapping[str, int]) -> None:
        known = {m.id for m in self.matches}
        for match_id, side in results.items():
            if match_id not in known:
                raise PairingError(
                    f"a result for {match_id}, which is not in this bracket",
                    code="result-unknown-match",
                    params={"match": match_id},
                )
            if side not in (0, 1):
                raise PairingError(
                    f"{match_id}: the winning side must be 0 or 1, not {side}",
                    code="bad-winning-side",
                    params={"match": match_id, "side": side},
                )

    def _champion(self, states: Mapping[str, MatchState[T]]) -> T | None:
        champion: T | None = None
        for final in self.finals:
            if states[final].status != "skipped":
                champion = states[final].winner
        return champion


def _match_state(
    m: BracketMatch,
    a: T | _Marker,
    b: T | _Marker,
    results: Mapping[str, int],
    states: Mapping[str, MatchState[T]],
) -> MatchState[T]:
    players = (None if isinstance(a, _Marker) else a, None if isinstance(b, _Marker) else b)
    status = _open_status(m, a, b, results, states)
    if status != "ready":
        if m.id in results:
            raise PairingError(
                f"a result for {m.id}, which is {_status_words[status]}",
                code="result-waiting-match" if status == "waiting" else "result-skipped-match",
                params={"match": m.id},
            )
        return MatchState(m, players, status)
    if a is _BYE and b is _BYE:
        if m.id in results:
            raise PairingError(
                f"a result for {m.id}, which has no players",
                code="result-empty-match",
                params={"match": m.id},
            )
        return MatchState(m, players, "empty")
    if a is _BYE or b is _BYE:
        if m.id in results:
            raise PairingError(
                f"a result for {m.id}, which is a bye",
                code="result-bye-match",
                params={"match": m.id},
            )
        return MatchState(m, players, "walkover", players[1] if a is _BYE else players[0])
    if m.id not in results:
        return MatchState(m, players, "ready")
    side = results[m.id]
    return MatchState(m, players, "played", players[side], players[1 - side])


_status_words = {"waiting": "not ready to be played yet", "skipped": "not needed"}


def seeding_order(size: int) -> list[int]:
    """Seed numbers in bracket order for a power of two: pairs 1-size, … top to bottom.

    >>> seeding_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 1 or size & (size - 1):
        raise PairingError(
            f"a bracket has a power of two slots, not {size}",
            code="bracket-size",
            params={"size": size},
        )
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def _knockout(
    entrants: Sequence[Source],
    prefix: str,
    bracket: BracketName,
    stage: Callable[[int, int], str],
) -> list[BracketMatch]:
    """A seeded knockout among ``entrants`` (best first); byes go to the top entrants."""
    size = 1 << (len(entrants) - 1).bit_length()
    rounds = size.bit_length() - 1
    sources: list[Source] = [
        entrants[s - 1] if s <= len(entrants) else Bye() for s in seeding_order(size)
    ]
    matches = []
    for r in range(1, rounds + 1):
        ids = []
        for k in range(len(sources) // 2):
            match_id = f"{prefix}{r}-{k + 1}"
            pair = (sources[2 * k], sources[2 * k + 1])
            matches.append(BracketMatch(match_id, bracket, r, stage(r, rounds), pair))
            ids.append(match_id)
        sources = [WinnerOf(i) for i in ids]
    return matches


def _single_stage(r: int, rounds: int) -> str:
    names = {0: "final", 1: "semifinal", 2: "quarterfinal"}
    return names.get(rounds - r, f"round-{r}")


def _named_stage(name: str) -> Callable[[int, int], str]:
    def stage(r: int, rounds: int) -> str:
        return f"{name}-final" if r == rounds else f"{name}-round-{r}"

    return stage


def _check_seeds(seeds: Sequence[T]) -> None:
    if len(seeds) < 2:
        raise PairingError(
            "an elimination bracket needs at least two players", code="too-few-players"
        )
    if len(set(seeds)) != len(seeds):
        raise PairingError("a player appears twice in the seeding", code="player-twice")
    if any(seed is None for seed in seeds):
        raise PairingError("a seed is missing (None)", code="seed-missing")


def single_elimination(
    seeds: Sequence[T], *, third_place: bool = False, consolation: bool = False
) -> Bracket[T]:
    """A seeded single-elimination bracket, byes to the top seeds.

    ``third_place`` adds a series between the semifinal losers (``P3``; none with two
    players); ``consolation`` adds a knockout among the first-round losers (``C…``).

    >>> b = single_elimination(["A", "B", "C"])
    >>> [(m.id, m.sources) for m in b.matches]  # doctest: +NORMALIZE_WHITESPACE
    [('W1-1', (Seed(number=1), Bye())), ('W1-2', (Seed(number=2), Seed(number=3))),
     ('W2-1', (WinnerOf(match='W1-1'), WinnerOf(match='W1-2')))]
    >>> b.advance({"W1-2": 1, "W2-1": 0}).champion
    'A'
    """
    _check_seeds(seeds)
    matches = _knockout([Seed(i) for i in range(1, len(seeds) + 1)], "W", "winners", _single_stage)
    final = matches[-1]
    third = None
    if third_place and final.round > 1:
        semis = [m.id for m in matches if m.round == final.round - 1]
        third = BracketMatch(
            "P3", "third_place", final.round, "third-place", (LoserOf(semis[0]), LoserOf(semis[1]))
        )
        matches.insert(len(matches) - 1, third)
    consolation_final = None
    if consolation:
        extra = _consolation(matches)
        consolation_final = extra[-1].id
        matches.extend(extra)
    return Bracket(
        "single",
        tuple(seeds),
        tuple(matches),
        (final.id,),
        third.id if third else None,
        consolation_final,
    )


def _consolation(matches: Sequence[BracketMatch]) -> list[BracketMatch]:
    """A knockout among the losers of the real first-round series (not byes), seeded by the
    expected loser: the loser of 8-9 before the loser of 1-16."""
    first = [m for m in matches if m.bracket == "winners" and m.round == 1]
    real = [m for m in first if not any(isinstance(s, Bye) for s in m.sources)]
    if len(real) < 2:
        raise PairingError(
            "a consolation bracket needs at least two first-round series",
            code="consolation-too-small",
        )

    def expected_loser(m: BracketMatch) -> int:
        return max(s.number for s in m.sources if isinstance(s, Seed))

    real.sort(key=expected_loser)
    return _knockout([LoserOf(m.id) for m in real], "C", "consolation", _named_stage("consolation"))


def double_elimination(seeds: Sequence[T], *, bracket_reset: bool = True) -> Bracket[T]:
    """A seeded double-elimination bracket: winners' and losers' brackets and a grand
    final (``GF-1``), with a reset (``GF-2``) if the losers' bracket finalist wins it.

    Losers of winners' round 1 meet each other in losers' round 1; the losers of
    winners' round r >= 2 drop into losers' round 2r - 2, in the order that
    ``drop_orders`` gives (to keep players who have just met apart).
    """
    _check_seeds(seeds)
    winners = _knockout(
        [Seed(i) for i in range(1, len(seeds) + 1)], "W", "winners", _named_stage("winners")
    )
    rounds = winners[-1].round
    losers = _losers_bracket(winners, rounds)
    last_loser = WinnerOf(losers[-1].id) if losers else LoserOf(winners[-1].id)
    first_final = BracketMatch("GF-1", "final", 1, "final", (WinnerOf(winners[-1].id), last_loser))
    matches = [*winners, *losers, first_final]
    if bracket_reset:
        matches.append(BracketMatch("GF-2", "final", 2, "final", first_final.sources, ("GF-1", 1)))
    finals = tuple(m.id for m in matches if m.bracket == "final")
    return Bracket("double", tuple(seeds), tuple(matches), finals)


def _losers_bracket(winners: Sequence[BracketMatch], rounds: int) -> list[BracketMatch]:
    if rounds < 2:
        return []
    ids = {(m.round, int(m.id.split("-")[1])): m.id for m in winners}
    total = 2 * rounds - 2
    stage = _named_stage("losers")
    matches: list[BracketMatch] = []

    def add(number: int, pairs: Sequence[tuple[Source, Source]]) -> list[Source]:
        made = [
            BracketMatch(f"L{number}-{k}", "losers", number, stage(number, total), pair)
            for k, pair in enumerate(pairs, start=1)
        ]
        matches.extend(made)
        return [WinnerOf(m.id) for m in made]

    size = 1 << rounds
    alive = add(
        1,
        [(LoserOf(ids[1, 2 * j - 1]), LoserOf(ids[1, 2 * j])) for j in range(1, size // 4 + 1)],
    )
    for r, order in enumerate(drop_orders(size), start=2):
        dropping = _ordered(range(1, len(alive) + 1), order)
        pairs = [
            (LoserOf(ids[r, k]), survivor) for k, survivor in zip(dropping, alive, strict=True)
        ]
        alive = add(2 * r - 2, pairs)
        if r < rounds:
            alive = add(2 * r - 1, [(alive[i], alive[i + 1]) for i in range(0, len(alive), 2)])
    return matches


DropOrder = Literal["natural", "reverse", "half_shift", "reverse_half_shift", "pair_flip"]
DROP_ORDERS: tuple[DropOrder, ...] = (
    "natural",
    "reverse",
    "half_shift",
    "reverse_half_shift",
    "pair_flip",
)


def drop_orders(size: int) -> list[DropOrder]:
    """How the losers of winners' rounds 2, 3, … drop into a losers' bracket of ``size``
    slots (a power of two): for each round, the first order of ``DROP_ORDERS`` that least
    lets a dropped player meet, in his first losers' match, someone he may have beaten in
    the winners' bracket; the most recent meetings count first.

    >>> drop_orders(64)
    ['reverse', 'half_shift', 'reverse_half_shift', 'reverse', 'natural']
    """
    if size < 4 or size & (size - 1):
        raise PairingError(
            f"a losers' bracket comes from 4, 8, 16, … slots, not {size}",
            code="losers-bracket-size",
            params={"size": size},
        )
    rounds = size.bit_length() - 1

    def block(r: int, k: int) -> int:
        # The bracket slots, as a bit mask, of winners' round r match k (0-based).
        width = 1 << r
        return ((1 << width) - 1) << (k * width)

    # For each losers' bracket slot: the slots of the players who may hold it, by the
    # winners' round in which they lost.
    history = [{1: block(2, j)} for j in range(size // 4)]
    orders: list[DropOrder] = []
    for r in range(2, rounds + 1):
        count = size >> r

        def overlaps(
            order: DropOrder,
            r: int = r,
            count: int = count,
            history: list[dict[int, int]] = history,
        ) -> tuple[int, ...]:
            dropping = _ordered(range(count), order)
            return tuple(
                sum(bool(history[j].get(q, 0) & block(r, k)) for j, k in enumerate(dropping))
                for q in range(r - 1, 0, -1)
            )

        best = min(DROP_ORDERS, key=overlaps)
        orders.append(best)
        for j, k in enumerate(_ordered(range(count), best)):
            history[j][r] = block(r, k)
        if r < rounds:
            history = [
                {
                    q: history[2 * j].get(q, 0) | history[2 * j + 1].get(q, 0)
                    for q in range(1, r + 1)
                }
                for j in range(count // 2)
            ]
    return orders


def _ordered(items: Sequence[int], order: DropOrder) -> list[int]:
    half = len(items) // 2
    if order == "reverse":
        return list(reversed(items))
    if order == "half_shift":
        return [*items[half:], *items[:half]]
    if order == "reverse_half_shift":
        return [*reversed(items[:half]), *reversed(items[half:])]
    if order == "pair_flip" and len(items) > 1:
        return [items[i ^ 1] for i in range(len(items))]
    return list(items)


def length_for(stage: str, lengths_by_stage: Mapping[str, int], default: int) -> int:
    """The series length for a match's ``stage``: its entry in ``lengths_by_stage``, or
    ``default``. Stages: ``round-N``, ``quarterfinal``, ``semifinal``, ``final``,
    ``third-place``, ``winners-round-N``, ``winners-final``, ``losers-round-N``,
    ``losers-final``, ``consolation-round-N``, ``consolation-final``.

    >>> length_for("final", {"final": 9, "semifinal": 7}, 5), length_for("round-1", {}, 5)
    (9, 5)
    """
    return lengths_by_stage.get(stage, default)


def _open_status(
    m: BracketMatch,
    a: T | _Marker,
    b: T | _Marker,
    results: Mapping[str, int],
    states: Mapping[str, MatchState[T]],
) -> Status:
    """ "waiting" for a player or for the match it depends on, "skipped" when that match
    went the other way, else "ready"."""
    status: Status = "ready"
    if a is _UNKNOWN or b is _UNKNOWN:
        status = "waiting"
    if m.only_if is not None:
        condition, side = m.only_if
        if states[condition].status in ("waiting", "ready"):
            status = "waiting"
        elif results.get(condition) != side:
            status = "skipped"
    return status


# The stages each knockout format has (the names ``length_for`` is asked with).
STAGE_NAMES = {
    "single_elimination": re.compile(
        r"round-[1-9]\d?|quarterfinal|semifinal|final|third-place"
        r"|consolation-round-[1-9]\d?|consolation-final"
    ),
    "double_elimination": re.compile(
        r"winners-round-[1-9]\d?|winners-final|losers-round-[1-9]\d?|losers-final|final"
    ),
}

# The stages a director is offered a length for by name, in the order of the day; the
# early ``round-N`` stages depend on the number of players and are left to the API.
STAGES_OFFERED = {
    "single_elimination": ("quarterfinal", "semifinal", "final", "third-place",
                           "consolation-final"),
    "double_elimination": ("winners-final", "losers-final", "final"),
}  # fmt: skip


def stage_known(format: str, stage: str) -> bool:
    """Whether ``stage`` is a stage of a bracket of ``format`` (the rounds formats have
    none).

    >>> stage_known("single_elimination", "semifinal"), stage_known("swiss", "final")
    (True, False)
    >>> stage_known("double_elimination", "semifinal")
    False
    """
    names = STAGE_NAMES.get(format)
    return bool(names and isinstance(stage, str) and names.fullmatch(stage))
