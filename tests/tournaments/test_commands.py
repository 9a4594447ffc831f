"""The management commands, through call_command, on the demo data (loaded once for the
module): load_demo, verify_games, import_records and recompute - on PostgreSQL and SQLite."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from io import StringIO
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation
from pytest_django import DjangoDbBlocker

from engine import read_records, replay
from engine.selfplay import random_game
from tournaments.management.demo import demo_delete
from tournaments.models import (
    Club,
    Game,
    Job,
    Player,
    PlayerRating,
    RatingChange,
    Series,
    SeriesStatus,
    Tournament,
)


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """These tests read the refusals' English words (their msgids): said in English."""
    with translation.override("en"):
        yield


CLUB = "Klub vrhcábů Brno"
PREBOR = "Klubový přebor 2026"
PODZIM = "Podzimní turnaj 2026"
KNOCKOUT = "Vánoční vyřazovací turnaj 2026"


def run(*args: str) -> str:
    """A command's output, in English (commands speak the active language, Czech unless
    told otherwise; these tests read the English words)."""
    out = StringIO()
    with translation.override("en"):
        call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[str]:
    """The demo, loaded once; each test runs in a transaction rolled back after it."""
    with django_db_blocker.unblock():
        output = run("load_demo")
        yield output
        demo_delete()
        assert not Job.objects.exists(), "the demo's jobs outlived it"


def counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        Player.objects.count(),
        Tournament.objects.count(),
        Series.objects.count(),
        Game.objects.count(),
        RatingChange.objects.count(),
    )


def a_record(white: str, black: str, *, seed: int) -> str:
    text = random_game("long", random.Random(seed))
    text = text.replace('[White "Random A"]', f'[White "{white}"]')
    return text.replace('[Black "Random B"]', f'[Black "{black}"]')


def podzim_series(round_number: int, table: int) -> Series:
    return Series.objects.select_related("player1", "player2").get(
        tournament__name=PODZIM, round__number=round_number, table=table
    )


# load_demo -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_load_demo_builds_the_club_and_a_finished_round_robin(demo: str) -> None:
    assert f"{PREBOR} " in demo and "45 series" in demo
    club = Club.objects.get(name=CLUB)
    assert club.players.count() == 10
    prebor = Tournament.objects.get(name=PREBOR)
    assert (prebor.variant, prebor.format, prebor.series_length) == ("long", "round_robin", 3)
    assert prebor.first_move == "loser" and prebor.entries.count() == 10
    series = list(prebor.series.select_related("round"))
    assert len(series) == 45 and {s.status for s in series} == {SeriesStatus.FINISHED}
    assert all(s.winner_id is not None for s in series)
    by_round = {r.number: r.series.count() for r in prebor.rounds.all()}
    assert by_round == {n: 5 for n in range(1, 10)}
    met = sorted(tuple(sorted((s.player1_id, s.player2_id))) for s in series)
    ids = sorted(club.players.values_list("pk", flat=True))
    assert met == sorted(combinations(ids, 2))  # everyone meets everyone once
    games = Game.objects.filter(series__tournament=prebor)
    assert games.count() >= 2 * 45
    assert not games.filter(verified=False).exists() and not games.filter(record="").exists()
    sample = games.order_by("?").first()
    assert sample is not None and replay(read_records(sample.record)[0]).ok
    # the ratings follow every finished series
    assert RatingChange.objects.filter(series__tournament=prebor).count() == 2 * 45


@pytest.mark.django_db
def test_load_demo_builds_a_tournament_in_progress(demo: str) -> None:
    podzim = Tournament.objects.get(name=PODZIM)
    status = {(s.round.number, s.table): s.status for s in podzim.series.select_related("round")}
    assert podzim.entries.count() == 6
    assert {v for (r, _), v in status.items() if r == 1} == {SeriesStatus.FINISHED}
    assert sorted(v for (r, _), v in status.items() if r == 2) == sorted(
        [SeriesStatus.FINISHED, SeriesStatus.IN_PLAY, SeriesStatus.SCHEDULED]
    )
    assert {v for (r, _), v in status.items() if r >= 3} == {SeriesStatus.SCHEDULED}
    assert not Game.objects.filter(series__tournament=podzim, verified=False).exists()


