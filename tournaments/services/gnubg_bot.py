"""GNU Backgammon as the bot's opponent in short backgammon (/play/, docs/play.md), where
it is installed (the Debian package the analysis uses, services/analysis.py): gnubg runs
its Python script mode (``gnubg -t -q -p``) on one position, finds its best play for
the dice at one of its levels, and the play is matched to the engine's legal turns by
the position it reaches (the engine stays the judge of what is legal). Its cube
decisions: whether to double before its roll, and whether to take a double."""

from __future__ import annotations

import json
import logging
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.utils.translation import gettext as _

from tournaments.engine import (
    BAR,
    OFF,
    EngineError,
    Position,
    Rules,
    Turn,
    legal_turns,
    read_records,
    variant_named,
    write_mat,
)
from tournaments.models import AnalysisSource
from tournaments.services.analysis import _pair, gnubg_path, gnubg_statistics
from tournaments.services.errors import ApplicationError

logger = logging.getLogger(__name__)

# level -> (plies, noise): gnubg's own predefined players (beginner, intermediate,
# expert and world class; its "set player gnubg chequerplay evaluation" settings)
GNUBG_LEVELS: dict[str, tuple[int, float]] = {
    "gnubg-beginner": (0, 0.060),
    "gnubg-intermediate": (0, 0.040),
    "gnubg-expert": (0, 0.0),
    "gnubg-worldclass": (2, 0.0),
}
TIMEOUT = 120

# run inside gnubg (its embedded Python): the question in the JSON file named first in
# argv-less form below, the answer printed on one line after a marker
SCRIPT = r"""
import json, gnubg
q = json.load(open(QUESTION))
gnubg.command("set output rawboard off")
gnubg.command("new game")
board = (tuple(q["opp"]), tuple(q["me"]))
ec = gnubg.evalcontext(1, q["plies"], 1, 1, q["noise"])
ci = gnubg.cubeinfo(q["cube"], q["owner"], 1, q.get("length", 0),
                   tuple(q.get("score", (0, 0))), q.get("crawford", 0), 0)
out = {}
if q["ask"] == "move":
    gnubg.command("set board " + gnubg.positionid(board))
    gnubg.command("set dice %d %d" % tuple(q["dice"]))
    out["move"] = list(gnubg.findbestmove(board, ci, ec))
else:
    out["cube"] = list(gnubg.cfevaluate(board, ci, ec))
print("GNUBG-ANSWER " + json.dumps(out))
"""


def gnubg_plays(variant: str) -> bool:
    """Whether GNU Backgammon is the bot of ``variant`` here: a game gnubg knows (the
    variant writes .mat files) and the program installed."""
    return bool(variant_named(variant).mat_format) and gnubg_path() is not None


def _gnubg_board(position: Position) -> tuple[list[int], list[int]]:
    """The position as gnubg's board: the side to move's and the other's 25 numbers
    (points 1 to 24 in each side's own numbering, then the bar)."""
    me = position.board(position.turn)
    opp = position.board(1 - position.turn)
    return [*me[1:25], me[BAR]], [*opp[1:25], opp[BAR]]


