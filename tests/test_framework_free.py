"""The engine is pure Python: no module under engine/ may import Django or the app."""

import ast
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent.parent / "engine"
FORBIDDEN = {"django", "rest_framework", "tournaments", "config"}


def forbidden_imports(source: str, filename: str) -> list[str]:
    """Top-level package names from FORBIDDEN imported anywhere in `source`."""
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [f"{filename}:{node.lineno}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    return found


def test_engine_imports_no_framework() -> None:
    modules = sorted(ENGINE_DIR.rglob("*.py")) if ENGINE_DIR.is_dir() else []
    offenders = [
        hit
        for module in modules
        for hit in forbidden_imports(
            module.read_text(encoding="utf-8"), str(module.relative_to(ENGINE_DIR.parent))
        )
    ]
    assert offenders == [], "engine/ must stay framework-free:\n" + "\n".join(offenders)


def test_checker_sees_imports() -> None:
    source = "import os\nimport django.db\nfrom tournaments.models import X\nfrom . import y\n"
    assert forbidden_imports(source, "m.py") == [
        "m.py:2: django.db",
        "m.py:3: tournaments.models",
    ]
