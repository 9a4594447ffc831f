"""A game's analysis, stored with it (GameAnalysis), run as the job kind
``games_analyse``:

* variants that declare an evaluator (long nardy): the project's net judges every turn
  (tournaments/engine.py ``analyse_record``): each turn's error and luck, each side's
  error rate, marks and luck. Games are analysed in the background when they are stored
  (``games_analyse_later``) and again when a director asks for a tournament;
* short backgammon: GNU Backgammon, where it is installed, on a director's request: each
  game is exported as a ``.mat`` (engine/matfile.py), gnubg analyses it and prints its
  statistics, and each player's error rate and luck rate (the "Overall" error rate and
  the luck rate, in mEMG a move) are stored;
* the others (Lurč): nothing is offered."""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.engine import (
    BOT_LEVELS,
    EngineError,
    analyse_record,
    evaluator_of,
    read_records,
    variant_named,
    write_mat,
)
from tournaments.models import AnalysisSource, Game, GameAnalysis, JobKind, Series, Tournament
from tournaments.services.errors import ApplicationError
from tournaments.services.exports import Progress

# gnubg's lines: "Error rate mEMG (MWC)   -10.9   ( -0.046%)   -10.4   ( -0.049%)"
_FIGURES = re.compile(r"([+-]?\d+(?:\.\d+)?)\s+\(\s*[+-]?\d")
TIMEOUT = 300
log = logging.getLogger(__name__)


def gnubg_path() -> str | None:
    """The gnubg program (settings.GNUBG, then PATH, then Debian's /usr/games/gnubg)."""
    configured = getattr(settings, "GNUBG", None)
    if configured:
        return str(configured) if os.path.exists(configured) else None
    return shutil.which("gnubg") or (
        "/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None
    )


def analysis_ply(level: str | None = None) -> int:
    """The depth games are analysed at: the settings' ``ANALYSIS_PLY``, and never less
    than the depth the bot's ``level`` plays at (the strongest plays 1-ply: judged at
    0-ply it would be charged the depth's difference as errors)."""
    ply = int(getattr(settings, "ANALYSIS_PLY", 0))
    return max(ply, BOT_LEVELS[level][0]) if level in BOT_LEVELS else ply


def analysis_confirms() -> bool:
    """Whether a bad play is rolled out before it is called bad (``ANALYSIS_CONFIRM``,
    on by default; the analysis runs in a background job)."""
    return bool(getattr(settings, "ANALYSIS_CONFIRM", True))


def has_evaluator(variant: str) -> bool:
    """Whether the project's evaluator judges the variant's games (it declares one)."""
    return evaluator_of(variant_named(variant)) is not None


def analyser(variant: str) -> str | None:
    """Who analyses the variant's games here: ``net``, ``gnubg`` (installed, and the
    variant's games export to .mat) or nobody (None)."""
    if has_evaluator(variant):
        return AnalysisSource.NET
    if variant_named(variant).mat_format and gnubg_path() is not None:
        return AnalysisSource.GNUBG
    return None


def analysable(game: Game) -> bool:
    """Whether the game can be analysed: a record, and someone to analyse its variant."""
    return bool(game.record) and analyser(game.series.tournament.variant) is not None


def _pair(text: str, label: str) -> tuple[float, float]:
    lines = [line for line in text.splitlines() if line.startswith(label)]
    if not lines:
        raise ApplicationError(
            _("GNU Backgammon printed no %(label)s"),
            code="gnubg-output",
            params={"label": repr(label)},
        )
    found = _FIGURES.findall(lines[-1][len(label) :])  # the last one: "Overall statistics"
    if len(found) < 2:
        raise ApplicationError(
            _("cannot read GNU Backgammon's line %(line)s"),
            code="gnubg-unreadable",
            params={"line": repr(lines[-1].strip())},
        )
    return float(found[0]), float(found[1])


def gnubg_statistics(mat: str) -> str:
    """gnubg's printed statistics of the match (the game) in ``mat``."""
    program = gnubg_path()
    if program is None:
        raise ApplicationError(_("GNU Backgammon (gnubg) is not installed"), code="gnubg-missing")
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
            raise ApplicationError(
                _("GNU Backgammon took too long"), code="gnubg-timeout"
            ) from None
    return done.stdout


def game_analyse(*, game: Game) -> GameAnalysis | None:
    """Analyse one game (the evaluator, else gnubg) and store what it says; None when
    the game was deleted or corrected meanwhile (``_analysis_store``)."""
    if not game.record:
        raise ApplicationError(
            _("game %(number)s has no record to analyse"),
            code="analysis-no-record",
            params={"number": game.number},
        )
    if has_evaluator(game.series.tournament.variant):
        return _net_analyse(game)
    if not variant_named(game.series.tournament.variant).mat_format:
        raise ApplicationError(
            _("nothing analyses the games of this variant"), code="analysis-no-evaluator"
        )
    try:
        mat = write_mat(read_records(game.record)[:1])
    except EngineError as exc:
        raise ApplicationError.from_engine(exc).within(
            _("game %(number)s: the record cannot be exported: %(message)s"), number=game.number
        ) from None
    except IndexError:
        raise ApplicationError(
            _("game %(number)s has no record to analyse"),
            code="analysis-no-record",
            params={"number": game.number},
        ) from None
    printed = gnubg_statistics(mat)
    # the .mat's left column is the game's white (engine.matfile.write_mat)
    errors = _pair(printed, "Error rate mEMG")
    luck = _pair(printed, "Luck rate mEMG")
    return _analysis_store(game, {
        "source": AnalysisSource.GNUBG, "evaluator": "GNU Backgammon",
        "white_error_rate": errors[0], "black_error_rate": errors[1],
        "white_luck_rate": luck[0], "black_luck_rate": luck[1],
        "white_luck": None, "black_luck": None, "sides": {}, "turns": [],
    })  # fmt: skip


