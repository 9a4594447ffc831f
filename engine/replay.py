"""Replaying and verifying records: turn by turn, the outcome, the Result tag."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from engine.errors import (
    IllegalTurnError,
    RecordSyntaxError,
    RecordTooLargeError,
    VerificationError,
)
from engine.irregular import play_accepted
from engine.limits import DEFAULT_LIMITS, ReadLimits
from engine.movegen import Turn, TurnState, after, side_lists, turn_state, turn_states
from engine.moves import Step, write_steps
from engine.notation import (
    Action,
    GameRecord,
    WrittenAction,
    check_record_size,
    dice_text,
    iter_games,
    read_game,
    read_movetext_line,
    read_records,
    write_movetext,
    write_tags,
)
from engine.position import Cube, Position
from engine.rules import WIN_POINTS
from engine.values import Value
from engine.variants import BAR, CHECKERS, OFF, SIDE_NAMES, WHITE, Rules, variant_named
from engine.written import PlayedTurn, play_without_search, play_written


class Outcome(Value):
    """How a game ended: the winner (``None`` for a draw), ``oin``/``mars``/``koks``/
    ``draw``, whether by resignation or a dropped double, and the cube value. A value:
    equal when the fields are, never changed after it is made (engine.values)."""

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
        return WIN_POINTS.get(self.kind, 0) * self.cube

    @property
    def ended(self) -> str:
        """How the game ended: ``played``, ``resigned`` or ``dropped`` (a double)."""
        return "resigned" if self.resigned else "dropped" if self.dropped else "played"

    def describe(self) -> str:
        how = " by resignation" if self.resigned else " (double dropped)" if self.dropped else ""
        return self.result + how


class PlayedAction(NamedTuple):
    """One action of a replayed game with the positions before and after it."""

    action: Action
    side: int
    number: int
    before: Position
    after: Position
    steps: tuple[Step, ...] = ()
    irregular: bool = False  # a turn that broke a rule and was accepted (NOTATION 1)

    @property
    def canonical(self) -> str:
        if self.action.kind == "turn":
            assert self.action.dice is not None
            dice = dice_text(self.action.dice, self.action.pas)
            return f"{dice}: {write_steps(self.steps)}".rstrip()
        if self.action.kind == "resigns":
            return f"{'W' if self.side == WHITE else 'B'} resigns"
        return self.action.kind


class Replay:
    """A replayed game: every action played, the final position, the outcome (``None``
    while unfinished) and the first problem found (``None`` when it verifies)."""

    __slots__ = ("error", "irregular", "outcome", "played", "position", "record", "rules")

    def __init__(self, record: GameRecord, rules: Rules) -> None:
        self.record = record
        self.rules = rules
        self.played: list[PlayedAction] = []
        self.position: Position | None = None
        self.outcome: Outcome | None = None
        self.error: VerificationError | None = None
        # the accepted irregular turns: (turn number, side), in the order played
        self.irregular: list[tuple[int, int]] = []

    @property
    def ok(self) -> bool:
        return self.error is None

    def irregular_text(self) -> str:
        """``turn 12 white accepted, turn 15 black accepted``; empty when none."""
        return ", ".join(f"turn {n} {SIDE_NAMES[side]} accepted" for n, side in self.irregular)

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
            WrittenAction(
                p.side,
                p.action.kind,
                f"{p.canonical} accepted" if p.irregular else p.canonical,
                p.action.comments,
            )
            for p in self.played
        ]
        first = variant_named(self.record.variant).first_side
        body = write_movetext(actions, self.record.preamble, first)
        tags = "\n".join(write_tags(self.record.tags))
        return f"{tags}\n\n{body}\n" if body else f"{tags}\n"


def rules_from_record(record: GameRecord) -> Rules:
    """The rule options a record's tags set (defaults as in NOTATION.md)."""
    return Rules.from_tags(record.tag)


def outcome_for(pos: Position, winner: int, rules: Rules, **flags: object) -> Outcome:
    """The outcome when ``winner`` wins in ``pos`` (L8, L9, S6)."""
    v = pos.rules_variant
    loser = pos.board(1 - winner)
    cube = pos.cube.value if pos.cube else 1
    if not rules.mars or loser[OFF] or not v.gammons:  # Z11: a Lurč win is 1 point
        kind = "oin"
    elif v.koks and (loser[BAR] or any(loser[19:25])):
        kind = "koks"
    else:
        kind = "mars"
    return Outcome(winner, kind, cube=cube, **flags)  # type: ignore[arg-type]


