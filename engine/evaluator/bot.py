"""A game against the bot, one turn at a time (the app's /play/ page, docs/play.md):
the dice of each turn drawn from the game's seed (a reload rolls nothing new), the
bot's turn at a level, and the game's record, replayed to say where it stands and
written again with one more turn.

>>> state = bot_state(bot_record_start(white="Ann", black="Bot"))
>>> state.number, state.outcome, state.position.turn
(0, None, 0)
>>> bot_dice(7, 0) == bot_dice(7, 0)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.errors import EngineError
from engine.evaluator.lurc_bot import lurc_turn
from engine.evaluator.net import load_net, net_path
from engine.evaluator.players import level_player
from engine.movegen import Turn, legal_turns
from engine.notation import WrittenAction, dice_text, read_records, write_movetext, write_tags
from engine.position import Position
from engine.replay import Outcome, outcome_for, replay
from engine.variants import CHECKERS, Rules, variant_named

VARIANT = "long"  # the default game; every variant with an evaluator can be played


class BotGameError(EngineError):
    """A bot game's record that does not replay (never one the app wrote)."""

    code = "bot-record"


@dataclass(frozen=True, slots=True)
class BotState:
    """Where a game against the bot stands: the position, the turns played so far (the
    index of the next turn's dice) and the outcome once it is over; ``offered`` when the
    last action is a double (S7), which the other side answers."""

    record: str
    position: Position
    number: int
    outcome: Outcome | None
    offered: bool = False

    @property
    def on_turn(self) -> int:
        """Who acts next: the doubled side while a double waits, else the side to move."""
        return 1 - self.position.turn if self.offered else self.position.turn


def bot_dice(seed: int, number: int, lot: bool = False) -> tuple[int, int]:
    """The dice of turn ``number`` (0 the first) of the game with ``seed``: always the
    same, so that the page can be shown again without rolling again. With ``lot`` (the
    variant's opening lot is the first roll, S2) the first roll is never a double."""
    rng = random.Random(f"bot-dice:{seed}:{number}")
    dice = rng.randint(1, 6), rng.randint(1, 6)
    while lot and number == 0 and dice[0] == dice[1]:
        dice = rng.randint(1, 6), rng.randint(1, 6)
    return dice


def bot_rng(seed: int, number: int) -> random.Random:
    """The random source of the bot's turn ``number`` (a weak level's noise)."""
    return random.Random(f"bot-turn:{seed}:{number}")


def bot_record_start(*, white: str, black: str, variant: str = VARIANT,
                     cube: bool = False) -> str:  # fmt: skip
    """The record of a game of ``variant`` not begun (default rules; with ``cube`` the
    doubling cube in play, S7)."""
    tags = [("Variant", variant_named(variant).name), ("White", white), ("Black", black)]
    if cube:
        tags.append(("Cube", "on"))
    return "\n".join(write_tags(tags)) + "\n"


def bot_state(record: str) -> BotState:
    """Replay a bot game's record (:class:`BotGameError` if it does not replay)."""
    games = read_records(record)
    done = replay(games[0], check_result=False) if len(games) == 1 else None
    if done is None or done.error is not None or done.position is None:
        raise BotGameError(
            "the record of the game against the bot does not replay", code="bot-record"
        )
    turns = sum(1 for p in done.played if p.action.kind == "turn")
    offered = bool(done.played) and done.played[-1].action.kind == "double"
    return BotState(record, done.position, turns, done.outcome, offered)


def bot_pas_choices(state: BotState, dice: tuple[int, int]) -> list[int]:
    """The paš a roll leaves the side to move to choose (Lurč's houšek, Z8: 1 to 6),
    empty when the roll leaves no choice."""
    me = state.position.board(state.position.turn)
    _roll, choices = state.position.rules_variant.roll_choices(list(dice), me)
    return [c[0] for c in choices if c is not None] if len(choices) > 1 else []


def bot_legal_turns(state: BotState, dice: tuple[int, int], pas: int | None = None
                    ) -> list[Turn]:  # fmt: skip
    """The legal turns of the side to move for ``dice`` (one, empty, when blocked: L6);
    after a Lurč houšek those of the paš ``pas`` chosen (Z8)."""
    query = [*dice, pas, pas] if pas is not None else list(dice)
    return legal_turns(state.position, query, Rules())


