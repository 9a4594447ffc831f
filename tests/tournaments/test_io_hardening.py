"""The file doors under hostile input. CSV cells that a spreadsheet would run
(finding 6), uploads over the size limit (finding 1), bodies that are not objects, NUL
bytes and non-UTF-8 files (finding 2), and 10,000 players imported in bulk (finding 8)."""

from __future__ import annotations

import csv
import html
import io
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import translation

from tests.tournaments.helpers import World, a_record
from tournaments.models import Club, Game, Player
from tournaments.services.exports import csv_cell

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """These tests read the refusals' English words (their msgids): said in English."""
    with translation.override("en"):
        yield


EVIL = "=cmd|' /C calc'!A0"


def upload(data: bytes, name: str = "file.csv") -> io.BytesIO:
    file = io.BytesIO(data)
    file.name = name
    return file


# finding 6: CSV formula injection ----------------------------------------------------


def test_standings_and_crosstable_csv_neutralise_formulas(world: World):
    Player.objects.filter(pk=world.players["jana"].pk).update(name=EVIL)
    Player.objects.filter(pk=world.players["petr"].pk).update(name="+1+2")
    Club.objects.update(name="@SUM(A1)")
    client = world.client(None)
    t = world.tournament
    standings = client.get(f"/api/tournaments/{t.pk}/standings.csv", HTTP_ACCEPT_LANGUAGE="en")
    assert standings.status_code == 200
    rows = list(csv.DictReader(io.StringIO(standings.content.decode())))
    assert {r["player"] for r in rows} >= {"'" + EVIL, "'+1+2"}
    assert {r["club"] for r in rows} == {"'@SUM(A1)"}
    assert all(r["points"] == "0" and r["series played"] == "0" for r in rows)  # numbers stay
    table = list(csv.reader(io.StringIO(
        client.get(f"/api/tournaments/{t.pk}/crosstable.csv").content.decode()
    )))  # fmt: skip
    assert "'" + EVIL in table[0] and "'+1+2" in table[0]
    assert "'" + EVIL in [row[1] for row in table[1:]]
    for text in (standings.content.decode(), *(c for row in table for c in row)):
        assert not any(cell.startswith(("=", "+", "@")) for cell in text.split(","))


@pytest.mark.parametrize("cell", ["=1+1", "+x", "-x", "@x", "\tx", "\rx", "-", "+"])
def test_a_cell_starting_like_a_formula_gets_an_apostrophe(cell: str):
    assert csv_cell(cell) == "'" + cell


@pytest.mark.parametrize("value", ["-1.5", "+2", "-3", "1e3", "-0.5e-2", -1.5, 3, "3-1", "Jana"])
def test_numbers_and_plain_text_stay(value: Any):
    assert csv_cell(value) == value


# finding 1: the upload limit ---------------------------------------------------------


