"""Every refusal of the app is translatable and carries a code.

An AST scan of tournaments/: each construction of the application's errors
(ApplicationError, PermissionDenied, Conflict, SheetRowError, JobError, Refused,
RecordTooLarge) passes as its text a gettext call (or a constant of a table of
gettext_lazy messages) and a stable ``code``; a wrapped engine error goes through
``ApplicationError.from_engine`` (which keeps the engine's code), an error told inside a whole
through ``.within(gettext(...))``. An English f-string raise fails the scan."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "tournaments"
ERRORS = {
    "ApplicationError",
    "PermissionDenied",
    "Conflict",
    "SheetRowError",
    "JobError",
    "Refused",
    "RecordTooLarge",
    "UploadTooLarge",
    "DemoError",
}
GETTEXT = {"_", "gettext", "gettext_lazy", "_lazy", "ngettext", "pgettext", "npgettext"}
# Errors whose constructor takes the error they wrap and builds the text itself; their
# own ``super().__init__`` call is checked instead.
WRAPPERS = {"RecordTooLarge", "SheetRowError", "UploadTooLarge"}
CODE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
PLACEHOLDER = re.compile(r"%\((\w+)\)")


def _gettext_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in GETTEXT
        and bool(node.args)
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def _msgid(node: ast.AST) -> str | None:
    return node.args[0].value if _gettext_call(node) else None  # type: ignore[attr-defined]


class Scan:
    """The problems of one module's source: a list of ``line: what`` strings, and the
    msgid each literal code is used with."""

    def __init__(self, source: str, name: str = "<source>") -> None:
        self.tree = ast.parse(source)
        self.name = name
        self.problems: list[str] = []
        self.codes: dict[str, set[str]] = defaultdict(set)
        self.count = 0
        self.tables = self._tables()
        self.foreign = self._foreign_names()

    def _foreign_names(self) -> set[str]:
        """Names bound to another library's class (django's PermissionDenied)."""
        return {
            alias.asname or alias.name
            for node in ast.walk(self.tree)
            if isinstance(node, ast.ImportFrom)
            and not (node.module or "").startswith(("tournaments", "engine"))
            for alias in node.names
            if (alias.asname or alias.name) in ERRORS
        }

    def _tables(self) -> set[str]:
        """Module constants bound to a gettext_lazy message or a dict of them."""
        found = set()
        for node in self.tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                value = node.value
                ok = _gettext_call(value) or (
                    isinstance(value, ast.Dict)
                    and bool(value.values)
                    and all(_gettext_call(v) for v in value.values)
                )
                if ok:
                    found |= {t.id for t in targets if isinstance(t, ast.Name)}
        return found

    def _text_ok(self, node: ast.AST) -> bool:
        if _gettext_call(node):
            return True
        if isinstance(node, ast.Name) and node.id in self.tables:
            return True
        return (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.tables
        )

    def _params(self, call: ast.Call, where: str) -> None:
        """The params given name every placeholder of the text (else the raw ``%(n)s``
        would be shown)."""
        msgid = _msgid(call.args[0]) if call.args else None
        wanted = set(PLACEHOLDER.findall(msgid or ""))
        if not wanted:
            return
        given = next((k.value for k in call.keywords if k.arg == "params"), None)
        if given is None:
            self.problems.append(f"{where}: the text names {sorted(wanted)} but no params=")
        elif isinstance(given, ast.Dict):
            keys = {k.value for k in given.keys if isinstance(k, ast.Constant)}
            if None in given.keys:  # {**inner, ...}: the inner error's keys are unknown here
                return
            if wanted - keys:
                self.problems.append(f"{where}: params lack {sorted(wanted - keys)}")

    def _code(self, call: ast.Call, where: str) -> None:
        code = next((k.value for k in call.keywords if k.arg == "code"), None)
        text = call.args[0] if call.args else None
        if code is None:
            self.problems.append(f"{where}: no code=")
        elif isinstance(code, ast.Constant) and isinstance(code.value, str):
            if not CODE.match(code.value):
                self.problems.append(f"{where}: code {code.value!r} is not like 'game-entered'")
            msgid = _msgid(text) if text is not None else None
            if msgid is not None:
                self.codes[code.value].add(msgid)
        elif isinstance(code, ast.Attribute) and code.attr == "code" and _gettext_call(text):
            pass  # a wrapper keeps the code of the error it tells (``exc.code``)
        elif not (isinstance(text, ast.Subscript) and ast.dump(text.slice) == ast.dump(code)):
            # a computed code only beside a table's message looked up by that code
            self.problems.append(f"{where}: the code is not a literal string")

    def _check_call(self, call: ast.Call, name: str) -> None:
        where = f"{self.name}:{call.lineno}"
        self.count += 1
        if name in WRAPPERS:
            return
        text = (
            call.args[0]
            if call.args
            else next((k.value for k in call.keywords if k.arg == "message"), None)
        )
        if text is None or not self._text_ok(text):
            self.problems.append(f"{where}: {name}'s text is not a gettext call")
        self._code(call, where)
        self._params(call, where)

    def run(self) -> Scan:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ClassDef):
                self._check_class(node)
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id in ERRORS and func.id not in self.foreign:
                self._check_call(node, func.id)
            elif isinstance(func, ast.Attribute) and func.attr == "within":
                self.count += 1
                if not (node.args and self._text_ok(node.args[0])):
                    self.problems.append(f"{self.name}:{node.lineno}: within() without gettext")
            elif (
                isinstance(func, ast.Attribute)
                and func.attr in ("from_engine", "from_validation")
                and isinstance(func.value, ast.Name)
                and func.value.id in ERRORS
            ):
                self.count += 1
        return self

    def _check_class(self, cls: ast.ClassDef) -> None:
        """A wrapper's own ``super().__init__(gettext(...), code=...)``."""
        if cls.name not in WRAPPERS:
            return
        supers = [
            n
            for n in ast.walk(cls)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "__init__"
            and isinstance(n.func.value, ast.Call)
        ]
        if not supers:
            self.problems.append(f"{self.name}:{cls.lineno}: {cls.name} calls no super().__init__")
        for call in supers:
            if not (call.args and self._text_ok(call.args[0])):
                self.problems.append(f"{self.name}:{call.lineno}: {cls.name}'s text is not gettext")
            self._code(call, f"{self.name}:{call.lineno}")


