"""A turn entered step by step: the steps as a page sends them, and for a game against the
bot, the page's steps section.

A turn against the bot entered step by step (docs/play.md): when a roll has too many
legal turns to list as buttons (a crowded Lurč paš has tens of thousands), the page shows
the steps played so far (in its address, ``?steps=20/14 14/8``), a link for each legal
next step the engine offers (engine/turnsteps.py), an undo, and once the steps make a
whole turn, the button that plays it. Reading only; the turn is played as any other."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import urlencode

from django.utils.translation import gettext as _

from tournaments.engine import (
    BAR,
    OFF,
    EngineError,
    Position,
    bot_legal_turns,
    bot_state,
    offers_steps,
    turn_steps,
)
from tournaments.services.errors import ApplicationError

# at most this many legal turns are listed; more are entered step by step
LIST_MOST = 200
MAX_STEPS = 16  # a paš after a houšek is ten moves; a longer partial turn is garbage
_STEP = re.compile(r"(bar|\d{1,2})/(off|\d{1,2})")


def read_steps(text: str) -> list[tuple[int, int]]:
    """The steps sent (``20/15 15/10``: one die each, the mover's numbering), or an
    ApplicationError for anything else."""
    words = text.split()
    if len(words) > MAX_STEPS or len(text) > 200:
        raise ApplicationError(_("Too many steps for one turn."), code="steps-too-many")
    out = []
    for word in words:
        m = _STEP.fullmatch(word)
        if m is None:
            raise ApplicationError(
                _("Steps are written as from/to, like 20/15 or bar/22."), code="steps-malformed"
            )
        a, b = m.groups()
        out.append((BAR if a == "bar" else int(a), OFF if b == "off" else int(b)))
    return out


@dataclass(frozen=True, slots=True)
class StepLink:
    text: str  # the step, ``20/14``
    query: str  # the page's query string with the step played


@dataclass(frozen=True, slots=True)
class BotSteps:
    played: str  # the steps so far as movetext (empty before the first)
    next: list[StepLink]
    undo: str | None  # the query string without the last step (None: no step yet)
    turn: str | None  # the whole turn's movetext to play, once the steps make one
    pas: int | None


# the legal turns' end positions of the last few rolls asked (record, dice, paš): each
# step of a turn is a page of its own
_ENDS: OrderedDict[tuple[str, tuple[int, int], int | None], tuple[list[Position], list[str]]]
_ENDS = OrderedDict()
_LOCK = threading.Lock()


def _legal(record: str, dice: tuple[int, int], pas: int | None) -> tuple[list[Position], list[str]]:
    key = (record, dice, pas)
    with _LOCK:
        kept = _ENDS.get(key)
    if kept is None:
        turns = bot_legal_turns(bot_state(record), dice, pas)
        kept = ([t.position for t in turns], [t.notation for t in turns])
        with _LOCK:
            _ENDS[key] = kept
            while len(_ENDS) > 8:
                _ENDS.popitem(last=False)
    return kept


def _word(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def _query(steps: list[tuple[int, int]], pas: int | None) -> str:
    fields: dict[str, str] = {"steps": " ".join(f"{_word(a)}/{_word(b)}" for a, b in steps)}
    if pas is not None:
        fields["pas"] = str(pas)
    return urlencode(fields)


def bot_steps(
    record: str, dice: tuple[int, int] | None, pas: int | None, count: int, written: str
) -> BotSteps | None:
    """The steps section of the page of a game whose user is to play ``dice`` (``pas``
    chosen after a houšek) with ``count`` legal turns: None when they are listed instead
    (at most LIST_MOST, or a variant the engine answers no steps for). An
    ApplicationError (the engine's code) for steps no legal turn begins with."""
    if dice is None or count <= LIST_MOST:
        return None
    query = [*dice, pas, pas] if pas is not None else list(dice)
    try:
        state = bot_state(record)
        if not offers_steps(state.position, query):
            return None
    except EngineError:
        return None
    played = read_steps(written)
    ends, texts = _legal(record, dice, pas)
    try:
        answer = turn_steps(state.position, query, played, ends=ends)
    except EngineError as exc:
        raise ApplicationError.from_engine(exc, located=False) from None
    assert answer is not None
    turn = None
    if answer.complete:  # the engine's own text of the turn the steps make
        side = state.position.turn
        turn = next((t for e, t in zip(ends, texts, strict=True) if answer.ends_in(e, side)), None)
    links = [StepLink(f"{_word(a)}/{_word(b)}", _query([*played, (a, b)], pas))
             for a, b in answer.next]  # fmt: skip
    undo = _query(played[:-1], pas) if played else None
    return BotSteps(answer.movetext, links, undo, turn, pas)
