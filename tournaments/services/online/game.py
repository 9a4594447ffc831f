"""The current game of a room as the engine sees it: its record replayed (the record is
the truth of the position, as a bot game's is), an action appended and replayed again
(the engine refuses what is illegal: a turn, a cube action, a double in the Crawford
game), and the legal turns for the dice. Only the engine decides; this module writes."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.engine import (
    CHECKERS,
    SIDE_NAMES,
    EngineError,
    Outcome,
    Position,
    Replay,
    Rules,
    Turn,
    WrittenAction,
    dice_text,
    legal_turns,
    read_records,
    replay,
    rules_from_record,
    write_movetext,
    write_tags,
)
from tournaments.services.errors import ApplicationError


@dataclass(frozen=True)
class GameView:
    """Where a room's game stands: the position (whose turn), the outcome once over,
    whether a double waits for its answer, how many turns each side played."""

    record: str
    position: Position
    outcome: Outcome | None
    rules: Rules
    offered: bool
    turns: tuple[int, int]  # turns played by white and by black
    last: tuple[int, tuple[int, int], str, tuple[tuple[int, int], ...]] | None
    # the last turn: side, dice, movetext (mover's numbering), steps (from, to)
    actions: tuple[WrittenAction, ...] = ()  # every action played, canonical
    tags: tuple[tuple[str, str], ...] = ()  # the record's tags but Result

    @property
    def on_turn(self) -> int:
        """Who must act: the doubled player while a double waits, else the side to move."""
        return 1 - self.position.turn if self.offered else self.position.turn


def game_start(tags: dict[str, str]) -> str:
    """The record of a game not begun, with ``tags`` (Variant first)."""
    return "\n".join(write_tags([*tags.items(), ("Result", "*")])) + "\n"


class Kept:
    """The last ``size`` values computed from a record's whole text (and more keys), for
    every thread of the process: a changed record is another key, so a copy is never
    stale. A room's sockets and its next action ask for the same record's view and
    legal turns; computing them once is most of a move's work saved."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[object, object] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: object) -> object | None:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: object, value: object) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


# two records a room (the one played and the one before it, for a resend)
VIEWS = Kept(2048)
LEGAL = Kept(2048)


def game_view(record: str) -> GameView:
    """Replay a room's record (never one the room did not write: an error is a bug).
    Kept for the next request by the record's whole text: a changed record is another
    key, so a copy is never stale."""
    view = VIEWS.get(record)
    if view is None:
        games = read_records(record)
        view = _view_of(record, games[0].tags, replay(games[0], check_result=False))
        VIEWS.put(record, view)
    assert isinstance(view, GameView)
    return view


def _view_of(record: str, tags: Sequence[tuple[str, str]], done: Replay,
             written: Sequence[WrittenAction] | None = None) -> GameView:  # fmt: skip
    """The view of ``record``, from its replay ``done`` (``written``: its actions written
    canonically, when known)."""
    if done.error is not None or done.position is None:
        raise ApplicationError.from_engine(done.error or EngineError("no position"))
    if written is None:
        written = [WrittenAction(p.side, p.action.kind, p.canonical) for p in done.played]
    turns = [0, 0]
    last = None
    for p, w in zip(done.played, written, strict=True):
        if p.action.kind == "turn":
            turns[p.side] += 1
            last = (p, w)
    if last is not None:
        p, w = last
        assert p.action.dice is not None
        dice = (p.action.dice[0], p.action.dice[1])
        text = w.text.split(":", 1)[1].strip()
        last_turn = (p.side, dice, text, tuple((s.frm, s.to) for s in p.steps))
    offered = bool(done.played) and done.played[-1].action.kind == "double"
    actions = tuple(written)
    return GameView(
        record, done.position, done.outcome, rules_from_record(done.record), offered,
        (turns[0], turns[1]), last_turn if last is not None else None, actions,
        tuple((k, v) for k, v in tags if k != "Result"),
    )  # fmt: skip


