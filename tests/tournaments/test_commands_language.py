"""import_tournament, export_tournament, recompute and import_records speak the
command's language (the active one: settings.LANGUAGE_CODE, Czech, unless told
otherwise), their summaries, status words, path lines and refusals alike. Each command
runs as a user runs it, through call_command, in Czech and in English: the English says
what it always said, the Czech holds none of its words."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import translation

from tests.helpers import run_django
from tests.tournaments.helpers import World, a_record, next_colours
from tournaments.models import Club, Job, Player, Series, Tournament
from tournaments.services.results import game_enter_record

pytestmark = pytest.mark.django_db

LANGUAGES = ["cs", "en"]


def run(language: str, *args: str) -> tuple[str, str]:
    """A command's standard output and error stream, said in ``language``."""
    out, err = StringIO(), StringIO()
    with translation.override(language):
        call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refusal(language: str, *args: str) -> str:
    """The CommandError a command fails with, said in ``language``."""
    with translation.override(language), pytest.raises(CommandError) as refused:
        call_command(*args, stdout=StringIO(), stderr=StringIO())
    return str(refused.value)


def says(language: str, text: str, english: tuple[str, ...]) -> None:
    """In English every old fragment is there; in Czech none of them is."""
    if language == "en":
        missing = [words for words in english if words not in text]
        assert not missing, (missing, text)
    else:
        found = [words for words in english if words in text]
        assert not found, (found, text)


# export_tournament and import_tournament -------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_export_then_import_into_an_empty_installation(
    played: World, tmp_path: Path, language: str
) -> None:
    path = tmp_path / "t.json"
    out, err = run(language, "export_tournament", str(played.tournament.pk), "-o", str(path))
    assert out == "" and "Přebor: " in err and " 2 " in err
    says(language, err, ("series written",))
    # another installation: its players and accounts are created
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    User.objects.all().delete()

    out, _ = run(language, "import_tournament", str(path))

    pk = Tournament.objects.get().pk
    assert f" {pk} Přebor: " in out and " 4 " in out and " 0" in out and "boss" in out
    says(language, out, ("tournament", "4 players created", "0 matched",
                         "inactive accounts created"))  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_import_as_a_copy_matches_the_players(played: World, tmp_path: Path, language: str) -> None:
    path = tmp_path / "t.json"
    run("en", "export_tournament", str(played.tournament.pk), "-o", str(path))

    out, _ = run(language, "import_tournament", str(path), "--copy", "--name", "Kopie")

    assert "Kopie: " in out and " 4" in out
    says(language, out, ("tournament", "0 players created", "4 matched"))
    assert "accounts" not in out and "účt" not in out  # none was created


@pytest.mark.parametrize("language", LANGUAGES)
def test_export_and_import_refusals(played: World, tmp_path: Path, language: str) -> None:
    missing = tmp_path / "no-such.json"
    message = refusal(language, "import_tournament", str(missing))
    assert str(missing) in message
    says(language, message, ("cannot be read",))

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"hello": 1}), encoding="utf-8")
    message = refusal(language, "import_tournament", str(bad))
    assert message.startswith(f"{bad}: ")
    says(language, message, ("not a tournament archive",))

    good = tmp_path / "t.json"
    run("en", "export_tournament", str(played.tournament.pk), "-o", str(good))
    message = refusal(language, "import_tournament", str(good), "--user", "nobody")
    assert "nobody" in message
    says(language, message, ("there is no user",))

    unwritable = tmp_path / "no-such-folder" / "t.json"
    message = refusal(
        language, "export_tournament", str(played.tournament.pk), "-o", str(unwritable)
    )
    assert str(unwritable) in message
    says(language, message, ("cannot be written",))
    message = refusal(language, "export_tournament", "999999")
    assert "999999" in message
    says(language, message, ("there is no tournament",))


