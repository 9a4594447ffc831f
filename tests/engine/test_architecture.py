"""The engine's structure (docs/architecture.md): no import cycle, no import hidden in a function to
dodge one, and no code outside the variant modules that tells variants apart by name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).parent
VARIANTS = ENGINE / "variants"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, ast.Module]:
    return {_module_name(p): ast.parse(p.read_text(encoding="utf-8")) for p in ENGINE.rglob("*.py")}


def _imported(node: ast.AST) -> list[str]:
    """The engine modules an import statement names (``from engine.x import y`` may
    name the module ``engine.x.y``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "engine"]
    if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "engine":
        return [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
    return []


def import_graph() -> dict[str, set[str]]:
    """Module -> the engine modules it imports, wherever the import stands (one inside
    a function still makes a cycle, only a hidden one)."""
    modules = _sources()
    graph: dict[str, set[str]] = {}
    for name, tree in modules.items():
        targets = {t for node in ast.walk(tree) for t in _imported(node) if t in modules}
        graph[name] = targets - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as a path of modules, or None (a depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_the_engine_import_graph_has_no_cycle() -> None:
    graph = import_graph()
    assert not any("engine.__main__" in targets for targets in graph.values())
    assert "engine.replay" in graph and "engine.variants" in graph["engine.movegen"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


# The command line imports other commands' modules when they run, to keep ``verify``'s
# start-up small (docs/performance.md): no engine module imports engine.__main__, so an import
# inside one of its functions cannot hide a cycle (the graph above includes them).
LAZY_IMPORTS = {"engine.__main__"}


def test_no_engine_module_imports_an_engine_module_inside_a_function() -> None:
    hidden = [
        f"{name}:{node.lineno}"
        for name, tree in _sources().items()
        if name not in LAZY_IMPORTS
        for top in tree.body
        if not isinstance(top, (ast.Import, ast.ImportFrom))
        for node in ast.walk(top)
        if isinstance(node, (ast.Import, ast.ImportFrom)) and _imported(node)
    ]
    assert hidden == []


_NAMES = re.compile(
    r"""(name|variant)\s*[!=]=\s*["'](long|short|lurc)["']|["'](long|short|lurc)["']\s*[!=]="""
)


def test_only_the_variant_modules_compare_variant_names() -> None:
    """Code asks what a variant declares (``variant.hits``), not what it is called
    (STYLE 15); a new variant is a module in engine/variants/ and its tests."""
    found = [
        f"{path.relative_to(ENGINE.parent)}:{number}: {line.strip()}"
        for path in ENGINE.rglob("*.py")
        if VARIANTS not in path.parents
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if _NAMES.search(line) or re.search(r'name == "', line)
    ]
    assert found == []