def _ask(question: dict[str, object]) -> dict[str, list[float]]:
    program = gnubg_path()
    if program is None:
        raise ApplicationError(_("GNU Backgammon (gnubg) is not installed"), code="gnubg-missing")
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / ".gnubg").mkdir()
        asked = home / "question.json"
        asked.write_text(json.dumps(question))
        script = home / "ask.py"
        script.write_text(f"QUESTION = {str(asked)!r}\n{SCRIPT}")
        try:
            done = subprocess.run(
                [program, "-t", "-q", "-p", str(script)], capture_output=True, text=True,
                timeout=TIMEOUT, env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
                stdin=subprocess.DEVNULL, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise ApplicationError(
                _("GNU Backgammon took too long"), code="gnubg-timeout"
            ) from None
    for line in done.stdout.splitlines():  # gnubg's own output may end without a newline
        _before, marker, found = line.partition("GNUBG-ANSWER ")
        if marker:
            answer: dict[str, list[float]] = json.loads(found)
            return answer
    logger.error(
        "gnubg gave no answer (exit %s) to %s\nstdout: %s\nstderr: %s",
        done.returncode, json.dumps(question), done.stdout[-2000:], done.stderr[-2000:],
    )  # fmt: skip
    raise ApplicationError(_("GNU Backgammon gave no answer"), code="gnubg-no-answer")


@dataclass(frozen=True)
class MatchScore:
    """A series to ``length`` points with the cube (S7) as gnubg weighs it: the points of
    the side to move and of the other, and whether this is the Crawford game. None where
    a question has none: one game (gnubg's money play)."""

    length: int
    mine: int
    theirs: int
    crawford: bool = False


def _question(position: Position, level: str, ask: str,
              match: MatchScore | None = None) -> dict[str, object]:  # fmt: skip
    me, opp = _gnubg_board(position)
    plies, noise = GNUBG_LEVELS[level]
    cube = position.cube
    value = cube.value if cube is not None else 1
    # gnubg's owner: -1 centred, 1 the side on roll (board[1]), 0 the other
    owner = -1 if cube is None or cube.owner is None else int(cube.owner == position.turn)
    question: dict[str, object] = {"me": me, "opp": opp, "plies": plies, "noise": noise,
                                   "cube": value, "owner": owner, "ask": ask}  # fmt: skip
    if match is not None:  # gnubg's score: board[0]'s (the other side) first
        question |= {"length": match.length, "score": [match.theirs, match.mine],
                     "crawford": int(match.crawford)}  # fmt: skip
    return question


def _played(position: Position, move: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The boards (mover's, other's) after gnubg's move: from/to pairs in the mover's
    numbering, 25 the bar, 0 (or below) off; zeros where no die was played."""
    me = list(position.board(position.turn))
    opp = list(position.board(1 - position.turn))
    for frm, to in zip(move[0::2], move[1::2], strict=True):
        if frm <= 0:
            continue
        me[BAR if frm == 25 else frm] -= 1
        if to <= 0:
            me[OFF] += 1
            continue
        if opp[25 - to] == 1:  # a blot hit: to the bar (S3)
            opp[25 - to] = 0
            opp[BAR] += 1
        me[to] += 1
    return tuple(me), tuple(opp)


def gnubg_turn(position: Position, dice: tuple[int, int], level: str, *,
               turns: list[Turn] | None = None,
               match: MatchScore | None = None) -> Turn:  # fmt: skip
    """GNU Backgammon's play at ``level`` for ``dice`` (at ``match``'s score): one of the
    engine's legal ``turns`` (by default the engine's list for the dice; the one reaching
    gnubg's position; :class:`ApplicationError` if none does)."""
    if turns is None:
        turns = legal_turns(position, list(dice), Rules())
    if len(turns) == 1:
        return turns[0]
    question = _question(position, level, "move", match) | {"dice": list(dice)}
    move = [int(x) for x in _ask(question)["move"]]
    wanted = _played(position, move)
    side = position.turn
    for turn in turns:
        if (tuple(turn.position.board(side)), tuple(turn.position.board(1 - side))) == wanted:
            return turn
    raise ApplicationError(
        _("GNU Backgammon's play %(move)s is not a legal turn"), code="gnubg-illegal",
        params={"move": " ".join(map(str, move))},
    )  # fmt: skip


def gnubg_cube(position: Position, level: str, match: MatchScore | None = None) -> str:
    """GNU Backgammon's cube decision in ``position`` (the side to move about to roll):
    its recommendation's words, e.g. ``No double, take`` or ``Double, pass``. The side
    to move doubles when the words start with ``Double``; the other side drops when they
    end with ``pass``. ``match``: the series' score, else one game (money play)."""
    answer = _ask(_question(position, level, "cube", match))["cube"]
    return str(answer[5])


def gnubg_doubles(words: str) -> bool:
    """Whether gnubg's cube words (:func:`gnubg_cube`) say the side to move doubles."""
    return words.startswith(("Double", "Redouble"))


def gnubg_drops(words: str) -> bool:
    """Whether gnubg's cube words say the doubled side drops (``..., pass``)."""
    return words.rstrip().endswith("pass")


def gnubg_analysis_fields(record: str) -> dict[str, object]:
    """GNU Backgammon's analysis of a short backgammon game (its record exported as a
    .mat, as a tournament game's is, services/analysis.py) as a GameAnalysis's fields:
    each side's error rate and luck rate (mEMG a move)."""
    try:
        mat = write_mat(read_records(record)[:1])
    except EngineError as exc:
        raise ApplicationError.from_engine(exc) from None
    printed = gnubg_statistics(mat)
    errors = _pair(printed, "Error rate mEMG")  # the .mat's left column is white
    luck = _pair(printed, "Luck rate mEMG")
    return {
        "source": AnalysisSource.GNUBG.value, "evaluator": "GNU Backgammon",
        "white_error_rate": errors[0], "black_error_rate": errors[1],
        "white_luck_rate": luck[0], "black_luck_rate": luck[1],
        "white_luck": None, "black_luck": None, "sides": {}, "turns": [],
    }  # fmt: skip
