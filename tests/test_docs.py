"""The spec inside the repository: every rule id that the code and the tests cite (L6,
S5, Z8, L4.2 ...) is explained in docs/rules.md, and no comment points at an issue
tracker that a clone does not have."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("engine", "tournaments", "config", "tests", "tools", "templates", "static", "fixtures")
SUFFIXES = {".py", ".html", ".txt", ".js", ".css", ".md"}
# Files that are not below SOURCES or have no suffix, read as the sources are.
OTHER_SOURCES = ("Makefile", "pyproject.toml", ".ci/run")
# A rule id: a variant's letter and a number (a sub-rule after a dot), as a word of its
# own; S1[i] and S2[i] are the halves of a Dutch Swiss score group, not rules.
RULE_ID = re.compile(r"(?<![\w.-])([LSZ](?:1[0-2]|[1-9])(?:\.[1-9])?)(?![\w\[]|\.\d)")
# Words that look like rule ids and are not: where they stand and why.
NOT_RULES = {
    "S8": "tests/tournaments/test_standings_knockout.py: the eighth seed of a draw",
}
# "issue 12", also broken over a comment's lines ("(issue\n# 12)").
ISSUE = re.compile(r"\bissues?(?:\s|#|/|\*)+\d+", re.IGNORECASE)


def sources(*, migrations: bool = False) -> list[Path]:
    """The project's own files (not the virtualenv's); migrations only when asked: they
    name the models' old fields, which look like rule ids (``S1``) at times."""
    found = [
        path
        for top in SOURCES
        for path in (ROOT / top).rglob("*")
        if path.suffix in SUFFIXES
        and (migrations or "migrations" not in path.parts)
        and path.is_file()
    ]
    return sorted(found + [ROOT / name for name in OTHER_SOURCES])


def cited_ids(text: str) -> set[str]:
    return set(RULE_ID.findall(text))


def documented_ids() -> set[str]:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| ([LSZ][\d.]+) \|", rules, re.MULTILINE))


def test_every_cited_rule_id_is_explained_in_docs_rules() -> None:
    cited: dict[str, str] = {}
    for path in sources():
        for rule in cited_ids(path.read_text(encoding="utf-8")):
            cited.setdefault(rule, str(path.relative_to(ROOT)))
    missing = {r: where for r, where in cited.items() if r not in documented_ids()}
    missing = {r: where for r, where in missing.items() if r not in NOT_RULES}
    assert not missing, f"rule ids cited but not in docs/rules.md: {missing}"
    assert len(cited) > 30  # the pattern still finds the ids


def test_the_pattern_finds_rule_ids_and_only_them() -> None:
    text = "(L6) L4.2, S5 and Z10; S1[i] meets S2[i]; L13 M6 XL5 L0 v1.L3"
    assert cited_ids(text) == {"L6", "L4.2", "S5", "Z10"}


def issue_numbers(text: str) -> list[tuple[int, str]]:
    """Each place ``text`` cites an issue's number: its line and the words."""
    return [
        (text.count("\n", 0, match.start()) + 1, " ".join(match.group().split()))
        for match in ISSUE.finditer(text)
    ]


def test_the_issue_pattern_finds_numbers_across_a_comments_lines() -> None:
    text = "as issue 12 measured\n# (issue\n# 15) and issues #3; the issue's words; 2 issues"
    assert issue_numbers(text) == [(1, "issue 12"), (2, "issue # 15"), (3, "issues #3")]


def test_comments_cite_docs_and_rule_ids_not_issue_numbers() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {words}"
        for path in [*sources(migrations=True), *sorted((ROOT / "docs").glob("*.md"))]
        if path != Path(__file__).resolve()  # this file's examples
        for n, words in issue_numbers(path.read_text(encoding="utf-8"))
    ]
    assert not found, "cite docs/ or a rule id instead:\n" + "\n".join(found)
