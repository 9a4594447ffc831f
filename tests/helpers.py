"""Plain helpers shared by the test modules (and the programs some tests need)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_django(code_or_args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """Run Python in a fresh process with exactly the Django variables given."""
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "CACHE_")) and k != "PYTEST_CURRENT_TEST"
    }
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, *code_or_args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@dataclass(frozen=True)
class Program:
    """A program that some tests drive, found on this machine or not."""

    marker: str  # the tests that need it carry this pytest marker
    path: str | None  # where it is, None when missing
    wanted: str  # what was looked for
    install: str  # how a developer installs it
    require_env: str  # set to 1 (CI does, .ci/run) to fail instead of skipping

    @property
    def required(self) -> bool:
        return os.environ.get(self.require_env) == "1"


def _gnubg() -> str | None:
    if "NARDY_GNUBG" in os.environ:
        wanted = os.environ["NARDY_GNUBG"]
        return wanted if os.access(wanted, os.X_OK) else None
    found = shutil.which("gnubg")
    return found or ("/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None)


CHROMIUM = os.environ.get("NARDY_CHROMIUM", "/usr/bin/chromium")
PROGRAMS = (
    Program(
        marker="browser",
        path=CHROMIUM if os.access(CHROMIUM, os.X_OK) else None,
        wanted=CHROMIUM,
        install="sudo apt-get install chromium (or make browser-deps as root)",
        require_env="NARDY_REQUIRE_BROWSER",
    ),
    Program(
        marker="gnubg",
        path=_gnubg(),
        wanted=os.environ.get("NARDY_GNUBG", "gnubg"),
        install="sudo apt-get install gnubg (or make gnubg as root)",
        require_env="NARDY_REQUIRE_GNUBG",
    ),
)