def bot_turn(position: Position, dice: object, level: str, rng: random.Random,
             rules: Rules | None = None) -> Turn:  # fmt: skip
    """The bot's turn at ``level`` (engine.evaluator.levels) for ``dice`` (checked by the
    move generator: :class:`engine.errors.DiceError`)."""
    variant = position.rules_variant
    if variant.evaluator is None:
        raise BotGameError(
            f"{variant.title} has no evaluator: the bot does not play it",
            code="bot-no-evaluator",
            params={"variant": variant.title},
        )
    rules = rules or Rules()
    net = load_net(net_path(variant.evaluator))
    if variant.rolls_again:  # Lurč: a paš's eight moves are searched step by step
        return lurc_turn(net, position, dice, level, rng)
    turns = legal_turns(position, dice, rules)
    player = level_player(net, level, rules)
    side = position.turn
    cands = [(t.position.board(side), t.position.board(1 - side)) for t in turns]
    return turns[player.choose(cands, side, rng)]


def bot_record_with(state: BotState, dice: tuple[int, int], turn: Turn) -> BotState:
    """The game with one more turn (``turn``, legal for ``dice``), its Result written
    when the turn bears off the last checker (L8; no last roll, L10's default)."""
    mover = state.position.turn
    text = f"{dice_text(dice, turn.pas)}: {turn.notation}".rstrip()
    action = WrittenAction(mover, "turn", text)
    outcome = None
    if turn.position.off(mover) == CHECKERS:
        outcome = outcome_for(turn.position, mover, Rules())
    return _written(state, action, turn.position, outcome, state.number + 1)


def bot_may_double(state: BotState) -> bool:
    """Whether the side to move may double before its roll (S7): the cube in play, no
    double waiting, the side owning the cube or nobody, the game going on."""
    cube = state.position.cube
    if cube is None or state.offered or state.outcome is not None:
        return False
    return cube.may_double(state.position.turn)


def bot_record_cube(state: BotState, kind: str) -> BotState:
    """The game with a cube action (S7): ``double`` by the side to move (before its
    roll), ``take`` or ``drop`` by the doubled side (a drop ends the game: the doubler
    wins the cube's value before the double). The engine's replay refuses what the
    rules do not allow (:class:`BotGameError`)."""
    if kind not in ("double", "take", "drop"):
        raise BotGameError(f"unknown cube action {kind!r}", code="bot-cube-action",
                           params={"kind": kind[:20]})  # fmt: skip
    side = state.on_turn
    games = read_records(state.record)
    done = replay(games[0], check_result=False)
    actions = [WrittenAction(p.side, p.action.kind, p.canonical) for p in done.played]
    actions.append(WrittenAction(side, kind, kind))
    tags = [(k, v) for k, v in games[0].tags if k != "Result"]
    first = variant_named(games[0].variant).first_side
    draft = "\n".join(write_tags([*tags, ("Result", "*")])) + "\n\n"
    draft += write_movetext(actions, first_side=first) + "\n"
    again = replay(read_records(draft)[0], check_result=False)
    if again.error is not None or again.position is None:
        raise BotGameError(f"{kind} is not allowed here", code="bot-cube-refused",
                           params={"kind": kind})  # fmt: skip
    result = again.outcome.result if again.outcome else "*"
    record = "\n".join(write_tags([*tags, ("Result", result)])) + "\n\n"
    record += write_movetext(actions, first_side=first) + "\n"
    return bot_state(record)


def bot_record_resigned(state: BotState) -> BotState:
    """The game resigned by the side to move: the other side wins, oin or mars as the
    position stands (L9), the record ending with ``W resigns`` or ``B resigns``.

    >>> state = bot_record_resigned(bot_state(bot_record_start(white="Ann", black="Bot")))
    >>> state.outcome.winner, state.outcome.kind, state.outcome.resigned
    (1, 'mars', True)
    >>> state.record.rstrip().endswith('W resigns')
    True
    """
    if state.outcome is not None:
        raise BotGameError("the game against the bot is over", code="bot-game-finished")
    side = state.position.turn
    action = WrittenAction(side, "resigns", f"{'WB'[side]} resigns")
    outcome = outcome_for(state.position, 1 - side, Rules(), resigned=True)
    return _written(state, action, state.position, outcome, state.number)


def _written(
    state: BotState, action: WrittenAction, position: Position, outcome: Outcome | None,
    number: int,
) -> BotState:  # fmt: skip
    """The record of ``state`` with ``action`` appended and its Result tag."""
    games = read_records(state.record)
    done = replay(games[0], check_result=False)
    actions = [WrittenAction(p.side, p.action.kind, p.canonical) for p in done.played]
    actions.append(action)
    tags = [(k, v) for k, v in games[0].tags if k != "Result"]
    tags.append(("Result", outcome.result if outcome else "*"))
    first = variant_named(games[0].variant).first_side
    record = "\n".join(write_tags(tags)) + "\n\n" + write_movetext(actions, first_side=first) + "\n"
    return BotState(record, position, number, outcome)