def replay(record: GameRecord, *, check_result: bool = True, keep: bool = True) -> Replay:
    """Replay a game action by action. Never raises for a rule broken: the first
    problem is kept in ``Replay.error`` with its line, column and turn. With
    ``keep=False`` only the final position is built, not one per action (faster)."""
    result = _Replayer(record, keep).run()
    if check_result and result.error is None:
        _check_result(result)
    return result


def verify(record: GameRecord) -> Replay:
    """Verify a game: replay it without keeping every position and check its Result."""
    return replay(record, keep=False)


class _Stop(Exception):
    """Ends a replay at the first problem (caught inside ``_Replayer.run``)."""


class _Replayer:
    """The state of one replay: boards, side to move, cube, turn number, pending last
    roll. Positions are built only when kept or needed."""

    def __init__(self, record: GameRecord, keep: bool = True) -> None:
        self.keep = keep
        self.rules = rules_from_record(record)
        self.variant = variant_named(record.variant)
        self.out = Replay(record, self.rules)
        start = Position.start(self.variant.name, cube=self.rules.cube and self.variant.cube)
        self.built: Position | None = start
        self.boards = [list(start.white), list(start.black)]
        self.mover = start.turn
        self.cube_state = start.cube
        self.number = 0
        self.first = True  # the next turn is the game's first
        # S2: the opening lot is white's first roll, so it cannot be a double
        self.lot_first = self.variant.lot_is_first_roll and self.rules.opening_roll == "lot"
        self.pending_last = False
        self.offered = False
        self.numbered = False  # white's double already opened this turn number
        self.again = False  # the last turn was a Lurč paš: the same player rolls again
        self.states = turn_states(self.variant, self.rules)  # shared by every game
        self.action: Action | None = None
        self.side = self.mover

    def position(self) -> Position:
        if self.built is None:
            b = self.boards
            self.built = Position(
                self.variant.name, self.mover, tuple(b[0]), tuple(b[1]), self.cube_state
            )
        return self.built

    def fail(
        self,
        message: str,
        rule: str | None = None,
        code: str | None = None,
        params: dict[str, object] | None = None,
    ) -> _Stop:
        a = self.action
        assert a is not None
        self.out.error = VerificationError(
            message,
            rule=rule,
            code=code,
            params=params,
            line=a.line,
            col=a.col,
            turn=self.number or 1,
            side=SIDE_NAMES[self.side],
            dice=a.dice_text if a.kind == "turn" else None,
            text=_moves_text(a),
        )
        return _Stop()

    def run(self) -> Replay:
        out = self.out
        try:
            actions = out.record.actions
            i, count = 0, len(actions)
            while i < count:
                if not self.keep:
                    i += self._plain_run(actions, i)
                    if i == count:
                        break
                i = self._action(actions, i)
        except _Stop:
            pass
        out.position = self.position()
        return out

    def _action(self, actions: tuple[Action, ...], i: int) -> int:
        """Play ``actions[i]`` (with the acceptance that follows a turn); the index of the
        next action."""
        action = actions[i]
        i += 1
        self.action = action
        self.side = self._side_of(action)
        if self.out.outcome is not None:
            raise self.fail(
                f"the game is already over ({self.out.outcome.describe()}); nothing may follow it",
                "L8",
                "after-game-over",
                {"result": self.out.outcome.result, "ended": self.out.outcome.ended},
            )
        if action.kind == "turn":
            follows = actions[i] if i < len(actions) else None
            accepted = follows if follows and follows.kind == "accepted" else None
            self.turn(action, accepted)
            return i + (accepted is not None)
        if action.kind == "accepted":
            raise self.fail(*_misplaced_acceptance(actions[i - 2] if i >= 2 else None))
        if action.kind == "resigns":
            self.resign(action)
        else:
            self.cube(action)
        return i

    def _side_of(self, action: Action) -> int:
        """Who acts: the side written, else the doubled player for a take or a drop, else
        the side to move."""
        if action.side is not None:
            return action.side
        if action.kind in ("take", "drop"):
            return 1 - self.mover  # the doubled player answers
        return self.mover

    def _plain_run(self, actions: tuple[Action, ...], start: int) -> int:
        """Verification only: play the run of plain turns from ``start`` (no side
        letters, no cube, game not ending) without building positions; returns how many
        were played. Anything else, errors included, is left to the full path."""
        if self.offered or self.pending_last or self.out.outcome is not None:
            return 0
        if self.variant.rolls_again:
            return 0  # paš, houšek and extra rolls: the full path
        boards, states, first_side = self.boards, self.states, self.variant.first_side
        mover, number = self.mover, self.number
        lot = self.first and self.lot_first  # S2: the opening lot cannot be a double
        played = 0
        for action in actions[start:]:
            dice = action.dice
            if (
                action.kind != "turn"
                or action.side is not None
                or action.pas is not None
                or (lot and dice[0] == dice[1])  # type: ignore[index]
            ):
                break
            assert dice is not None
            state = states.get((mover, dice)) or turn_state(self.variant, self.rules, mover, dice)
            me, opp = boards[mover], boards[1 - mover]
            me2, opp2 = me[:], opp[:] if state.hits else opp
            # the quick path of play_written without its result object (a tenth of
            # verify's time); every other turn is played by play_written itself
            if play_without_search(state, me2, opp2, action.moves) != []:
                try:
                    turn = play_written(state, me, opp, action.moves, with_steps=False)
                except IllegalTurnError:
                    break
                me2, opp2 = turn.me, turn.opp
            if me2[OFF] == CHECKERS:
                break  # the game ends: the full path scores it
            lot = False
            boards[mover], boards[1 - mover] = me2, opp2
            number += mover == first_side
            mover = 1 - mover
            played += 1
        if played:
            self.mover, self.number, self.built, self.first = mover, number, None, False
        return played

    def resign(self, action: Action) -> None:
        pos = self.position()
        winner = WHITE if self.pending_last else 1 - self.side
        self.out.outcome = outcome_for(pos, winner, self.rules, resigned=True)
        self.out.played.append(PlayedAction(action, self.side, self.number, pos, pos))

    def cube(self, action: Action) -> None:
        pos = self.position()
        cube = self.cube_state
        if action.kind == "double" and self.side == self.variant.first_side:
            self.number += 1  # a double opens the doubler's turn (the writer numbers it)
            self.numbered = True
        if cube is None:
            raise self.fail(
                "the doubling cube is not used in this game (Cube off)", "S7", "cube-off"
            )
        doubling = action.kind == "double"
        expected = self.mover if doubling else 1 - self.mover
        if self.side != expected or doubling == self.offered:
            raise self.fail(
                f"{action.kind} is not possible now", "S7", "cube-action", {"action": action.kind}
            )
        if doubling and self.rules.crawford:
            raise self.fail(
                "the Crawford game is played without the doubling cube", "S7", "crawford"
            )
        refused = cube.refusal(self.mover) if doubling else None
        if refused is not None:
            raise self.fail(refused.message, refused.rule, refused.code, refused.params)
        if doubling:
            self.offered = True
        elif action.kind == "take":
            self.offered = False
            self.cube_state = Cube(cube.value * 2, self.side)
            self.built = None
        else:
            self.out.outcome = Outcome(self.mover, "oin", dropped=True, cube=cube.value)
        self.out.played.append(PlayedAction(action, self.side, self.number, pos, self.position()))

    def turn(self, action: Action, accepted: Action | None = None) -> None:
        v = self.variant
        mover = self.mover
        if self.side == v.first_side and not self.again:
            if self.numbered:
                self.numbered = False  # the turn number came with the double
            else:
                self.number += 1
        self._check_turn(action)
        dice = action.dice
        assert dice is not None
        state = turn_state(v, self.rules, mover, dice)
        boards = self.boards
        irregular = False
        try:
            steps, me, opp, again = play_written(
                state, boards[mover], boards[1 - mover], action.moves, action.pas
            )
        except IllegalTurnError as exc:
            if accepted is None:
                raise self.fail(exc.message, exc.rule, exc.code, exc.params) from None
            steps, me, opp, again = self._accepted(state, action, accepted)
            irregular = True
        else:
            if accepted is not None:
                self.action, self.side = accepted, 1 - mover  # the opponent accepts
                raise self.fail(*_misplaced_acceptance(action))
        self.first = False
        self.again = again  # Z7, Z8: a paš gives the same player another roll
        before = self.built
        boards[mover], boards[1 - mover] = me, opp
        self.mover = mover if again else 1 - mover
        self.built = None
        if self.keep:
            assert before is not None
            self.out.played.append(
                PlayedAction(action, mover, self.number, before, self.position(), steps, irregular)
            )
        if irregular:
            self.out.irregular.append((self.number, mover))
        self._game_end(mover, me)

    def _check_turn(self, action: Action) -> None:
        """The checks of a turn before its moves: the right side, no double pending, a
        paš only where the variant has one, no double as the opening lot."""
        v, mover = self.variant, self.mover
        if self.side != mover:
            raise self.fail(
                f"it is {SIDE_NAMES[mover]}'s turn, not {SIDE_NAMES[self.side]}'s",
                v.rule_ids.turn_order,
                "wrong-side",
                {"side": SIDE_NAMES[self.side], "mover": SIDE_NAMES[mover]},
            )
        if self.offered:
            raise self.fail(
                "the double must be taken or dropped before the next roll", "S7", "double-pending"
            )
        dice = action.dice
        assert dice is not None
        if action.pas is not None and not v.rolls_again:
            raise self.fail(
                "a chosen paš (+nn) is written only after a 1-2 roll in Lurč", "Z8", "pas-only-lurc"
            )
        if self.first and self.lot_first and dice[0] == dice[1]:
            raise self.fail(
                "the opening roll is the lot, which cannot be a double", "S2", "double-lot"
            )

    def _game_end(self, mover: int, me: list[int]) -> None:
        """The outcome after ``mover``'s turn left ``me``: a draw or a win after black's
        last roll (L10), a win when the mover bore off its last checker."""
        if self.pending_last:
            self.pending_last = False
            if me[OFF] == CHECKERS:
                self.out.outcome = Outcome(None, "draw")
            else:
                self.out.outcome = outcome_for(self.position(), WHITE, self.rules)
        elif me[OFF] == CHECKERS:
            if mover == WHITE and self.rules.last_roll and self.variant.last_roll:
                self.pending_last = True  # L10: black has one more roll
            else:
                self.out.outcome = outcome_for(self.position(), mover, self.rules)

    def _accepted(self, state: TurnState, action: Action, accepted: Action) -> PlayedTurn:
        """Play a turn the opponent accepted although it broke a rule: only the physical
        checks (NOTATION 1, ``accepted``). A Lurč paš still gives its extra roll when all
        its moves were written (Z7)."""
        mover = self.mover
        if accepted.side is not None and accepted.side != 1 - mover:
            self.action, self.side = accepted, accepted.side
            raise self.fail(
                f"only {SIDE_NAMES[1 - mover]}, the opponent of the player who moved, "
                "can accept a turn",
                None,
                "wrong-acceptor",
                {"side": SIDE_NAMES[1 - mover]},
            )
        try:
            steps, me, opp = play_accepted(
                state, self.boards[mover], self.boards[1 - mover], action.moves
            )
            phases, again = self.variant.roll_phases(self.boards[mover], state.dice, action.pas)
            dice = sum(len(p) for p in phases)
            again = again and len(steps) == dice and me[OFF] < CHECKERS
        except IllegalTurnError as exc:
            raise self.fail(exc.message, exc.rule, exc.code, exc.params) from None
        return PlayedTurn(steps, me, opp, again)