def _net_analyse(game: Game) -> GameAnalysis | None:
    try:
        judged = analyse_record(game.record, ply=analysis_ply(), confirm=analysis_confirms())
    except EngineError as exc:
        raise ApplicationError.from_engine(exc).within(
            _("game %(number)s cannot be analysed: %(message)s"), number=game.number
        ) from None
    return _analysis_store(game, net_analysis_fields(judged))


@transaction.atomic
def _analysis_store(game: Game, fields: dict[str, Any]) -> GameAnalysis | None:
    """Store the analysis of ``game`` as it was read, unless it was deleted or its
    record changed while it was analysed (None: nothing stored). The game's row is
    locked meanwhile, so a correction or deletion waits for the store, or the store for
    it; a correction's own analysis follows it (games_analyse_later), and an older one
    finishing later never overwrites it."""
    current = Game.objects.select_for_update(of=("self",)).filter(pk=game.pk)
    # every change of the record bumps the version (game_correct)
    if current.values_list("version", flat=True).first() != game.version:
        return None
    analysis, _created = GameAnalysis.objects.update_or_create(
        game=game, defaults=fields | {"record_version": game.version}
    )
    return analysis


def net_analysis_fields(judged: dict[str, Any]) -> dict[str, Any]:
    """The evaluator's analysis (``analyse_record``) as a GameAnalysis's fields: a
    tournament game's row, and a game against the bot's ``analysis``."""
    white, black = judged["white"], judged["black"]
    return {
        "source": AnalysisSource.NET.value, "evaluator": judged.get("evaluator", "")[:120],
        "white_error_rate": white["error_rate"], "black_error_rate": black["error_rate"],
        "white_luck_rate": white["luck_rate"], "black_luck_rate": black["luck_rate"],
        "white_luck": white["luck"], "black_luck": black["luck"],
        "sides": {"white": white, "black": black}, "turns": judged["turns"],
    }  # fmt: skip


@dataclass
class AnalysisReport:
    analysed: list[GameAnalysis] = field(default_factory=list)
    failures: list[tuple[Game, str]] = field(default_factory=list)
    # games deleted or corrected while they were analysed: nothing stored for them
    superseded: list[int] = field(default_factory=list)


def games_analyse(
    *, games: Iterable[Game], progress: Progress, keep_going: bool = False
) -> AnalysisReport:
    """Analyse the recorded games one by one. With ``keep_going`` (a tournament) a game
    that cannot be analysed is listed and the others go on; else it stops the job."""
    todo = [g for g in games if g.record and analyser(g.series.tournament.variant)]
    report = AnalysisReport()
    for game in progress(todo, desc="analysing", total=len(todo)):
        try:
            analysis = game_analyse(game=game)
        except ApplicationError as exc:
            if not keep_going:
                raise
            report.failures.append((game, exc.message))
            continue
        if analysis is None:
            report.superseded.append(game.pk)
        else:
            report.analysed.append(analysis)
    return report


def games_analyse_later(*, games: Iterable[Game]) -> None:
    """After the transaction that stores ``games`` commits, analyse those whose variant
    has an evaluator: one job a tournament for all the games the transaction stored (an
    upload of fifty games is one job), on the queue or inline without one. A failure to
    start or run it is logged and never undoes or refuses the stored result."""
    if not getattr(settings, "ANALYSIS_ON_STORE", True):
        return
    judged = [g for g in games if g.record and has_evaluator(g.series.tournament.variant)]
    if not judged:
        return
    # One batch a transaction: its callback is registered once, with the first game. A
    # rolled-back transaction's callback is discarded with it, and so is its batch: the
    # next transaction on this connection starts a new one.
    connection = transaction.get_connection()
    batch: _Batch | None = connection.__dict__.get("analysis_batch")
    if batch is None or not any(
        func == batch.start for _ids, func, _robust in connection.run_on_commit
    ):
        batch = connection.__dict__["analysis_batch"] = _Batch()
        transaction.on_commit(batch.start)
    for game in judged:
        batch.pending.setdefault(game.series.tournament_id, []).append(game.pk)


class _Batch:
    """The games a transaction stored, by tournament, waiting for its commit."""

    def __init__(self) -> None:
        self.pending: dict[int, list[int]] = {}

    def start(self) -> None:
        """One job a tournament (games of a savepoint rolled back are left out by the job:
        they are gone)."""
        from tournaments.jobs import job_start

        while self.pending:
            tournament_id, ids = self.pending.popitem()
            tournament = Tournament.objects.filter(pk=tournament_id).first()
            try:
                job_start(
                    kind=JobKind.GAMES_ANALYSE,
                    params={"games": ids},
                    by=None,
                    tournament=tournament,
                )
            except Exception:
                log.exception("the analysis of games %s could not be started", ids)


def series_games(series: Series) -> list[Game]:
    return list(series.games.select_related("series__tournament").order_by("number"))
