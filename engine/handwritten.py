"""Records as players write them, made from canonical ones (for ``engine bench`` and the
tests): each die its own move, in a random legal order, one checker's steps written
apart (``16/13 13/9``, not ``16/13/9``), hits unmarked. A seeded rewrite, checked to
replay as the same game."""

from __future__ import annotations

import random

from engine.errors import EngineError
from engine.moves import Step, point_text
from engine.notation import WrittenAction, dice_text, read_records, write_movetext, write_tags
from engine.position import Position
from engine.replay import PlayedAction, play, replay, rules_from_record
from engine.variants import Rules, variant_named

# Random orders tried for a turn before its steps are written in the order played (a
# double has at most 4! = 24 orders; most random ones are legal at the first try).
_TRIES = 12


def as_players_write(text: str, rng: random.Random) -> str:
    """Every game of the canonical record ``text`` rewritten as a player writes it.
    Raises :class:`AssertionError` if a rewritten game would not replay as the same game
    (a bug of this function, never of the record)."""
    games = []
    for record in read_records(text):
        played = replay(record, check_result=False)
        if played.error is not None:
            raise played.error
        rules = rules_from_record(record)
        actions = [_rewritten(p, rules, rng) for p in played.played]
        first = variant_named(record.variant).first_side
        body = write_movetext(actions, record.preamble, first)
        rewritten = "\n".join(write_tags(record.tags)) + "\n\n" + body + "\n"
        again = replay(read_records(rewritten)[0], check_result=False)
        assert again.error is None and again.positions == played.positions, rewritten
        games.append(rewritten)
    return "\n".join(games)


def _rewritten(p: PlayedAction, rules: Rules, rng: random.Random) -> WrittenAction:
    if p.action.kind != "turn" or not p.steps:
        return WrittenAction(p.side, p.action.kind, p.canonical)
    assert p.action.dice is not None
    dice = dice_text(p.action.dice, p.action.pas)
    steps = list(p.steps)
    for _ in range(_TRIES):
        rng.shuffle(steps)
        text = f"{dice}: {_moves(steps)}"
        if _same_turn(p.before, text, rules, p.after):
            return WrittenAction(p.side, "turn", text)
    return WrittenAction(p.side, "turn", f"{dice}: {_moves(p.steps)}")


def _moves(steps: list[Step] | tuple[Step, ...]) -> str:
    return " ".join(f"{point_text(s.frm)}/{point_text(s.to)}" for s in steps)


def _same_turn(before: Position, text: str, rules: Rules, after: Position) -> bool:
    try:
        return play(before, text, rules).position == after
    except EngineError:
        return False
