"""`make test` for a developer without chromium or gnubg: the tests that drive them are
skipped with one line saying so; CI (NARDY_REQUIRE_<PROGRAM>=1, set by .ci/run) fails
instead of skipping silently. Runs pytest in a fresh process with the program pointed at
a path that does not exist."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT

CASES = [
    ("NARDY_CHROMIUM", "NARDY_REQUIRE_BROWSER", "tests/browser/test_replay.py", "browser"),
    ("NARDY_GNUBG", "NARDY_REQUIRE_GNUBG", "tests/engine/test_gnubg_roundtrip.py", "gnubg"),
]


def run_pytest(path: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("NARDY_", "PYTEST_"))}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", path],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(("where", "require", "path", "marker"), CASES)
def test_a_missing_program_skips_its_tests_with_one_line(where, require, path, marker):
    result = run_pytest(path, **{where: "/nonexistent/program"})
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED ")]
    assert len(lines) == 1, result.stdout
    assert f"{marker} tests: /nonexistent/program is missing; sudo apt-get install" in lines[0]
    assert " passed" not in result.stdout and " failed" not in result.stdout


@pytest.mark.parametrize(("where", "require", "path", "marker"), CASES)
def test_ci_fails_when_a_program_is_missing(where, require, path, marker):
    result = run_pytest(path, **{where: "/nonexistent/program", require: "1"})
    assert result.returncode != 0
    assert f"/nonexistent/program is missing and {require}=1" in result.stdout + result.stderr
