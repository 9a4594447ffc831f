"""GNU Backgammon / Jellyfish ``.mat`` match files: reading into game records, writing
from them.

A ``.mat`` file is one match: `` N point match``, then per game `` Game K``, a line
``Name0 : score0   Name1 : score1`` (the match score before the game) and numbered lines
with two cells, the left for player 0 and the right for player 1. A cell is a turn
(``64: 24/18 18/14``, points in the mover's numbering, ``25`` the bar, ``0`` off, the
dice alone for a roll with no move), `` Doubles => N``, `` Takes``, `` Drops`` or
`` Wins N point(s)`` (that one also on a line of its own). The players' cells alternate.

Each game becomes a short-backgammon record with the cube: White is whoever moved first
in that game (tools/gnubg/README.md), ``Score`` the match score in that orientation,
``Crawford`` on for the game after a player first reaches N-1. A game that ends without
a drop and without the winner's last checker off was resigned (the format cannot say
so): it ends with the loser's ``resigns``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.errors import ConversionError, RecordSyntaxError, VerificationError
from engine.matheader import MAT_HEADER
from engine.notation import Action, GameRecord, read_movetext_line
from engine.replay import Replay, replay
from engine.variants import BAR, BLACK, OFF, SHORT, SIDE_NAMES, WHITE, variant_named

RIGHT_COLUMN = 20  # a lone cell starting left of this column is player 0's
_GAME = re.compile(r"^\s*Game\s+([0-9]{1,6})\s*$", re.IGNORECASE)
_PLAYERS = re.compile(r"^\s*(\S.*?)\s*:\s*([0-9]{1,6})\s+(\S.*?)\s*:\s*([0-9]{1,6})\s*$")
_NUMBERED = re.compile(r"^\s*[0-9]{1,6}\)")
_CELL = re.compile(
    r"(?P<turn>(?P<dice>[1-6][1-6]):"
    r"(?P<moves>(?:[ \t]+[0-9]{1,3}\*?/[0-9]{1,3}\*?(?:\([0-9]\))?)*))"
    r"|(?P<double>Doubles\s*=>\s*(?P<value>[0-9]{1,6}))|(?P<take>Takes)|(?P<drop>Drops)"
    r"|(?P<wins>Wins\s+(?P<points>[0-9]{1,6})\s+points?(?:\s+and\s+the\s+match)?)",
    re.IGNORECASE,
)
_STEP = re.compile(r"([0-9]{1,3})(\*?)/([0-9]{1,3})(\*?)(\([0-9]\))?")
_EVENT = re.compile(r'^;\s*\[Event\s+"(.*)"\]\s*$')


@dataclass(frozen=True, slots=True)
class MatCell:
    """One cell of a .mat game: ``kind`` turn/double/take/drop, by ``player`` (0 = left)."""

    kind: str
    player: int
    line: int
    col: int
    text: str = ""


@dataclass(slots=True)
class MatGame:
    """One game as written: its number, the names and scores (left, right), its cells
    and the ``Wins`` cell (winner, points), if any."""

    number: int
    line: int
    names: tuple[str, str]
    scores: tuple[int, int]
    cells: list[MatCell] = field(default_factory=list)
    winner: int | None = None
    points: int = 0


@dataclass(slots=True)
class MatMatch:
    length: int
    games: list[MatGame]
    event: str = ""


def parse_mat(text: str) -> MatMatch:
    """Read a .mat file; a malformed line raises :class:`RecordSyntaxError` with its
    line and column (``game`` set to the game's number in the file)."""
    reader = _MatReader()
    for number, raw in enumerate(text.splitlines(), start=1):
        reader.line(number, raw.rstrip())
    if reader.expect_players is not None:
        raise RecordSyntaxError(
            "the file ends before the players' line of the last game",
            line=reader.expect_players[1],
            col=1,
            game=len(reader.games) + 1,
            code="mat-ends-early",
        )
    if reader.length is None:
        raise RecordSyntaxError(
            "this is not a .mat file: no 'N point match' line", line=1, col=1, code="not-mat"
        )
    return MatMatch(reader.length, reader.games, reader.event)


class _MatReader:
    """The state of reading a .mat file line by line."""

    def __init__(self) -> None:
        self.length: int | None = None
        self.event = ""
        self.games: list[MatGame] = []
        self.expect_players: tuple[int, int] | None = None  # (game number, line of " Game K")

    def line(self, number: int, line: str) -> None:
        stripped = line.lstrip()
        if not stripped:
            return
        if stripped.startswith(";"):
            m = _EVENT.match(stripped)
            self.event = m.group(1) if m else self.event
            return
        try:
            self._read(number, line)
        except _LineError as exc:
            col = len(line) - len(stripped) + 1
            raise RecordSyntaxError(
                exc.message,
                code=exc.code,
                params=exc.params,
                line=number,
                col=exc.col or col,
                game=len(self.games) or None,
            ) from None

    def _read(self, number: int, line: str) -> None:
        game = self.games[-1] if self.games else None
        if self.expect_players is not None:
            m = _PLAYERS.match(line)
            if m is None:
                raise _error(
                    "expected the players and scores, like 'Ann : 0   Bob : 2'",
                    code="mat-no-players",
                )
            names = (m.group(1), m.group(3))
            scores = (int(m.group(2)), int(m.group(4)))
            self.games.append(MatGame(*self.expect_players, names, scores))
            self.expect_players = None
        elif (m := MAT_HEADER.match(line)) is not None:
            if self.length is not None or self.games:
                raise _error(
                    "a second 'N point match' line: a .mat file holds one match",
                    code="mat-two-headers",
                )
            self.length = int(m.group(1))
        elif (m := _GAME.match(line)) is not None:
            if self.length is None:
                raise _error(
                    "the file must start with its 'N point match' line", code="mat-no-header"
                )
            _check_complete(game, last=False)
            self.expect_players = (int(m.group(1)), number)
        elif game is None:
            raise _error("expected 'N point match' or 'Game K'", code="mat-expected-game")
        else:
            _read_cells(game, line, number)


class _LineError(Exception):
    def __init__(self, message: str, col: int, code: str, params: dict[str, object]) -> None:
        self.message = message
        self.col = col
        self.code = code
        self.params = params


def _error(
    message: str, col: int = 0, *, code: str, params: dict[str, object] | None = None
) -> _LineError:
    return _LineError(message, col, code, params or {})


def _check_complete(game: MatGame | None, *, last: bool) -> None:
    if game is not None and game.winner is None and not last:
        raise _error(
            f"game {game.number} has no 'Wins N points' line",
            code="mat-no-wins",
            params={"game": game.number},
        )


def _read_cells(game: MatGame, line: str, number: int) -> None:
    numbered = _NUMBERED.match(line)
    found = _cells(line, numbered.end() if numbered else 0)
    if not numbered and any(m.group("wins") is None for m, _ in found):
        raise _error("a move line must start with its number, like ' 12)'", code="mat-no-number")
    if len(found) > 2:
        raise _error(
            "a line has at most two cells, one for each player",
            found[2][1] + 1,
            code="mat-three-cells",
        )
    for k, (m, at) in enumerate(found):
        player = k if len(found) == 2 else (0 if at < RIGHT_COLUMN else 1)
        if game.winner is not None:
            raise _error(
                f"game {game.number} is already won; nothing may follow",
                at + 1,
                code="mat-after-win",
                params={"game": game.number},
            )
        if m.group("wins"):
            game.winner, game.points = player, int(m.group("points"))
            continue
        if game.cells and game.cells[-1].player == player:
            raise _error(
                f"{game.names[player]} acts twice in a row: the players alternate",
                at + 1,
                code="mat-twice-in-a-row",
                params={"player": game.names[player]},
            )
        kind = next(k for k in ("turn", "double", "take", "drop") if m.group(k))
        text = _turn_text(m, line) if kind == "turn" else m.group(kind)
        game.cells.append(MatCell(kind, player, number, at + 1, text))


def _cells(line: str, pos: int) -> list[tuple[re.Match[str], int]]:
    """The cells of a move line from ``pos`` on, each with where it starts."""
    found: list[tuple[re.Match[str], int]] = []
    while True:
        while pos < len(line) and line[pos] in " \t":
            pos += 1
        if pos >= len(line):
            return found
        m = _CELL.match(line, pos)
        if m is None or (m.end() < len(line) and line[m.end()] not in " \t"):
            word = line[pos:].split()[0]
            raise _error(
                f"cannot read {word!r}: expected a turn like '64: 24/18 18/14', "
                "'Doubles => 2', 'Takes', 'Drops' or 'Wins 1 point'",
                pos + 1,
                code="mat-bad-cell",
                params={"word": repr(word)},
            )
        found.append((m, pos))
        pos = m.end()


def _turn_text(m: re.Match[str], line: str) -> str:
    """The turn in the project's notation: ``25`` -> ``bar``, ``0`` -> ``off``."""
    moves = []
    at = m.start("moves")
    for word in m.group("moves").split():
        at = line.index(word, at)
        s = _STEP.fullmatch(word)
        assert s is not None
        frm, to = int(s.group(1)), int(s.group(3))
        if not (1 <= frm <= 25 and 0 <= to <= 24):
            raise _error(
                f"cannot read the move {word!r}: points are 0 (off) to 25 (bar)",
                at + 1,
                code="mat-bad-move",
                params={"move": repr(word)},
            )
        a = ("bar" if frm == BAR else str(frm)) + s.group(2)
        b = ("off" if to == OFF else str(to)) + s.group(4)
        moves.append(f"{a}/{b}{s.group(5) or ''}")
    return " ".join([m.group("dice") + ":", *moves])


# match -> records -------------------------------------------------------


def crawford_games(match: MatMatch) -> list[bool]:
    """For each game, whether it is the Crawford game: the first game played with a
    player one point short of the match (RULES S7)."""
    out, seen = [], False
    for g in match.games:
        now = match.length > 0 and max(g.scores) == match.length - 1
        out.append(now and not seen)
        seen = seen or now
    return out


def mat_records(match: MatMatch, *, series: str = "") -> list[GameRecord]:
    """The games of a match as records (tags as described in the module docstring)."""
    records = []
    for game, crawford in zip(match.games, crawford_games(match), strict=True):
        records.append(_record(match, game, crawford, series))
    return records


def _record(match: MatMatch, game: MatGame, crawford: bool, series: str) -> GameRecord:
    turns = [c for c in game.cells if c.kind == "turn"]
    first = turns[0].player if turns else 0
    colour = (WHITE, BLACK) if first == 0 else (BLACK, WHITE)  # colour of players 0, 1
    tags = [("Variant", SHORT.name)]
    if match.event:
        tags.append(("Event", match.event))
    if series:
        tags.append(("Series", series))
    tags += [
        ("Game", str(game.number)),
        ("White", game.names[first]),
        ("Black", game.names[1 - first]),
        ("Cube", "on"),
    ]
    if match.length:
        score = f"{game.scores[first]}-{game.scores[1 - first]}"
        tags += [("MatchLength", str(match.length)), ("Score", score)]
        tags.append(("Crawford", "on" if crawford else "off"))
    actions: list[Action] = []
    for cell in game.cells:
        side = colour[cell.player]
        if cell.kind == "turn":
            parsed, _ = read_movetext_line(cell.text)
            actions.append(parsed[0]._replace(line=cell.line, col=cell.col))
        else:
            actions.append(Action(cell.kind, side, cell.line, cell.col))
    record = GameRecord((*tags, ("Result", "*")), tuple(actions), game.line)
    if game.winner is None:
        return record
    winner = colour[game.winner]
    dropped = bool(game.cells) and game.cells[-1].kind == "drop"
    played = replay(record, check_result=False, keep=False)
    finished = played.error is None and played.outcome is not None
    if not dropped and not finished and played.error is None:
        loser = game.cells[-1] if game.cells else None
        where = (loser.line, loser.col) if loser else (game.line, 1)
        actions.append(Action("resigns", 1 - winner, *where))
        record = GameRecord(record.tags, tuple(actions), game.line)
        played = replay(record, check_result=False, keep=False)
    if played.outcome is not None and played.outcome.winner == winner:
        result = played.outcome.result
    else:  # the moves do not lead to this winner: the verification says why
        result = f"{SIDE_NAMES[winner]} oin"
    return GameRecord((*tags, ("Result", result)), tuple(actions), game.line)


def read_mat(text: str, *, series: str = "") -> list[GameRecord]:
    """Read a .mat file into records (:class:`RecordSyntaxError` when malformed)."""
    return mat_records(parse_mat(text), series=series)


def verify_mat_text(text: str) -> list[Replay | RecordSyntaxError]:
    """Verify every game of a .mat file, as ``verify_text`` does for records; also the
    points of each ``Wins`` line and each game's score line (the sum of the points of
    the games before it)."""
    try:
        match = parse_mat(text)
    except RecordSyntaxError as exc:
        return [exc]
    results: list[Replay | RecordSyntaxError] = []
    totals = list(match.games[0].scores) if match.games else [0, 0]
    for number, (game, record) in enumerate(
        zip(match.games, mat_records(match), strict=True), start=1
    ):
        result = replay(record, keep=False)
        if result.error is None:
            result.error = _score_error(game, totals, result)
        if result.error is not None:
            result.error.game = number
        if game.winner is not None:
            totals[game.winner] += game.points
        results.append(result)
    return results


def _score_error(game: MatGame, totals: list[int], result: Replay) -> VerificationError | None:
    if tuple(totals) != game.scores:
        return VerificationError(
            f"the score line says {game.scores[0]}-{game.scores[1]}, but the games before "
            f"it give {totals[0]}-{totals[1]}",
            rule="S7",
            code="mat-score-mismatch",
            params={
                "score": f"{game.scores[0]}-{game.scores[1]}",
                "sum": f"{totals[0]}-{totals[1]}",
            },
            line=game.line + 1,
            col=1,
        )
    outcome = result.outcome
    if outcome is not None and not outcome.resigned and outcome.points != game.points:
        return VerificationError(
            f"'Wins {game.points} points', but the game ended {outcome.describe()}, worth "
            f"{outcome.points} with the cube at {outcome.cube}",
            rule="S6",
            code="mat-points-mismatch",
            params={
                "points": game.points,
                "result": outcome.result,
                "ended": "dropped" if outcome.dropped else "played",
                "worth": outcome.points,
                "cube": outcome.cube,
            },
            line=game.cells[-1].line if game.cells else game.line,
            col=1,
        )
    return None


# records -> match -------------------------------------------------------


def write_mat(records: Sequence[GameRecord]) -> str:
    """One .mat match from the games of a match (short backgammon). Player 0 (the left
    column) is the first game's White; later games put each name in its column. The
    score lines are the ``Score`` tags, or else the sum of the points before."""
    if not records:
        raise ConversionError("there are no games to write", code="no-games")
    length = int(records[0].tag("MatchLength") or 0)
    left = records[0].tag("White", "?")
    lines = [f" {length} point match", ""]
    totals = [0, 0]
    for number, record in enumerate(records, start=1):
        if not variant_named(record.variant).mat_format:
            raise ConversionError(
                f"game {number}: only short backgammon can be written as .mat",
                code="not-mat-variant",
                params={"game": number, "variant": record.variant},
            )
        played = replay(record, check_result=False)
        if played.error is not None:
            played.error.game = number
            raise played.error
        white, black = record.tag("White", "?"), record.tag("Black", "?")
        swap = white != left and black == left  # white plays in the right column
        names = (black, white) if swap else (white, black)
        score = record.tag("Score")
        if score:
            w, b = (int(s) for s in score.split("-"))
            totals = [b, w] if swap else [w, b]
        players = f" {names[0]} : {totals[0]}".ljust(32) + f"{names[1]} : {totals[1]}"
        lines += [f" Game {number}", players]
        lines += _game_lines(played, swap)
        lines.append("")
        if played.outcome is not None and played.outcome.winner is not None:
            totals[(played.outcome.winner == WHITE) == swap] += played.outcome.points
    return "\n".join(lines)


def _game_lines(played: Replay, swap: bool) -> list[str]:
    cells: list[tuple[int, str]] = []  # (column, text)
    cube = 1
    for p in played.played:
        column = int((p.side == WHITE) == swap)
        kind = p.action.kind
        if kind == "turn":
            assert p.action.dice is not None
            hi, lo = max(p.action.dice), min(p.action.dice)
            steps = " ".join(_step(s.frm, s.to, s.hit) for s in p.steps)
            cells.append((column, f"{hi}{lo}: {steps}".rstrip()))
        elif kind == "double":
            cube *= 2
            cells.append((column, f" Doubles => {cube}"))
        elif kind in ("take", "drop"):
            cells.append((column, " Takes" if kind == "take" else " Drops"))
    rows: list[list[str]] = []
    for column, text in cells:
        if not rows or column == 0 or rows[-1][1]:
            rows.append(["", ""])
        rows[-1][column] = text
    out = [f"{i:3d}) {a.ljust(28)}{b}".rstrip() for i, (a, b) in enumerate(rows, start=1)]
    outcome = played.outcome
    if outcome is None or outcome.winner is None:
        return out
    column = int((outcome.winner == WHITE) == swap)
    s = "" if outcome.points == 1 else "s"
    wins = f" Wins {outcome.points} point{s}"
    if column == 1 and rows and not rows[-1][1] and cells and cells[-1][0] == 0:
        out[-1] = f"{len(rows):3d}) {rows[-1][0].ljust(28)}{wins}"
    else:
        out.append(" " * 5 + (wins if column == 0 else " " * 28 + wins))
    return out


def _step(frm: int, to: int, hit: bool) -> str:
    return f"{frm if frm < BAR else BAR}/{to}{'*' if hit else ''}"
