"""The app's architecture, checked by reading its source (AST, no Django needed):
the engine is reached through one module, selectors read without calling services,
and tests share helpers through conftest.py and helpers modules, never test modules."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "tournaments"
DOOR = APP / "engine.py"
# the application's shared exceptions, raised by selectors too
SELECTORS_MAY_IMPORT = {"tournaments.services.errors"}


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every module imported anywhere in the file (inside functions too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
            for alias in node.names:  # from tests.tournaments import test_x
                yield node.lineno, f"{node.module}.{alias.name}"


def _where(path: Path, line: int, module: str) -> str:
    return f"{path.relative_to(ROOT)}:{line} imports {module}"


def test_the_app_reaches_the_engine_only_through_tournaments_engine() -> None:
    found = [
        _where(path, line, module)
        for path in sorted(APP.rglob("*.py"))
        if path != DOOR
        for line, module in _imports(path)
        if module == "engine" or module.startswith("engine.")
    ]
    assert found == [], "import it from tournaments.engine (add it there if missing)"


def test_the_door_itself_imports_the_engine() -> None:
    assert any(module.startswith("engine") for _, module in _imports(DOOR))


def test_selectors_do_not_call_services() -> None:
    found = [
        _where(path, line, module)
        for path in sorted((APP / "selectors").rglob("*.py"))
        for line, module in _imports(path)
        if module.startswith("tournaments.services")
        and not any(module.startswith(allowed) for allowed in SELECTORS_MAY_IMPORT)
    ]
    assert found == [], "selectors read; move the read into selectors/ instead"


def test_services_do_not_stand_on_management_commands() -> None:
    """Services imported the record-file helpers from
    tournaments/management/ (tqdm, BaseCommand); the commands call the services."""
    below = ("tournaments.management", "tqdm", "django.core.management")
    found = [
        _where(path, line, module)
        for folder in ("services", "selectors", "jobs", "api", "views")
        for path in sorted((APP / folder).rglob("*.py"))
        for line, module in _imports(path)
        if module.startswith(below)
    ]
    assert found == [], "put what a service needs in services/; commands call it"


def test_no_module_re_exports_names_that_moved() -> None:
    """A name lives in one module and is imported from there: no "still importable from
    here" shims (``from x import y as y``) in the app."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno} re-exports {alias.name}"
        for path in sorted(APP.rglob("*.py"))
        if path != DOOR  # the engine's one door re-exports by design
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    ]
    assert found == [], "import the name from the module that defines it"


def test_tests_share_helpers_through_conftest_and_helpers_modules() -> None:
    found = [
        _where(path, line, module)
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for line, module in _imports(path)
        if module.startswith("tests.") and module.rsplit(".", 1)[-1].startswith("test_")
    ]
    assert found == [], "fixtures go to conftest.py, plain helpers to a helpers module"


# A comparison with a variant's name, as Python, a template or a script writes it:
# ``t.variant == "lurc"``, ``"short" != v``, ``=== "long"``, ``== Variant.SHORT``,
# ``in ("long", ...)``, ``case "lurc":``.
_NAME = r"""(?:["'](?:long|short|lurc)["']|Variant\.(?:LONG|SHORT|LURC)\b)"""
_COMPARES_A_NAME = re.compile(
    rf"""(?:[!=]==?|\bis(?:\s+not)?|\bin|\bcase)\s*[(\[{{]?\s*{_NAME}|{_NAME}\s*[!=]==?"""
)
# where names may be compared: the label table of the rule options (the engine's
# variant modules, outside the app, are checked by tests/engine/test_architecture.py)
MAY_COMPARE_NAMES = {APP / "wording" / "rule_options.py"}


def _name_comparisons(root: Path, suffixes: set[str]) -> Iterator[str]:
    for path in sorted(root.rglob("*")):
        if path.suffix not in suffixes or path in MAY_COMPARE_NAMES or "migrations" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if _COMPARES_A_NAME.search(line):
                yield f"{path.relative_to(ROOT)}:{number}: {line.strip()}"


def test_no_template_script_or_app_module_compares_variant_names() -> None:
    """What differs between variants is declared data (the engine's
    ``Variant`` and rule options, the labels of tournaments/wording/rule_options.py), so a new
    variant needs no change in a template, a script or a service."""
    found = [
        *_name_comparisons(APP, {".py"}),
        *_name_comparisons(ROOT / "config", {".py"}),
        *_name_comparisons(ROOT / "templates", {".html", ".txt", ".xml"}),
        *_name_comparisons(ROOT / "static", {".js"}),
    ]
    assert found == [], "ask the variant what it declares, or add it to wording/rule_options.py"


def test_the_name_comparison_finder_finds_comparisons() -> None:
    caught = [
        '{% if t.variant == "lurc" %}',
        "{% elif t.variant == 'short' %}",
        "if series.tournament.variant != Variant.SHORT:",
        'if game.variant in ("long", "short"):',
        'if (game.value === "lurc") {',
        '"long" == name',
        '    case "short":',
    ]
    missed = [line for line in caught if not _COMPARES_A_NAME.search(line)]
    assert missed == []
    innocent = ["default=Variant.LONG", 'LONG = "long", _("long nardy")', '"short": _("short")']
    assert [line for line in innocent if _COMPARES_A_NAME.search(line)] == []
