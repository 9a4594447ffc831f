"""GNU Backgammon's analysis of a short-backgammon game, run as a job through the game
page: the stored error and luck rates are the figures gnubg prints for the game.

Runs where gnubg is installed (``make test`` installs it); skipped elsewhere."""

from __future__ import annotations

import datetime
import os
import random
import re
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from engine import read_records
from engine.matfile import write_mat
from engine.selfplay import random_game
from tests.tournaments.pages_data import director
from tournaments.models import GameAnalysis, Job, JobStatus, Player, Series
from tournaments.services.analysis import gnubg_path
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_enter_record
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db


def short_game():
    t = tournament_create(
        name="Short cup", start_date=datetime.date(2026, 5, 1), format="round_robin",
        series_length=1, variant="short",
    )  # fmt: skip
    boss = director("analyst")
    t.directors.add(boss)
    for name in ("Iva", "Jan"):
        entry_register(tournament=t, player=Player.objects.create(name=name))
    round_generate(tournament=t)
    series = Series.objects.select_related("player1", "player2").get(tournament=t)
    text = random_game("short", random.Random(7))
    text = text.replace("Random A", series.player1.name).replace("Random B", series.player2.name)
    return boss, game_enter_record(series=series, record=text)


def printed_by_gnubg(record: str, tmp: Path) -> str:
    """gnubg's own statistics of the game, run here independently of the service."""
    (tmp / "home" / ".gnubg").mkdir(parents=True)
    (tmp / "g.mat").write_text(write_mat(read_records(record)[:1]), encoding="utf-8")
    (tmp / "c").write_text(
        f"set display off\nimport mat {tmp / 'g.mat'}\nanalyse match\nshow statistics match\n"
    )
    program = gnubg_path()
    assert program is not None
    return subprocess.run(
        [program, "-t", "-q", "-c", str(tmp / "c")], stdin=subprocess.DEVNULL, text=True,
        capture_output=True, env={**os.environ, "HOME": str(tmp / "home")}, timeout=300,
    ).stdout  # fmt: skip


@pytest.mark.gnubg  # skipped without gnubg, or stops the run (tests/conftest.py)
def test_analyse_action_stores_gnubgs_error_and_luck_rates(client: Client, tmp_path: Path):
    boss, game = short_game()
    client.force_login(boss)
    page = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Analyse with GNU Backgammon" in page.content.decode()
    response = client.post(reverse("tournaments:game_analyse", args=[game.pk]))
    assert response.status_code == 302
    job = Job.objects.get()
    assert job.status == JobStatus.DONE, job.error
    stored = GameAnalysis.objects.get(game=game)
    printed = printed_by_gnubg(game.record, tmp_path)
    error_line = [line for line in printed.splitlines() if line.startswith("Error rate mEMG")][-1]
    luck_line = [line for line in printed.splitlines() if line.startswith("Luck rate mEMG")][-1]
    numbers = r"\s+([+-]?[\d.]+)\s+\([^)]*\)\s+([+-]?[\d.]+)"
    e = re.search(r"Error rate mEMG \((?:MWC|Points)\)" + numbers, error_line)
    lk = re.search(r"Luck rate mEMG \((?:MWC|Points)\)" + numbers, luck_line)
    assert e is not None and lk is not None
    assert (stored.white_error_rate, stored.black_error_rate) == (
        float(e.group(1)), float(e.group(2)),
    )  # fmt: skip
    assert (stored.white_luck_rate, stored.black_luck_rate) == (
        float(lk.group(1)), float(lk.group(2)),
    )  # fmt: skip
    page = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Luck rate (GNU Backgammon" in page.content.decode()
    api = client.get(f"/api/games/{game.pk}/stats/").json()
    assert api["analysis"]["white_luck_rate"] == stored.white_luck_rate


def test_analyse_is_not_offered_without_gnubg(client: Client, settings):
    settings.GNUBG = "/nonexistent/gnubg"
    boss, game = short_game()
    client.force_login(boss)
    page = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Analyse with GNU Backgammon" not in page.content.decode()
    assert client.post(reverse("tournaments:game_analyse", args=[game.pk])).status_code == 404


def test_only_directors_analyse(client: Client):
    _, game = short_game()
    client.force_login(director("someone-else"))
    assert client.post(reverse("tournaments:game_analyse", args=[game.pk])).status_code == 403


@pytest.mark.skipif(gnubg_path() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_director_analyses_a_whole_tournament_again(client: Client):
    boss, game = short_game()
    client.force_login(boss)
    t = game.series.tournament
    page = client.get(reverse("tournaments:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Analyse every game again" in page.content.decode()
    url = reverse("tournaments:tournament_job", args=[t.pk, "games_analyse"])
    response = client.post(url, HTTP_ACCEPT_LANGUAGE="cs")
    job = Job.objects.get()
    assert response.status_code == 302 and job.status == JobStatus.DONE, job.error
    assert job.result["analysed"] == 1 and job.result["failed"] == 0
    assert GameAnalysis.objects.get(game=game).source == "gnubg"
    shown = client.get(reverse("tournaments:job", args=[job.pk]), HTTP_ACCEPT_LANGUAGE="cs")
    assert "Analyzované partie: 1; nepodařilo se: 0." in shown.content.decode()


def test_nothing_to_analyse_a_variant_with_no_analyser(client: Client, settings):
    settings.GNUBG = "/nonexistent/gnubg"  # short backgammon without gnubg: nobody
    boss, game = short_game()
    client.force_login(boss)
    t = game.series.tournament
    page = client.get(reverse("tournaments:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Analyse every game again" not in page.content.decode()
    url = reverse("tournaments:tournament_job", args=[t.pk, "games_analyse"])
    assert client.post(url).status_code == 404
    assert not Job.objects.exists()
