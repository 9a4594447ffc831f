"""Replaying and verifying records: turn by turn, the outcome, the Result tag."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import IllegalTurnError, RecordSyntaxError, VerificationError
from engine.movegen import Step, TurnState, side_lists
from engine.notation import (
    Action,
    GameRecord,
    WrittenAction,
    dice_text,
    read_game,
    split_games,
    write_movetext,
    write_steps,
    write_tags,
)
from engine.position import Cube, Position
from engine.variants import BAR, CHECKERS, OFF, SIDE_NAMES, WHITE, Rules, variant_named
from engine.written import WrittenTurn, segments


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (``None`` for a draw), ``oin``/``mars``/``koks``/
    ``draw``, whether by resignation or a dropped double, and the cube value."""

    winner: int | None
    kind: str
    resigned: bool = False
    dropped: bool = False
    cube: int = 1

    @property
    def result(self) -> str:
        """The value of the ``Result`` tag: ``white mars``, ``draw``."""
        return "draw" if self.winner is None else f"{SIDE_NAMES[self.winner]} {self.kind}"

    @property
    def points(self) -> int:
        """Points the winner scores in a match (oin 1, mars 2, koks 3, times the cube);
        0 for a draw, whose scoring is a tournament setting (L11)."""
        return {"oin": 1, "mars": 2, "koks": 3}.get(self.kind, 0) * self.cube

    def describe(self) -> str:
        how = " by resignation" if self.resigned else " (double dropped)" if self.dropped else ""
        return self.result + how


@dataclass(frozen=True, slots=True)
class PlayedAction:
    """One action of a replayed game with the positions before and after it."""

    action: Action
    side: int
    number: int
    before: Position
    after: Position
    steps: tuple[Step, ...] = ()

    @property
    def canonical(self) -> str:
        if self.action.kind == "turn":
            assert self.action.dice is not None
            dice = dice_text(self.action.dice, self.action.pas)
            return f"{dice}: {write_steps(self.steps)}".rstrip()
        if self.action.kind == "resigns":
            return f"{'W' if self.side == WHITE else 'B'} resigns"
        return self.action.kind


@dataclass(slots=True)
class Replay:
    """A replayed game: every action played, the final position, the outcome (``None``
    while unfinished) and the first problem found (``None`` when it verifies)."""

    record: GameRecord
    rules: Rules
    played: list[PlayedAction] = field(default_factory=list)
    position: Position | None = None
    outcome: Outcome | None = None
    error: VerificationError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def positions(self) -> list[Position]:
        """The position before the first action and after each action."""
        if self.position is None:
            return []
        first = self.played[0].before if self.played else self.position
        return [first, *(p.after for p in self.played)]

    def canonical(self) -> str:
        """The game written canonically (only the actions replayed so far)."""
        actions = [
            WrittenAction(p.side, p.action.kind, p.canonical, p.action.comments)
            for p in self.played
        ]
        body = write_movetext(actions, self.record.preamble)
        tags = "\n".join(write_tags(self.record.tags))
        return f"{tags}\n\n{body}\n" if body else f"{tags}\n"


def rules_from_record(record: GameRecord) -> Rules:
    """The rule options a record's tags set (defaults as in NOTATION.md)."""
    match = record.tag("MatchLength")
    return Rules(
        mars=record.tag("Mars", "on") == "on",
        last_roll=record.tag("LastRoll", "off") == "on",
        block_check=record.tag("BlockCheck", "turn-end"),
        block_ahead=record.tag("BlockAhead", "anywhere"),
        cube=record.tag("Cube", "off") == "on",
        match_length=int(match) if match else None,
        opening_roll=record.tag("OpeningRoll", "lot"),
    )


def outcome_for(pos: Position, winner: int, rules: Rules, **flags: object) -> Outcome:
    """The outcome when ``winner`` wins in ``pos`` (L8, L9, S6)."""
    v = pos.rules_variant
    loser = pos.board(1 - winner)
    cube = pos.cube.value if pos.cube else 1
    if not rules.mars or loser[OFF]:
        kind = "oin"
    elif v.koks and (loser[BAR] or any(loser[19:25])):
        kind = "koks"
    else:
        kind = "mars"
    return Outcome(winner, kind, cube=cube, **flags)  # type: ignore[arg-type]


