"""Playing a turn as it was written: find the dice for each written move, play them in
the written order and check the result against the must-play rule (NOTATION 1,
Verification). A turn that uses all its dice needs no search; only a shorter one is
compared with the generated legal ends."""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

from engine.errors import IllegalTurnError
from engine.movegen import (
    CLOSED,
    ENTER_FIRST,
    HIGHER_CHECKER,
    NO_CHECKER,
    NOT_EXACT,
    NOT_HOME,
    TurnState,
)
from engine.moves import Step, point_text
from engine.notation import WrittenMove
from engine.variants import BAR, CHECKERS, OFF, SIDE_NAMES, START, Phases

Segment = tuple[int, int, bool]  # from, to (0 = off, 25 = bar), marked as a hit
Params = dict[str, Any]


class PlayedTurn(NamedTuple):
    """A written turn played: its steps, the boards after it (the mover's, the
    opponent's) and whether the same player rolls again (Z7, Z8)."""

    steps: tuple[Step, ...]
    me: list[int]
    opp: list[int]
    again: bool = False


class QuickPlay(NamedTuple):
    """What :func:`play_without_search` found: the steps (empty unless asked for), the
    boards after them and the dice left unplayed (a must-play question when not empty)."""

    steps: tuple[Step, ...]
    me: list[int]
    opp: list[int]
    left: list[int]


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
) -> PlayedTurn:
    """Play the written moves of a turn on copies of the boards (the one way every
    variant plays a written turn): the steps, the boards after them and whether the
    player rolls again, or :class:`IllegalTurnError` with the first rule broken. A turn
    that uses every die needs no search; a shorter one is checked against the legal
    ends. ``pas`` is the paš written after a Lurč houšek."""
    phases, again = state.variant.roll_phases(me, state.dice, pas)
    segs = segments(moves)
    quick = quick_play(state, me, opp, segs) if phases == (state.to_play,) else None
    if quick is not None and not quick.left:
        return PlayedTurn(quick.steps, quick.me, quick.opp, again and quick.me[OFF] < CHECKERS)
    steps, me2, opp2 = WrittenTurn(state, me, opp, segs, phases).play(quick)
    # Z7, Z8: the extra roll only when every move of the roll was played
    complete = len(steps) == sum(len(p) for p in phases)
    return PlayedTurn(steps, me2, opp2, again and complete and me2[OFF] < CHECKERS)


def quick_play(
    st: TurnState, me: list[int], opp: list[int], segs: tuple[Segment, ...]
) -> QuickPlay | None:
    """:func:`play_without_search` on copies of the boards, with its steps."""
    me2, opp2 = me[:], opp[:] if st.hits else opp
    steps: list[Step] = []
    left = play_without_search(st, me2, opp2, segs, steps)
    return None if left is None else QuickPlay(tuple(steps), me2, opp2, left)


def play_without_search(
    st: TurnState,
    me: list[int],
    opp: list[int],
    segs: tuple[Segment, ...],
    steps: list[Step] | None = None,
) -> list[int] | None:
    """The common case without search: each written move takes the one die of its
    length. Plays on ``me`` and ``opp`` in place (the caller's copies; ``opp`` changes
    only in a variant that hits) and returns the dice left unplayed (empty: a full
    play), with the steps added to ``steps`` when given. None sends the turn to the
    full search (the boards are then half played: the caller drops them)."""
    head, every_step, omap, closed_at, hits = st.head, st.every_step, st.omap, st.closed_at, st.hits
    head_left = 1 if st.plain else st.head_allowance(me, opp)
    dice = list(st.to_play)
    fresh: list[int] = []
    waiting = me[BAR] or me[START]
    for frm, to, star in segs:
        if 0 < to < frm < BAR and not waiting:  # an ordinary step: ``target``, ``move`` inlined
            die = frm - to
            if die not in dice or not me[frm]:
                return None
            if frm == head:
                if not head_left:
                    return None
                head_left -= 1
            o = omap[to]
            n = opp[o]
            if n >= closed_at:
                return None
            if not me[to]:
                fresh.append(to)
            me[frm] -= 1
            me[to] += 1
            hit = n == 1 and hits
            if hit:
                opp[o] = 0
                opp[BAR] += 1
            elif star:
                return None
        else:
            if frm == OFF or to == BAR or (frm <= to and to != OFF):
                return None
            dist = frm - to
            if dist in dice:
                die = dist
            elif to == OFF:
                # bearing off with a higher die (L7): the smallest that fits; when a later
                # move needed that one, the full search finds the other assignment
                higher = [d for d in dice if d > dist]
                if not higher:
                    return None
                die = min(higher)
            else:
                return None
            if frm == head:
                if not head_left:
                    return None
                head_left -= 1
            if st.target(me, opp, frm, die) != to:
                return None
            if to and not me[to]:
                fresh.append(to)
            hit = st.move(me, opp, frm, to)
            if star and not hit:
                return None
            waiting = me[BAR] or me[START]
        if every_step and not st.block_ok(me, opp):
            return None
        dice.remove(die)
        if steps is not None:
            steps.append(Step(frm, to, die, hit))
    if not dice and fresh and not every_step and not st.block_ok_near(me, opp, fresh):
        return None
    return dice


