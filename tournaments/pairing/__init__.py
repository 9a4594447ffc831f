"""Pairing and bracket algorithms: pure functions on plain data, no Django.

The Django side turns its models into these plain values, calls one of the functions
below and stores what comes back (see docs/pairings.md).
"""

from tournaments.pairing.elimination import (
    Bracket,
    double_elimination,
    drop_orders,
    length_for,
    seeding_order,
    single_elimination,
)
from tournaments.pairing.roundrobin import berger_numbers, berger_schedule
from tournaments.pairing.swiss import pair_swiss_round
from tournaments.pairing.types import (
    BracketMatch,
    BracketState,
    Bye,
    FloatDirection,
    LoserOf,
    MatchState,
    PairExplanation,
    PairingError,
    Seed,
    Source,
    SwissPairing,
    SwissPlayer,
    WinnerOf,
)

__all__ = [
    "Bracket",
    "BracketMatch",
    "BracketState",
    "Bye",
    "FloatDirection",
    "LoserOf",
    "MatchState",
    "PairExplanation",
    "PairingError",
    "Seed",
    "Source",
    "SwissPairing",
    "SwissPlayer",
    "WinnerOf",
    "berger_numbers",
    "berger_schedule",
    "double_elimination",
    "drop_orders",
    "length_for",
    "pair_swiss_round",
    "seeding_order",
    "single_elimination",
]
