"""The depth the app analyses at (services/analysis.py): the settings' ANALYSIS_PLY, never
less than the depth the bot played at, and bad plays confirmed by a rollout in the job."""

from __future__ import annotations

import pytest

from tournaments.engine import BOT_LEVELS, analyse_record
from tournaments.services.analysis import analysis_confirms, analysis_ply


def test_the_strongest_bot_is_analysed_at_the_depth_it_plays(settings) -> None:
    settings.ANALYSIS_PLY = 0
    assert analysis_ply() == 0
    assert analysis_ply("strongest") == BOT_LEVELS["strongest"][0] == 1
    assert [analysis_ply(level) for level in ("beginner", "advanced")] == [0, 0]
    settings.ANALYSIS_PLY = 1
    assert analysis_ply("advanced") == 1


def test_confirmation_is_on_unless_switched_off(settings) -> None:
    del settings.ANALYSIS_CONFIRM  # the tests' settings switch it off
    assert analysis_confirms()
    settings.ANALYSIS_CONFIRM = False
    assert not analysis_confirms()


@pytest.mark.parametrize("confirm", [False, True])
def test_the_stored_turns_carry_the_confirmed_mark(confirm: bool) -> None:
    record = '[Variant "long"]\n\n1. 62: 24/18/16 51: 24/19/18\n2. 43: 16/13/9\n'
    turns = analyse_record(record, confirm=confirm)["turns"]
    last = turns[2]
    assert last["error"] >= 160  # 16/13/9 instead of 24/20 16/13: very bad at 0-ply
    assert (last["rollout"] is not None) == confirm
    if confirm:
        assert last["rollout"] >= 0
    assert all(t["rollout"] is None for t in turns[:2])
