"""The archive import trusts nothing in its file. Each bad archive is
refused through both doors (the import_tournament command and /api/tournaments/import/),
with its place named, and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from tests.tournaments.helpers import World
from tournaments.models import Club, Correction, Game, Player, RatingChange, Series, Tournament
from tournaments.services.exports import tournament_archive

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """These tests read the refusals' English words (their msgids): said in English."""
    with translation.override("en"):
        yield


def counts() -> tuple[int, ...]:
    return tuple(
        m.objects.count()
        for m in (Tournament, Series, Game, Correction, Player, Club, User, RatingChange)
    )


def refused_by_both_doors(
    world: World, archive: dict[str, Any], tmp_path: Path, *fragments: str
) -> dict[str, Any]:
    """The archive is refused by the command and the API with a message holding every
    fragment, and nothing changes; the API's error body."""
    before = counts()
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path))
    for fragment in fragments:
        assert fragment in str(refused.value)
    response = world.client("staff").post(
        "/api/tournaments/import/", archive, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400, response.content
    body: dict[str, Any] = response.json()
    for fragment in fragments:
        assert fragment in body["detail"]
    assert counts() == before
    return body


def archive_of(world: World, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    archive = json.loads(json.dumps(tournament_archive(world.tournament)))
    # as an archive from before fingerprints: its refusals are the damage's, not "on the
    # site already" (test_archive_fingerprint.py)
    del archive["fingerprint"]
    change(archive)
    return archive


def test_an_unknown_game_kind_is_refused(played: World, tmp_path: Path):
    def zzz(a: dict[str, Any]) -> None:
        a["series"][1]["games"][1]["kind"] = "zzz"

    body = refused_by_both_doors(
        played, archive_of(played, zzz), tmp_path, "series 2", "game 2", "unknown result 'zzz'"
    )
    assert body["field"] == "series[2].games[2].kind"


def test_a_cube_of_three_is_refused(played: World, tmp_path: Path):  # S7
    def cube(a: dict[str, Any]) -> None:
        a["series"][1]["games"][1]["cube"] = 3

    body = refused_by_both_doors(
        played, archive_of(played, cube), tmp_path, "series 2", "game 2", "cube"
    )
    assert body["field"] == "series[2].games[2].cube"


def test_a_record_that_tells_another_result_is_refused(played: World, tmp_path: Path):
    def kind(a: dict[str, Any]) -> None:
        game = a["series"][0]["games"][0]  # a verified record
        game["kind"] = "oin" if game["kind"] == "mars" else "mars"

    body = refused_by_both_doors(played, archive_of(played, kind), tmp_path, "series 1", "game 1")
    assert body["field"] == "series[1].games[1].kind"


@pytest.mark.parametrize(
    ("field", "wrong"), [("score1", "9.0"), ("score2", "0.5"), ("status", "in_play")]
)
def test_a_series_score_that_contradicts_its_games_is_refused(
    played: World, tmp_path: Path, field: str, wrong: str
):
    def score(a: dict[str, Any]) -> None:
        a["series"][0][field] = wrong

    body = refused_by_both_doors(
        played, archive_of(played, score), tmp_path, "series 1", f"{field} is ", "its games give"
    )
    assert body["field"] == f"series[1].{field}"


def test_a_series_winner_that_lost_is_refused(played: World, tmp_path: Path):
    def winner(a: dict[str, Any]) -> None:
        s = a["series"][0]
        s["winner"] = s["player1"] if s["winner"] == s["player2"] else s["player2"]

    body = refused_by_both_doors(played, archive_of(played, winner), tmp_path, "series 1")
    assert body["field"] == "series[1].winner"


def test_games_out_of_colour_order_are_refused(played: World, tmp_path: Path):  # L12
    def colours(a: dict[str, Any]) -> None:
        g = a["series"][1]["games"][1]
        g["white"], g["black"] = g["black"], g["white"]

    refused_by_both_doors(played, archive_of(played, colours), tmp_path, "series 2", "game 2")


def test_a_correction_is_the_importing_users_with_its_author_as_text(played: World):
    archive = tournament_archive(played.tournament)
    assert archive["series"][1]["games"][0]["corrections"][0]["by"] == "boss"
    response = played.client("staff").post(
        "/api/tournaments/import/?copy=1", archive, format="json"
    )
    assert response.status_code == 201, response.content
    copy = Tournament.objects.get(pk=response.json()["tournament"])
    correction = Correction.objects.get(game__series__tournament=copy)
    assert correction.by == played.users["staff"]
    assert correction.reason == "it was a mars (correction by boss, imported)"
    # the games are the importer's too
    assert set(
        Game.objects.filter(series__tournament=copy).values_list("entered_by", flat=True)
    ) == {played.users["staff"].pk}


def test_the_command_imports_as_a_user(played: World, tmp_path: Path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tournament_archive(played.tournament)), encoding="utf-8")
    call_command("import_tournament", str(path), "--copy", "--name", "Kopie", "--user", "staff")
    copy = Tournament.objects.get(name="Kopie")
    assert played.users["staff"] in copy.directors.all()
    assert Correction.objects.get(game__series__tournament=copy).by == played.users["staff"]
    with pytest.raises(CommandError, match="no user"):
        call_command("import_tournament", str(path), "--copy", "--user", "nobody")


def test_a_nul_character_is_refused(played: World, tmp_path: Path):
    def nul(a: dict[str, Any]) -> None:
        a["players"][0]["name"] = "Ja\x00na"

    refused_by_both_doors(played, archive_of(played, nul), tmp_path, "NUL")


def test_a_table_number_too_large_is_refused(played: World, tmp_path: Path):
    def table(a: dict[str, Any]) -> None:
        a["series"][0]["table"] = 10**20  # beyond every database's column

    refused_by_both_doors(played, archive_of(played, table), tmp_path, "damaged", "table")
