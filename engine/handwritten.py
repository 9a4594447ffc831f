"""Records as players write them, made from canonical ones (for ``engine bench`` and the
tests): each die its own move, in a random legal order, one checker's steps written
apart (``16/13 13/9``, not ``16/13/9``), hits unmarked. A seeded rewrite, checked to
replay as the same game."""

from __future__ import annotations

import random

from engine.movegen import TurnState, side_lists, turn_state
from engine.moves import Step, point_text
from engine.notation import WrittenAction, dice_text, read_records, write_movetext, write_tags
from engine.position import Position
from engine.replay import PlayedAction, replay, rules_from_record
from engine.variants import Rules, variant_named

# Random orders tried for a turn before its steps are written in the order played (a
# double has at most 4! = 24 orders; most random ones are playable at the first try).
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
    state = turn_state(p.before.rules_variant, rules, p.side, p.action.dice)
    steps = list(p.steps)
    if state.one_phase:  # a phased roll (Lurč's houšek) keeps its phases' order
        for _ in range(_TRIES):
            rng.shuffle(steps)
            if _playable(state, p.before, steps):
                break
        else:
            steps = list(p.steps)
    return WrittenAction(p.side, "turn", f"{dice}: {_moves(steps)}")


def _moves(steps: list[Step]) -> str:
    return " ".join(f"{point_text(s.frm)}/{point_text(s.to)}" for s in steps)


def _playable(state: TurnState, before: Position, steps: list[Step]) -> bool:
    """Whether the steps can be played in this order: each lands where its die takes
    it, the head rule (L4) and, with ``every-step``, the block rule (L5) hold on the way.
    The same steps in another order reach the same position."""
    me, opp = side_lists(before)
    head_left = state.head_allowance(me, opp)
    for s in steps:
        if state.target(me, opp, s.frm, s.die) != s.to or (s.frm == state.head and not head_left):
            return False
        head_left -= s.frm == state.head
        state.move(me, opp, s.frm, s.to)
        if state.every_step and not state.block_ok(me, opp):
            return False
    return True
