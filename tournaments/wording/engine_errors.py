"""The engine's errors in the reader's language (docs/architecture.md).

The engine stays free of Django: each of its errors carries a stable ``code``, the
``params`` its English text names, its ``rule`` id and its place (``game``, ``line``,
``col``; a verification error also its turn). This module is the one table from code to
a gettext message with named parameters; :func:`engine_message` renders an error with
it, keeping the rule id visible ``(L6)``. Every door that shows an engine error (forms,
the live record check, API bodies, uploads, imports, the replay) goes through
services.records, which calls it. tests/tournaments/test_engine_messages.py fails
when the engine declares a code this table lacks.

Nothing here imports the engine: the error is read by its attributes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tournaments.wording.names import result_tag_text, side_name, variant_name


class EngineErrorLike(Protocol):
    code: str
    params: dict[str, Any]
    rule: str | None
    message: str
    line: int | None
    col: int | None


MESSAGES: dict[str, Promise] = {
    # families (the class's code when a raiser names none)
    "engine-error": _("the rules engine refused this"),
    "bad-position": _("unknown variant %(variant)s (known: %(known)s)"),
    "bad-dice": _("these dice cannot be rolled"),
    "bad-rules": _("unknown rule option or value"),
    "cannot-convert": _("these records cannot be written in that format"),
    "illegal-turn": _("this turn breaks the rules"),
    # reading a record (NOTATION)
    "syntax": _(
        "cannot read %(word)s: expected dice like 64:, a move like 24/18, a turn number, "
        "double, take, drop, resigns or accepted"
    ),
    "dice-no-colon": _("cannot read %(word)s: dice are written with a colon, like 64:"),
    "dice-dash": _("cannot read %(word)s: dice are written with a colon, like 6-4:"),
    "dice-too-many": _("cannot read the dice %(word)s: a roll is two dice, like 64:"),
    "bad-move": _("cannot read the move %(word)s: write it FROM/TO with points 1-24, bar or off"),
    "bad-tag": _('cannot read the tag %(tag)s: write it as [Name "value"]'),
    "no-variant": _('the game has no [Variant "..."] tag (long, short or lurc)'),
    "tag-twice": _("the tag %(tag)s is given twice"),
    "bad-tag-value": _("unknown %(tag)s %(value)s: it must be one of %(allowed)s"),
    "bad-match-length-tag": _(
        "MatchLength must be a number of points (1 to 999999), not %(value)s"
    ),
    "bad-score-tag": _(
        "Score is the match score before the game, white first (like 3-2), not %(value)s"
    ),
    "bad-game-tag": _("Game must be the game's number in its series (1 to 999999), not %(value)s"),
    "bad-date-tag": _("Date must be a date written YYYY-MM-DD, not %(value)s"),
    "open-comment": _("a comment { is never closed by }"),
    "word-too-long": _("cannot read %(word)s: it is longer than any dice, move or word"),
    "side-letter-twice": _("%(letter)s follows another side letter"),
    "side-letter-at-end": _("a side letter ends the game without a turn"),
    "move-without-dice": _(
        "the move %(move)s has no dice before it (write them like 64: %(move)s)"
    ),
    "bad-dice-value": _("impossible dice value %(value)s in %(dice)s: a die shows 1 to 6"),
    "no-such-point": _("point %(point)s in %(move)s does not exist: points are 1-24, bar and off"),
    "too-many-repeats": _(
        "%(move)s repeats a move %(count)s times; a roll allows at most %(most)s"
    ),
    "one-turn": _("write one turn: dice, a colon and the moves"),
    # positions (JSON)
    "position-not-object": _("a position must be a JSON object"),
    "position-unknown-key": _("unknown key %(key)s in the position"),
    "position-no-variant": _('the position needs a "variant": long, short or lurc'),
    "position-bad-turn": _('"turn" must be "white" or "black", not %(value)s'),
    "position-side-not-object": _('"%(side)s" must map points to checker counts'),
    "position-bad-count": _("%(side)s point %(point)s: the count must be a whole number >= 0"),
    "position-too-many": _("%(side)s has %(count)s checkers; a side has %(checkers)s"),
    "position-off-mismatch": _(
        "%(side)s: off is %(off)s but %(count)s checkers are listed on the board"
    ),
    "position-no-bar": _("%(side)s: %(variant)s has no bar (there is no hitting)"),
    "position-no-start": _("%(side)s: only Lurč has a start (checkers not yet entered)"),
    "position-bad-point": _("%(side)s: %(key)s is not a point (1-24, bar, start)"),
    "position-overlap": _(
        "white point %(white)s and black point %(black)s are the same field and cannot hold "
        "checkers of both sides"
    ),
    "position-no-cube": _("only short backgammon has a doubling cube"),
    "position-cube-not-object": _('"cube" must be an object like {"value": 2, "owner": "white"}'),
    "position-cube-value": _("the cube value must be 1, 2, 4, 8, ..., 4096, not %(value)s"),
    "position-cube-owner": _('the cube owner must be "white", "black" or null, not %(value)s'),
    # dice and rule options
    "roll-not-two-dice": _("a roll is two dice, like [6, 4]"),
    "lurc-roll-not-two-dice": _(
        "a Lurč roll is two dice, like [6, 4], or [2, 1, 5, 5] for a houšek"
    ),
    "bad-die": _("a die shows 1 to 6, not %(die)s"),
    "rules-not-object": _('rules must be an object such as {"mars": "off"}'),
    "unknown-option": _("unknown rule option %(option)s (known: %(known)s)"),
    "match-length-type": _("match_length must be a whole number of points"),
    "bad-match-length": _("match_length must be a whole number of points, not %(value)s"),
    "bad-option-value": _("%(option)s must be one of %(allowed)s, not %(value)s"),
    "unknown-variant": _("unknown variant %(variant)s (known: %(known)s)"),
    # playing a turn (RULES)
    "point-closed": _("point %(point)s is closed by %(by)s"),
    "point-closed-count": _("point %(point)s is closed: %(by)s has %(count)s checkers there"),
    "no-checker": _("there is no %(side)s checker %(where)s"),
    "enter-first": _("%(side)s has a checker on the bar and must enter it first"),
    "not-home": _("%(side)s cannot bear off before all checkers are home (points 1-6)"),
    "higher-checker": _(
        "%(point)s/off with a %(die)s: a checker stands higher, on point %(higher)s, so the "
        "%(die)s must be played there"
    ),
    "not-exact": _("%(point)s/off with a %(die)s: Lurč bears off only with the exact number"),
    "impossible-step": _("%(move)s is not possible"),
    "head": _("a second checker may not leave the head"),
    "head-third": _("a third checker may not leave the head, even on the first turn"),
    "head-after-55": _(
        "after white's opening 5-5, black's 4-4 takes only one checker from the head and "
        "plays a single 4"
    ),
    "block": _(
        "a block of six points at the end of the turn with no %(other)s checker %(ahead)s is "
        "not allowed"
    ),
    "block-after-move": _(
        "a block of six points after %(move)s with no %(other)s checker %(ahead)s is not allowed"
    ),
    "block-on-the-way": _(
        "a block of six points on the way with no %(other)s checker %(ahead)s is not allowed"
    ),
    "backward-move": _(
        "%(from)s/%(to)s: checkers move from higher points to lower ones (24 towards 1, then off)"
    ),
    "dice-used-up": _("%(move)s: all the dice of %(roll)s are already used"),
    "nothing-to-hit": _(
        "%(move)s*: there is no single %(other)s checker to hit on point %(point)s"
    ),
    "nothing-to-hit-chain": _("%(move)s*: there is nothing to hit on point %(point)s"),
    "hit-on-the-way": _(
        "%(move)s hits on point %(point)s on the way: write the hit as a chain (%(chain)s)"
    ),
    "no-hitting": _("%(move)s*: there is no hitting in %(variant)s"),
    "die-used": _("%(move)s needs a %(die)s, and the %(die)s of %(roll)s is used"),
    "die-missing": _("%(move)s needs a %(die)s, which %(roll)s does not have"),
    "cannot-play": _("%(move)s cannot be played with %(left)s of %(roll)s"),
    "higher-die": _("only one die can be played, so it must be the higher one (%(die)s)"),
    "not-allowed": _("this play is not one the roll allows"),
    "pas-order": _(
        "the 1 and the 2 of a houšek are played, and written, before the moves of its paš"
    ),
    "steps-illegal": _("%(moves)s: %(step)s is no legal step of the roll here"),
    "steps-dead-end": _("%(moves)s: no legal turn of the roll begins so"),
    "steps-pas-first": _("choose the paš of the houšek first"),
    "pas-misplaced": _("a chosen paš is written only after a houšek (1-2), and not while placing"),
    "pas-missing": _("after a houšek (1-2) write the chosen paš, like 21+55:"),
    "pas-not-double": _("a paš is a double, not %(pas)s"),
    "pas-not-lurc": _("a chosen paš (+nn) is written only in Lurč"),
    "pas-only-lurc": _("a chosen paš (+nn) is written only after a 1-2 roll in Lurč"),
    "not-your-turn": _("it is %(mover)s's turn"),
    "wrong-side": _("it is %(mover)s's turn, not %(side)s's"),
    "game-over": _("the game is over: one side has borne off all its checkers"),
    "after-game-over": _("the game is already over (%(outcome)s); nothing may follow it"),
    "cube-off": _("the doubling cube is not used in this game (Cube off)"),
    "cube-max": _("the cube is at its highest value, %(value)s"),
    "cube-action": _("%(action)s is not possible now"),
    "crawford": _("the Crawford game is played without the doubling cube"),
    "cube-owner": _("%(side)s does not own the cube"),
    "double-pending": _("the double must be taken or dropped before the next roll"),
    "double-lot": _("the opening roll is the lot, which cannot be a double"),
    "wrong-acceptor": _("only %(side)s, the opponent of the player who moved, can accept a turn"),
    "accepted-legal-turn": _(
        "accepted follows a legal turn (%(turn)s): only a turn that broke a rule is accepted"
    ),
    "accepted-misplaced": _("accepted must follow the irregular turn it accepts"),
    "accepted-backward-move": _(
        "%(move)s: checkers move forward only, from higher points to lower ones (24 towards "
        "1, then off), even in an accepted turn"
    ),
    "accepted-no-checker": _("%(move)s: there is no %(side)s checker %(where)s"),
    "accepted-point-closed": _(
        "%(move)s: point %(point)s is closed by %(by)s, even in an accepted turn"
    ),
    "accepted-nothing-to-hit": _("%(move)s*: there is no single %(other)s checker to hit"),
    "result-unfinished": _('the game is not finished, but the Result tag says "%(declared)s"'),
    "result-star": _('the game is over (%(outcome)s), but the Result tag says "*"'),
    "result-mismatch": _('the Result tag says "%(declared)s", but the game ended: %(outcome)s'),
    # .mat files
    "not-mat": _("this is not a .mat file: no 'N point match' line"),
    "mat-no-players": _("expected the players and scores, like 'Ann : 0   Bob : 2'"),
    "mat-two-headers": _("a second 'N point match' line: a .mat file holds one match"),
    "mat-no-header": _("the file must start with its 'N point match' line"),
    "mat-expected-game": _("expected 'N point match' or 'Game K'"),
    "mat-ends-early": _("the file ends before the players' line of the last game"),
    "mat-no-wins": _("game %(game)s has no 'Wins N points' line"),
    "mat-bad-cell": _(
        "cannot read %(word)s: expected a turn like '64: 24/18 18/14', 'Doubles => 2', "
        "'Takes', 'Drops' or 'Wins 1 point'"
    ),
    "mat-no-number": _("a move line must start with its number, like ' 12)'"),
    "mat-three-cells": _("a line has at most two cells, one for each player"),
    "mat-after-win": _("game %(game)s is already won; nothing may follow"),
    "mat-twice-in-a-row": _("%(player)s acts twice in a row: the players alternate"),
    "mat-bad-move": _("cannot read the move %(move)s: points are 0 (off) to 25 (bar)"),
    "mat-score-mismatch": _("the score line says %(score)s, but the games before it give %(sum)s"),
    "mat-points-mismatch": _(
        "'Wins %(points)s points', but the game ended: %(outcome)s, worth %(worth)s with the "
        "cube at %(cube)s"
    ),
    "no-games": _("there are no games to write"),
    "not-mat-variant": _("game %(game)s: only short backgammon can be written as .mat"),
    # analysis (engine.analysis)
    "no-game": _("no game found in the record"),
    "no-evaluator": _("%(variant)s has no evaluator: its games cannot be analysed here"),
    "bot-record": _("the record of the game against the bot does not replay"),
    "bot-game-finished": _("the game against the bot is over"),
    "bot-cube-action": _("%(kind)s is not a cube action: double, take or drop"),
    "bot-cube-refused": _("%(kind)s is not allowed here by the rules of the cube"),
}

# A record over one of the reader's limits: the engine's code is ``record_too_large``
# for all of them, the text depends on the limit (engine.limits.ReadLimits).
LIMIT_MESSAGES: dict[str, Promise] = {
    "max_record_chars": _("the record is longer than %(value)s characters"),
    "max_tags": _("the game has more than %(value)s tags"),
    "max_line_chars": _("the line is longer than %(value)s characters"),
    "max_games": _("the file holds more than %(value)s games"),
}

SIDE_KEYS = ("side", "by", "mover", "other", "owner")
RAW_SIDE = {"position-side-not-object"}  # the side is a JSON key there, not a word
CUBE_ACTIONS = {"double": _("double"), "take": _("take"), "drop": _("drop")}


def _where(point: object) -> str:
    if point == "bar":
        return gettext("on the bar")
    if point == "start":
        return gettext("waiting to enter")
    return gettext("on point %(point)s") % {"point": point}


def _must_play(params: dict[str, Any]) -> str:
    moves, roll = int(params.get("moves", 0)), str(params.get("roll", ""))
    double = roll[:1] == roll[-1:]
    if moves == 2 and not double:
        return gettext("both dice of %(roll)s can be played, and must be") % {"roll": roll}
    return ngettext(
        "%(moves)s move of %(roll)s can be played, and must be",
        "%(moves)s moves of %(roll)s can be played, and must be",
        moves,
    ) % {"moves": moves, "roll": roll}


def _words(code: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The params as the reader's language shows them: sides, variants, outcomes, the
    place of a checker, the dice left."""
    out = dict(params)
    for key in SIDE_KEYS:
        if isinstance(out.get(key), str) and code not in RAW_SIDE:
            out[key] = side_name(out[key])
    if code != "unknown-variant" and code != "bad-position" and "variant" in out:
        out["variant"] = variant_name(str(out["variant"]))
    if "result" in out:
        out["outcome"] = result_tag_text(str(out["result"]), str(out.get("ended", "played")))
    if "point" in out and code.endswith("no-checker"):
        out["where"] = _where(out["point"])
    if code.startswith("block"):
        home = out.get("ahead") == "in-home"
        out["ahead"] = gettext("in its home ahead of it") if home else gettext("ahead of it")
    if "left" in out and isinstance(out["left"], list):
        numbers = [str(d) for d in out["left"]]
        out["left"] = (
            gettext("%(some)s and %(last)s")
            % {"some": ", ".join(numbers[:-1]), "last": numbers[-1]}
            if len(numbers) > 1
            else numbers[0]
            if numbers
            else gettext("nothing")
        )
    if code == "cube-action":
        out["action"] = CUBE_ACTIONS.get(str(out.get("action")), out.get("action"))
    return out