def test_manage_py_speaks_czech_unless_told_otherwise(tmp_path: Path) -> None:
    """As a user runs it: a fresh manage.py process, no language chosen (LANGUAGE_CODE)."""
    missing = tmp_path / "no-such.json"

    done = run_django(["manage.py", "import_tournament", str(missing)], DJANGO_DEBUG="1")

    assert done.returncode == 1 and f"{missing} " in done.stderr, done.stderr
    says("cs", done.stderr, ("cannot be read",))


# recompute ------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_recompute_says_its_summary_and_status_words(played: World, language: str) -> None:
    Series.objects.filter(pk=played.series.pk).update(score1=0, score2=0)

    out, _ = run(language, "recompute", "--tournament", str(played.tournament.pk))

    assert out.count("2") == 3 and "1" in out
    says(language, out, ("2 series recomputed (2 finished), 1 changed",
                         "ratings recomputed from 2 rated series"))  # fmt: skip
    if language == "cs":
        assert "dohráno: 2" in out  # the status named by its Czech label
        assert not any(word in out for word in ("series", "finished", "changed", "rated"))

    empty, _ = run(language, "recompute", "--tournament", str(played.other.pk))
    says(language, empty, ("0 series recomputed (none), 0 changed",))


@pytest.mark.parametrize("language", LANGUAGES)
def test_recompute_in_the_background_names_its_job_and_status(world: World, language: str) -> None:
    out, _ = run(language, "recompute", "--background")

    job = Job.objects.get(kind="recompute")
    assert str(job.pk) in out
    says(language, out, (f"job {job.pk}: done",))
    if language == "cs":
        assert not any(word in out for word in ("job", "done"))


# import_records -------------------------------------------------------------------------


def two_games(series: Series) -> tuple[str, str]:
    """Two legal games of the series, one after the other (the second's colours follow
    the first's result: found by entering the first in a savepoint rolled back)."""
    white, black = next_colours(series)
    first = a_record(white.name, black.name, seed=11)
    with transaction.atomic():
        game_enter_record(series=series, record=first)
        white, black = next_colours(series)
        transaction.set_rollback(True)
    return first, a_record(white.name, black.name, seed=12)


@pytest.mark.parametrize("language", LANGUAGES)
def test_import_records_path_lines_and_summary(world: World, tmp_path: Path, language: str) -> None:
    first, second = two_games(world.series)
    paths = [tmp_path / "a.nrd", tmp_path / "b.nrd"]
    for path, text in zip(paths, (first, second), strict=True):
        path.write_text(text, encoding="utf-8")

    out, _ = run(language, "import_records", str(world.series.pk), *map(str, paths))

    lines = out.splitlines()
    assert lines[0] == f"{paths[0]}:" and lines[2] == f"{paths[1]}:"
    world.series.refresh_from_db()
    assert world.series.games.count() == 2
    score = f"Jana - Petr: {world.series.score1}-{world.series.score2}, "
    assert score in lines[-1]
    says(language, lines[-1], ("2 games entered; series ", "in play"))
    if language == "cs":
        assert not any(word in out for word in ("game", "entered", "series", "won"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_import_records_refusals(world: World, tmp_path: Path, language: str) -> None:
    first, second = two_games(world.series)
    bad = second.replace("\n1. ", "\n1. 7/x ", 1)
    good_path, bad_path = tmp_path / "a.nrd", tmp_path / "b.nrd"
    good_path.write_text(first, encoding="utf-8")
    bad_path.write_text(bad, encoding="utf-8")

    message = refusal(language, "import_records", str(world.series.pk), str(good_path),
                      str(bad_path))  # fmt: skip

    assert message.startswith(f"{bad_path}: ") and world.series.games.count() == 1
    says(language, message, ("game 1 was refused: line ", "(1 game entered before it)"))

    missing = tmp_path / "no-such.nrd"
    message = refusal(language, "import_records", str(world.series.pk), str(missing))
    assert str(missing) in message
    says(language, message, ("cannot be read",))