def _misplaced_acceptance(before: Action | None) -> tuple[str, None, str, dict[str, object]]:
    if before is not None and before.kind == "turn":
        return (
            f"accepted follows a legal turn ({before.text}): only a turn that broke a rule "
            "is accepted",
            None,
            "accepted-legal-turn",
            {"turn": before.text},
        )
    return "accepted must follow the irregular turn it accepts", None, "accepted-misplaced", {}


def _moves_text(a: Action, size: int = 200) -> str:
    """The moves as written, for a message: cut after ``size`` characters."""
    if a.kind != "turn":
        return a.kind
    text = " ".join(m.text for m in a.moves[: size // 4 + 1])
    return text if len(text) <= size else text[:size] + "…"


def _check_result(out: Replay) -> None:
    declared = out.record.tag("Result", "*")
    actual = out.outcome.result if out.outcome else "*"
    if declared == actual:
        return
    line = next((i for i, (k, _) in enumerate(out.record.tags) if k == "Result"), None)
    where = out.record.line + line if line is not None else out.record.line
    params: dict[str, object] = {"declared": declared}
    if out.outcome is None:
        message = f'the game is not finished, but the Result tag says "{declared}"'
        code = "result-unfinished"
    else:
        params |= {"result": out.outcome.result, "ended": out.outcome.ended}
        if declared == "*":
            message = f'the game is over ({out.outcome.describe()}), but the Result tag says "*"'
            code = "result-star"
        else:
            message = (
                f'the Result tag says "{declared}", but the game ended {out.outcome.describe()}'
            )
            code = "result-mismatch"
    out.error = VerificationError(message, rule="L8", line=where, col=1, code=code, params=params)


def verify_text(text: str, limits: ReadLimits = DEFAULT_LIMITS) -> list[Replay | RecordSyntaxError]:
    """Verify every game of a record file: a :class:`Replay` per game (``ok`` or with its
    ``error``), or the syntax error that stopped the game from being read. A record over
    ``limits`` raises :class:`RecordTooLargeError` (a line that cannot be read at all,
    with a NUL, ends the list with its error)."""
    check_record_size(text, limits)
    return list(iter_verified(text.splitlines(), limits))


def iter_verified(
    lines: Iterable[str], limits: ReadLimits = DEFAULT_LIMITS
) -> Iterator[Replay | RecordSyntaxError]:
    """Verify the games of lines (a list, or an open file read as a stream: the command
    line keeps one game in memory at a time). A limit broken raises
    :class:`RecordTooLargeError`; a line no record may hold (a NUL) ends with its error."""
    games = iter_games(lines, limits)
    number = 0
    while True:
        try:
            lines_of_game = next(games, None)
        except RecordTooLargeError:
            raise
        except RecordSyntaxError as exc:
            yield exc
            return
        if lines_of_game is None:
            return
        number += 1
        try:
            record = read_game(lines_of_game, limits)
        except RecordTooLargeError as exc:
            exc.game = number
            raise
        except RecordSyntaxError as exc:
            exc.game = number
            yield exc
            continue
        result = verify(record)
        if result.error is not None:
            result.error.game = number
        yield result


def format_text(text: str, limits: ReadLimits = DEFAULT_LIMITS) -> str:
    """The canonical form of a record file; raises the first error found."""
    games = []
    for number, record in enumerate(read_records(text, limits), start=1):
        result = replay(record, check_result=False)
        if result.error is not None:
            result.error.game = number
            raise result.error
        games.append(result.canonical())
    return "\n".join(games)


def play(position: Position, text: str, rules: Rules | None = None) -> Turn:
    """Play one written turn (``"64: 24/18/14"``) from ``position``: the legal
    :class:`Turn` it makes, or :class:`IllegalTurnError` / :class:`RecordSyntaxError`.

    >>> play(Position.start("long"), "64: 24/14").notation
    '24/18/14'
    """
    actions, _ = read_movetext_line(text)
    if len(actions) != 1 or actions[0].kind != "turn" or actions[0].dice is None:
        raise RecordSyntaxError(
            "write one turn: dice, a colon and the moves", code="one-turn", line=1, col=1
        )
    action = actions[0]
    assert action.dice is not None
    if action.side is not None and action.side != position.turn:
        raise IllegalTurnError(
            f"it is {SIDE_NAMES[position.turn]}'s turn",
            code="not-your-turn",
            params={"mover": SIDE_NAMES[position.turn]},
        )
    variant = position.rules_variant
    if action.pas is not None and not variant.rolls_again:
        raise IllegalTurnError(
            "a chosen paš (+nn) is written only in Lurč", rule="Z8", code="pas-not-lurc"
        )
    state = turn_state(variant, rules or Rules(), position.turn, action.dice)
    me, opp = side_lists(position)
    steps, me, opp, again = play_written(state, me, opp, action.moves, action.pas)
    nxt = position.turn if again else 1 - position.turn
    return Turn(action.dice, steps, after(position, me, opp, nxt), action.pas)
