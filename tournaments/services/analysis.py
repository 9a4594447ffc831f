"""GNU Backgammon's analysis of short-backgammon games: each game is exported as a
``.mat`` (engine/matfile.py), gnubg analyses it and prints its statistics, and each
player's error rate and luck rate (the "Overall" error rate and the luck rate, in mEMG a
move) are stored with the game (GameAnalysis). Run as the job kind ``games_analyse``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _

from tournaments.engine import EngineError, read_records, variant_named, write_mat
from tournaments.models import Game, GameAnalysis, Series
from tournaments.services.errors import ResultError
from tournaments.services.exports import Progress

# gnubg's lines: "Error rate mEMG (MWC)   -10.9   ( -0.046%)   -10.4   ( -0.049%)"
_FIGURES = re.compile(r"([+-]?\d+(?:\.\d+)?)\s+\(\s*[+-]?\d")
TIMEOUT = 300


def gnubg_path() -> str | None:
    """The gnubg program (settings.GNUBG, then PATH, then Debian's /usr/games/gnubg)."""
    configured = getattr(settings, "GNUBG", None)
    if configured:
        return str(configured) if os.path.exists(configured) else None
    return shutil.which("gnubg") or (
        "/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None
    )


def analysable(game: Game) -> bool:
    """Whether gnubg can analyse the game: installed, short backgammon, a record."""
    return (
        bool(game.record)
        and variant_named(game.series.tournament.variant).mat_format
        and gnubg_path() is not None
    )


def _pair(text: str, label: str) -> tuple[float, float]:
    lines = [line for line in text.splitlines() if line.startswith(label)]
    if not lines:
        raise ResultError(
            _("GNU Backgammon printed no %(label)s"),
            code="gnubg-output",
            params={"label": repr(label)},
        )
    found = _FIGURES.findall(lines[-1][len(label) :])  # the last one: "Overall statistics"
    if len(found) < 2:
        raise ResultError(
            _("cannot read GNU Backgammon's line %(line)s"),
            code="gnubg-unreadable",
            params={"line": repr(lines[-1].strip())},
        )
    return float(found[0]), float(found[1])


def gnubg_statistics(mat: str) -> str:
    """gnubg's printed statistics of the match (the game) in ``mat``."""
    program = gnubg_path()
    if program is None:
        raise ResultError(_("GNU Backgammon (gnubg) is not installed"), code="gnubg-missing")
    with tempfile.TemporaryDirectory() as tmp:
        home, source = Path(tmp) / "home", Path(tmp) / "game.mat"
        (home / ".gnubg").mkdir(parents=True)
        source.write_text(mat, encoding="utf-8")
        commands = Path(tmp) / "commands"
        commands.write_text(
            f"set display off\nimport mat {source}\nanalyse match\nshow statistics match\n"
        )
        try:
            done = subprocess.run(
                [program, "-t", "-q", "-c", str(commands)], stdin=subprocess.DEVNULL,
                capture_output=True, text=True, timeout=TIMEOUT, check=False,
                env={**os.environ, "HOME": str(home)},
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise ResultError(_("GNU Backgammon took too long"), code="gnubg-timeout") from None
    return done.stdout


def game_analyse(*, game: Game) -> GameAnalysis:
    """Analyse one game with gnubg and store both players' error and luck rates."""
    if not variant_named(game.series.tournament.variant).mat_format:
        raise ResultError(
            _("GNU Backgammon analyses short backgammon only"), code="analysis-short-only"
        )
    if not game.record:
        raise ResultError(
            _("game %(number)s has no record to analyse"),
            code="analysis-no-record",
            params={"number": game.number},
        )
    try:
        mat = write_mat(read_records(game.record)[:1])
    except EngineError as exc:
        raise ResultError.from_engine(exc).within(
            _("game %(number)s: the record cannot be exported: %(message)s"), number=game.number
        ) from None
    except IndexError:
        raise ResultError(
            _("game %(number)s has no record to analyse"),
            code="analysis-no-record",
            params={"number": game.number},
        ) from None
    printed = gnubg_statistics(mat)
    # the .mat's left column is the game's white (engine.matfile.write_mat)
    errors = _pair(printed, "Error rate mEMG")
    luck = _pair(printed, "Luck rate mEMG")
    analysis, _created = GameAnalysis.objects.update_or_create(
        game=game,
        defaults={
            "white_error_rate": errors[0], "black_error_rate": errors[1],
            "white_luck_rate": luck[0], "black_luck_rate": luck[1],
            "record_version": game.version,
        },
    )  # fmt: skip
    return analysis


def games_analyse(*, games: Iterable[Game], progress: Progress) -> list[GameAnalysis]:
    """Analyse the recorded games of a series (or one game) one by one."""
    todo = [g for g in games if g.record]
    return [game_analyse(game=g) for g in progress(todo, desc="analysing", total=len(todo))]


def series_games(series: Series) -> list[Game]:
    return list(series.games.select_related("series__tournament").order_by("number"))