class WrittenTurn:
    """Resolve the written moves of one turn; ``play`` returns the steps and end boards
    or raises :class:`IllegalTurnError` with the first rule broken."""

    __slots__ = ("_most", "_phase", "_skipped", "best", "dice", "ends", "me0", "opp0", "order",
                 "phases", "result", "segs", "state")  # fmt: skip

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
        # the phases the written moves must follow in order (Z8: the 1-2, then the paš);
        # ``_phase`` is the one being read, ``_skipped`` whether an earlier one left dice
        self.order = phases
        self._phase = 0
        self._skipped = False
        self.me0 = me
        self.opp0 = opp
        self.segs = segs
        self.best: tuple[int, str, str | None, str, Params] = (-1, "", None, "illegal-turn", {})
        self.ends: set[tuple[tuple[int, ...], tuple[int, ...]]] | None = None
        self.result: tuple[tuple[Step, ...], list[int], list[int]] | None = None

    def play(self, quick: QuickPlay | None = None) -> tuple[tuple[Step, ...], list[int], list[int]]:
        st = self.state
        if quick is not None:
            steps, me, opp, left = quick
            if not left or self._most_dice(steps, me, opp):
                return steps, me, opp

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
        head_left = st.head_allowance(self.me0, self.opp0)
        if self._walk(0, self.me0[:], self.opp0[:], list(self.order[0]), head_left, ()):
            assert self.result is not None
            return self.result
        journeys = self._journeys()
        if journeys is not None:
            return journeys
        _, message, rule, code, params = self.best
        if len(self.order) > 1:
            # Z8: would the moves be a legal play in another order of the phases?
            self.order, self.best = (self.dice,), (-1, "", None, "illegal-turn", {})
            if self._walk(0, self.me0[:], self.opp0[:], list(self.dice), head_left, ()):
                message, rule, code, params = (
                    "the 1 and the 2 of a houšek are played, and written, before the moves "
                    "of its paš",
                    "Z8",
                    "pas-order",
                    {},
                )
        raise IllegalTurnError(message, rule=rule, code=code, params=params)

    def _journeys(self) -> tuple[tuple[Step, ...], list[int], list[int]] | None:
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
            me[a] -= 1
            me[b] += 1
            if b and st.hits and opp[st.omap[b]] == 1:
                opp[st.omap[b]] = 0
                opp[BAR] += 1
                hit.add(b)
            elif star and b not in hit:  # ``17*(2)``: the mark repeats with the move
                return None
        if min(me) < 0:
            return None
        for steps, end_me, end_opp in st.generate(self.me0, self.opp0):
            if list(end_me) == me and list(end_opp) == opp:
                return steps, me, opp
        return None

    def _most_dice(self, steps: tuple[Step, ...], me: list[int], opp: list[int]) -> bool:
        """Whether a written play that left dice unused obeys L6 (and ends lawfully)."""
        st, me0, opp0 = self.state, self.me0, self.opp0
        if st.plays_more_than(me0, opp0, len(steps)):
            return False
        if st.variant.block_rule and not st.every_step and not st.block_ok(me, opp):
            return False
        a, b = st.dice
        if len(steps) == 1 and a != b and steps[0].die != a:
            high = st.single_high_ends(me0, opp0)
            return not high or tuple(me) in high
        return True

    def _legal_ends(self) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
        if self.ends is None:
            st = self.state
            generated = st.phased_ends(self.me0, self.opp0, self.phases)
            self.ends = {(e[1], e[2]) for e in generated}
            most = len(generated[0][0]) if generated else 0
            high = any(s.die == st.dice[0] for e in generated for s in e[0])
            self._most = (most, high)
        return self.ends

    def _fail(
        self, depth: int, message: str, rule: str | None, code: str, params: Params | None = None
    ) -> None:
        """Keep the reason of the walk that read the most moves (the error shown)."""
        if depth > self.best[0]:
            self.best = (depth, message, rule, code, params or {})

    def _walk(
        self,
        i: int,
        me: list[int],
        opp: list[int],
        dice: list[int],
        head_left: int,
        steps: tuple[Step, ...],
    ) -> bool:
        """Read the written moves from ``i`` on with ``dice`` left of the current phase;
        a later phase opens when this one is used up or cannot go on (its dice lost)."""
        if self._phase + 1 == len(self.order):
            return self._walk_phase(i, me, opp, dice, head_left, steps)
        if i == len(self.segs):
            later = [d for p in self.order[self._phase + 1 :] for d in p]
            return self._walk_phase(i, me, opp, dice + later, head_left, steps)
        if dice and self._walk_phase(i, me, opp, dice, head_left, steps):
            return True
        skipped = self._skipped
        self._phase += 1
        self._skipped = skipped or bool(dice)
        try:
            return self._walk(i, me, opp, list(self.order[self._phase]), head_left, steps)
        finally:
            self._phase -= 1
            self._skipped = skipped

    def _walk_phase(
        self,
        i: int,
        me: list[int],
        opp: list[int],
        dice: list[int],
        head_left: int,
        steps: tuple[Step, ...],
    ) -> bool:
        if i == len(self.segs):
            return self._accept(me, opp, dice, steps)
        a, b, star = self.segs[i]
        st = self.state
        if a == BAR and st.variant.has_start and not me[BAR]:
            a = START
        if a == OFF or b == BAR or (b >= a and b != OFF):
            self._fail(
                i,
                f"{_seg(a, b)}: checkers move from higher points to lower ones "
                "(24 towards 1, then off)",
                None,
                "backward-move",
                {"from": point_text(a), "to": point_text(b)},
            )
            return False
        if not dice:
            self._fail(
                i,
                f"{_seg(a, b)}: all the dice of {_roll(st)} are already used",
                "L3",
                "dice-used-up",
                {"move": _seg(a, b), "roll": _roll(st)},
            )
            return False
        dist = (BAR if a == START else a) - b
        singles = sorted({d for d in dice if d == dist or (b == OFF and d > dist)}, reverse=True)
        if singles:
            for d in singles:
                outcome = self._single(i, a, b, star, d, me, opp, head_left)
                if outcome is None:
                    continue
                me2, opp2, step = outcome
                rest = dice[:]
                rest.remove(d)
                if self._walk(i + 1, me2, opp2, rest, head_left - (a == st.head), (*steps, step)):
                    return True
            return False
        return self._compound(i, a, b, star, me, opp, dice, head_left, steps)

    def _single(
        self,
        i: int,
        a: int,
        b: int,
        star: bool,
        d: int,
        me: list[int],
        opp: list[int],
        head_left: int,
    ) -> tuple[list[int], list[int], Step] | None:
        st = self.state
        if a == st.head and not head_left:
            self._fail(i, *_head_reason(st, self.me0, self.opp0))
            return None
        to = st.target(me, opp, a, d)
        if to < 0:
            self._fail(i, *self._why(to, a, b, d, me, opp))
            return None
        me2, opp2 = me[:], opp[:]
        hit = st.move(me2, opp2, a, to)
        if star and not hit:
            self._fail(
                i,
                f"{_seg(a, b)}*: there is no single {_other(st)} checker to hit on point {b}",
                "S3",
                "nothing-to-hit",
                {"point": b, "move": _seg(a, b), "other": _other(st)},
            )
            return None
        if st.rules.block_check == "every-step" and not st.block_ok(me2, opp2):
            self._fail(i, *_block_reason(st, "after " + _seg(a, b), "block-after-move", _seg(a, b)))
            return None
        return me2, opp2, Step(a, to, d, hit)

    def _compound(
        self,
        i: int,
        a: int,
        b: int,
        star: bool,
        me: list[int],
        opp: list[int],
        dice: list[int],
        head_left: int,
        steps: tuple[Step, ...],
    ) -> bool:
        """A move over several dice (``24/14`` with 6-4): every order of the dice whose
        intermediate landings are open and hit nothing is tried."""
        st = self.state
        found = False

        def extend(
            pos: int,
            me: list[int],
            opp: list[int],
            left: list[int],
            hl: int,
            chain: tuple[Step, ...],
        ) -> bool:
            nonlocal found
            for d in sorted(set(left), reverse=True):
                if pos == st.head and not hl:
                    self._fail(i, *_head_reason(st, self.me0, self.opp0))
                    continue
                landing = (BAR if pos >= BAR else pos) - d
                if b != OFF and landing < b:
                    continue  # overshoots the written point
                to = st.target(me, opp, pos, d)
                if to < 0:
                    if to != NO_CHECKER:
                        self._fail(i, *self._why(to, pos, b, d, me, opp))
                    continue
                if to != b and to == OFF:
                    continue
                me2, opp2 = me[:], opp[:]
                hit = st.move(me2, opp2, pos, to)
                rest = left[:]
                rest.remove(d)
                step = Step(pos, to, d, hit)
                hl2 = hl - (pos == st.head)
                if st.rules.block_check == "every-step" and not st.block_ok(me2, opp2):
                    self._fail(i, *_block_reason(st, "on the way", "block-on-the-way"))
                    continue
                if to == b:
                    if len(chain) == 0:
                        continue  # a single die: not a compound move
                    if star and not hit:
                        self._fail(
                            i,
                            f"{_seg(a, b)}*: there is nothing to hit on point {b}",
                            "S3",
                            "nothing-to-hit-chain",
                            {"point": b, "move": _seg(a, b)},
                        )
                        continue
                    found = True
                    if self._walk(i + 1, me2, opp2, rest, hl2, (*steps, *chain, step)):
                        return True
                    continue
                if hit:
                    self._fail(
                        i,
                        f"{_seg(a, b)} hits on point {to} on the way: write the "
                        f"hit as a chain ({_seg(a, to)}*/{point_text(b)})",
                        "S3",
                        "hit-on-the-way",
                        {
                            "point": to,
                            "move": _seg(a, b),
                            "chain": f"{_seg(a, to)}*/{point_text(b)}",
                        },
                    )
                    continue
                if rest and extend(to, me2, opp2, rest, hl2, (*chain, step)):
                    return True
            return False

        if extend(a, me, opp, dice, head_left, ()):
            return True
        if not found:
            dist = (BAR if a >= BAR else a) - b
            params = {"move": _seg(a, b), "roll": _roll(st), "die": dist}
            if b != OFF and dist in st.dice:
                message = f"{_seg(a, b)} needs a {dist}, and the {dist} of {_roll(st)} is used"
                code = "die-used"
            elif b != OFF and dist <= 6:
                message = f"{_seg(a, b)} needs a {dist}, which {_roll(st)} does not have"
                code = "die-missing"
            else:
                message = f"{_seg(a, b)} cannot be played with {_left(dice)} of {_roll(st)}"
                code, params = "cannot-play", {**params, "left": sorted(dice, reverse=True)}
            self._fail(
                i, message, st.variant.rule_ids.enter_first if a >= BAR else None, code, params
            )
        return False

    def _accept(
        self, me: list[int], opp: list[int], dice: list[int], steps: tuple[Step, ...]
    ) -> bool:
        st = self.state
        depth = len(self.segs)
        if not dice and not self._skipped:
            if st.rules.block_check == "turn-end" and not st.block_ok(me, opp):
                self._fail(depth, *_block_reason(st, "at the end of the turn", "block"))
                return False
            self.result = (steps, me, opp)
            return True
        if (tuple(me), tuple(opp)) in self._legal_ends():
            self.result = (steps, me, opp)
            return True
        most, high = self._most
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
            if st.variant.block_rule:
                self._fail(depth, *_block_reason(st, "at the end of the turn", "block"))
                return False
        self._fail(depth, message, st.variant.rule_ids.must_play, code, params)
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