def game_with(view: GameView, side: int, kind: str, text: str = "") -> GameView:
    """The game with one more action by ``side``: a ``turn`` (``text`` the whole action,
    ``64: 24/18/14``), ``double``, ``take``, ``drop`` or ``resigns``. The engine replays
    the record with it: what it refuses is raised as an ApplicationError with the
    engine's code and rule (said in the reader's language). The record is replayed once,
    with the action; the view of the record written from it is that replay's."""
    if kind == "resigns":
        text = f"{'WB'[side]} resigns"
    actions = [*view.actions, WrittenAction(side, kind, text or kind)]
    first = view.position.rules_variant.first_side
    tags = list(view.tags)
    body = write_movetext(actions, first_side=first)
    draft = "\n".join(write_tags([*tags, ("Result", "*")])) + "\n\n" + body + "\n"
    again = replay(read_records(draft)[0], check_result=False)
    if again.error is not None:
        raise ApplicationError.from_engine(again.error, located=False)
    if len(again.played) != len(actions) or again.played[-1].side != side:
        raise ApplicationError.from_engine(
            EngineError(f"it is not {SIDE_NAMES[side]}'s action", code="wrong-side")
        )
    result = again.outcome.result if again.outcome else "*"
    # the actions before are the view's, replayed as they were: written as they were
    played = again.played[-1]
    written = [*view.actions, WrittenAction(played.side, played.action.kind, played.canonical)]
    body = write_movetext(written, first_side=first)
    final = "\n".join(write_tags([*tags, ("Result", result)])) + "\n\n" + body + "\n"
    kept = VIEWS.get(final)
    if kept is None:  # the written record replays as the draft did: only its Result differs
        kept = _view_of(final, tags, again, written)
        VIEWS.put(final, kept)
    assert isinstance(kept, GameView)
    return kept


def listable(view: GameView, dice: tuple[int, int]) -> bool:
    """Whether the legal turns of ``dice`` can be listed: not a Lurč houšek whose paš is
    still to choose (Z8: tens of thousands of plays; the player's written turn is judged
    by the engine's replay instead)."""
    me = view.position.board(view.position.turn)
    _roll, choices = view.position.rules_variant.roll_choices(list(dice), me)
    return len(choices) == 1


def game_legal(view: GameView, dice: tuple[int, int]) -> list[Turn]:
    """The legal turns of the side to move for ``dice`` (one, empty, when blocked: L6; a
    Lurč houšek lists the plays of every paš, Z8). Kept by the record and the dice: the
    state offers them, the turn sent is checked against them, the next roll's are
    looked for a turn without a move."""
    key = (view.record, dice[0], dice[1])
    turns = LEGAL.get(key)
    if turns is None:
        turns = tuple(legal_turns(view.position, list(dice), view.rules))
        LEGAL.put(key, turns)
    assert isinstance(turns, tuple)
    return list(turns)


@dataclass(frozen=True)
class Listed:
    """A legal turn as the room shows and plays it: the client's name for it
    (``turn_text``), the record's text (``action_text``) and its steps (from, to)."""

    text: str
    action: str
    steps: tuple[tuple[int, int], ...]


LISTED = Kept(2048)


def game_listed(view: GameView, dice: tuple[int, int]) -> tuple[Listed, ...]:
    """``game_legal``'s turns named, kept as they are: the mover's state lists them, the
    turn sent is looked up among them."""
    key = (view.record, dice[0], dice[1])
    listed = LISTED.get(key)
    if listed is None:
        listed = tuple(_listed(t) for t in game_legal(view, dice))
        LISTED.put(key, listed)
    assert isinstance(listed, tuple)
    return listed


def _listed(turn: Turn) -> Listed:
    notation = turn.notation  # written each time it is asked for: once here
    steps = tuple((st.frm, st.to) for st in turn.steps)
    return Listed(_turn_text(turn, notation), _action_text(turn, notation), steps)


def turn_text(turn: Turn) -> str:
    """A legal turn as the client names it: its movetext, with the chosen paš in front
    after a Lurč houšek (``+55: ...``)."""
    return _turn_text(turn, turn.notation)


def _turn_text(turn: Turn, notation: str) -> str:
    if turn.pas is None:
        return notation
    return f"+{turn.pas[0]}{turn.pas[1]}: {notation}".rstrip()


def action_text(turn: Turn) -> str:
    """The record's text of a legal turn: its dice (and paš), a colon and its moves."""
    return _action_text(turn, turn.notation)


def _action_text(turn: Turn, notation: str) -> str:
    dice = (turn.dice[0], turn.dice[1])
    return f"{dice_text(dice, turn.pas)}: {notation}".rstrip()


def may_double(view: GameView, *, crawford: bool) -> bool:
    """Whether the side to move may offer a double before rolling (S7): the cube is in
    play, no double waits, not the Crawford game, the mover owns the cube or nobody
    does, and the game goes on."""
    cube = view.position.cube
    if cube is None or view.offered or crawford or view.outcome is not None:
        return False
    if view.position.off(1 - view.position.turn) == CHECKERS:
        return False  # a last roll (L10) is not doubled
    return cube.may_double(view.position.turn)
