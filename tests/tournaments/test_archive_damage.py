"""A damaged archive is refused in the reader's language, saying where and what
(tournaments/services/archive_damage.py), never with Python's or the database's own text
("KeyError 'tournament'", 'duplicate key ... "entry_once"'); a failed import of an
archive already on the site offers "Import it as a copy", not "Start it again"."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import World, a_record, make_world
from tests.tournaments.jobs_data import started, upload
from tournaments.models import Job, Tournament
from tournaments.services.exports import tournament_archive
from tournaments.services.results import game_enter_record

pytestmark = pytest.mark.django_db

# what Python, the driver or the database would say in their own words
RAW = re.compile(
    r"Error\b|duplicate key|UNIQUE constraint|NOT NULL|violates|Traceback|"
    r"object has no attribute|not subscriptable|invalid literal|is missing|"
    r"the archive|a value|not valid|wrong type"
)


def staff(world: World, language: str = "cs") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.users["staff"])
    return client


def an_archive(world: World) -> dict[str, Any]:
    s = world.series
    game_enter_record(series=s, record=a_record(s.player1.name, s.player2.name, seed=3))
    return tournament_archive(world.tournament)


def imported(client: Client, archive: Any, **fields: str) -> Job:
    text = archive if isinstance(archive, str) else json.dumps(archive, ensure_ascii=False)
    return started(client.post("/jobs/import/tournament/", {"file": upload(text), **fields}))


def test_a_missing_tournament_is_named_in_czech(world: World) -> None:
    archive = an_archive(world)
    del archive["tournament"]
    job = imported(staff(world), archive, copy="on")
    assert job.status == "failed"
    assert job.error == "Archiv je poškozený (nastavení turnaje): chybí pole „tournament“"
    assert job.error_code == "archive-damaged-at"


def test_an_entry_twice_is_named_instead_of_the_databases_words(world: World) -> None:
    archive = an_archive(world)
    archive["entries"].append(dict(archive["entries"][0]))
    job = imported(staff(world, "en"), archive, copy="on")
    ref = archive["entries"][0]["player"]
    assert job.error == f"player {ref} is entered twice"
    assert "entry_once" not in job.error


def test_a_bad_value_names_its_series_and_game(world: World) -> None:
    archive = an_archive(world)
    del archive["series"][0]["games"][0]["corrections"]
    job = imported(staff(world, "en"), archive, copy="on")
    ref = archive["series"][0]["ref"]
    expected = f"the archive is damaged at series {ref}, game 1: the field “corrections” is missing"
    assert job.error == expected


def test_an_archive_on_the_site_already_is_offered_as_a_copy(world: World) -> None:
    archive = an_archive(world)
    client = staff(world, "en")
    again = imported(client, archive)  # its tournament is the world's
    assert again.status == "failed" and again.error_code == "archive-already-here"
    html = client.get(f"/jobs/{again.pk}/").content.decode()
    assert "Import it as a copy" in html and "Start it again" not in html
    response = client.post(f"/jobs/{again.pk}/again/", {"copy": "1"})
    copy_job = Job.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[1]))
    assert copy_job.status == "done" and copy_job.params["copy"] is True
    assert Tournament.objects.filter(name__endswith="(copy)").count() == 1
    # a damaged archive fails the same way again: neither is offered
    broken = imported(client, "{}")
    html = client.get(f"/jobs/{broken.pk}/").content.decode()
    assert "Import it as a copy" not in html and "Start it again" not in html


# Hypothesis: damage a real archive anywhere -------------------------------------------

JUNK = st.sampled_from([None, "", "x", -1, 10**30, 1.5, True, [], {}, [1], {"a": 1}])


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path] if path else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:3]):
            found += _paths(inner, (*path, index))
    return found


def _damaged(archive: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    damaged = copy.deepcopy(archive)
    paths = [p for p in _paths(damaged) if p[0] not in ("format", "version")]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent = damaged
        try:
            for key in path[:-1]:
                parent = parent[key]
            how = data.draw(st.sampled_from(["delete", "replace", "duplicate"]))
            if how == "delete" and isinstance(parent, dict):
                del parent[path[-1]]
            elif how == "duplicate" and isinstance(parent, list):
                parent.append(copy.deepcopy(parent[path[-1]]))
            else:  # a copy: sampled_from gives the same {} and [] every time, and a
                # later change inside one made it contain itself (json: circular reference)
                parent[path[-1]] = copy.deepcopy(data.draw(JUNK))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change took that path away
    return damaged


@settings(
    max_examples=40, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip
@given(data=st.data())
def test_a_damaged_archive_is_never_refused_in_untranslated_words(data: st.DataObject) -> None:
    """In Czech, whatever is damaged: the import is done, or refused with a code and a
    Czech message without Python's or the database's words."""
    from django.db import transaction

    with transaction.atomic():
        world = make_world()
        archive = an_archive(world)
        damaged = _damaged(archive, data)
        job = imported(staff(world), damaged, copy="on")
        if job.status == "failed":
            assert job.error_code, job.error
            assert not RAW.search(job.error), job.error
        transaction.set_rollback(True)
