"""A game against the bot resigned (engine/evaluator/bot.py, L9): the record ends with the
resignation and replays, its Result checked, to the outcome the position gives."""

from __future__ import annotations

import pytest

from engine import read_records, replay
from engine.evaluator.bot import (
    BotGameError,
    BotState,
    bot_dice,
    bot_legal_turns,
    bot_record_resigned,
    bot_record_start,
    bot_record_with,
    bot_state,
)


def _played(turns: int) -> BotState:
    state = bot_state(bot_record_start(white="Ann", black="Bot"))
    for n in range(turns):
        dice = bot_dice(5, n)
        state = bot_record_with(state, dice, bot_legal_turns(state, dice)[0])
    return state


@pytest.mark.parametrize(("turns", "loser", "letter"), [(0, 0, "W"), (7, 1, "B")])
def test_the_side_to_move_resigns_and_the_record_replays_to_it(turns, loser, letter):
    state = bot_record_resigned(_played(turns))
    assert state.outcome is not None and state.outcome.resigned
    assert (state.outcome.winner, state.outcome.kind) == (1 - loser, "mars")  # none off yet
    assert state.record.rstrip().endswith(f"{letter} resigns")
    done = replay(read_records(state.record)[0])  # the Result tag checked too
    assert done.error is None and done.outcome == state.outcome
    assert bot_state(state.record).outcome == state.outcome


def test_a_finished_game_cannot_be_resigned():
    state = bot_record_resigned(_played(2))
    with pytest.raises(BotGameError):
        bot_record_resigned(state)
