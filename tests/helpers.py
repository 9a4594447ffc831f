"""Plain helpers shared by test modules at the top of tests/."""

from __future__ import annotations

import os
import subprocess
import sys
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
