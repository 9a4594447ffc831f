"""Engine errors from hostile and mistaken input, as players and clients write it
(records, positions, dice, rule options, .mat files, limits): the corpus the message
tests and the Czech catalogue check render."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine import Position, Rules, legal_turns, play, read_records, replay, verify_text
from engine.errors import EngineError
from engine.limits import ReadLimits
from engine.matfile import read_mat, write_mat
from engine.variants import variant_named

LONG = '[Variant "long"]\n\n'
SHORT = '[Variant "short"]\n[Cube "on"]\n\n'
LURC = '[Variant "lurc"]\n\n'
LONG_CLOSED = LONG + "1. 64: 24/18/14 65: 24/18/13\n2. 66: 24/18/12\n"


def _records(text: str) -> Iterator[EngineError]:
    """Every error verifying ``text`` gives (a syntax error or a replay's first error)."""
    try:
        results = verify_text(text)
    except EngineError as exc:
        yield exc
        return
    for r in results:
        if isinstance(r, EngineError):
            yield r
        elif r.error is not None:
            yield r.error


def _call(fn: Callable[[], Any]) -> Iterator[EngineError]:
    try:
        fn()
    except EngineError as exc:
        yield exc


# Hostile and mistaken input, as players and clients write it: each gives an error.
RECORDS = [
    LONG_CLOSED,
    LONG + "1. 64: 24/18 24/20\n",  # head (L4.1)
    LONG + "1. 64: 24/14 2. 33: 24/21/18/15/12\n",  # closed / head for black
    LONG + "1. 64: 13/7 13/9\n",
    LONG + "1. 64: 24/18 18/14 65: 24/18 24/19\n",
    LONG + "1. 64: 24/14 zz\n",
    LONG + "1. 6x: 24/18\n",
    LONG + "1. 64 24/18\n",
    LONG + "1. 6-4 24/18\n",
    LONG + "1. 641: 24/18\n",
    LONG + "1. 64: 24/99\n",
    LONG + "1. 24/18\n",
    LONG + "1. 74: 24/17\n",
    LONG + "1. 64: 24/18(12)\n",
    LONG + "1. W W 64: 24/14\n",
    LONG + "1. 64: 24/14 B\n",
    LONG + "1. 64: 24/14 {never closed\n",
    LONG + "1. 64: 24/14 accepted\n",
    LONG + "1. 64: 18/24 accepted\n",
    LONG + "1. 64: 24/14 double\n",
    LONG + "1. 64: 24/14 " + "x" * 80 + "\n",
    LONG + "1. 64: 24/18/14 B 65: 24/18/13 W 66: 24/18/12\n",
    LONG + "1. 21+55: 24/22/21\n",
    '[Variant "long"]\n[Variant "long"]\n\n1. 64: 24/14\n',
    '[Variant "long"]\n[Mars "maybe"]\n\n1. 64: 24/14\n',
    '[Variant "long"]\n[MatchLength "x"]\n\n',
    '[Variant "long"]\n[Score "3:2"]\n\n',
    '[Variant "long"]\n[Game "first"]\n\n',
    '[Variant "long"]\n[Date "yesterday"]\n\n',
    '[Variant "chess"]\n\n1. 64: 24/14\n',
    '[White "A"]\n\n1. 64: 24/14\n',
    "[Variant long]\n",
    LONG + '1. 64: 24/14\n[Result "white mars"]\n',
    '[Variant "long"]\n[Result "white mars"]\n\n1. 64: 24/14\n',
    LONG + "1. 64: 24/14\x00\n",
    SHORT + "1. 31: 8/5 6/5 2. 64: 24/18*\n",
    SHORT + "1. 31: 8/5 6/5 2. B take\n",
    SHORT + "1. 33: 8/5(2) 6/3(2)\n",
    SHORT + "1. 31: 8/5 6/5 2. 64: 24/14 3. 51: 13/8 6/5 double\n3. ... 62: 24/18 13/11\n",
    '[Variant "short"]\n[Cube "off"]\n\n1. 31: 8/5 6/5 2. double\n',
    SHORT + "1. 31: 25/22 6/5\n",
    SHORT + "1. 31: 8/5 6/5 2. 64: 24/18 18/14 3. 21+55: 13/11 6/5\n",
    LURC + "1. 21: 24/22 24/23\n",
    LURC + "1. 64: 24/14 2. 21: 24/22/21\n",
    LURC + "1. 64+55: 24/14\n",
    LONG + "1. 64: 24/18\n",  # must-play
    LONG + "1. 64: 24/18* 24/20\n",  # no hitting in long nardy
    LONG + "1. 64: 24/14 W 65: 24/13\n",  # white twice
    SHORT + "1. 51: 6/1 8/7\n",  # closed by two black checkers
]
CALLS: list[Callable[[], Any]] = [
    lambda: legal_turns(Position.start("long"), [7, 1]),
    lambda: legal_turns(Position.start("long"), [6]),
    lambda: legal_turns(Position.start("lurc"), [6]),
    lambda: Rules.from_options({"speed": "on"}),
    lambda: Rules.from_options({"mars": "maybe"}),
    lambda: Rules.from_options({"match_length": "0"}),
    lambda: Rules.from_options({"match_length": 1.5}),
    lambda: Rules.from_options([]),  # type: ignore[arg-type]
    lambda: Position.from_json({"variant": "chess"}),
    lambda: variant_named("chess"),
    lambda: Position.from_json([]),
    lambda: Position.from_json({"variant": "long", "colour": 1}),
    lambda: Position.from_json({}),
    lambda: Position.from_json({"variant": "long", "turn": "red"}),
    lambda: Position.from_json({"variant": "long", "white": []}),
    lambda: Position.from_json({"variant": "long", "white": {"3": -1}}),
    lambda: Position.from_json({"variant": "long", "white": {"3": 16}}),
    lambda: Position.from_json({"variant": "long", "white": {"24": 15, "off": 3}}),
    lambda: Position.from_json({"variant": "long", "white": {"bar": 1}}),
    lambda: Position.from_json({"variant": "long", "white": {"start": 1}}),
    lambda: Position.from_json({"variant": "long", "white": {"x": 1}}),
    lambda: Position.from_json({"variant": "long", "white": {"1": 1}, "black": {"13": 1}}),
    lambda: Position.from_json({"variant": "long", "cube": {"value": 2}}),
    lambda: Position.from_json({"variant": "short", "cube": 2}),
    lambda: Position.from_json({"variant": "short", "cube": {"value": 3}}),
    lambda: Position.from_json({"variant": "short", "cube": {"owner": "red"}}),
    lambda: play(Position.start("long"), "64: 24/18/13"),
    lambda: play(Position.start("long"), "64: 24/18 24/20"),
    lambda: play(Position.start("long"), "B 64: 24/14"),
    lambda: play(Position.start("long"), "64: 24/14 33: 13/10"),
    lambda: play(Position.start("long"), "64+55: 24/14"),
    lambda: write_mat([]),
    lambda: write_mat(read_records(LONG)),
    lambda: read_mat("hello"),
    lambda: read_mat(" 1 point match\n\n Game 1\n"),
    lambda: read_mat(" 1 point match\n\n Game 1\n Ann : 0   Bob : 0\n  1) 64: 24/18 18/14 xx\n"),
    lambda: read_mat(" 1 point match\n 1 point match\n"),
    lambda: read_mat("Game 1\n"),
    lambda: read_mat(" 1 point match\n\n Game 1\n nobody\n"),
    lambda: read_mat(" 1 point match\n\n Game 1\n Ann : 0   Bob : 0\n  1) 64: 26/18\n"),
    lambda: read_mat(" 1 point match\n\n Game 1\n Ann : 0   Bob : 0\n  64: 24/18\n"),
]


def hostile_errors() -> list[EngineError]:
    errors: list[EngineError] = []
    for text in RECORDS:
        errors.extend(_records(text))
    for call in CALLS:
        errors.extend(_call(call))
    errors.extend(
        _call(lambda: verify_text(LONG + "1. 64: 24/14\n" * 3, ReadLimits(max_record_chars=20)))
    )
    errors.extend(_call(lambda: read_records(LONG * 3, ReadLimits(max_games=1))))
    errors.extend(_call(lambda: read_records('[A "1"]\n' * 5 + LONG, ReadLimits(max_tags=2))))
    errors.extend(
        _call(lambda: read_records(LONG + "1. 64: 24/14 " * 20, ReadLimits(max_line_chars=50)))
    )
    return errors


__all__ = ["CALLS", "LONG_CLOSED", "RECORDS", "hostile_errors", "replay"]
