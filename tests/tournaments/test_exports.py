"""Exports and imports: .nrd records out and in, standings and crosstables as CSV, player
lists from CSV, and the tournament archive's lossless round trip."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from tests.tournaments.helpers import World, a_record, rating_of
from tournaments.models import (
    Club,
    Entry,
    Game,
    Player,
    Series,
    Submission,
    TieBreak,
    Tournament,
)
from tournaments.services.archives import tournament_import
from tournaments.services.errors import ApplicationError
from tournaments.services.exports import tournament_archive
from tournaments.services.player_lists import players_import_csv

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """These tests read the refusals' English words (their msgids): said in English."""
    with translation.override("en"):
        yield


# records -----------------------------------------------------------------------------


def test_download_a_game_a_series_and_a_tournament_as_nrd(played: World):
    client = played.client(None)
    game = Game.objects.filter(series=played.series).first()
    assert game is not None
    one = client.get(f"/api/games/{game.pk}/record.nrd")
    assert one.status_code == 200
    assert one["Content-Type"] == "text/plain; charset=utf-8"
    assert one["Content-Disposition"] == f'attachment; filename="game-{game.pk}.nrd"'
    assert one.content.decode() == game.record
    series = client.get(f"/api/series/{played.series.pk}/records.nrd").content.decode()
    assert series.count('[Variant "long"]') == played.series.games.count()
    whole = client.get(f"/api/tournaments/{played.tournament.pk}/records.nrd").content.decode()
    assert whole.count('[Variant "long"]') == Game.objects.count()
    assert "{result entered without a record" in whole  # the quick games tell their result