def test_an_upload_over_the_limit_is_refused_with_413(world: World, settings):
    settings.NARDY_MAX_UPLOAD_BYTES = 2000
    staff = world.client("staff")
    big = b"name,club,rating\n" + b"Adam,,1500\n" * 300  # 3,317 bytes
    response = staff.post(
        "/api/players/import/", {"file": upload(big)}, format="multipart", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 413
    assert "2000 bytes" in response.json()["detail"] and response.json()["limit"] == 2000
    record = a_record("Jana", "Petr", seed=1).encode() * 3
    boss = world.client("boss")
    answer = boss.post(
        f"/api/series/{world.series.pk}/records/",
        {"file": upload(record, "games.nrd")},
        format="multipart",
    )
    assert answer.status_code == 413
    assert Player.objects.filter(name="Adam").count() == 0
    assert Game.objects.count() == 0
    small = staff.post(
        "/api/players/import/", {"file": upload(b"name\nAdam\n")}, format="multipart"
    )
    assert small.status_code == 201


def test_a_json_body_over_djangos_memory_limit_is_refused_with_413(world: World, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    text = "name\n" + "".join(f"Player {n}\n" for n in range(200))
    response = world.client("staff").post(
        "/api/players/import/", {"text": text}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 413
    assert "1000 bytes" in response.json()["detail"]
    archive = world.client("staff").post(
        "/api/tournaments/import/", {"format": "x" * 2000}, format="json"
    )
    assert archive.status_code == 413


# finding 2: bodies that are not objects, NUL bytes, other encodings -------------------


@pytest.mark.parametrize("body", [[1, 2], "text", 3])
def test_a_json_body_that_is_not_an_object_is_a_400(world: World, body: Any):
    for role, url in (
        ("staff", "/api/players/import/"),
        ("boss", f"/api/series/{world.series.pk}/records/"),
        ("staff", "/api/tournaments/import/"),
    ):
        response = world.client(role).post(url, body, format="json")
        assert response.status_code == 400, (url, response.content)


def test_a_nul_byte_is_a_400_with_a_clear_message(world: World, tmp_path):
    staff, boss = world.client("staff"), world.client("boss")
    csv_file = upload(b"name,club\nAd\x00am,\n")
    response = staff.post(
        "/api/players/import/", {"file": csv_file}, format="multipart", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert "line 2 holds a NUL character" in response.json()["detail"]
    text = staff.post("/api/players/import/", {"text": "name\nA\x00\n"}, format="json")
    assert text.status_code == 400 and "NUL" in text.json()["detail"]
    record = a_record("Jana", "Petr", seed=1).replace("\n\n", "\n{a\x00b}\n", 1)
    for body, fmt in (
        ({"record": record}, "json"),
        ({"file": upload(record.encode(), "g.nrd")}, "multipart"),
    ):
        answer = boss.post(f"/api/series/{world.series.pk}/records/", body, format=fmt)
        assert answer.status_code == 400 and "NUL" in answer.json()["detail"]
    assert Player.objects.filter(name__startswith="A").count() == 0
    assert Game.objects.count() == 0
    path = tmp_path / "g.nrd"
    path.write_text(record, encoding="utf-8")
    with pytest.raises(CommandError, match="NUL"):
        call_command("import_records", world.series.pk, str(path))


def test_a_file_that_is_not_utf8_is_a_400(world: World):
    latin = "name\nMüller\n".encode("latin-1")
    response = world.client("staff").post(
        "/api/players/import/", {"file": upload(latin)}, format="multipart"
    )
    assert response.status_code == 400 and "UTF-8" in response.json()["detail"]
    record = a_record("Jana", "Petr", seed=1).replace("\n\n", "\n{Müller}\n", 1)
    answer = world.client("boss").post(
        f"/api/series/{world.series.pk}/records/",
        {"file": upload(record.encode("latin-1"), "g.nrd")},
        format="multipart",
    )
    assert answer.status_code == 400 and "UTF-8" in answer.json()["detail"]
    archive = world.client("staff").post(
        "/api/tournaments/import/", {"file": upload(b'{"a": "\xff"}', "t.json")},
        format="multipart",
    )  # fmt: skip
    assert archive.status_code == 400


def test_json_nested_too_deeply_is_a_400(world: World):
    deep = b"[" * 100_000 + b"]" * 100_000
    response = world.client("staff").post(
        "/api/tournaments/import/", {"file": upload(deep, "t.json")}, format="multipart"
    )
    assert response.status_code == 400


# finding 8: 10,000 players in bulk ----------------------------------------------------


def test_ten_thousand_players_import_within_a_few_bulk_inserts_time(world: World):
    """Measured against a bare bulk_create of 10,000 players in the same run, so that
    the machine's speed does not matter: the import must be within 15x of it (a row
    per query took 46 s, hundreds of times longer)."""
    from tournaments.services.player_lists import players_import_csv

    lines = ["name,club,rating"] + [
        f"Hráč {n},Klub {n % 50},{1400 + n % 200}" for n in range(10_000)
    ]
    data = ("\n".join(lines) + "\nJana,Brno,1500\n").encode()
    start = time.perf_counter()
    bare = Player.objects.bulk_create(
        [Player(name=f"Bare {n}", club=None) for n in range(10_000)], batch_size=1000
    )
    baseline = time.perf_counter() - start
    start = time.perf_counter()
    report = players_import_csv(data=data)
    took = time.perf_counter() - start
    assert len(report.created) == 10_000 and len(bare) == 10_000
    assert report.rejected == [(10_002, "Jana is already a player of club Brno")]
    assert Club.objects.filter(name__startswith="Klub ").count() == 50
    print(f"10,000 players: import {took:.2f} s, bare bulk_create {baseline:.2f} s")
    assert took < 15 * baseline + 0.5, (took, baseline)


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        (b"\xff\xfe not text", "The file is not UTF-8 text."),
        # a whole record, then more than the cap: refused, not cut to the cap and read
        (b"x" * 2**20, "The file is larger than 1 MB."),
    ],
    ids=["not-utf8", "too-large"],
)
def test_the_record_forms_upload_is_refused_on_the_page(
    world: World, settings, data: bytes, refusal: str
):
    settings.NARDY_MAX_UPLOAD_BYTES = 2**20
    record = a_record("Jana", "Petr", seed=1).encode()
    client = Client()
    client.force_login(world.users["boss"])
    response = client.post(
        f"/series/{world.series.pk}/record/",
        {"number": "1", "record": "", "upload": upload(record + data, "game.nrd")},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert refusal in html.unescape(response.content.decode())
    assert Game.objects.count() == 0
