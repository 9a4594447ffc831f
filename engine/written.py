"""Playing a turn as it was written: find the dice for each written move, play them in
the written order and check the result against the must-play rule (NOTATION 1,
Verification).

:func:`play_written` is the one way to play a written turn. :class:`WrittenTurn` is the
:class:`~engine.movegen.Guide` the one search of :mod:`engine.movegen` follows over the
written moves (every die assignment and order they allow), and the must-play questions
are its other goals (every legal end, a longer play, the higher die alone).
:func:`play_without_search` is an optimisation for what players write nearly always,
each move one die: it accepts a turn only when the search would accept it with the
same boards, else hands it to the search (tests/engine/test_differential.py checks both
agree)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from engine.errors import IllegalTurnError
from engine.movegen import (
    CLOSED,
    ENTER_FIRST,
    HIGHER_CHECKER,
    NO_CHECKER,
    NOT_EXACT,
    NOT_HOME,
    Guide,
    Offer,
    Params,
    StepSearch,
    TurnState,
    generate,
    phased_ends,
    plays_more_than,
    single_high_ends,
)
from engine.moves import Step, point_text
from engine.notation import WrittenMove
from engine.variants import BAR, CHECKERS, OFF, SIDE_NAMES, START, Phases

Segment = tuple[int, int, bool]  # from, to (0 = off, 25 = bar), marked as a hit


class PlayedTurn:
    """A written turn played: its steps, the boards after it (the mover's, the
    opponent's) and whether the same player rolls again (Z7, Z8). Unpacks as
    ``steps, me, opp, again``."""

    __slots__ = ("again", "me", "opp", "steps")

    def __init__(
        self, steps: tuple[Step, ...], me: list[int], opp: list[int], again: bool = False
    ) -> None:
        self.steps = steps
        self.me = me
        self.opp = opp
        self.again = again

    def __iter__(self) -> Iterator[Any]:
        return iter((self.steps, self.me, self.opp, self.again))


class QuickPlay:
    """What :func:`play_without_search` found: the steps (empty unless asked for), the
    boards after them and the dice left unplayed (a must-play question when not empty)."""

    __slots__ = ("left", "me", "opp", "steps")

    def __init__(
        self, steps: tuple[Step, ...], me: list[int], opp: list[int], left: list[int]
    ) -> None:
        self.steps = steps
        self.me = me
        self.opp = opp
        self.left = left


class _Move:
    """A written move over several dice being played (the guide's place while its steps
    are searched): its index among the written moves, from, to, hit mark, the number of
    steps before it, and whether some order of the dice reached its point."""

    __slots__ = ("a", "b", "before", "found", "i", "star")

    def __init__(self, i: int, a: int, b: int, star: bool, before: int) -> None:
        self.i = i
        self.a = a
        self.b = b
        self.star = star
        self.before = before
        self.found = False


def segments(moves: tuple[WrittenMove, ...]) -> tuple[Segment, ...]:
    """The written moves cut into from/to pairs, repeats expanded."""
    if len(moves) == 1:
        return moves[0].segments
    if len(moves) > 8:  # a hostile turn of many moves: adding tuples would be quadratic
        return tuple(itertools.chain.from_iterable(m.segments for m in moves))
    out: tuple[Segment, ...] = ()
    for m in moves:
        out += m.segments
    return out


def play_written(
    state: TurnState,
    me: list[int],
    opp: list[int],
    moves: tuple[WrittenMove, ...],
    pas: tuple[int, int] | None = None,
    *,
    with_steps: bool = True,
) -> PlayedTurn:
    """Play the written moves of a turn on copies of the boards (the one way every
    variant plays a written turn, for ``verify``, ``replay`` and ``play``): the steps,
    the boards after them and whether the player rolls again, or
    :class:`IllegalTurnError` with the first rule broken. A turn that uses every die
    needs no search; a shorter one is checked against the legal ends. ``pas`` is the paš
    written after a Lurč houšek. ``with_steps=False`` (verification) may leave the steps
    out of a turn that needed no search."""
    phases: Phases
    if state.one_phase:
        phases, again = (state.to_play,), False
    else:
        phases, again = state.variant.roll_phases(me, state.dice, pas)
    quick = None
    if phases == (state.to_play,):
        me2, opp2 = me[:], opp[:] if state.hits else opp
        steps: list[Step] = []  # kept always: a play that leaves dice needs them
        left = play_without_search(state, me2, opp2, moves, steps)
        if left is not None and not left:
            kept = tuple(steps) if with_steps else ()
            return PlayedTurn(kept, me2, opp2, again and me2[OFF] < CHECKERS)
        if left is not None:  # dice left: a must-play question
            quick = QuickPlay(tuple(steps), me2, opp2, left)
    played = WrittenTurn(state, me, opp, segments(moves), phases).play(quick)
    # Z7, Z8: the extra roll only when every move of the roll was played
    if again and len(played.steps) == sum(len(p) for p in phases):
        played.again = played.me[OFF] < CHECKERS
    return played


def play_without_search(
    st: TurnState,
    me: list[int],
    opp: list[int],
    moves: tuple[WrittenMove, ...],
    steps: list[Step] | None = None,
) -> list[int] | None:
    """The fast path of :func:`play_written`, not a second rule set: the written moves
    played when each takes the one die of its length (what players write nearly always),
    the turn checked as :class:`WrittenTurn` would check it. Plays on ``me`` and ``opp``
    in place (the caller's copies; ``opp`` changes only in a variant that hits) and
    returns the dice left unplayed (empty: a full play), with the steps added to
    ``steps`` when given. None sends the turn to the full search (the boards are then half
    played: the caller drops them); tests/engine/test_differential.py checks that both
    agree.

    An ordinary step (point to point, nobody waiting on the bar) is ``target`` and
    ``move`` written out inline: three calls a step cost verify a quarter of its speed
    (callgrind); every other step calls them (:func:`_other_step`). The segments are
    read in place (no tuple of the turn's segments built)."""
    head, every_step, omap, closed_at, hits = st.head, st.every_step, st.omap, st.closed_at, st.hits
    head_left = 1 if st.plain else st.head_allowance(me, opp)
    on_head = me[head]  # L4 is checked once, at the end: checkers only leave the head
    dice = list(st.to_play)
    fresh: list[int] = []
    waiting = me[BAR] or me[START]
    for written in moves:
        for frm, to, star in written.segments:
            if 0 < to < frm < BAR and not waiting:
                die = frm - to
                o = omap[to]
                if die not in dice or not me[frm] or opp[o] >= closed_at:
                    return None
                if not me[to]:
                    fresh.append(to)
                me[frm] -= 1
                me[to] += 1
                hit = hits and opp[o] == 1
                if hit:
                    opp[o] = 0
                    opp[BAR] += 1
            else:
                die, hit = _other_step(st, me, opp, frm, to, dice, fresh)
                waiting = me[BAR] or me[START]
            if not die or (star and not hit):
                return None
            if every_step and not st.block_ok(me, opp):
                return None
            dice.remove(die)
            if steps is not None:
                steps.append(Step(frm, to, die, hit))
    # L4; L5 at the end of a full play, around the points it newly occupied
    lawful = on_head - me[head] <= head_left and (
        dice or not fresh or every_step or st.block_ok_near(me, opp, fresh)
    )
    return dice if lawful else None


_Played = tuple[int, bool]  # a fast-path step: its die (0: not played), whether it hit
_NOT_PLAYED = (0, False)


def _other_step(
    st: TurnState, me: list[int], opp: list[int], frm: int, to: int, dice: list[int],
    fresh: list[int],
) -> _Played:  # fmt: skip
    """A step of the fast path that enters, bears off or moves while a checker waits:
    played with ``target`` and ``move``; die 0 when the die it needs is not there."""
    die = _die_for(dice, frm, to)
    if not die or (to == st.head and to) or st.target(me, opp, frm, die) != to:
        return _NOT_PLAYED  # (a step onto the head, entering: the search counts L4 then)
    if to and not me[to]:
        fresh.append(to)
    return die, st.move(me, opp, frm, to)


def _die_for(dice: list[int], frm: int, to: int) -> int:
    """The die a written move from ``frm`` to ``to`` takes without search: the one of its
    length, or for bearing off with a higher die (L7) the smallest that fits (when a later
    move needed that one, the full search finds the other assignment); 0 when none does
    or the move goes backwards."""
    if frm == OFF or to == BAR or (frm <= to and to != OFF):
        return 0
    dist = frm - to
    if dist in dice:
        return dist
    best = 0
    if to == OFF:
        for d in dice:
            if d > dist and (not best or d < best):
                best = d
    return best


class WrittenTurn(Guide):
    """The written moves of one turn, as the guide of the one search (every die
    assignment and order they allow, the dice phase by phase); ``play`` returns the
    steps and end boards or raises :class:`IllegalTurnError` with the first rule broken.

    The guide's place (``mark``) is the index of the next written move to read, or the
    :class:`_Move` over several dice whose steps are being searched; the move a step
    plays is its index (one die) or that :class:`_Move`."""

    __slots__ = ("_high", "_most", "dice", "ends", "me0", "opp0", "phases", "result", "segs",
                 "state")  # fmt: skip

    def __init__(
        self,
        state: TurnState,
        me: list[int],
        opp: list[int],
        segs: tuple[Segment, ...],
        phases: Phases,
    ):
        self.state = state
        # the dice come in phases (Lurč: a houšek's 1-2, then its paš)
        self.phases = phases
        self.dice = tuple(d for p in phases for d in p)
        self.me0 = me
        self.opp0 = opp
        self.segs = segs
        self.ends: set[tuple[tuple[int, ...], tuple[int, ...]]] | None = None
        self._most = 0  # the most moves a legal end plays (with ``ends``)
        self._high = False  # whether one of them plays the higher die (L6)
        self.result: PlayedTurn | None = None

    def play(self, quick: QuickPlay | None = None) -> PlayedTurn:
        """The turn played as written (``again`` left False: the caller decides), or
        :class:`IllegalTurnError`. ``quick`` is what :func:`play_without_search` found
        when it left dice unplayed."""
        if quick is not None and (not quick.left or self._most_dice(quick)):
            return PlayedTurn(quick.steps, quick.me, quick.opp)
        self._check_hit_marks()
        st, me0, opp0 = self.state, self.me0, self.opp0
        search = StepSearch(st, me0, opp0, self.dice, self, self.phases)
        if search.follow(0):
            assert self.result is not None
            return self.result
        journeys = self._journeys()
        if journeys is not None:
            return journeys
        why = search.refusal
        message, rule, code, params = why.message, why.rule, why.code, why.params
        # Z8: would the moves be a legal play in another order of the phases?
        if len(self.phases) > 1 and StepSearch(st, me0, opp0, self.dice, self).follow(0):
            message = (
                "the 1 and the 2 of a houšek are played, and written, before the moves of its paš"
            )
            rule, code, params = "Z8", "pas-order", {}
        raise IllegalTurnError(message, rule=rule, code=code, params=params)

    def _check_hit_marks(self) -> None:
        """A hit marked in a variant without hitting."""
        st = self.state
        if self.segs and st.variant.hits is False:
            for a, b, star in self.segs:
                if star:
                    raise IllegalTurnError(
                        f"{point_text(a)}/{point_text(b)}*: there is no hitting in "
                        f"{st.variant.title}",
                        rule="L3",
                        code="no-hitting",
                        params={
                            "move": f"{point_text(a)}/{point_text(b)}",
                            "variant": st.variant.name,
                        },
                    )

    def _journeys(self) -> PlayedTurn | None:
        """GNU Backgammon condenses plays: ``bar/17*(2)`` with 4-4 enters both checkers
        before either goes on. A turn with such a several-dice move that cannot be
        played in the written order is accepted when the checkers' journeys end in a
        position the roll allows (played then as the engine's canonical play)."""
        st = self.state
        dice = set(st.to_play)
        top = max(dice)
        if not any((a - b > top) if b == OFF else (a - b not in dice) for a, b, _ in self.segs):
            return None  # no several-dice move: the written order is binding
        me, opp = self.me0[:], self.opp0[:]
        hit: set[int] = set()
        for a, b, star in self.segs:
            if a == BAR and not me[BAR] and me[START]:
                a = START
            if st.move(me, opp, a, b):  # the step's physical part: no dice asked
                hit.add(b)
            elif star and b not in hit:  # ``17*(2)``: the mark repeats with the move
                return None
        if min(me) < 0:
            return None
        ends = {(end.me, end.opp): end.steps for end in generate(st, self.me0, self.opp0)}
        steps = ends.get((tuple(me), tuple(opp)))
        return None if steps is None else PlayedTurn(steps, me, opp)

    def _most_dice(self, quick: QuickPlay) -> bool:
        """Whether a written play that left dice unused obeys L6 (and ends lawfully)."""
        st, me0, opp0 = self.state, self.me0, self.opp0
        steps, me, opp = quick.steps, quick.me, quick.opp
        if plays_more_than(st, me0, opp0, len(steps)):
            return False
        if st.block_rule and not st.every_step and not st.block_ok(me, opp):
            return False
        a, b = st.dice
        if len(steps) == 1 and a != b and steps[0].die != a:
            high = single_high_ends(st, me0, opp0)
            return not high or tuple(me) in high
        return True

    def _legal_ends(self) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
        if self.ends is None:
            st = self.state
            generated = phased_ends(st, self.me0, self.opp0, self.phases)
            self.ends = {(e.me, e.opp) for e in generated}
            self._most = len(generated[0].steps) if generated else 0
            self._high = any(s.die == st.dice[0] for e in generated for s in e.steps)
        return self.ends

    # the guide -----------------------------------------------------------

    def between(self, mark: object) -> bool:
        return isinstance(mark, int)

    def finished(self, mark: object) -> bool:
        return mark == len(self.segs)

    def arrived(
        self, search: StepSearch, me: list[int], opp: list[int], left: list[int],
        path: tuple[Step, ...], mark: object,
    ) -> bool:  # fmt: skip
        """Every written move read: the turn ends here, if the rules let it."""
        return mark == len(self.segs) and self._accept(search, me, opp, left, path)

    def offers(
        self, search: StepSearch, me: list[int], opp: list[int], left: list[int],
        head_left: int, path: tuple[Step, ...], mark: object,
    ) -> Iterator[Offer]:  # fmt: skip
        """The steps the next written move allows: its one die (each that fits; the move
        played is its index), else the first step of each order of several dice (the
        move a :class:`_Move`), or the next step within such a move."""
        if isinstance(mark, _Move):
            yield from self._extend(search, mark, path[-1].to, me, opp, left, head_left)
            return
        assert isinstance(mark, int)
        if mark == len(self.segs):
            return
        read = self._read(search, mark, me, left)
        if read is None:
            return
        a, b, singles = read
        if not singles:
            move = _Move(mark, a, b, self.segs[mark][2], len(path))
            yield from self._extend(search, move, a, me, opp, left, head_left)
            if not move.found:
                search.refuse(mark, *self._no_compound(a, b, left))
            return
        st = self.state
        for d in singles:
            if a == st.head and not head_left:
                search.refuse(mark, *_head_reason(st, self.me0, self.opp0))
                continue
            to = st.target(me, opp, a, d)
            if to < 0:
                search.refuse(mark, *self._why(to, a, b, d, me, opp))
                continue
            yield a, to, d, mark

    def admits(
        self, search: StepSearch, me: list[int], opp: list[int], left: list[int],
        path: tuple[Step, ...], move: object,
    ) -> object | None:  # fmt: skip
        """The guide's place after a step of ``move``: the next written move, or the same
        move over several dice on its way; None when the step breaks a rule."""
        if isinstance(move, _Move):
            return self._on_the_way(search, move, me, opp, path)
        assert isinstance(move, int)
        st, step = self.state, path[-1]
        a, b, star = step.frm, self.segs[move][1], self.segs[move][2]
        if star and not step.hit:
            search.refuse(
                move,
                f"{_seg(a, b)}*: there is no single {_other(st)} checker to hit on point {b}",
                "S3",
                "nothing-to-hit",
                {"point": b, "move": _seg(a, b), "other": _other(st)},
            )
            return None
        if st.every_step and not st.block_ok(me, opp):
            search.refuse(
                move, *_block_reason(st, "after " + _seg(a, b), "block-after-move", _seg(a, b))
            )
            return None
        return move + 1

    def _read(
        self, search: StepSearch, i: int, me: list[int], left: list[int]
    ) -> tuple[int, int, list[int]] | None:
        """The written move ``i``: its from (the start when the bar is empty), its to and
        the dice that play it alone, highest first; None when it goes backwards or no die
        is left for it."""
        a, b, _ = self.segs[i]
        st = self.state
        if a == BAR and st.variant.has_start and not me[BAR]:
            a = START
        if a == OFF or b == BAR or (b >= a and b != OFF):
            search.refuse(
                i,
                f"{_seg(a, b)}: checkers move from higher points to lower ones "
                "(24 towards 1, then off)",
                None,
                "backward-move",
                {"from": point_text(a), "to": point_text(b)},
            )
            return None
        if not left:
            search.refuse(
                i,
                f"{_seg(a, b)}: all the dice of {_roll(st)} are already used",
                "L3",
                "dice-used-up",
                {"move": _seg(a, b), "roll": _roll(st)},
            )
            return None
        dist = (BAR if a == START else a) - b
        return a, b, sorted({d for d in left if d == dist or (b == OFF and d > dist)}, reverse=True)

    def _no_compound(self, a: int, b: int, dice: list[int]) -> tuple[str, str | None, str, Params]:
        """Why no order of the dice left reaches ``b`` from ``a``."""
        st = self.state
        dist = (BAR if a >= BAR else a) - b
        params: Params = {"move": _seg(a, b), "roll": _roll(st), "die": dist}
        if b != OFF and dist in st.dice:
            message = f"{_seg(a, b)} needs a {dist}, and the {dist} of {_roll(st)} is used"
            code = "die-used"
        elif b != OFF and dist <= 6:
            message = f"{_seg(a, b)} needs a {dist}, which {_roll(st)} does not have"
            code = "die-missing"
        else:
            message = f"{_seg(a, b)} cannot be played with {_left(dice)} of {_roll(st)}"
            code, params = "cannot-play", {**params, "left": sorted(dice, reverse=True)}
        return message, st.variant.rule_ids.enter_first if a >= BAR else None, code, params

    def _extend(
        self, search: StepSearch, move: _Move, pos: int, me: list[int], opp: list[int],
        left: list[int], hl: int,
    ) -> Iterator[Offer]:  # fmt: skip
        """The next steps of the checker on ``pos`` towards the written point, each die
        left."""
        st = self.state
        for d in sorted(set(left), reverse=True):
            if pos == st.head and not hl:
                search.refuse(move.i, *_head_reason(st, self.me0, self.opp0))
                continue
            landing = (BAR if pos >= BAR else pos) - d
            if move.b != OFF and landing < move.b:
                continue  # overshoots the written point
            to = st.target(me, opp, pos, d)
            if to < 0:
                if to != NO_CHECKER:
                    search.refuse(move.i, *self._why(to, pos, move.b, d, me, opp))
                continue
            if to != move.b and to == OFF:
                continue
            yield pos, to, d, move

    def _on_the_way(
        self, search: StepSearch, move: _Move, me: list[int], opp: list[int],
        path: tuple[Step, ...],
    ) -> object | None:  # fmt: skip
        """After a step of a move over several dice: the written point reached (read the
        next move), or a landing on the way (go on)."""
        st, i, a, b, step = self.state, move.i, move.a, move.b, path[-1]
        if st.every_step and not st.block_ok(me, opp):
            search.refuse(i, *_block_reason(st, "on the way", "block-on-the-way"))
            return None
        if step.to == b:
            if len(path) - move.before == 1:
                return None  # a single die: not a move over several
            if move.star and not step.hit:
                message = f"{_seg(a, b)}*: there is nothing to hit on point {b}"
                search.refuse(
                    i, message, "S3", "nothing-to-hit-chain", {"point": b, "move": _seg(a, b)}
                )
                return None
            move.found = True
            return i + 1
        if step.hit:
            search.refuse(
                i,
                f"{_seg(a, b)} hits on point {step.to} on the way: write the "
                f"hit as a chain ({_seg(a, step.to)}*/{point_text(b)})",
                "S3",
                "hit-on-the-way",
                {
                    "point": step.to,
                    "move": _seg(a, b),
                    "chain": f"{_seg(a, step.to)}*/{point_text(b)}",
                },
            )
            return None
        return move

    def _accept(
        self, search: StepSearch, me: list[int], opp: list[int], dice: list[int],
        steps: tuple[Step, ...],
    ) -> bool:  # fmt: skip
        st = self.state
        depth = len(self.segs)
        if not dice and not search.skipped:
            if st.rules.block_check == "turn-end" and not st.block_ok(me, opp):
                search.refuse(depth, *_block_reason(st, "at the end of the turn", "block"))
                return False
            self.result = PlayedTurn(steps, me, opp)
            return True
        if (tuple(me), tuple(opp)) in self._legal_ends():
            self.result = PlayedTurn(steps, me, opp)
            return True
        most, high = self._most, self._high
        used = len(steps)
        if most > used:
            what = (
                "both dice"
                if most == 2 and st.dice[0] != st.dice[1]
                else "one move"
                if most == 1
                else f"{most} moves"
            )
            message = f"{what} of {_roll(st)} can be played, and must be"
            code, params = "must-play", {"moves": most, "roll": _roll(st)}
        elif most == 1 and st.dice[0] != st.dice[1] and high:
            message = f"only one die can be played, so it must be the higher one ({st.dice[0]})"
            code, params = "higher-die", {"die": st.dice[0]}
        else:
            message = "this play is not one the roll allows"
            code, params = "not-allowed", {"roll": _roll(st)}
            if st.block_rule:
                search.refuse(depth, *_block_reason(st, "at the end of the turn", "block"))
                return False
        search.refuse(depth, message, st.variant.rule_ids.must_play, code, params)
        return False

    def _why(
        self, code: int, a: int, b: int, d: int, me: list[int], opp: list[int]
    ) -> tuple[str, str | None, str, Params]:
        """Why ``target`` refused a step: the message, the rule, the code and its
        parameters."""
        st = self.state
        ids = st.variant.rule_ids
        side = SIDE_NAMES[st.side]
        if code == NO_CHECKER:
            where = (
                "on the bar" if a == BAR else "waiting to enter" if a == START else f"on point {a}"
            )
            return (
                f"there is no {side} checker {where}",
                None,
                "no-checker",
                {"point": point_text(a), "side": side},
            )
        if code == ENTER_FIRST:
            message = f"{side} has a checker on the bar and must enter it first"
            return message, ids.enter_first, "enter-first", {"side": side}
        if code == CLOSED:
            to = (BAR if a == START else a) - d
            count = opp[st.omap[to]]
            params = {"point": to, "by": _other(st), "count": count}
            if st.closed_at == 1:
                return f"point {to} is closed by {_other(st)}", ids.closed, "point-closed", params
            message = f"point {to} is closed: {_other(st)} has {count} checkers there"
            return message, ids.closed, "point-closed-count", params
        if code == NOT_HOME:
            message = f"{side} cannot bear off before all checkers are home (points 1-6)"
            return message, ids.bear_off, "not-home", {"side": side}
        if code == HIGHER_CHECKER:
            high = max(p for p in range(a + 1, 7) if me[p])
            message = (
                f"{_seg(a, OFF)} with a {d}: a checker stands higher, on point {high}, so "
                f"the {d} must be played there"
            )
            return message, ids.bear_off, "higher-checker", {"point": a, "die": d, "higher": high}
        if code == NOT_EXACT:
            message = f"{_seg(a, OFF)} with a {d}: Lurč bears off only with the exact number"
            return message, ids.bear_off, "not-exact", {"point": a, "die": d}
        return f"{_seg(a, b)} is not possible", None, "impossible-step", {"move": _seg(a, b)}


def _seg(a: int, b: int) -> str:
    return f"{point_text(a)}/{point_text(b)}"


def _roll(st: TurnState) -> str:
    return f"{st.dice[0]}-{st.dice[1]}"


def _left(dice: list[int]) -> str:
    return " and ".join(str(d) for d in sorted(dice, reverse=True)) or "nothing"


def _other(st: TurnState) -> str:
    return SIDE_NAMES[1 - st.side]


def _head_reason(st: TurnState, me0: list[int], opp0: list[int]) -> tuple[str, str, str, Params]:
    """Why no further checker may leave the head this turn (L4.1-L4.3); ``me0`` and
    ``opp0`` are the boards at the start of the turn."""
    a, b = st.dice
    if me0[st.head] == CHECKERS and a == b and a in (6, 4, 3):
        if st.head_allowance(me0, opp0) == 1:
            return (
                "after white's opening 5-5, black's 4-4 takes only one checker from the head "
                "and plays a single 4",
                "L4.3",
                "head-after-55",
                {"allowed": 1},
            )
        message = "a third checker may not leave the head, even on the first turn"
        return message, "L4.2", "head-third", {"allowed": 2}
    return "a second checker may not leave the head", "L4.1", "head", {"allowed": 1}


def _block_reason(
    st: TurnState, when: str, code: str, move: str | None = None
) -> tuple[str, str, str, Params]:
    """L5: the message, rule, code and parameters of a forbidden block of six points."""
    other = _other(st)
    where = "in its home " if st.rules.block_ahead == "in-home" else ""
    message = (
        f"a block of six points {when} with no {other} checker {where}ahead of it is not allowed"
    )
    params: Params = {"other": other, "ahead": st.rules.block_ahead}
    return message, "L5", code, params | ({"move": move} if move else {})