def replay(record: GameRecord, *, check_result: bool = True) -> Replay:
    """Replay a game action by action. Never raises for a rule broken: the first
    problem is kept in ``Replay.error`` with its line, column and turn."""
    rules = rules_from_record(record)
    v = variant_named(record.variant)
    out = Replay(record, rules)
    pos = Position.start(v.name, cube=rules.cube and v.name == "short")
    out.position = pos
    if v.name == "lurc":
        out.error = VerificationError(
            "Lurč records cannot be verified by this version of the engine",
            line=record.line,
            col=1,
        )
        return out
    number = 0
    pending_last = False
    offered = False
    first_roll = True
    for action in record.actions:
        side = pos.turn if action.side is None else action.side

        if out.outcome is not None:
            return _stop(
                out,
                pos,
                action,
                side,
                number,
                f"the game is already over ({out.outcome.describe()}); nothing may follow it",
                "L8",
            )
        if action.kind == "resigns":
            winner = 1 - side
            oc = outcome_for(pos, winner, rules, resigned=True)
            if pending_last:
                oc = outcome_for(pos, WHITE, rules, resigned=True)
            out.played.append(PlayedAction(action, side, number, pos, pos))
            out.outcome = oc
            continue
        if action.kind in ("double", "take", "drop"):
            if pos.cube is None:
                return _stop(
                    out,
                    pos,
                    action,
                    side,
                    number,
                    "the doubling cube is not used in this game (Cube off)",
                    "S7",
                )
            expected = pos.turn if action.kind == "double" else 1 - pos.turn
            if side != expected or (action.kind == "double") == offered:
                return _stop(
                    out, pos, action, side, number, f"{action.kind} is not possible now", "S7"
                )
            if action.kind == "double" and pos.cube.owner not in (None, pos.turn):
                return _stop(
                    out,
                    pos,
                    action,
                    side,
                    number,
                    f"{SIDE_NAMES[pos.turn]} does not own the cube",
                    "S7",
                )
            new = pos
            if action.kind == "double":
                offered = True
            elif action.kind == "take":
                offered = False
                new = Position(
                    pos.variant, pos.turn, pos.white, pos.black, Cube(pos.cube.value * 2, side)
                )
            else:
                out.outcome = Outcome(pos.turn, "oin", dropped=True, cube=pos.cube.value)
            out.played.append(PlayedAction(action, side, number, pos, new))
            pos = new
            continue
        # a turn
        if side == v.first_side:
            number += 1
        if action.side is not None and action.side != pos.turn:
            return _stop(
                out,
                pos,
                action,
                side,
                number,
                f"it is {SIDE_NAMES[pos.turn]}'s turn, not {SIDE_NAMES[side]}'s",
            )
        if offered:
            return _stop(
                out,
                pos,
                action,
                side,
                number,
                "the double must be taken or dropped before the next roll",
                "S7",
            )
        assert action.dice is not None
        if action.pas is not None:
            return _stop(
                out,
                pos,
                action,
                side,
                number,
                "a chosen paš (+nn) is written only after a 1-2 roll in Lurč",
                "Z8",
            )
        if (
            first_roll
            and v.lot_is_first_roll
            and rules.opening_roll == "lot"
            and action.dice[0] == action.dice[1]
        ):
            return _stop(
                out,
                pos,
                action,
                side,
                number,
                "the opening roll is the lot, which cannot be a double",
                "S2",
            )
        first_roll = False
        state = TurnState(v, rules, pos.turn, action.dice)
        me, opp = side_lists(pos)
        try:
            steps, me, opp = WrittenTurn(state, me, opp, segments(action.moves)).play()
        except IllegalTurnError as exc:
            return _stop(out, pos, action, side, number, exc.message, exc.rule)
        nxt = 1 - pos.turn
        if pos.turn == WHITE:
            new = Position(pos.variant, nxt, tuple(me), tuple(opp), pos.cube)
        else:
            new = Position(pos.variant, nxt, tuple(opp), tuple(me), pos.cube)
        out.played.append(PlayedAction(action, side, number, pos, new, steps))
        mover = pos.turn
        pos = new
        if pending_last:
            pending_last = False
            if pos.off(mover) == CHECKERS:
                out.outcome = Outcome(None, "draw")
            else:
                out.outcome = outcome_for(pos, WHITE, rules)
        elif pos.off(mover) == CHECKERS:
            if mover == WHITE and rules.last_roll and v.name == "long":
                pending_last = True  # L10: black has one more roll
            else:
                out.outcome = outcome_for(pos, mover, rules)
    out.position = pos
    if check_result:
        _check_result(out)
    return out


def _stop(
    out: Replay,
    pos: Position,
    a: Action,
    side: int,
    number: int,
    message: str,
    rule: str | None = None,
) -> Replay:
    dice = a.dice_text if a.kind == "turn" else None
    out.error = VerificationError(
        message,
        rule=rule,
        line=a.line,
        col=a.col,
        turn=number or 1,
        side=SIDE_NAMES[side],
        dice=dice,
        text=_moves_text(a),
    )
    out.position = pos
    return out


def _moves_text(a: Action) -> str:
    return " ".join(m.text for m in a.moves) if a.kind == "turn" else a.kind


def _check_result(out: Replay) -> None:
    declared = out.record.tag("Result", "*")
    actual = out.outcome.result if out.outcome else "*"
    if declared == actual:
        return
    line = next((i for i, (k, _) in enumerate(out.record.tags) if k == "Result"), None)
    where = out.record.line + line if line is not None else out.record.line
    if out.outcome is None:
        message = f'the game is not finished, but the Result tag says "{declared}"'
    elif declared == "*":
        message = f'the game is over ({out.outcome.describe()}), but the Result tag says "*"'
    else:
        message = f'the Result tag says "{declared}", but the game ended {out.outcome.describe()}'
    out.error = VerificationError(message, rule="L8", line=where, col=1)


def verify_text(text: str) -> list[Replay | RecordSyntaxError]:
    """Verify every game of a record file: a :class:`Replay` per game (``ok`` or with its
    ``error``), or the syntax error that stopped the game from being read."""
    results: list[Replay | RecordSyntaxError] = []
    for number, (_, lines) in enumerate(split_games(text), start=1):
        try:
            record = read_game(lines)
        except RecordSyntaxError as exc:
            exc.game = number
            results.append(exc)
            continue
        result = replay(record)
        if result.error is not None:
            result.error.game = number
        results.append(result)
    return results


def format_text(text: str) -> str:
    """The canonical form of a record file; raises the first error found."""
    games = []
    for number, (_, lines) in enumerate(split_games(text), start=1):
        try:
            record = read_game(lines)
        except RecordSyntaxError as exc:
            exc.game = number
            raise
        result = replay(record, check_result=False)
        if result.error is not None:
            result.error.game = number
            raise result.error
        games.append(result.canonical())
    return "\n".join(games)
