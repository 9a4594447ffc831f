"""What the README's quick start says works as written: the command it gives for an
admin account starts without a secret key set, and the demo has the tournaments it
names."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def test_the_readmes_createsuperuser_command_starts_as_written() -> None:
    quick = README[README.index("## Quick start") :]
    command = re.search(r"`([^`]*manage\.py\s+createsuperuser)`", quick)
    assert command is not None
    words = command[1].split()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    assignments = dict(w.split("=", 1) for w in words if re.fullmatch(r"[A-Z_]+=.*", w))
    argv = [w for w in words if w not in {f"{k}={v}" for k, v in assignments.items()}]
    assert argv[0] == ".venv/bin/python"
    done = subprocess.run(
        [sys.executable, *argv[1:], "--help"], cwd=ROOT, env={**env, **assignments},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "superuser" in done.stdout


def test_the_readme_counts_the_demos_tournaments() -> None:
    demo = ROOT / "fixtures" / "demo"
    count = len(json.loads((demo / "tournaments.json").read_text())["tournaments"])
    count += len(json.loads((demo / "knockout.json").read_text())["tournaments"])
    said = re.search(r"loads the demo\s+club and its (\w+) tournaments", README)
    assert said is not None and NUMBERS[said[1]] == count