def test_upload_records_into_a_series_and_download_them_again(played: World):
    # the records of the played series go into a new series between the same players
    text = played.client(None).get(f"/api/series/{played.series.pk}/records.nrd").content
    fresh = Series.objects.create(
        tournament=played.tournament, player1=played.players["jana"],
        player2=played.players["petr"],
    )  # fmt: skip
    boss = played.client("boss")
    upload = io.BytesIO(text)
    upload.name = "series.nrd"
    response = boss.post(f"/api/series/{fresh.pk}/records/", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["entered"] == played.series.games.count() and body["refused"] is None
    again = played.client(None).get(f"/api/series/{fresh.pk}/records.nrd").content
    assert again == text
    # the same file again: game 1 is already there
    repeat = boss.post(f"/api/series/{fresh.pk}/records/", {"record": text.decode()})
    assert repeat.status_code in (400, 409)


def test_upload_stops_at_the_first_refused_game_with_its_place_in_the_file(world: World):
    s = world.series
    first = a_record("Jana", "Petr", seed=1, want="black")  # Petr wins: Jana starts game 2
    second = a_record("Jana", "Petr", seed=2)
    lines = second.splitlines()
    where = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[where] = "1. 64: 23/17 " + lines[where].split(" ", 3)[3]
    third = a_record("Petr", "Jana", seed=3)
    text = first + "\n" + "\n".join(lines) + "\n\n" + third
    response = world.client("boss").post(
        f"/api/series/{s.pk}/records/", {"record": text}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["entered"] == 1 and len(body["games"]) == 2
    assert body["games"][0]["ok"] and not body["games"][1]["ok"]
    file_line = first.count("\n") + 1 + where + 1
    assert body["refused"]["line"] == file_line and body["refused"]["col"]
    assert body["games"][1]["message"].startswith(f"line {file_line}, col ")
    assert Game.objects.filter(series=s).count() == 1  # the first game stays


def test_export_records_command(played: World, tmp_path):
    out = tmp_path / "all.nrd"
    call_command("export_records", "--tournament", played.tournament.pk, "-o", str(out))
    assert out.read_text(encoding="utf-8").count('[Variant "long"]') == Game.objects.count()
    stdout = io.StringIO()
    call_command("export_records", "--series", played.series.pk, stdout=stdout)
    assert stdout.getvalue().count("[Variant") == played.series.games.count()
    with pytest.raises(CommandError):
        call_command("export_records", "--game", 999999)


# standings and crosstables -----------------------------------------------------------

# the English headings, none of which a Czech download may hold
ENGLISH_HEADINGS = {
    "rank", "player", "club", "series played", "series won", "series drawn", "series lost",
    "game points for", "game points against", "mars wins", "points", "withdrawn",
    "head-to-head", "game-point difference", "progressive score",  # Buchholz is a name
}  # fmt: skip


def test_csv_headings_are_in_the_downloaders_language(played: World):
    client = played.client(None)
    t = played.tournament
    Entry.objects.filter(tournament=t, player=played.players["karel"]).update(withdrawn=True)
    url = f"/api/tournaments/{t.pk}/standings.csv"
    czech = list(csv.reader(io.StringIO(client.get(url, HTTP_ACCEPT_LANGUAGE="cs").text)))
    english = list(csv.reader(io.StringIO(client.get(url, HTTP_ACCEPT_LANGUAGE="en").text)))
    assert english[0][:3] == ["rank", "player", "club"] and english[0][-1] == "withdrawn"
    assert len(czech[0]) == len(english[0]) and czech[1:] != english[1:]  # "yes" is said too
    assert not ENGLISH_HEADINGS & {h.casefold() for h in czech[0]}, czech[0]
    assert len(set(czech[0])) == len(czech[0]), czech[0]  # "vyhrané série" was there twice
    assert [row[:-1] for row in czech[1:]] == [row[:-1] for row in english[1:]]
    karel = next(row for row in english[1:] if row[1] == "Karel")
    assert karel[-1] == "yes"
    url = f"/api/tournaments/{t.pk}/crosstable.csv"
    czech = list(csv.reader(io.StringIO(client.get(url, HTTP_ACCEPT_LANGUAGE="cs").text)))
    english = list(csv.reader(io.StringIO(client.get(url, HTTP_ACCEPT_LANGUAGE="en").text)))
    assert english[0][:2] == ["rank", "player"] and "Karel (withdrawn)" in english[0]
    assert not ENGLISH_HEADINGS & {h.casefold() for h in czech[0][:2]}, czech[0]
    assert "Karel (withdrawn)" not in czech[0] and any("Karel" in h for h in czech[0])


def test_standings_and_crosstable_as_csv(played: World):
    client = played.client(None)
    t = played.tournament
    response = client.get(f"/api/tournaments/{t.pk}/standings.csv", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 4
    assert {r["player"] for r in rows} == {"Jana", "Petr", "Eva", "Karel"}
    assert list(rows[0])[:3] == ["rank", "player", "club"]
    with translation.override("en"):
        names = dict(TieBreak.choices)
        breaks = [f"tie-break {n}: {names[b]}" for n, b in enumerate(t.tie_breaks, start=1)]
    assert list(rows[0])[-len(breaks) - 1 : -1] == breaks
    headings = list(rows[0])
    assert len(headings) == len(set(headings))  # "series won" was a column and a tie-break
    winners = {r["player"] for r in rows if r["series won"] == "1"}
    played.series.refresh_from_db()
    played.other_series.refresh_from_db()
    expected = {played.series.winner.name, played.other_series.winner.name}
    assert winners == expected
    table = list(csv.reader(io.StringIO(
        client.get(f"/api/tournaments/{t.pk}/crosstable.csv", HTTP_ACCEPT_LANGUAGE="en")
        .content.decode()
    )))  # fmt: skip
    header, body = table[0], table[1:]
    assert header[:2] == ["rank", "player"] and len(header) == 6
    cells = {row[1]: dict(zip(header[2:], row[2:], strict=True)) for row in body}
    s = played.series
    one, two = f"{s.score1.normalize():f}", f"{s.score2.normalize():f}"
    assert cells["Jana"]["Petr"] == f"{one}-{two}"
    assert cells["Petr"]["Jana"] == f"{two}-{one}"
    assert cells["Jana"]["Eva"] == "" and cells["Jana"]["Jana"] == ""


# player lists ------------------------------------------------------------------------

PLAYERS_CSV = """name,club,rating
Adam,Praha,1600
Bára,Praha,
,Praha,1500
Cyril,,abc
Adam,Praha,1700
Jana,Brno,1500
Dana,Brno,-5
Emil,,1450
"""


def test_players_from_csv_with_the_refused_lines(world: World):
    report = players_import_csv(data=PLAYERS_CSV.encode("utf-8"))
    assert sorted(p.name for p in report.created) == ["Adam", "Bára", "Emil"]
    assert report.rejected == [
        (4, "missing name"),
        (5, "bad rating 'abc'"),
        (6, "duplicate of line 2"),
        (7, "Jana is already a player of club Brno"),
        (8, "bad rating '-5'"),
    ]
    assert rating_of(Player.objects.get(name="Bára")).rating == 1500
    assert Club.objects.filter(name="Praha").exists()
    with pytest.raises(ApplicationError, match="header"):
        players_import_csv(data="Adam,Praha,1600\n")
    with pytest.raises(ApplicationError, match="UTF-8"):
        players_import_csv(data="name\nM\xfcller\n".encode("latin-1"))


def test_import_players_command_and_api(world: World, tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("name,club,rating\nFilip,Brno,1510\nFilip,Brno,1520\n", encoding="utf-8")
    out = io.StringIO()
    with translation.override("en"):
        call_command("import_players", str(path), stdout=out)
    assert "line 3: duplicate of line 2" in out.getvalue()
    assert "1 player(s) imported" in out.getvalue()
    czech = io.StringIO()
    path.write_text("name,club,rating\nHana,Brno,1500\nHana,Brno,1500\n", encoding="utf-8")
    with translation.override("cs"):  # a command speaks the active language
        call_command("import_players", str(path), stdout=czech)
    assert "imported" not in czech.getvalue() and "duplicate" not in czech.getvalue()
    upload = io.BytesIO(b"name,club\nGustav,Ostrava\nFilip,Brno\n")
    upload.name = "players.csv"
    response = world.client("staff").post(
        "/api/players/import/", {"file": upload}, format="multipart", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 201, response.content
    assert response.json() == {
        "created": 1,
        "rejected": [{"line": 3, "reason": "Filip is already a player of club Brno"}],
        "similar": [],  # no line named a player like a known one
    }
    bad = world.client("staff").post("/api/players/import/", {"text": "x\n"}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "file"


# the archive -------------------------------------------------------------------------


def normalised(archive: dict[str, Any]) -> dict[str, Any]:
    """The archive without what differs between two exports of the same tournament."""
    data = json.loads(json.dumps(archive))
    data.pop("exported_at")
    for s in data["series"]:
        s["version"] = None
    return data


def imported(after: dict[str, Any], by: str | None = None) -> dict[str, Any]:
    """An archive of an imported tournament, its attribution checked and put
    back as exported: a correction is the importing user's, its author kept as text."""
    fixed = after["series"][1]["games"][0]["corrections"][0]
    assert fixed["by"] == by
    assert fixed["reason"] == "it was a mars (correction by boss, imported)"
    fixed.update(by="boss", reason="it was a mars")
    return after


def test_archive_round_trip_is_lossless(played: World):
    before = tournament_archive(played.tournament)
    assert before["series"][1]["games"][0]["corrections"][0]["reason"] == "it was a mars"
    assert before["series"][1]["submissions"][0]["status"] == "rejected"
    assert before["rating_changes"]
    counts = (Player.objects.count(), Club.objects.count())
    played.tournament.delete()
    result = tournament_import(archive=json.loads(json.dumps(before)), as_archived=True)
    assert result.players_matched == 4 and result.players_created == 0
    assert (Player.objects.count(), Club.objects.count()) == counts
    after = tournament_archive(result.tournament)
    assert normalised(imported(after)) == normalised(before)


def test_archive_imported_as_a_copy_into_an_empty_installation(played: World, tmp_path):
    path = tmp_path / "t.json"
    call_command("export_tournament", played.tournament.pk, "-o", str(path))
    before = json.loads(path.read_text(encoding="utf-8"))
    # another installation: nothing of this one is left
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    for user in played.users.values():
        user.delete()
    out = io.StringIO()
    call_command("import_tournament", str(path), "--as-archived", stdout=out)
    assert "4 players created" in out.getvalue()
    assert "inactive accounts created" in out.getvalue()
    t = Tournament.objects.get()
    assert normalised(imported(tournament_archive(t))) == normalised(before)
    assert Submission.objects.count() == 1


def test_a_bad_archive_is_refused_and_changes_nothing(played: World, tmp_path):
    archive = tournament_archive(played.tournament)
    del archive["fingerprint"]  # refused for its damage, not as "on the site already"
    tournaments = Tournament.objects.count()
    with pytest.raises(ApplicationError, match="not a tournament archive"):
        tournament_import(archive={"hello": 1})
    with pytest.raises(ApplicationError, match="version"):
        tournament_import(archive=archive | {"version": 99})
    broken = json.loads(json.dumps(archive))
    broken["series"][0]["games"][0]["white"] = 999  # a player not in the archive
    with pytest.raises(ApplicationError, match="damaged"):
        tournament_import(archive=broken)
    newer = json.loads(json.dumps(archive))
    newer["tournament"]["laser_dice"] = True
    with pytest.raises(ApplicationError, match="lacks"):
        tournament_import(archive=newer)
    assert Tournament.objects.count() == tournaments
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("import_tournament", str(path))


def test_archive_through_the_api(played: World):
    boss = played.client("boss")
    response = boss.get(f"/api/tournaments/{played.tournament.pk}/archive.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    archive = json.loads(response.content)
    staff = played.client("staff")
    answer = staff.post("/api/tournaments/import/?copy=1", archive, format="json")
    assert answer.status_code == 201, answer.content
    copy = Tournament.objects.get(pk=answer.json()["tournament"])
    assert copy.series.count() == 2 and played.users["staff"] in copy.directors.all()
    bad = staff.post(
        "/api/tournaments/import/", {"format": "zip"}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert bad.status_code == 400 and "archive" in bad.json()["detail"]
