"""Directors who are not staff import their exported archive as a new tournament they
direct, and register a CSV list of players in their own tournament; pages and API answer
alike (the rule: tournaments/selectors/access.py), and the job's owner follows it."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from tests.tournaments.helpers import World
from tournaments.models import Entry, Game, Job, Player, Submission, Tournament
from tournaments.services.exports import tournament_archive

PLAYERS = "name,club,rating\nJana,Brno,\nNora,,1600\nNora,,1600\nOto,Zlín,abc\n"


@pytest.fixture(autouse=True)
def inline(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""


def upload(text: str, name: str = "file.txt") -> io.BytesIO:
    data = io.BytesIO(text.encode("utf-8"))
    data.name = name
    return data


def signed_in(world: World, role: str, *, may_create: bool = False) -> Client:
    user = world.users[role]
    if may_create:
        user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client = Client()
    client.force_login(user)
    return client


def job_of(response: Any) -> Job:
    assert response.status_code == 302, response.content.decode()[:2000]
    return Job.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[1]))


@pytest.mark.django_db
def test_a_director_registers_a_csv_list_in_their_tournament(world: World):
    t = world.tournament
    jana_club = Player.objects.get(name="Jana").club
    csv = PLAYERS.replace("Jana,Brno", f"Jana,{jana_club.name if jana_club else ''}")
    client = signed_in(world, "boss")
    url = f"/tournaments/{t.pk}/players/import/"
    assert client.get(url).status_code == 200
    job = job_of(client.post(url, {"file": upload(csv)}, HTTP_ACCEPT_LANGUAGE="en"))
    assert job.status == "done", job.error
    assert job.tournament == t and job.created_by == world.users["boss"]
    # Jana is entered already; Nora is new (her second line a duplicate); Oto's rating bad
    assert (job.result["created"], job.result["matched"], job.result["entered"]) == (1, 0, 1)
    assert job.result["rejected"] == 3
    assert Entry.objects.filter(tournament=t, player__name="Nora").exists()
    html = client.get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 player(s) registered (1 new, 0 known already), 3 line(s) refused" in html
    assert "Jana is registered already." in html
    # a known player of another tournament is entered, not created again
    other = Tournament.objects.get(name="Other")
    boss2 = signed_in(world, "otherboss")
    job = job_of(boss2.post(f"/tournaments/{other.pk}/players/import/", {"file": upload(csv)}))
    assert (job.result["created"], job.result["matched"], job.result["entered"]) == (0, 2, 2)
    assert Player.objects.filter(name="Nora").count() == 1


@pytest.mark.django_db
def test_only_the_tournaments_directors_upload_into_it_pages_and_api(world: World):
    t = world.tournament
    for role in ("otherboss", "jana"):
        client = signed_in(world, role)
        assert client.get(f"/tournaments/{t.pk}/players/import/").status_code == 403
        response = client.post(f"/tournaments/{t.pk}/players/import/", {"file": upload(PLAYERS)})
        assert response.status_code == 403
        api = world.client(role).post(
            f"/api/tournaments/{t.pk}/players/import/", {"text": PLAYERS}, format="json"
        )
        assert api.status_code == 403
    assert Client().get(f"/tournaments/{t.pk}/players/import/").status_code == 302
    assert not Job.objects.exists() and not Player.objects.filter(name="Nora").exists()
    answer = world.client("boss").post(
        f"/api/tournaments/{t.pk}/players/import/", {"text": PLAYERS}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["entered"] == 1 and len(answer.json()["rejected"]) == 3
    # the list of players alone stays with staff
    staff_only = world.client("boss").post("/api/players/import/", {"text": PLAYERS}, format="json")
    assert staff_only.status_code == 403


@pytest.mark.django_db
def test_a_director_imports_their_export_as_a_new_tournament_they_direct(world: World):
    archive = tournament_archive(world.tournament)
    archive["tournament"]["directors"] = ["boss", "otherboss"]
    client = signed_in(world, "boss")
    assert client.get("/jobs/import/tournament/").status_code == 403  # not allowed yet
    client = signed_in(world, "boss", may_create=True)
    assert client.get("/jobs/import/tournament/").status_code == 200
    response = client.post(
        "/jobs/import/tournament/",
        {"file": upload(json.dumps(archive)), "name": "Kopie", "copy": "on"},
    )
    job = job_of(response)
    assert job.status == "done", job.error
    copy = Tournament.objects.get(name="Kopie")
    assert list(copy.directors.values_list("username", flat=True)) == ["boss"]
    assert job.result["directors_skipped"] == ["otherboss"]
    assert copy.entries.count() == world.tournament.entries.count()
    html = client.get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="/tournaments/{copy.pk}/"' in html and "otherboss" in html
    # the owner follows the job through the API too; another director does not see it
    assert world.client("boss").get(f"/api/jobs/{job.pk}/").status_code == 200
    assert world.client("jana").get(f"/api/jobs/{job.pk}/").status_code == 404
    # the API: the same rule
    refused = world.client("otherboss").post(
        "/api/tournaments/import/?copy=1", archive, format="json"
    )
    assert refused.status_code == 403
    answer = world.client("boss").post("/api/tournaments/import/?copy=1", archive, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["directors_skipped"] == ["otherboss"]
    new = Tournament.objects.get(pk=answer.json()["tournament"])
    assert list(new.directors.values_list("username", flat=True)) == ["boss"]
    # staff import keeps the archive's directors
    staff = world.client("staff").post("/api/tournaments/import/?copy=1", archive, format="json")
    kept = Tournament.objects.get(pk=staff.json()["tournament"])
    assert set(kept.directors.values_list("username", flat=True)) == {"staff", "boss", "otherboss"}


@pytest.mark.django_db
def test_a_director_who_is_not_staff_creates_no_account_through_an_import(played: World):
    """An archive naming people this site lacks (a director, a submitter, a decider) and
    people it has (eva submitted, karel decided): imported by a director who is not staff,
    through the page and the API, it creates no account and names no one's but theirs;
    the submitted results of others are left out and said so, the games are all there."""
    archive = tournament_archive(played.tournament)
    archive["tournament"]["directors"] = ["boss", "ghost-director"]
    [submission] = archive["series"][1]["submissions"]
    assert submission["submitted_by"] == "eva" and submission["decided_by"] == "karel"
    forged = json.loads(json.dumps(archive))
    forged["series"][1]["submissions"][0].update(submitted_by="ghost", decided_by="ghost2")
    accounts = set(User.objects.values_list("username", flat=True))
    client = signed_in(played, "boss", may_create=True)
    for n, sent in enumerate((archive, forged)):
        job = job_of(
            client.post("/jobs/import/tournament/", {"file": upload(json.dumps(sent)), "copy": "on",
                                                     "name": f"Kopie {n}"})
        )  # fmt: skip
        assert job.status == "done", job.error
        assert job.result["users_created"] == []
        assert job.result["submissions_skipped"] == 1
        assert job.result["directors_skipped"] == ["ghost-director"]
        copy = Tournament.objects.get(name=f"Kopie {n}")
        assert not Submission.objects.filter(series__tournament=copy).exists()
        assert list(copy.directors.values_list("username", flat=True)) == ["boss"]
        games = Game.objects.filter(series__tournament=played.tournament).count()
        assert Game.objects.filter(series__tournament=copy).count() == games
        html = client.get(f"/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "1 result submitted by others was not imported" in html
        assert job.result["authors_skipped"][0] in html
    answer = played.client("boss").post("/api/tournaments/import/?copy=1", forged, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["users_created"] == [] and body["submissions_skipped"] == 1
    assert body["authors_skipped"] == ["ghost"]
    assert set(User.objects.values_list("username", flat=True)) == accounts
    # staff import the archive as it is: the missing accounts are created inactive
    staff = played.client("staff").post("/api/tournaments/import/?copy=1", forged, format="json")
    assert staff.status_code == 201, staff.content
    assert sorted(staff.json()["users_created"]) == ["ghost", "ghost-director", "ghost2"]
    assert staff.json()["submissions_skipped"] == 0
    created = User.objects.filter(username__in=["ghost", "ghost2", "ghost-director"])
    assert [u.is_active or u.has_usable_password() for u in created] == [False] * 3
    kept = Submission.objects.get(series__tournament=staff.json()["tournament"])
    assert (kept.submitted_by.username, kept.decided_by.username) == ("ghost", "ghost2")


@pytest.mark.django_db
def test_a_directors_own_submission_and_decision_are_kept_in_their_import(played: World):
    archive = tournament_archive(played.tournament)
    archive["series"][1]["submissions"][0].update(submitted_by="boss", decided_by="karel")
    signed_in(played, "boss", may_create=True)
    answer = played.client("boss").post("/api/tournaments/import/?copy=1", archive, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["submissions_skipped"] == 0
    kept = Submission.objects.get(series__tournament=answer.json()["tournament"])
    assert kept.submitted_by == played.users["boss"] and kept.decided_by is None
    assert kept.note == "I won" and kept.status == "rejected"
