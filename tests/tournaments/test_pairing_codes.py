"""Every refusal of the pairing algorithms has a code the app can say in Czech.

tournaments/pairing stays free of Django: its ``PairingError`` carries an English text,
a ``code`` and ``params``; tournaments/services/errors.py (``PAIRING_MESSAGES``,
``pairing_refused``) says it in the reader's language. An AST scan of the package checks
that every ``PairingError(...)`` names a literal code the table knows, with the params
its text names; the API then answers a Czech client in Czech, an English one in English.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from tests.tournaments.helpers import World
from tournaments.models import Entry
from tournaments.pairing import PairingError
from tournaments.services import pairings
from tournaments.services.errors import PAIRING_MESSAGES, pairing_refused

PAIRING = Path(__file__).resolve().parents[2] / "tournaments" / "pairing"
SPECIAL = {"no-pairing"}  # told by pairing_refused itself, with the players' names
PLACEHOLDER = re.compile(r"%\((\w+)\)")
# words of the algorithms' English texts that a Czech answer must not hold
ENGLISH = re.compile(
    r"\b(player|players|appears|twice|pairing|bracket|match|seed|result|which|needs|"
    r"slots|seats|rank|round robin|cannot be made)\b",
    re.IGNORECASE,
)


def _literal_codes(node: ast.expr | None) -> list[str] | None:
    """The codes a ``code=`` argument can take: a literal or ``a if … else b`` of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _literal_codes(node.body), _literal_codes(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def scan(source: str, name: str = "<source>") -> tuple[list[str], set[str], int]:
    """(problems, codes used, number of PairingError constructions) of one module."""
    problems: list[str] = []
    used: set[str] = set()
    count = 0
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "PairingError"
        ):
            continue
        count += 1
        where = f"{name}:{node.lineno}"
        keywords = {k.arg: k.value for k in node.keywords}
        codes = _literal_codes(keywords.get("code"))
        if codes is None:
            problems.append(f"{where}: no literal code=")
            continue
        given: set[str] | None = set()
        params = keywords.get("params")
        if isinstance(params, ast.Dict):
            given = {str(k.value) for k in params.keys if isinstance(k, ast.Constant)}
        elif params is not None:
            given = None  # computed params: not checked here
        for code in codes:
            used.add(code)
            if code in SPECIAL:
                continue
            if code not in PAIRING_MESSAGES:
                problems.append(f"{where}: code {code!r} has no message in PAIRING_MESSAGES")
                continue
            with translation.override(None):  # the msgid itself
                wanted = set(PLACEHOLDER.findall(str(PAIRING_MESSAGES[code])))
            if given is not None and wanted - given:
                problems.append(f"{where}: {code} needs params {sorted(wanted - given)}")
    return problems, used, count


def scan_package() -> tuple[list[str], set[str], int]:
    problems: list[str] = []
    used: set[str] = set()
    count = 0
    for path in sorted(PAIRING.rglob("*.py")):
        p, u, c = scan(path.read_text(encoding="utf-8"), path.name)
        problems, used, count = problems + p, used | u, count + c
    return problems, used, count


def test_every_pairing_error_has_a_code_the_app_can_translate() -> None:
    problems, _, count = scan_package()
    assert count >= 19, "the scan found too few PairingErrors: is it reading the package?"
    assert not problems, "\n".join(problems)


def test_the_table_has_no_code_nobody_raises() -> None:
    _, used, _ = scan_package()
    assert set(PAIRING_MESSAGES) <= used, set(PAIRING_MESSAGES) - used


@pytest.mark.parametrize(
    "source",
    [
        'raise PairingError("a player appears twice")',
        'raise PairingError("x", code=kind)',
        'raise PairingError("x", code="not-in-the-table")',
        'raise PairingError(f"no match {m}", code="no-such-match")',
        'raise PairingError("x", code="bracket-size" if a else "unknown-one", params={"size": 3})',
    ],
)
def test_the_scan_refuses(source: str) -> None:
    problems, _, count = scan(source)
    assert count == 1 and problems


def test_the_scan_accepts_a_coded_raise() -> None:
    source = 'raise PairingError(f"not {n}", code="berger-seats", params={"seats": n})'
    assert scan(source)[0] == []


def test_the_pairing_package_stays_free_of_django() -> None:
    for path in PAIRING.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                names += [a.name for a in getattr(node, "names", [])]
                assert not any(n.startswith("django") for n in names), path


SAMPLE_PARAMS = {"size": 6, "seats": 5, "match": "W2-1", "side": 3}


@pytest.mark.parametrize("code", sorted(PAIRING_MESSAGES))
def test_each_refusal_is_said_in_czech(code: str) -> None:
    """Czech differs from English (a missing translation shows its English msgid) and
    keeps none of its English words; English says the algorithm's words."""
    exc = PairingError("the English text", code=code, params=SAMPLE_PARAMS)
    with translation.override("en"):
        english = pairing_refused(exc)
    with translation.override("cs"):
        czech = pairing_refused(exc)
    assert czech.code == english.code == code
    assert "%(" not in english.message and "%(" not in czech.message
    assert czech.message != english.message
    assert not ENGLISH.search(czech.message), czech.message


def test_an_unknown_code_keeps_its_english_in_a_frame() -> None:
    exc = PairingError("a newer algorithm's words", code="newer-refusal")
    error = pairing_refused(exc)
    assert error.code == "pairing-refused" and "a newer algorithm's words" in error.message


def _generate(world: World, language: str) -> dict[str, object]:
    answer = world.client("boss").post(
        f"/api/tournaments/{world.tournament.pk}/rounds/generate/", {}, format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )  # fmt: skip
    assert answer.status_code == 400, answer.content
    body: dict[str, object] = answer.json()
    return body


def test_an_invariant_broken_inside_the_algorithm_is_told_in_the_readers_language(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round robin is made by ``berger_schedule``; were it to refuse its own input
    (a player listed twice), the director reads why in Czech, never in English."""
    world.series.delete()
    world.other_series.delete()

    def refuses(*args: object, **kwargs: object) -> None:
        raise PairingError("a player appears twice in the round robin", code="player-twice")

    monkeypatch.setattr(pairings, "berger_schedule", refuses)
    czech = _generate(world, "cs")
    english = _generate(world, "en")
    assert czech["code"] == english["code"] == "player-twice"
    assert english["detail"] == "a player appears twice among the players to pair"
    assert czech["detail"] != english["detail"]
    assert not ENGLISH.search(str(czech["detail"])), czech["detail"]


def test_too_few_players_through_the_api(world: World) -> None:
    world.series.delete()
    world.other_series.delete()
    Entry.objects.filter(tournament=world.tournament).exclude(player=world.players["jana"]).delete()
    czech = _generate(world, "cs")
    english = _generate(world, "en")
    assert czech["code"] == english["code"] == "too-few-players"
    assert english["detail"] == "a pairing needs at least two players"
    assert not ENGLISH.search(str(czech["detail"])), czech["detail"]
