"""Reading and writing game records (NOTATION.md section 1).

The reader keeps every action with its line and column, so that a problem found later,
while replaying, can be shown where it was written. The writer produces the canonical
form: ``write(read(text))`` is stable.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Final, NamedTuple

from engine.errors import RecordSyntaxError, RecordTooLargeError
from engine.limits import DEFAULT_LIMITS, UNLIMITED, ReadLimits
from engine.rules import RULE_OPTIONS, WIN_POINTS
from engine.values import Value
from engine.variants import BAR, BLACK, OFF, SIDE_NAMES, VARIANTS, WHITE, variant_named

TAG_ORDER = (
    "Variant",
    "Event",
    "Site",
    "Date",
    "Round",
    "Series",
    "Game",
    "White",
    "Black",
    "Mars",
    "LastRoll",
    "BlockCheck",
    "BlockAhead",
    "Cube",
    "MatchLength",
    "OpeningRoll",
    "Score",
    "Crawford",
)
# The values a tag may take: the variants, the rule options (engine/rules.py) and the
# results, each from the one place that declares it.
TAG_VALUES: dict[str, tuple[str, ...]] = {
    "Variant": tuple(VARIANTS),
    **{o.tag: o.values for o in RULE_OPTIONS.values() if o.values},
    "Result": (
        *(f"{side} {kind}" for side in SIDE_NAMES for kind in WIN_POINTS),
        "draw",
        "*",
    ),
}

# The value is matched as runs of plain characters between escapes: linear, with no
# backtracking state per character (``(?:[^"\\]|\\.)*`` took 1.7 GB on a 10 MB line).
# Numbers are ASCII digits only (``\d`` and ``str.isdigit`` take ``²`` and ``٣``).
_TAG_LINE = re.compile(
    r'^[ \t]*\[([A-Za-z][A-Za-z0-9_]*)[ \t]+"([^"\\]*(?:\\.[^"\\]*)*+)"[ \t]*\][ \t]*$'
)
_TOKEN = re.compile(r"\{[^}]*\}?|;[^\n]*|[^\s{;]+")
_NUMBER = re.compile(r"([0-9]+)\.+")
_DICE = re.compile(r"([WB])?([0-9])-?([0-9])(?:\+([0-9])-?([0-9]))?:")
_WORD = re.compile(r"([WB])?(double|take|drop|resigns|accepted)")
_MOVE = re.compile(r"((?:bar|off|[0-9]+)\*?(?:/(?:bar|off|[0-9]+)\*?)+)(?:\(([0-9]+)\))?")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_COUNT = re.compile(r"[1-9][0-9]{0,5}")  # a game number or match length: 1 to 999999
_SCORE = re.compile(r"[0-9]{1,6}-[0-9]{1,6}")
_BAD_CHAR = re.compile("[\x00\ud800-\udfff]")  # NUL and lone surrogates: no database takes them
_ESCAPED = re.compile(r"\\(.)")
_LONGEST_WORD = 200  # no action is longer (a chain of all 24 points is under 100)


class WrittenMove(NamedTuple):
    """One move as written: its points (0 = off, 25 = bar) with hit marks, repeated
    ``repeat`` times (``24/18(2)``), and its from/to pairs with repeats expanded."""

    points: tuple[tuple[int, bool], ...]
    repeat: int
    text: str
    segments: tuple[tuple[int, int, bool], ...]


class Action(NamedTuple):
    """A turn (``kind == "turn"``), a cube action or a resignation, as written."""

    kind: str
    side: int | None
    line: int
    col: int
    dice: tuple[int, int] | None = None
    pas: tuple[int, int] | None = None
    moves: tuple[WrittenMove, ...] = ()
    comments: tuple[str, ...] = ()

    @property
    def dice_text(self) -> str:
        if self.dice is None:
            return ""
        text = f"{self.dice[0]}-{self.dice[1]}"
        return text + (f"+{self.pas[0]}-{self.pas[1]}" if self.pas else "")

    @property
    def text(self) -> str:
        """The action as written, for messages: ``6-4: 24/18 18/14``."""
        if self.kind != "turn":
            return self.kind
        moves = " ".join(m.text for m in self.moves)
        return f"{self.dice_text}: {moves}".rstrip()


class GameRecord(Value):
    """One game of a record file: its tags in file order and its actions (a value, made
    once: engine.values)."""

    tags: tuple[tuple[str, str], ...]
    actions: tuple[Action, ...]
    line: int = 1
    preamble: tuple[str, ...] = ()  # comments before the first action

    def tag(self, name: str, default: str = "") -> str:
        for key, value in self.tags:
            if key == name:
                return value
        return default

    @property
    def variant(self) -> str:
        return self.tag("Variant")


def split_games(
    text: str, limits: ReadLimits = UNLIMITED
) -> list[tuple[int, list[tuple[int, str]]]]:
    """Cut a file into games: (first line number, [(line number, line)]). A game starts
    at a tag line that follows movetext (or the start of the file)."""
    return [(lines[0][0], lines) for lines in iter_games(text.splitlines(), limits)]


def iter_games(
    lines: Iterable[str], limits: ReadLimits = UNLIMITED
) -> Iterator[list[tuple[int, str]]]:
    """The games of a file given line by line (a list, or an open file: the command line
    reads a large file as a stream), each as its numbered lines. Checks each line: its
    length (``limits.max_line_chars``), no NUL and no lone surrogate; and the number of
    games (``limits.max_games``)."""
    current: list[tuple[int, str]] = []
    seen_moves = False
    games = 0
    max_line, max_games = limits.max_line_chars, limits.max_games
    for number, line in enumerate(lines, start=1):
        try:
            # the checks of _check_line, called only when one may fail (most lines are
            # short ASCII: a call per line was a tenth of reading a record)
            if (
                not line.isascii()
                or "\x00" in line
                or (max_line is not None and len(line) > max_line)
            ):
                _check_line(line, number, max_line)
            stripped = line.lstrip()
            is_tag = stripped[:1] == "[" and _TAG_LINE.match(line) is not None
            if is_tag and seen_moves:
                games += 1
                if max_games is not None and games >= max_games:
                    raise RecordTooLargeError(
                        f"the file holds more than {max_games} games",
                        limit="max_games",
                        value=max_games,
                        line=number,
                        col=1,
                    )
                yield current
                current, seen_moves = [], False
        except RecordSyntaxError as exc:
            exc.game = games + 1
            raise
        if stripped and not is_tag:
            seen_moves = True
        if current or stripped:
            current.append((number, line))
    if current:
        yield current


def _check_line(line: str, number: int, max_line: int | None) -> None:
    if max_line is not None and len(line) > max_line:
        raise RecordTooLargeError(
            f"the line is longer than {max_line} characters",
            limit="max_line_chars",
            value=max_line,
            line=number,
            col=max_line + 1,
        )
    if "\x00" in line or not line.isascii():
        bad = _BAD_CHAR.search(line)
        if bad is not None:
            what = "a NUL character" if bad.group() == "\x00" else "an invalid character"
            raise RecordSyntaxError(
                f"the record holds {what} (code {ord(bad.group()):#x}), which no record may "
                "contain",
                code="bad-character",
                params={"char": f"{ord(bad.group()):#x}", "nul": bad.group() == "\x00"},
                line=number,
                col=bad.start() + 1,
            )


def read_game(lines: Sequence[tuple[int, str]], limits: ReadLimits = DEFAULT_LIMITS) -> GameRecord:
    """Read one game from its numbered lines; raises :class:`RecordSyntaxError`."""
    tags: list[tuple[str, str]] = []
    names: set[str] = set()
    max_tags = limits.max_tags
    i = 0
    tag_line = _TAG_LINE.match
    for number, line in lines:
        m = tag_line(line)
        if m is None and line.strip():
            break
        if m:
            if max_tags is not None and len(tags) >= max_tags:
                raise RecordTooLargeError(
                    f"the game has more than {max_tags} tags",
                    limit="max_tags",
                    value=max_tags,
                    line=number,
                    col=line.index("[") + 1,
                )
            name, value = m.groups()
            tags.append(_check_tag(name, _unescape(value), names, number, line))
            names.add(name)
        i += 1
    first = lines[0][0] if lines else 1
    if "Variant" not in names:
        line_no, line = lines[i] if i < len(lines) else (first, "")
        if not tags and line.lstrip().startswith("["):
            col = len(line) - len(line.lstrip()) + 1
            raise RecordSyntaxError(
                f'cannot read the tag {_shown(line.strip())}: write it as [Name "value"]',
                code="bad-tag",
                params={"tag": _shown(line.strip())},
                line=line_no,
                col=col,
            )
        raise RecordSyntaxError(
            'the game has no [Variant "..."] tag (long, short or lurc)',
            code="no-variant",
            line=first,
            col=1,
        )
    repeats = variant_named(next(v for k, v in tags if k == "Variant")).max_repeat
    actions, preamble = _read_movetext(lines[i:], repeats)
    return GameRecord(tuple(tags), tuple(actions), first, tuple(preamble))


def read_records(text: str, limits: ReadLimits = DEFAULT_LIMITS) -> list[GameRecord]:
    """Read every game of a record file; the first syntax error is raised with its
    game number. ``limits`` bounds what a stranger's text may hold (the defaults are
    safe for a web request); going over one raises :class:`RecordTooLargeError`."""
    check_record_size(text, limits)
    out = []
    for number, lines in enumerate(iter_games(text.splitlines(), limits), start=1):
        try:
            out.append(read_game(lines, limits))
        except RecordSyntaxError as exc:
            exc.game = number
            raise
    return out


def check_record_size(text: str, limits: ReadLimits) -> None:
    """:class:`RecordTooLargeError` when ``text`` is over ``limits.max_record_chars``."""
    if limits.max_record_chars is not None and len(text) > limits.max_record_chars:
        raise RecordTooLargeError(
            f"the record is longer than {limits.max_record_chars} characters",
            limit="max_record_chars",
            value=limits.max_record_chars,
            line=1,
            col=1,
        )


def _shown(value: str, size: int = 40) -> str:
    """A value for a message: quoted, cut to ``size`` characters."""
    return repr(value if len(value) <= size else value[:size] + "…")


def _unescape(value: str) -> str:
    return _ESCAPED.sub(_escaped_char, value) if "\\" in value else value


def _escaped_char(m: re.Match[str]) -> str:
    return m.group(1)  # faster than the template r"\1", which re expands for every match


def _check_tag(tag: str, value: str, tags: set[str], line_no: int, line: str) -> tuple[str, str]:
    col = line.index("[") + 1
    if tag in tags:
        raise RecordSyntaxError(
            f"the tag {tag} is given twice",
            code="tag-twice",
            params={"tag": tag},
            line=line_no,
            col=col,
        )
    allowed = TAG_VALUES.get(tag)
    shown = _shown(value)
    if allowed and value not in allowed:
        choices = ", ".join(allowed)
        raise RecordSyntaxError(
            f"unknown {tag} {shown}: it must be one of {choices}",
            code="bad-tag-value",
            params={"tag": tag, "value": shown, "allowed": choices},
            line=line_no,
            col=col,
        )
    if tag == "MatchLength" and not _COUNT.fullmatch(value):
        raise RecordSyntaxError(
            f"MatchLength must be a number of points (1 to 999999), not {shown}",
            code="bad-match-length-tag",
            params={"value": shown},
            line=line_no,
            col=col,
        )
    if tag == "Score" and not _SCORE.fullmatch(value):
        raise RecordSyntaxError(
            f"Score is the match score before the game, white first (like 3-2), not {shown}",
            code="bad-score-tag",
            params={"value": shown},
            line=line_no,
            col=col,
        )
    if tag == "Game" and value and not _COUNT.fullmatch(value):
        raise RecordSyntaxError(
            f"Game must be the game's number in its series (1 to 999999), not {shown}",
            code="bad-game-tag",
            params={"value": shown},
            line=line_no,
            col=col,
        )
    if tag == "Date" and value and not _valid_date(value):
        raise RecordSyntaxError(
            f"Date must be a date written YYYY-MM-DD, not {shown}",
            code="bad-date-tag",
            params={"value": shown},
            line=line_no,
            col=col,
        )
    return tag, value


def _valid_date(value: str) -> bool:
    if not _DATE.fullmatch(value):
        return False
    import datetime  # only for a Date tag: not every record's start-up (docs/performance.md)

    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


# The tokens a program writes, each always read the same way: dice (``64:``, ``6-4:``) and
# turn numbers (``12.``). Fixed tables, built once.
# (``Final``: mypyc keeps these in C variables rather than looking them up by name.)
_DICE_TOKENS: Final = {
    f"{a}{sep}{b}:": (max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7) for sep in "-"
} | {f"{a}{b}:": (max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)}
_TURN_NUMBERS: Final = frozenset(f"{n}." for n in range(1, 1000))

# Moves already read, by the word written (``24/18``, ``bar/20*``, ``13/7(2)``): the one
# cache of the reader. Players write a few thousand distinct words (24 x 24 pairs, some
# chains and repeats), so the cap is never reached in play; it bounds the memory (some
# 20 MB) a stranger's records full of made-up moves could claim in a long-lived worker.
# Words of 40 characters or more (long chains) are read every time, not kept.
_MOVE_CACHE: Final[dict[str, WrittenMove]] = {}
_MAX_CACHED_MOVES = 100_000
_MAX_CACHED_WORD = 40


# An Action built by ``tuple.__new__`` skips the Python-level ``__new__`` NamedTuple
# gives it: a plain turn's Action is built for every turn read, and this alone makes the
# reader some 15% faster (measured with ``engine bench``). Only here, with every field.
_new_action: Final = tuple.__new__


def _read_plain_movetext(lines: Sequence[tuple[int, str]], repeats: int = 4) -> list[Action] | None:
    """The reader's fast path, for movetext made only of turn numbers, dice and moves
    (what a program writes). None when anything else appears: the tokenizer of
    :func:`_read_movetext` reads it then."""
    actions: list[Action] = []
    for line_no, line in lines:
        if "{" in line or ";" in line or not _read_plain_line(line_no, line, repeats, actions):
            return None
    return actions


def _read_plain_line(line_no: int, line: str, repeats: int, actions: list[Action]) -> bool:
    """Add the turns of one plain line to ``actions``; False when the line is not plain."""
    # One dictionary lookup reads most tokens: moves (the most frequent) first, then dice,
    # then turn numbers; only a move not seen before is parsed (docs/performance.md). The tables are
    # named directly, not bound to locals: in Python 3.11 that is as quick, and compiled
    # (mypyc) each lookup is a direct C call instead of a call of a bound method.
    cursor = 0
    dice: tuple[int, int] | None = None
    col = 0
    moves: list[WrittenMove] = []
    for token in line.split():
        move = _MOVE_CACHE.get(token)
        if move is None:
            roll = _DICE_TOKENS.get(token)
            if roll is not None:
                if dice is not None:
                    actions.append(
                        _new_action(
                            Action, ("turn", None, line_no, col, dice, None, tuple(moves), ())
                        )
                    )
                cursor = line.find(token, cursor)
                col = cursor + 1
                cursor += len(token)
                dice, moves = roll, []
                continue
            if token in _TURN_NUMBERS:
                continue
            if dice is None or "/" not in token:
                return False
            move = _read_move(token)
            if move is None:
                return False
        if dice is None or move.repeat > repeats:
            return False
        moves.append(move)
    if dice is not None:
        actions.append(
            _new_action(Action, ("turn", None, line_no, col, dice, None, tuple(moves), ()))
        )
    return True


def _read_movetext(
    lines: Sequence[tuple[int, str]], repeats: int = 4
) -> tuple[list[Action], list[str]]:
    if not lines:
        return [], []
    plain = _read_plain_movetext(lines, repeats)
    if plain is not None:
        return plain, []
    return _Tokenizer(lines, repeats).read()


class _Tokenizer:
    """The general movetext reader: comments, side letters, cube actions and resignations
    besides turns, each token placed at its line and column."""

    def __init__(self, lines: Sequence[tuple[int, str]], repeats: int) -> None:
        self.text = "\n".join(line for _, line in lines)
        self.repeats = repeats
        self.actions: list[Action] = []
        self.preamble: list[str] = []
        # the moves and comments of the last action, gathered here and put into it when
        # the next action starts (rebuilding the action for each would be quadratic)
        self.extra_moves: list[WrittenMove] = []
        self.extra_comments: list[str] = []
        self.pending: tuple[int, int, int] | None = None  # a side letter read: side, line, col
        # an offset whose line is known, that line and where it starts (all only move
        # forward, so finding the line and column of every token is linear in the text)
        self.line_at, self.line_no, self.line_start = 0, lines[0][0], 0

    def where(self, offset: int) -> tuple[int, int]:
        text = self.text
        newlines = text.count("\n", self.line_at, offset)
        if newlines:
            self.line_no += newlines
            self.line_start = text.rfind("\n", self.line_at, offset) + 1
        self.line_at = offset
        return self.line_no, offset - self.line_start + 1

    def flush(self) -> None:
        if self.actions and (self.extra_moves or self.extra_comments):
            last = self.actions[-1]
            self.actions[-1] = last._replace(
                moves=(*last.moves, *self.extra_moves),
                comments=(*last.comments, *self.extra_comments),
            )
            self.extra_moves.clear()
            self.extra_comments.clear()

    def read(self) -> tuple[list[Action], list[str]]:
        for m in _TOKEN.finditer(self.text):
            line, col = self.where(m.start())
            self.token(m.group(), line, col)
        if self.pending:
            raise RecordSyntaxError(
                "a side letter ends the game without a turn",
                line=self.pending[1],
                col=self.pending[2],
                code="side-letter-at-end",
            )
        self.flush()
        return self.actions, self.preamble

    def token(self, word: str, line: int, col: int) -> None:
        if word[0] in "{;":
            self.comment(word, line, col)
            return
        if len(word) > _LONGEST_WORD:
            raise RecordSyntaxError(
                f"cannot read {_shown(word)}: it is longer than any dice, move or word",
                code="word-too-long",
                params={"word": _shown(word)},
                line=line,
                col=col,
            )
        number = _NUMBER.match(word)
        if number:
            word = word[number.end() :]
            col += number.end()
            if not word:
                return
        if word in ("W", "B"):
            if self.pending:
                raise RecordSyntaxError(
                    f"{word!r} follows another side letter",
                    line=line,
                    col=col,
                    code="side-letter-twice",
                    params={"letter": repr(word)},
                )
            self.pending = (WHITE if word == "W" else BLACK, line, col)
            return
        dice_m = _DICE.match(word)
        if dice_m:
            self.dice(dice_m, line, col)
            word = word[dice_m.end() :]
            col += dice_m.end()
            if not word:
                return
        self.word(word, line, col)

    def comment(self, word: str, line: int, col: int) -> None:
        if word[0] == "{" and not word.endswith("}"):
            raise RecordSyntaxError(
                "a comment { is never closed by }", line=line, col=col, code="open-comment"
            )
        body = word[1:-1] if word[0] == "{" else word[1:]
        (self.extra_comments if self.actions else self.preamble).append(body.strip())

    def dice(self, dice_m: re.Match[str], line: int, col: int) -> None:
        side, line, col = _side(dice_m.group(1), self.pending, line, col)
        self.pending = None
        roll, pas = _dice_values(dice_m, line, col)
        self.flush()
        self.actions.append(Action("turn", side, line, col, roll, pas))

    def word(self, word: str, line: int, col: int) -> None:
        """A cube action, a resignation, an acceptance or a move."""
        cube = _WORD.fullmatch(word)
        if cube:
            side, line, col = _side(cube.group(1), self.pending, line, col)
            self.pending = None
            self.flush()
            self.actions.append(Action(cube.group(2), side, line, col))
            return
        move = _MOVE.fullmatch(word)
        if move and self.pending is None and self.actions and self.actions[-1].kind == "turn":
            self.extra_moves.append(_written_move(move, line, col, self.repeats))
            return
        if move:
            raise RecordSyntaxError(
                f"the move {word!r} has no dice before it (write them like 64: {word})",
                code="move-without-dice",
                params={"move": word},
                line=line,
                col=col,
            )
        message, code = _explain(word)
        raise RecordSyntaxError(
            message, code=code, params={"word": _shown(word)}, line=line, col=col
        )


def read_movetext_line(text: str, repeats: int = 10) -> tuple[list[Action], list[str]]:
    """Read movetext given on its own (one line or several), e.g. ``"64: 24/18/14"``."""
    return _read_movetext(list(enumerate(text.splitlines() or [""], start=1)), repeats)


def _read_move(word: str) -> WrittenMove | None:
    """A well-formed move word read and kept in the cache (None: the tokenizer reads it
    and says what is wrong)."""
    m = _MOVE.fullmatch(word)
    if m is None:
        return None
    try:
        move = _written_move(m, 0, 0)
    except RecordSyntaxError:
        return None
    if len(word) < _MAX_CACHED_WORD and len(_MOVE_CACHE) < _MAX_CACHED_MOVES:
        _MOVE_CACHE[word] = move
    return move


def _side(
    letter: str | None, pending: tuple[int, int, int] | None, line: int, col: int
) -> tuple[int | None, int, int]:
    if letter and pending:
        raise RecordSyntaxError(
            f"{letter!r} follows another side letter",
            code="side-letter-twice",
            params={"letter": repr(letter)},
            line=line,
            col=col,
        )
    if letter:
        return (WHITE if letter == "W" else BLACK), line, col
    if pending:
        return pending
    return None, line, col


def _dice_values(
    m: re.Match[str], line: int, col: int
) -> tuple[tuple[int, int], tuple[int, int] | None]:
    values = [int(g) for g in m.groups()[1:] if g is not None]
    for v in values:
        if not 1 <= v <= 6:
            raise RecordSyntaxError(
                f"impossible dice value {v} in {m.group()!r}: a die shows 1 to 6",
                code="bad-dice-value",
                params={"value": v, "dice": m.group()},
                line=line,
                col=col,
            )
    a, b = values[0], values[1]
    roll = (a, b) if a >= b else (b, a)
    pas = None
    if len(values) == 4:
        pas = (values[2], values[3])
    return roll, pas


def _written_move(m: re.Match[str], line: int, col: int, repeats: int = 10) -> WrittenMove:
    points: list[tuple[int, bool]] = []
    for part in m.group(1).split("/"):
        star = part.endswith("*")
        point = part.rstrip("*")
        if point == "bar":
            points.append((BAR, star))
        elif point == "off":
            points.append((OFF, star))
        else:
            value = int(point) if len(point) <= 4 else 9999  # no int() of a huge number
            if not 1 <= value <= 24:
                raise RecordSyntaxError(
                    f"point {_shown(point, 6)} in {_shown(m.group())} does not exist: points are "
                    "1-24, bar and off",
                    code="no-such-point",
                    params={"point": _shown(point, 6), "move": _shown(m.group())},
                    line=line,
                    col=col,
                )
            points.append((value, star))
    count = m.group(2) or "1"
    repeat = int(count) if len(count) <= 4 else 9999
    if not 1 <= repeat <= repeats:  # four in a double, ten in a Lurč houšek with its paš
        raise RecordSyntaxError(
            f"{_shown(m.group())} repeats a move {_shown(count, 6)} times; a roll allows at "
            f"most {repeats}",
            code="too-many-repeats",
            params={"move": _shown(m.group()), "count": _shown(count, 6), "most": repeats},
            line=line,
            col=col,
        )
    pairs = tuple((a[0], b[0], b[1]) for a, b in itertools.pairwise(points))
    # ``6/1*(2)``: the first checker hits, the ones that follow land on the point it took
    again = tuple((a, b, False) for a, b, _ in pairs)
    return WrittenMove(tuple(points), repeat, m.group(), pairs + again * (repeat - 1))


def _explain(word: str) -> tuple[str, str]:
    """Why a word cannot be read: the message and its code."""
    shown = _shown(word)
    if re.fullmatch(r"[WB]?[0-9]+", word):
        return f"cannot read {shown}: dice are written with a colon, like 64:", "dice-no-colon"
    if re.fullmatch(r"[WB]?[0-9]+-[0-9]+", word):
        return f"cannot read {shown}: dice are written with a colon, like 6-4:", "dice-dash"
    if re.fullmatch(r"[WB]?[0-9][0-9][0-9]+:", word):
        return f"cannot read the dice {shown}: a roll is two dice, like 64:", "dice-too-many"
    if "/" in word:
        return (
            f"cannot read the move {shown}: write it FROM/TO with points 1-24, bar or off",
            "bad-move",
        )
    return (
        f"cannot read {shown}: expected dice like 64:, a move like 24/18, a turn number, "
        "double, take, drop, resigns or accepted",
        "syntax",
    )


# writing ----------------------------------------------------------------


def dice_text(dice: tuple[int, int], pas: tuple[int, int] | None = None) -> str:
    a, b = max(dice), min(dice)
    return f"{a}{b}" + (f"+{pas[0]}{pas[1]}" if pas else "")


def write_tags(tags: Iterable[tuple[str, str]]) -> list[str]:
    tags = list(tags)
    known = {k: v for k, v in tags}
    order = [k for k in TAG_ORDER if k in known]
    order += [k for k, _ in tags if k not in TAG_ORDER and k != "Result"]
    lines = [f'[{k} "{_escape(known[k])}"]' for k in order]
    lines.append(f'[Result "{_escape(known.get("Result", "*"))}"]')
    return lines


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


class WrittenAction:
    """An action ready to be written: who did it and its canonical text."""

    __slots__ = ("comments", "kind", "side", "text")

    def __init__(self, side: int, kind: str, text: str, comments: tuple[str, ...] = ()) -> None:
        self.side = side
        self.kind = kind
        self.text = text
        self.comments = comments


def write_movetext(
    actions: Sequence[WrittenAction], preamble: Sequence[str] = (), first_side: int = WHITE
) -> str:
    """Lines of movetext, the first player's turns numbered 1., 2., ... as in PGN (white
    in long nardy and backgammon, black in Lurč); a Lurč extra roll stays on its line."""
    lines: list[str] = []
    parts: list[str] = [f"{{{c}}}" for c in preamble]
    number = 0
    prev: WrittenAction | None = None
    for a in actions:
        again = prev is not None and prev.kind == "turn" and prev.side == a.side
        opens = a.side == first_side and not again and (
            a.kind == "double" or (a.kind == "turn" and not _after_own_double(prev))
        )  # fmt: skip
        if opens or number == 0:
            if parts and number:
                lines.append(" ".join(parts))
                parts = []
            number += 1
            parts.append(f"{number}.")
        parts.append(a.text)
        parts.extend(f"{{{c}}}" for c in a.comments)
        prev = a
    if parts:
        lines.append(" ".join(parts))
    return "\n".join(lines)


def _after_own_double(prev: WrittenAction | None) -> bool:
    return prev is not None and prev.kind == "take"
