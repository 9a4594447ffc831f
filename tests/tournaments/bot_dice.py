"""Fixed dice for the games against the bot's tests: some turns' dice set by the test (the
service and the pages read them from the same function), the others the seed's."""

from __future__ import annotations

import pytest

from engine.evaluator.bot import bot_dice

# Lurč, the user black (first, Z1): the first turn once both sides' 15 checkers have
# entered (eight turns each, turn numbers 0 to 15) is a houšek, then pašes, whoever they
# fall to (the user's again after a houšek or a paš played in full)
LURC_FORCED = {16: (1, 2), 17: (4, 4), 18: (4, 4), 19: (5, 5), 20: (3, 3), 21: (6, 6)}


def force_dice(monkeypatch: pytest.MonkeyPatch, forced: dict[int, tuple[int, int]]) -> None:
    from tournaments.selectors import botgames as pages
    from tournaments.services import botgames as service

    def dice(seed: int, number: int, lot: bool = False) -> tuple[int, int]:
        return forced.get(number) or bot_dice(seed, number, lot)

    monkeypatch.setattr(service, "bot_dice", dice)
    monkeypatch.setattr(pages, "bot_dice", dice)
