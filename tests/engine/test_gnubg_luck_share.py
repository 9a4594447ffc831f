"""Short backgammon's luck share from GNU Backgammon's self-play (tools/gnubg/luck_share.py,
docs/analysis.md "How much is luck"): gnubg plays a few cubeless games against itself,
analyses them for luck, and the engine's statistic is taken over them.

The two gnubg tests run where gnubg is installed; skipped elsewhere (tests/conftest.py), unless
NARDY_REQUIRE_GNUBG=1 (CI), which fails the run."""

from __future__ import annotations

import pytest

from tests.helpers import PROGRAMS
from tools.gnubg.luck_share import luck_share, r2_standard_error, selfplay_luck

GNUBG = next(p.path for p in PROGRAMS if p.marker == "gnubg")


@pytest.mark.gnubg
def test_gnubg_self_play_gives_luck_and_results() -> None:
    assert GNUBG is not None
    rows = selfplay_luck(4, 7, GNUBG)
    assert len(rows) == 4
    # every game played out: 1, 2 or 3 points (no cube) to one side
    assert all(abs(points) in (1, 2, 3) for _, points in rows)
    assert all(luck != 0 for luck, _ in rows)  # the dice were judged
    assert selfplay_luck(4, 7, GNUBG) == rows  # seeded: the same games again
    assert selfplay_luck(4, 8, GNUBG) != rows


@pytest.mark.gnubg
def test_the_luck_share_of_gnubg_self_play_is_the_engine_statistic() -> None:
    assert GNUBG is not None
    found = luck_share(6, 1, GNUBG)
    assert found.games == 6
    assert 0 <= found.r2 <= 1 and found.mean_abs_luck > 0


def test_the_standard_error_of_r_squared() -> None:
    assert r2_standard_error(0.0, 100) == 0.0
    assert r2_standard_error(1.0, 100) == 0.0
    # Olkin and Finn: sqrt(4 * 0.5 * 0.25 * 98² / (9999 * 103))
    assert r2_standard_error(0.5, 100) == pytest.approx(0.0683, abs=1e-4)