def _bad_character(params: dict[str, Any]) -> str:
    if params.get("nul"):
        text = gettext(
            "the record holds a NUL character (code %(char)s), which no record may contain"
        )
    else:
        text = gettext(
            "the record holds an invalid character (code %(char)s), which no record may contain"
        )
    return text % params


# codes whose text needs more than one template (plurals, wording by value)
SPECIAL = {"must-play": _must_play, "bad-character": _bad_character}


def has_translation(code: str) -> bool:
    return code in MESSAGES or code in SPECIAL


def engine_text(error: EngineErrorLike) -> str:
    """The error's message alone, in the reader's language (no place, no rule id). An
    unknown code (an engine newer than this table) falls back to the English text."""
    code = error.code
    params = error.params or {}
    if code == "record_too_large" and params.get("limit") in LIMIT_MESSAGES:
        return str(LIMIT_MESSAGES[params["limit"]]) % params
    if code in SPECIAL:
        return SPECIAL[code](dict(params))
    template = MESSAGES.get(code)
    if template is None:
        return error.message
    try:
        return str(template) % _words(code, params)
    except (KeyError, TypeError, ValueError):  # params that do not fit: say it in English
        return error.message


def engine_message(error: EngineErrorLike, *, located: bool = False) -> str:
    """The error as a club player reads it: ``tah 9 (černý 6-4: 13/7 8/4): pole 7 je
    obsazené (L3)``; with ``located`` its line and column first (a ApplicationError carries
    them in its own fields, so the app's doors leave them out)."""
    parts = []
    if located and error.line is not None:
        parts.append(
            gettext("line %(line)s, column %(col)s: ") % {"line": error.line, "col": error.col}
        )
    turn = getattr(error, "turn", None)
    if turn is not None:
        side = side_name(str(getattr(error, "side", "") or ""))
        dice = getattr(error, "dice", None)
        text = getattr(error, "text", None)
        what = f"{side} {dice}" if dice else side
        if text:
            what = f"{what}: {_action_text(text)}"
        parts.append(gettext("turn %(n)s (%(what)s): ") % {"n": turn, "what": what})
    parts.append(engine_text(error))
    if error.rule:
        parts.append(f" ({error.rule})")
    return "".join(parts)


def _action_text(text: str) -> str:
    """The moves as written stay as written; a cube action is said in words."""
    return str(CUBE_ACTIONS.get(text, text)) if text in ("double", "take", "drop") else text
