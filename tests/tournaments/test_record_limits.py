"""The read limits at the app's doors (docs/notation.md): a record over one of the reader's limits
(settings.NARDY_RECORD_LIMITS, the engine's ReadLimits) is a 413 naming the limit on the
API, a form error on the pages, never a 500 or a hang; nothing is stored."""

from __future__ import annotations

import io

import pytest
from django.test import Client

from tests.tournaments.helpers import World, a_record
from tournaments.models import Game

pytestmark = pytest.mark.django_db


def with_tags(record: str, count: int) -> str:
    """The record with ``count`` extra note tags before its own."""
    extra = "".join(f'[Note{i} "x"]\n' for i in range(count))
    return extra + record


def test_verify_api_answers_413_naming_the_tag_limit(world: World):
    record = with_tags(a_record("Jana", "Petr", seed=1), 150)
    response = world.client(None).post("/api/verify/", {"record": record}, format="json")
    assert response.status_code == 413
    assert "max_tags" in response.json()["detail"]
    # the same record within the limit verifies
    fine = world.client(None).post(
        "/api/verify/", {"record": with_tags(a_record("Jana", "Petr", seed=1), 3)}, format="json"
    )
    assert fine.status_code == 200 and fine.json()["games"][0]["ok"]


def test_the_limits_are_settings(world: World, settings):
    settings.NARDY_RECORD_LIMITS = {"max_tags": 3}
    record = a_record("Jana", "Petr", seed=1)  # four tags of its own
    response = world.client(None).post("/api/verify/", {"record": record}, format="json")
    assert response.status_code == 413 and "max_tags = 3" in response.json()["detail"]
    settings.NARDY_RECORD_LIMITS = {"max_line_chars": 50}
    long_line = record.replace('[White "', '[Event "' + "E" * 80 + '"]\n[White "')
    response = world.client(None).post("/api/verify/", {"record": long_line}, format="json")
    assert response.status_code == 413 and "max_line_chars" in response.json()["detail"]


def test_record_entry_page_refuses_a_record_over_the_limit_as_a_form_error(world: World):
    boss = Client()
    boss.force_login(world.users["boss"])
    record = with_tags(a_record("Jana", "Petr", seed=2), 500)
    response = boss.post(
        f"/series/{world.series.pk}/record/",
        {"record": record, "number": 1},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400  # the form again, with the refusal
    assert "max_tags" in response.content.decode()
    assert Game.objects.count() == 0


def test_live_check_answers_over_the_limit_and_huge_numbers_without_a_500(world: World):
    boss = Client()
    boss.force_login(world.users["boss"])
    url = f"/series/{world.series.pk}/check/"
    record = with_tags(a_record("Jana", "Petr", seed=3), 500)
    answer = boss.post(url, {"record": record, "number": "1"})
    assert answer.status_code == 200 and not answer.json()["ok"]
    assert "max_tags" in answer.json()["message"]
    for number in ("9" * 5000, "²", "-1", "1e9"):
        answer = boss.post(url, {"record": a_record("Jana", "Petr", seed=3), "number": number})
        assert answer.status_code == 200, number


def test_records_upload_over_the_games_limit_is_413_and_enters_nothing(world: World, settings):
    settings.NARDY_RECORD_LIMITS = {"max_games": 2}
    games = "\n".join(a_record("Jana", "Petr", seed=s) for s in (1, 2, 3))
    file = io.BytesIO(games.encode())
    file.name = "games.nrd"
    response = world.client("boss").post(
        f"/api/series/{world.series.pk}/records/", {"file": file}, format="multipart"
    )
    assert response.status_code == 413
    assert "max_games" in response.json()["detail"]
    assert Game.objects.count() == 0
