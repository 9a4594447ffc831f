"""Every error the engine gives has its own code and the parameters its text names
(STYLE 13, docs/architecture.md): the app translates an error by its code, so two different
messages must not share one, and every value the English text shows must be in
``params`` for the translation to show it too.

The check reads the engine's source (AST), so that a new raise without a code, a code
reused for another message, or a value missing from ``params`` fails here, and a code
not declared in :data:`engine.errors.CODES` (which the app's translation table must
cover) fails too.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

import engine
from engine.errors import CODES, COMMAND_LINE_CODES, EngineError

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# Every module of the engine is imported first, so that the error classes are the same
# whichever tests ran before (a subclass is known only once its module is imported).
for _module in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(_module.name)


def _subclasses(cls: type) -> set[str]:
    return {name for c in cls.__subclasses__() for name in {c.__name__} | _subclasses(c)}


ERROR_CLASSES = {"EngineError"} | _subclasses(EngineError)
# helpers that take (message, rule, code, params): replay's ``fail`` at 0, the search's
# ``refuse`` (a written turn's refusals) after the depth at 1; matfile's ``_error(message,
# col, code=...)``
POSITIONAL = {"fail": 0, "refuse": 1}
# helpers that build the message themselves and take its code: the code's position
CODE_ARGUMENT = {"_block_reason": 2}
CODE_SHAPE = r"^[a-z][a-z0-9-]*[a-z0-9]$"

# Values shown in a text that are derived from the params (not new information): the
# name in the message -> why it needs no parameter of its own.
DERIVED = {
    "where": "said by the point parameter (bar, start or a number)",
    "what": "a wording of the moves/roll parameters, or the character code",
    "choices": "the allowed parameter",
    "known": "a fixed list of the engine's names",
    "CHECKERS": "a constant of the rules",
    "FORMAT": "a constant of the weights file's format",
    "INPUTS": "a constant of the net's encoder",
    "LEVELS": "a fixed list of the bot's levels",
    "how": "the 'ended' parameter",
    "title": "the variant parameter, named in the app's language",
}


@dataclass(frozen=True)
class Site:
    path: str
    line: int
    code: str
    template: str | None  # the message with its values as {}, None when not literal
    shown: frozenset[str]  # names the message's values are computed from
    given: frozenset[str] | None  # names the params are computed from (None: not literal)


def _names(node: ast.AST | None) -> set[str]:
    if node is None:
        return set()
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    return {
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(node)
        if isinstance(n, (ast.Name, ast.Attribute)) and id(n) not in called
    }


def _template(node: ast.AST | None) -> tuple[str | None, set[str]]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, set()
    if isinstance(node, ast.JoinedStr):
        parts, shown = [], set()
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                assert isinstance(v, ast.FormattedValue)
                parts.append("{}")
                shown |= _names(v.value)
        return "".join(parts), shown
    return None, set()


def _site(path: Path, node: ast.AST, code: str, message: ast.AST | None, params: ast.AST | None):
    template, shown = _template(message)
    given = None
    if params is None or isinstance(params, ast.Dict):
        given = frozenset(_names(params))
        if isinstance(params, ast.Dict):
            given |= {str(k.value) for k in params.keys if isinstance(k, ast.Constant)}
    line = getattr(node, "lineno", 0)
    return Site(path.name, line, code, template, frozenset(shown), given)


def _call_site(path: Path, call: ast.Call) -> Site | str | None:
    """The site of an error built by ``call``: a Site, ``"forwarded"`` when the call
    passes on another error's code, or None when the call builds no error."""
    func = call.func
    name = (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )
    keywords = {k.arg: k.value for k in call.keywords}
    if name in CODE_ARGUMENT:
        code = call.args[CODE_ARGUMENT[name]]
        assert isinstance(code, ast.Constant) and isinstance(code.value, str)
        return Site(path.name, call.lineno, code.value, None, frozenset(), None)
    if name in POSITIONAL:
        at = POSITIONAL[name]
        if any(isinstance(a, ast.Starred) for a in call.args):
            return "forwarded"  # a helper's tuple, scanned as a tuple below
        args = call.args[at:]
        code = args[2] if len(args) > 2 else None
        params = args[3] if len(args) > 3 else None
        message = args[0] if args else None
    elif name in ERROR_CLASSES or name == "_error":
        if name == "RecordTooLargeError":
            limit = keywords["limit"]
            assert isinstance(limit, ast.Constant)
            code = ast.Constant(f"record_too_large:{limit.value!s}")
            params = ast.Dict(
                [ast.Constant("limit"), ast.Constant("value")], [limit, keywords["value"]]
            )
        else:
            code, params = keywords.get("code"), keywords.get("params")
        message = call.args[0] if call.args else None
    else:
        return None
    if isinstance(code, ast.Constant) and isinstance(code.value, str):
        return _site(path, call, code.value, message, params)
    if (isinstance(code, ast.Attribute) and code.attr == "code") or isinstance(code, ast.Name):
        return "forwarded"  # exc.code of a caught error, or a code chosen above
    raise AssertionError(f"{path.name}:{call.lineno}: an engine error without a code=")


