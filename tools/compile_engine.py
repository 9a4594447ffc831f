"""Compile the engine's verification path with mypyc (``make engine-compiled``).

    .venv/bin/python tools/compile_engine.py          # build engine/*.so in place
    .venv/bin/python tools/compile_engine.py --clean  # remove them: pure Python again

Opt-in: the engine stays pure Python and every test runs on it; the compiled modules are
build artifacts (gitignored) that Python imports instead of the .py files beside them
while they exist. mypyc ships with the pinned mypy and compiles modules that pass mypy
--strict; it needs gcc and the Python headers. The modules compiled are those
``python -m engine verify`` runs through (docs/performance.md); the command line, the benchmarks and
the tools that only the app or the tests use stay Python.

The modules share one C library, ``engine/native__mypyc*.so`` (``group_name``), kept
inside the package so that it is found wherever the engine is imported from.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"
# Not engine/errors.py: its exceptions stay Python classes (compiled, a subclass's own
# class attribute ``code`` was lost: RecordTooLargeError had none). Not engine/rules.py:
# declarations read once at start-up (when RuleOption was a generic slotted dataclass,
# compiled it failed to import: "attribute '__dict__' of 'type' objects is not writable").
MODULES = [
    "limits.py",
    "moves.py",
    "variants/__init__.py",
    "variants/base.py",
    "variants/long.py",
    "variants/short.py",
    "variants/lurc.py",
    "position.py",
    "steps.py",
    "movegen.py",
    "notation.py",
    "written.py",
    "irregular.py",
    "replay.py",
    "matheader.py",
]


def compiled() -> list[Path]:
    """The compiled modules present (and the library they share)."""
    return sorted(ENGINE.rglob("*.so"))


def clean() -> None:
    for path in compiled():
        path.unlink()


def build() -> None:
    from mypyc.build import mypycify  # only here: mypy is a dev dependency
    from setuptools import setup  # type: ignore[import-untyped]

    clean()
    os.chdir(ROOT)
    setup(
        name="engine-compiled",
        script_args=["build_ext", "--inplace", "--build-temp", "build/mypyc"],
        ext_modules=mypycify(
            [f"engine/{m}" for m in MODULES],
            opt_level="3",
            group_name="engine.native",
        ),
    )


def main(argv: list[str]) -> int:
    if argv[1:] == ["--clean"]:
        clean()
        return 0
    build()
    missing = [m for m in MODULES if not list(ENGINE.glob(f"{m[:-3]}.*.so"))]
    if missing:
        print(f"not compiled: {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
