"""A stored game record replayed for the game page: every position with the turn that
led to it, drawn by tournaments.board. Reading only; entering records goes through
services.records."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from tournaments import engine
from tournaments.board import board_frame, board_label, board_pieces
from tournaments.engine import BLACK, WHITE, PlayedAction
from tournaments.wording.engine_errors import CUBE_ACTIONS, engine_message
from tournaments.wording.names import result_text, side_name


@dataclass(frozen=True, slots=True)
class Frame:
    """The board after ``index`` actions (0: the start), and the action that led to it."""

    index: int
    number: int  # the turn number in the record (0 for the start)
    side: str  # "white" / "black" / "" for the start
    dice: str
    text: str
    pieces: str  # the SVG pieces layer
    label: str
    pips_white: int
    pips_black: int
    to_move: str
    irregular: bool = False  # a turn that broke a rule, accepted by the opponent


@dataclass(frozen=True, slots=True)
class GameReplay:
    variant: str
    frame_svg: str
    frames: list[Frame]
    error: str  # the engine's message when the record does not verify
    error_text: str  # the illegal turn as written
    outcome: str


def _action_words(played: PlayedAction, side: str) -> str:
    """A turn as written; a resignation or a cube action in the reader's words (the
    record's "B resigns" is notation, not Czech)."""
    kind = played.action.kind
    if kind == "resigns":
        return gettext("%(side)s resigns") % {"side": side_name(side)}
    if kind in CUBE_ACTIONS:
        return f"{side_name(side)}: {CUBE_ACTIONS[kind]}"
    return played.canonical


def _frame(index: int, pos: engine.Position, played: PlayedAction | None) -> Frame:
    dice: tuple[int, ...] = ()
    side = ""
    if played is not None:
        side = "white" if played.side == WHITE else "black"
        if played.action.dice is not None:
            dice = played.action.dice
    return Frame(
        index=index,
        number=played.number if played is not None else 0,
        side=side,
        dice=played.action.dice_text if played is not None else "",
        text=_action_words(played, side) if played is not None else "",
        pieces=board_pieces(pos, dice=dice, dice_side=None if played is None else played.side),
        label=board_label(pos),
        pips_white=pos.pips(WHITE),
        pips_black=pos.pips(BLACK),
        to_move="white" if pos.turn == WHITE else "black",
        irregular=played is not None and played.irregular,
    )


def game_replay(record: str) -> GameReplay | None:
    """Every position of the record's first game; ``None`` when it cannot be read at all.

    A record that breaks a rule replays up to the illegal turn and says why."""
    try:
        games = engine.read_records(record)
    except engine.RecordSyntaxError as exc:
        return GameReplay("", "", [], engine_message(exc, located=True), "", "")
    if not games:
        return None
    try:
        result = engine.replay(games[0], check_result=False)
    except engine.EngineError as exc:  # an unknown variant, say
        return GameReplay(games[0].variant, "", [], engine_message(exc, located=True), "", "")
    error = engine_message(result.error, located=True) if result.error is not None else ""
    if result.position is None:
        return GameReplay(games[0].variant, "", [], error, "", "")
    first = result.played[0].before if result.played else result.position
    frames = [_frame(0, first, None)]
    frames += [_frame(i, p.after, p) for i, p in enumerate(result.played, start=1)]
    error_text = (result.error.text or "") if result.error is not None else ""
    outcome = ""
    if result.outcome is not None:
        o = result.outcome
        winner = None if o.winner is None else ("white" if o.winner == WHITE else "black")
        gammons = engine.variant_named(first.variant).gammons
        outcome = result_text(
            winner=winner, kind=o.kind, ended=o.ended, cube=o.cube, gammons=gammons
        )
    return GameReplay(first.variant, board_frame(first.variant), frames, error, error_text, outcome)