def _tuple_site(path: Path, node: ast.Tuple) -> Site | None:
    """``(message, rule, code, params)`` returned by a helper such as ``_why``, or
    ``(message, code)`` (notation's ``_explain``)."""
    elts = node.elts
    strings = [e for e in elts if isinstance(e, (ast.Constant, ast.JoinedStr))]
    if len(elts) == 4 and isinstance(elts[2], ast.Constant) and isinstance(elts[2].value, str):
        message = elts[0] if not isinstance(elts[0], ast.Name) else None
        if (message is None or " " in (_template(message)[0] or "")) and " " not in elts[2].value:
            return _site(path, node, elts[2].value, message, elts[3])
    if len(elts) == 2 and len(strings) == 2 and isinstance(elts[1], ast.Constant):
        code = elts[1].value
        if isinstance(code, str) and " " not in code and " " in (_template(elts[0])[0] or ""):
            site = _site(path, node, code, elts[0], None)
            return Site(site.path, site.line, code, site.template, site.shown, None)  # the raiser's
    return None


def _assigned_codes(node: ast.Assign) -> list[str]:
    """``code = "die-used"`` or ``code, params = "must-play", {...}``."""
    out = []
    for target in node.targets:
        if (
            isinstance(target, ast.Name)
            and target.id == "code"
            and isinstance(node.value, ast.Constant)
        ):
            out.append(str(node.value.value))
        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
            for t, v in zip(target.elts, node.value.elts, strict=False):
                if isinstance(t, ast.Name) and t.id == "code" and isinstance(v, ast.Constant):
                    out.append(str(v.value))
    return out


def scan() -> tuple[list[Site], set[str]]:
    sites: list[Site] = []
    codes: set[str] = set()
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            found: Site | str | None = None
            if isinstance(node, ast.Call):
                found = _call_site(path, node)
            elif isinstance(node, ast.Tuple):
                found = _tuple_site(path, node)
            elif isinstance(node, ast.Assign):
                codes.update(_assigned_codes(node))
            elif isinstance(node, ast.ClassDef) and node.name in ERROR_CLASSES:
                for stmt in node.body:
                    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
                        codes.update(_assigned_codes(stmt))
            if isinstance(found, Site):
                sites.append(found)
                codes.add(found.code.split(":")[0])
    return sites, codes


SITES, FOUND = scan()


def test_the_scan_sees_the_engines_errors() -> None:
    """A guard for the scan itself: it must find the sites we know of."""
    assert len(SITES) > 90
    assert {"point-closed", "head", "bad-die", "syntax", "mat-bad-cell", "block"} <= FOUND


def test_every_code_used_is_declared_and_every_declared_code_used() -> None:
    declared = CODES | COMMAND_LINE_CODES
    assert not FOUND - declared, "codes raised but missing from engine.errors.CODES"
    assert not declared - FOUND, "codes declared in engine.errors.CODES but never raised"
    assert not CODES & COMMAND_LINE_CODES, "a code is the app's or the command line's"


def test_codes_are_stable_words() -> None:
    import re

    for code in CODES | COMMAND_LINE_CODES:
        assert re.match(CODE_SHAPE, code) or code == "record_too_large", code


def test_one_code_one_message() -> None:
    """Two sites may share a code only when they say the same thing."""
    templates: dict[str, set[str]] = defaultdict(set)
    where: dict[str, list[str]] = defaultdict(list)
    for site in SITES:
        if site.template is not None:
            templates[site.code].add(site.template)
            where[site.code].append(f"{site.path}:{site.line}")
    shared = {c: (sorted(t), where[c]) for c, t in templates.items() if len(t) > 1}
    assert shared == {}


@pytest.mark.parametrize(
    "site", [s for s in SITES if s.given is not None], ids=lambda s: f"{s.path}:{s.line}:{s.code}"
)
def test_params_cover_the_values_the_text_shows(site: Site) -> None:
    missing = site.shown - site.given - set(DERIVED)
    # the place (line, column, game) and the turn are the error's own fields
    missing -= {"line", "col", "number"} if site.code.startswith("mat-") else set()
    assert not missing, (
        f"{site.path}:{site.line} ({site.code}) shows {sorted(missing)} without params"
    )
