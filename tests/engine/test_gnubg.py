"""Reference data from a real peer, GNU Backgammon (fixtures/gnubg, made by tools/gnubg):
the engine accepts every turn of gnubg's self-play games and finds exactly the plays
gnubg's ``hint`` lists (RULES S1-S6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Position, format_text, legal_turns, play, read_records, replay, verify_text
from engine.variants import SIDE_NAMES

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gnubg"


def test_every_gnubg_selfplay_game_verifies_with_its_result():
    results = verify_text((FIXTURES / "selfplay.nrd").read_text(encoding="utf-8"))
    assert len(results) >= 300
    failures = [r for r in results if not getattr(r, "ok", False)]
    assert failures == []
    kinds = {r.outcome.kind for r in results}  # type: ignore[union-attr]
    assert kinds == {"oin", "mars", "koks"}  # S6: all three scores occur in the corpus


def test_resigned_gnubg_games_score_by_the_position():
    """L9: a resignation scores what the position gives; gnubg's resignations never
    offer more than that (it resigns a single where a gammon was possible, say)."""
    records = read_records((FIXTURES / "resigned.nrd").read_text(encoding="utf-8"))
    assert len(records) >= 20
    for record in records:
        result = replay(record, check_result=False)
        assert result.error is None, result.error
        assert result.outcome is not None and result.outcome.resigned
        assert SIDE_NAMES[result.outcome.winner] == record.tag("Result").split()[0]
        assert result.outcome.points >= int(record.tag("GnubgPoints"))


def _hints() -> list[dict[str, Any]]:
    lines = (FIXTURES / "hints.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_hint_counts_and_plays_match_gnubg():
    hints = _hints()
    assert len(hints) >= 200
    for hint in hints:
        position = Position.from_json(hint["position"])
        dice = hint["dice"]
        ours = {t.position for t in legal_turns(position, dice) if t.steps}
        roll = f"{dice[0]}{dice[1]}: "
        theirs = {play(position, roll + p).position for p in hint["plays"]}
        assert ours == theirs, (hint["source"], hint["plays"])


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_gnubg_game_round_trips_through_the_canonical_writer(index):
    text = (FIXTURES / "selfplay.nrd").read_text(encoding="utf-8")
    games = text.split("\n\n[")
    game = games[index] if index == 0 else "[" + games[index]
    once = format_text(game)
    assert format_text(once) == once
    assert verify_text(once)[0].ok  # type: ignore[union-attr]