@pytest.mark.django_db
def test_load_demo_builds_a_knockout_in_progress(demo: str) -> None:
    knockout = Tournament.objects.get(name=KNOCKOUT)
    status = {s.slot: s.status for s in knockout.series.all()}
    assert knockout.format == "single_elimination" and knockout.entries.count() == 7
    assert status == {
        "W1-1": SeriesStatus.FINISHED, "W1-2": SeriesStatus.FINISHED,
        "W1-3": SeriesStatus.FINISHED, "W1-4": SeriesStatus.FINISHED,
        "W2-1": SeriesStatus.IN_PLAY, "W2-2": SeriesStatus.FINISHED,
    }  # fmt: skip
    assert knockout.series.get(slot="W1-1").player2 is None  # the top seed's bye


@pytest.mark.django_db
def test_a_second_load_demo_changes_nothing(demo: str) -> None:
    before = counts()

    output = run("load_demo")

    assert "exists already" in output
    assert counts() == before


@pytest.mark.django_db
def test_load_demo_force_loads_it_again(demo: str) -> None:
    before = counts()
    old_club = Club.objects.get(name=CLUB).pk

    output = run("load_demo", "--force")

    assert "Loaded the demo club" in output
    assert counts() == before
    assert Club.objects.get(name=CLUB).pk != old_club
    # the old demo's jobs went with it (they stayed, their tournament gone, and were seen
    # by every later test of the jobs)
    assert not Job.objects.filter(tournament__isnull=True).exists()


# verify_games ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_verify_games_finds_every_demo_game_ok(demo: str) -> None:
    total = Game.objects.exclude(record="").count()

    output = run("verify_games")

    assert f"{total} games with a record: {total} ok, 0 failed; 0 updated" in output


@pytest.mark.django_db
def test_verify_games_reports_a_corrupted_record(demo: str) -> None:
    game = Game.objects.filter(series__tournament__name=PREBOR, kind="oin").first()
    assert game is not None
    side = "white" if game.winner_id == game.white_id else "black"
    other = "black" if side == "white" else "white"
    wrong = game.record.replace(f'[Result "{side} oin"]', f'[Result "{other} oin"]')
    assert wrong != game.record
    Game.objects.filter(pk=game.pk).update(record=wrong)
    out = StringIO()

    with pytest.raises(CommandError, match="1 game"):
        call_command("verify_games", stdout=out, stderr=StringIO())

    total = Game.objects.exclude(record="").count()
    output = out.getvalue()
    assert f"{total} games with a record: {total - 1} ok, 1 failed; 1 updated" in output
    assert f"game {game.pk} (" in output and "line " in output
    game.refresh_from_db()
    assert not game.verified and game.verification_note["code"] == "refused"
    with translation.override("en"):
        assert "line " in game.verification
    # another tournament's games are not concerned
    podzim = Tournament.objects.get(name=PODZIM)
    assert "0 failed" in run("verify_games", "--tournament", str(podzim.pk))


@pytest.mark.django_db
def test_verify_games_of_an_unknown_tournament_fails(demo: str) -> None:
    with pytest.raises(CommandError, match="no tournament with id 999999"):
        run("verify_games", "--tournament", "999999")


# import_records -------------------------------------------------------------------------


@pytest.mark.django_db
def test_import_records_enters_the_games_of_a_file(demo: str, tmp_path: Path) -> None:
    series = podzim_series(3, 1)
    assert series.player1 is not None and series.player2 is not None
    first = a_record(series.player1.name, series.player2.name, seed=1)
    path = tmp_path / "game.nrd"
    path.write_text(first, encoding="utf-8")

    output = run("import_records", str(series.pk), str(path))

    side, kind = read_records(first)[0].tag("Result").split()
    assert f"game 1: ok, {side} won ({kind})" in output
    series.refresh_from_db()
    assert series.status == SeriesStatus.IN_PLAY and series.games.count() == 1
    game = series.games.get()
    assert game.verified and game.white_id == series.player1_id


