"""Round trip through GNU Backgammon itself: our .mat writer -> gnubg ``import mat`` ->
gnubg ``export match mat`` -> our reader gives the same games: dice, cube actions and
the position after every turn (gnubg reorders the moves of a turn on import, so the
moves are compared by the positions they reach), names, scores and results.

Runs where gnubg is installed (``make test`` installs it as root); skipped elsewhere, with
one line at the end of the run, unless NARDY_REQUIRE_GNUBG=1 (CI), which fails the run."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from engine import replay
from engine.matfile import read_mat, write_mat
from tests.helpers import PROGRAMS

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "gnubg" / "cube"
GNUBG = next(p.path for p in PROGRAMS if p.marker == "gnubg")

# skipped when gnubg is missing (tests/conftest.py)
pytestmark = pytest.mark.gnubg


def _through_gnubg(text: str, tmp: Path) -> str:
    source, back, home = tmp / "ours.mat", tmp / "gnubg.mat", tmp / "home"
    source.write_text(text, encoding="utf-8")
    (home / ".gnubg").mkdir(parents=True)
    commands = tmp / "commands"
    commands.write_text(f"set display off\nimport mat {source}\nexport match mat {back}\n")
    assert GNUBG is not None
    subprocess.run(
        [GNUBG, "-t", "-q", "-c", str(commands)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env={**os.environ, "HOME": str(home)},
        timeout=60,
        check=True,
    )
    return back.read_text(encoding="utf-8")


def _summary(record):  # what must survive: every action with the position it reaches
    played = replay(record)
    assert played.ok, played.error
    actions = [(p.side, p.action.kind, p.action.dice, p.after) for p in played.played]
    return dict(record.tags), actions


@pytest.mark.parametrize("name", ["cube-01.mat", "cube-15.mat"])  # 12 games, drops, Crawford
def test_gnubg_imports_our_mat_and_exports_the_same_games(name, tmp_path):
    records = read_mat((CORPUS / name).read_text(encoding="utf-8"))
    ours = write_mat(records)
    theirs = read_mat(_through_gnubg(ours, tmp_path))
    assert len(theirs) == len(records)
    for a, b in zip(records, theirs, strict=True):
        assert _summary(a) == _summary(b)
