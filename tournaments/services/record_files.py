"""Record files: cut into games within the record limits, a refusal located in its
file, and a stored game's record checked again. One place for the uploads (API, pages,
jobs), the commands (import_records, verify_games) and the demo loader."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.engine import RecordTooLargeError, split_games
from tournaments.models import Game
from tournaments.services.errors import ApplicationError
from tournaments.services.records import (
    CheckedGame,
    RecordTooLarge,
    check_record,
    record_limits,
)
from tournaments.services.results import checked_result, verified_note
from tournaments.wording.verification import Note, note, result_params


@dataclass(frozen=True, slots=True)
class RecordInFile:
    """One game of a record file: its number in the file (from 1), the file line where
    it starts and its text."""

    number: int
    line: int
    text: str


def records_in_file(text: str) -> list[RecordInFile]:
    """The games of a record file within the record limits (games a file, line length,
    record_limits()), whatever the door: each with the text a service takes (one game)."""
    try:
        games = split_games(text, record_limits())
    except RecordTooLargeError as exc:
        raise RecordTooLarge(exc) from None
    return [
        RecordInFile(number, lines[0][0], "\n".join(line for _, line in lines) + "\n")
        for number, (_, lines) in enumerate(games, start=1)
    ]


def located(exc: ApplicationError, *, first_line: int = 1) -> str:
    """A refusal with its place: ``line 14, col 5: ...``; lines of a game that starts at
    ``first_line`` of its file are counted in the file."""
    message = exc.message
    if exc.line is None:
        return message
    # The engine's verification messages start with their place in the game's text.
    message = message.removeprefix(f"line {exc.line}, col {exc.col}: ")
    line = first_line + exc.line - 1
    if exc.col:
        return _("line %(line)s, col %(col)s: %(message)s") % {
            "line": line, "col": exc.col, "message": message}  # fmt: skip
    return _("line %(line)s: %(message)s") % {"line": line, "message": message}


def _mismatch(game: Game, checked: CheckedGame) -> Note | None:
    """How the record disagrees with the result stored beside it (None: it agrees)."""
    named = (checked.white.strip().casefold(), checked.black.strip().casefold())
    if named != (game.white.name.strip().casefold(), game.black.name.strip().casefold()):
        return note("players-differ", record_white=checked.white, record_black=checked.black,
                    white=game.white.name, black=game.black.name)  # fmt: skip
    stored_winner = None
    if game.winner_id is not None:
        stored_winner = "white" if game.winner_id == game.white_id else "black"
    told = (checked.winner, checked.kind, checked.ended, checked.cube)
    stored = (stored_winner, game.kind, game.ended, game.cube)
    if told != stored:
        return note(
            "result-differs",
            told=checked_result(checked),
            stored=result_params(winner=stored_winner, kind=game.kind, ended=game.ended,
                                 cube=game.cube),
        )  # fmt: skip
    return None


def refused_note(exc: ApplicationError) -> Note:
    """A record the engine (or the app) refuses, as a verification note: the engine's
    error as data, to be said again in any language; the app's in the words said now."""
    return note("refused", error=exc.engine, line=exc.line, col=exc.col, message=exc.message)


def recheck_game(game: Game) -> tuple[bool, Note]:
    """Verify a stored game's record again with the engine, and check that it still tells
    the stored result: (verified, verification note)."""
    try:
        checked = check_record(game.record, tournament=game.series.tournament)
    except ApplicationError as exc:
        return False, refused_note(exc)
    problem = _mismatch(game, checked)
    if problem is not None:
        return False, problem
    return True, verified_note(checked)


__all__ = ["RecordInFile", "located", "recheck_game", "records_in_file", "refused_note"]