@pytest.mark.django_db
def test_import_records_stops_at_a_refused_game_with_its_line_and_column(
    demo: str, tmp_path: Path
) -> None:
    series = podzim_series(3, 2)
    assert series.player1 is not None and series.player2 is not None
    good = a_record(series.player1.name, series.player2.name, seed=2)
    bad = a_record(series.player2.name, series.player1.name, seed=3)  # any white: wrong below
    lines = bad.splitlines()
    first_turn = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    moves = lines[first_turn].split()[2]  # "1. 53: 24/19/16 ..." -> "24/19/16"
    lines[first_turn] = lines[first_turn].replace(moves, "24/10", 1)
    text = good + "\n" + "\n".join(lines) + "\n"
    file_line = good.count("\n") + 1 + first_turn + 1
    path = tmp_path / "games.nrd"
    path.write_text(text, encoding="utf-8")

    with pytest.raises(CommandError) as refused:
        run("import_records", str(series.pk), str(path))

    message = str(refused.value)
    assert re.search(rf"game 2 was refused: line {file_line}, col 4: turn 1 ", message), message
    assert "24/10" in message and "1 game entered before it" in message
    assert series.games.count() == 1  # the first game stays, the refused one changed nothing


@pytest.mark.django_db
def test_import_records_refuses_a_bad_file_and_changes_nothing(demo: str, tmp_path: Path) -> None:
    series = podzim_series(3, 3)
    assert series.player1 is not None and series.player2 is not None
    text = a_record(series.player1.name, series.player2.name, seed=4)
    text = text.replace("\n1. ", "\n1. 7/x ", 1)
    path = tmp_path / "bad.nrd"
    path.write_text(text, encoding="utf-8")
    line = next(n for n, x in enumerate(text.splitlines(), start=1) if x.startswith("1. "))
    before = counts()

    with pytest.raises(CommandError, match=rf"game 1 was refused: line {line}, col 4: "):
        run("import_records", str(series.pk), str(path))

    assert counts() == before
    series.refresh_from_db()
    assert series.status == SeriesStatus.SCHEDULED


@pytest.mark.django_db
def test_import_records_reads_within_the_record_limits_as_every_upload(
    demo: str, tmp_path: Path, settings: Any
) -> None:
    """The command once read with no limits and its own loop; it reads as
    the uploads do (services/record_files.py, records_read): over a limit, nothing is
    entered, with the upload's own words."""
    settings.NARDY_RECORD_LIMITS = {"max_games": 1}
    series = podzim_series(3, 3)
    assert series.player1 is not None and series.player2 is not None
    one = a_record(series.player1.name, series.player2.name, seed=6)
    path = tmp_path / "two.nrd"
    path.write_text(one + "\n" + one, encoding="utf-8")
    before = counts()

    with pytest.raises(CommandError, match="the record is over the limit max_games = 1"):
        run("import_records", str(series.pk), str(path))

    assert counts() == before


@pytest.mark.django_db
def test_import_records_into_a_finished_series_or_an_unknown_one_fails(
    demo: str, tmp_path: Path
) -> None:
    series = podzim_series(1, 1)
    assert series.player1 is not None and series.player2 is not None
    path = tmp_path / "late.nrd"
    path.write_text(a_record(series.player1.name, series.player2.name, seed=5), "utf-8")

    with pytest.raises(CommandError, match="no more games can be entered"):
        run("import_records", str(series.pk), str(path))
    with pytest.raises(CommandError, match="no series with id 999999"):
        run("import_records", "999999", str(path))


# recompute ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_recompute_puts_a_tampered_series_right_and_keeps_the_ratings(demo: str) -> None:
    ratings = dict(PlayerRating.objects.values_list("pk", "rating"))
    series = Series.objects.filter(tournament__name=PREBOR).first()
    assert series is not None
    score = (series.score1, series.score2)
    Series.objects.filter(pk=series.pk).update(score1=0, score2=0)

    output = run("recompute")

    # 45 + 15 round-robin series and the knockout's 6 (its bye stays finished: decided
    # without games, it is not recomputed from none)
    assert "66 series recomputed (54 finished, 2 in play, 10 scheduled), 1 changed" in output
    assert "ratings recomputed from 53 rated series" in output
    series.refresh_from_db()
    assert (series.score1, series.score2) == score
    after = dict(PlayerRating.objects.values_list("pk", "rating"))
    assert after.keys() == ratings.keys()
    assert all(after[k] == pytest.approx(ratings[k]) for k in ratings)


@pytest.mark.django_db
def test_recompute_one_tournament(demo: str) -> None:
    podzim = Tournament.objects.get(name=PODZIM)

    output = run("recompute", "--tournament", str(podzim.pk))

    assert output.startswith("15 series recomputed (4 finished, 1 in play, 10 scheduled)")
