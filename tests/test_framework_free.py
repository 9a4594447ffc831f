"""The pure parts stay pure: no module under engine/ may import Django or the app, and no
module under tournaments/pairing/ may import Django or any of the app but pairing itself
(pairing algorithms are functions on plain data, as Tabbycat's draw generators are;
docs/architecture.md)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = ROOT / "engine"
PAIRING_DIR = ROOT / "tournaments" / "pairing"
FORBIDDEN = {"django", "rest_framework", "tournaments", "config", "celery"}
# what each pure package may import although its top-level name is forbidden
ALLOWED = {ENGINE_DIR: (), PAIRING_DIR: ("tournaments.pairing",)}


def forbidden_imports(source: str, filename: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Top-level package names from FORBIDDEN imported anywhere in `source` (a module
    in ``allowed`` or under it excepted); a relative import that climbs out of the
    module's package (``from .. import x``) counts as the app's."""
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.ImportFrom) and node.level > 1:
            names = ["." * node.level + (node.module or "")]
        else:
            continue
        found += [
            f"{filename}:{node.lineno}: {n}"
            for n in names
            if (n.startswith("..") or n.split(".")[0] in FORBIDDEN)
            and not any(n == a or n.startswith(a + ".") for a in allowed)
        ]
    return found


def offenders(package: Path) -> list[str]:
    modules = sorted(package.rglob("*.py"))
    assert modules, f"no modules under {package}"
    return [
        hit
        for module in modules
        for hit in forbidden_imports(
            module.read_text(encoding="utf-8"),
            str(module.relative_to(ROOT)),
            ALLOWED[package],
        )
    ]


def test_engine_imports_no_framework() -> None:
    found = offenders(ENGINE_DIR)
    assert found == [], "engine/ must stay framework-free:\n" + "\n".join(found)


def test_pairing_imports_no_framework_and_nothing_else_of_the_app() -> None:
    found = offenders(PAIRING_DIR)
    assert found == [], "tournaments/pairing/ must stay framework-free:\n" + "\n".join(found)


def test_checker_sees_imports() -> None:
    source = "import os\nimport django.db\nfrom tournaments.models import X\nfrom . import y\n"
    assert forbidden_imports(source, "m.py") == [
        "m.py:2: django.db",
        "m.py:3: tournaments.models",
    ]


def test_checker_allows_the_package_itself_and_nothing_beside_it() -> None:
    source = (
        "from tournaments.pairing.types import Pair\nimport tournaments.pairing\n"
        "from tournaments.pairingx import y\nfrom ..models import Series\nimport celery\n"
    )
    assert forbidden_imports(source, "p.py", ("tournaments.pairing",)) == [
        "p.py:3: tournaments.pairingx",
        "p.py:4: ..models",
        "p.py:5: celery",
    ]
