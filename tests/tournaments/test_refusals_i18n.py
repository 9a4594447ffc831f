"""The same refusal through each door, in Czech and in English: a page, the
API (Accept-Language) and a management command say it in the asked language, with the
same code and params; words inside it (a status, a tournament format) are translated
too, never left in English inside a Czech sentence."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import translation

from tests.tournaments.helpers import World, a_record
from tournaments.models import Format, SeriesStatus
from tournaments.services.errors import ApplicationError, Conflict
from tournaments.services.results import game_enter_quick
from tournaments.services.setup import series_forfeit

pytestmark = pytest.mark.django_db


def said(language: str, msgid: str, **params: object) -> str:
    """The message as the app says it in ``language`` (whatever the catalogue holds)."""
    with translation.override(language):
        return translation.gettext(msgid) % params


# the API --------------------------------------------------------------------------------


def test_the_api_says_a_refusal_in_the_asked_language_with_one_code(world: World):
    p = world.players
    url = f"/api/series/{world.series.pk}/games/quick/"
    body = {"white": p["jana"].pk, "winner": p["jana"].pk, "kind": "oin", "number": 2}
    answers = {}
    for language in ("en", "cs"):
        client = world.client("boss")
        answer = client.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 400, answer.content
        answers[language] = answer.json()
    en, cs = answers["en"], answers["cs"]
    assert en["detail"] == "game 2 cannot be entered before game 1"
    msgid = "game %(number)s cannot be entered before game %(expected)s"
    assert cs["detail"] == said("cs", msgid, number=2, expected=1)
    assert en["code"] == cs["code"] == "game-out-of-order"
    assert en["params"] == cs["params"] == {"number": 2, "expected": 1}
    assert en["field"] == cs["field"] == "number"


def test_a_status_inside_an_api_refusal_is_in_the_asked_language(world: World):
    p = world.players
    series_forfeit(series=world.series, winner=p["jana"])
    url = f"/api/series/{world.series.pk}/games/quick/"
    body = {"white": p["jana"].pk, "winner": p["jana"].pk, "kind": "oin"}
    en = world.client("boss").post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    cs = world.client("boss").post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="cs").json()
    assert en["code"] == cs["code"] == "series-closed"
    assert en["detail"] == "the series is forfeited: no more games can be entered"
    assert en["params"] == {"status": "forfeited"}
    # the status is a word of the catalogue: Czech inside the Czech answer
    forfeited = said("cs", "forfeited")
    assert forfeited != "forfeited"
    assert cs["params"] == {"status": forfeited}
    assert forfeited in cs["detail"] and "forfeited" not in cs["detail"]


def test_a_conflict_and_a_permission_refusal_carry_codes(world: World):
    p = world.players
    game_enter_quick(series=world.series, white=p["jana"], winner=p["jana"], kind="oin")
    url = f"/api/series/{world.series.pk}/games/quick/"
    body = {"white": p["jana"].pk, "winner": p["jana"].pk, "kind": "oin", "number": 1}
    again = world.client("boss").post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 409
    assert again.json()["code"] == "game-entered"
    assert again.json()["params"] == {"number": 1, "expected": 2}
    game = world.series.games.get()
    correction = {"kind": "mars", "reason": "typo", "version": game.version}
    stranger = world.client("eva").post(
        f"/api/games/{game.pk}/correct/", correction, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert stranger.status_code == 403
    assert stranger.json()["code"] == "not-director"
    assert stranger.json()["detail"] == "only the tournament's directors may correct a result"


def test_drf_refusals_and_database_refusals_carry_codes(world: World):
    anonymous = world.client(None)
    url = f"/api/series/{world.series.pk}/games/quick/"
    refused = anonymous.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code in (401, 403)
    assert refused.json()["code"] == "not-authenticated"
    missing = world.client("boss").get("/api/series/999999/", HTTP_ACCEPT_LANGUAGE="en")
    assert missing.status_code == 404 and missing.json()["code"] == "not-found"
    invalid = world.client("boss").post(
        url, {"white": "x"}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert invalid.status_code == 400
    assert invalid.json()["code"] and invalid.json()["params"]["field"]


# a page ---------------------------------------------------------------------------------


def _page_refusal(world: World, language: str, action: str, data: dict[str, str]) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.users["boss"])
    url = f"/tournaments/{world.tournament.pk}/do/{action}/"
    answer = client.post(url, data, follow=True)
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_page_says_a_refusal_in_czech_and_in_english(world: World):
    world.tournament.format = Format.MANUAL
    world.tournament.save()
    en = _page_refusal(world, "en", "round", {})
    cs = _page_refusal(world, "cs", "round", {})
    assert "a tournament played as pairings by hand has no rounds to generate" in en
    manual = said("cs", "pairings by hand")
    assert manual != "pairings by hand"
    msgid = "a tournament played as %(format)s has no rounds to generate"
    assert said("cs", msgid, format=manual) in cs
    assert "pairings by hand" not in cs


def test_a_page_refusal_from_the_catalogue_is_czech(world: World):
    data = {"player": "999999"}
    en = _page_refusal(world, "en", "withdraw", data)
    cs = _page_refusal(world, "cs", "withdraw", data)
    english = "Choose a player registered for the tournament."
    assert english in en
    czech = said("cs", english)
    assert czech != english
    assert czech in cs and english not in cs


# a management command -------------------------------------------------------------------


def _import(series_pk: int, path: Path, language: str) -> str:
    with translation.override(language), pytest.raises(CommandError) as refused:
        call_command("import_records", str(series_pk), str(path), stdout=StringIO())
    return str(refused.value)


def test_a_command_says_a_service_refusal_in_the_active_language(world: World, tmp_path: Path):
    p = world.players
    series_forfeit(series=world.series, winner=p["jana"])
    path = tmp_path / "late.nrd"
    path.write_text(a_record("Jana", "Petr", seed=3), "utf-8")
    en = _import(world.series.pk, path, "en")
    cs = _import(world.series.pk, path, "cs")
    assert "the series is forfeited: no more games can be entered" in en
    forfeited = said("cs", "forfeited")
    msgid = "the series is %(status)s: no more games can be entered"
    assert said("cs", msgid, status=forfeited) in cs
    assert "forfeited" not in cs
    unknown_en = _import(999999, path, "en")
    assert unknown_en == "there is no series with id 999999"
    assert _import(999999, path, "cs") == said("cs", "there is no series with id %(id)s", id=999999)


# the errors themselves ------------------------------------------------------------------


def test_an_error_fills_its_params_once_and_keeps_them():
    error = ApplicationError("%(name)s is 100%% wrong", code="x-y", params={"name": "A %(b)s"})
    assert error.message == "A %(b)s is 100% wrong"  # a '%' in a value is not read again
    assert error.params == {"name": "A %(b)s"}
    plain = ApplicationError("100% sure", code="x-y")
    assert plain.message == "100% sure" and plain.params == {}
    assert ApplicationError("x", code=None).code == "invalid"
    conflict = Conflict("taken", code="taken-x", current={"a": 1})
    assert (conflict.code, conflict.current) == ("taken-x", {"a": 1})


def test_a_wrapped_error_keeps_the_inner_code_and_params():
    inner = ApplicationError("game %(n)s", code="inner-code", params={"n": 2}, line=3, col=4)
    outer = inner.within("round %(number)s: %(message)s", number=5)
    assert outer.message == "round 5: game 2"
    assert outer.code == "inner-code"
    assert outer.params == {"n": 2, "number": 5, "message": "game 2"}
    assert (outer.line, outer.col) == (3, 4)


def test_an_engine_error_keeps_its_code_params_rule_and_place():
    from engine import EngineError, read_records, replay

    bad = '[Variant "long"]\n[White "A"]\n[Black "B"]\n\n1. 6-4: 24/18 24/20 2. zz\n'
    error: EngineError
    try:
        records = read_records(bad)
        found = replay(records[0]).error
        assert found is not None
        error = found
    except EngineError as exc:  # the reader refuses it
        error = exc
    wrapped = ApplicationError.from_engine(error, field="record")
    assert wrapped.code == error.code and wrapped.code != "invalid"
    assert wrapped.params == error.params
    assert (wrapped.line, wrapped.rule, wrapped.field) == (error.line, error.rule, "record")


def test_a_series_closed_status_word_follows_the_language(world: World):
    p = world.players
    world.series.status = SeriesStatus.FINISHED
    world.series.save()
    for language, word in (("en", "finished"), ("cs", said("cs", "finished"))):
        with translation.override(language), pytest.raises(ApplicationError) as refused:
            game_enter_quick(series=world.series, white=p["jana"], winner=p["jana"], kind="oin")
        assert refused.value.params == {"status": word}
        assert word in refused.value.message
