"""``make test-compiled`` runs the engine's tests against the modules mypyc compiled
(tools/compile_engine.py): this test makes sure they are the ones imported then, not the
.py files beside them (a failed or stale build would otherwise test pure Python twice).
Without NARDY_ENGINE_COMPILED=1 it checks the opposite: the ordinary run is pure Python."""

from __future__ import annotations

import importlib
import os

from tools.compile_engine import MODULES


def _module_name(path: str) -> str:
    dotted = path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    return f"engine.{dotted}"


def test_the_engine_imported_is_the_one_asked_for() -> None:
    compiled = os.environ.get("NARDY_ENGINE_COMPILED") == "1"
    for path in MODULES:
        module = importlib.import_module(_module_name(path))
        where = str(module.__file__)
        assert where.endswith(".so") is compiled, where
