"""The race evaluator (docs/analysis.md): a position where the two sides have passed
each other (RULES L3: no checker of one side can ever land where one of the other's
stands or must pass), judged by a small net of its own, trained toward the bear-off
databases (:mod:`engine.evaluator.race_train`). Until its weights are shipped
(``race.net``) the contact net judges races."""

from __future__ import annotations

from pathlib import Path

from engine.evaluator.net import Floats

SHIPPED = Path(__file__).with_name("race.net")


def is_race(me: tuple[int, ...], opp: tuple[int, ...]) -> bool:
    """Each side's checkers all in its own points 1-12 (or borne off): each has passed
    every checker of the other (both travel 24 -> 1 and a side's point p is the other's
    p + 12), so neither can block or be blocked again. Bear-offs are races too."""
    return not any(me[13:]) and not any(opp[13:])


class RaceNet:
    """The race net's weights (:meth:`outputs` as the contact net's, for races)."""

    def outputs(self, pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Floats:
        raise NotImplementedError


def load_race() -> RaceNet | None:
    """The shipped race net, or None while there is none."""
    return None