def scan_tree() -> tuple[list[str], dict[str, set[str]], int]:
    problems: list[str] = []
    codes: dict[str, set[str]] = defaultdict(set)
    count = 0
    for path in sorted(ROOT.rglob("*.py")):
        if path == ROOT / "services" / "errors.py":  # the classes themselves
            continue
        scan = Scan(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT.parent))).run()
        problems += scan.problems
        count += scan.count
        for code, msgids in scan.codes.items():
            codes[code] |= msgids
    return problems, codes, count


def test_every_refusal_is_translatable_with_a_code() -> None:
    problems, _, count = scan_tree()
    assert count > 150, "the scan found too few errors: is it looking in the right place?"
    assert not problems, "\n".join(problems)


def test_one_code_one_message() -> None:
    _, codes, _ = scan_tree()
    shared = {code: msgids for code, msgids in codes.items() if len(msgids) > 1}
    assert not shared, shared


@pytest.mark.parametrize(
    "source",
    [
        'raise ApplicationError(f"game {n} is wrong", code="game-wrong")',
        'raise ApplicationError("game is wrong", code="game-wrong")',
        'raise ApplicationError(_("game is wrong"))',
        'raise Conflict(_("game %(n)s is wrong") % {"n": 1}, code="game-wrong")',
        'raise PermissionDenied(str(exc), code="x")',
        "raise ApplicationError(exc.message, code=exc.code)",
        'raise exc.within(f"game {n}: {exc.message}")',
        'raise ApplicationError(_("game is wrong"), code="Game wrong")',
        'raise ApplicationError(_("game %(n)s is wrong"), code="game-wrong")',
        'raise ApplicationError(_("game %(n)s of %(m)s"), code="game-wrong", params={"n": 1})',
    ],
)
def test_the_scan_refuses_english(source: str) -> None:
    scan = Scan(source).run()
    assert scan.count == 1
    assert scan.problems


@pytest.mark.parametrize(
    "source",
    [
        'raise ApplicationError(_("game %(n)s is wrong"), code="game-wrong", params={"n": 1})',
        'raise ApplicationError.from_engine(exc, field="record")',
        'raise exc.within(_("game %(n)s: %(message)s"), n=1)',
        'T = {"a": gettext_lazy("a"), "b": gettext_lazy("b")}\nraise JobError(T[k], code=k)',
        "from django.core.exceptions import PermissionDenied\nraise PermissionDenied('x')",
    ],
)
def test_the_scan_accepts_translations(source: str) -> None:
    assert not Scan(source).run().problems
