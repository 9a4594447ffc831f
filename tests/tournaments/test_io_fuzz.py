"""Hostile CSV and JSON through the import endpoints never make a 5xx (property
tests with hypothesis: random unicode, NUL bytes, formula prefixes, huge fields, wrong
columns, JSON of any shape)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import World
from tournaments.services.exports import tournament_archive

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

cells = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["=cmd|' /C calc'!A0", "+1", "-1.5", "@SUM(1)", "\t", "\r", "\x00", ""]),
    st.text(st.characters(codec="utf-8"), max_size=5).map(lambda t: t * 60),  # long
    st.integers().map(str),
    st.floats(allow_nan=True).map(str),
)
headers = st.one_of(
    st.just(["name", "club", "rating"]),
    st.lists(st.sampled_from(["name", "club", "rating", "NAME", "x", "", "\x00"]), max_size=5),
)


@st.composite
def csv_files(draw: Any) -> bytes:
    header = draw(headers)
    rows = draw(st.lists(st.lists(cells, max_size=5), max_size=8))
    out = io.StringIO()
    writer = csv.writer(out)
    for row in [header, *rows]:
        writer.writerow(row)
    data = out.getvalue().encode("utf-8")
    return draw(st.sampled_from([data, data + draw(st.binary(max_size=20)), data[:-3]]))


def upload(data: bytes, name: str) -> io.BytesIO:
    file = io.BytesIO(data)
    file.name = name
    return file


@FUZZ
@given(data=csv_files())
def test_hostile_csv_never_makes_a_5xx(world: World, data: bytes):
    staff = world.client("staff")
    response = staff.post("/api/players/import/", {"file": upload(data, "p.csv")}, "multipart")
    assert response.status_code < 500, response.content
    text = data.decode("utf-8", "replace")
    answer = staff.post("/api/players/import/", {"text": text}, format="json")
    assert answer.status_code < 500, answer.content


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(body=json_values)
def test_hostile_json_never_makes_a_5xx(world: World, body: Any):
    for role, url, key in (
        ("staff", "/api/players/import/", "text"),
        ("boss", f"/api/series/{world.series.pk}/records/", "record"),
        ("staff", "/api/tournaments/import/", "format"),
    ):
        client = world.client(role)
        for payload in (body, {key: body}):
            response = client.post(url, payload, format="json")
            assert response.status_code < 500, (url, payload, response.content)


@st.composite
def damaged_archives(draw: Any, archive: dict[str, Any]) -> dict[str, Any]:
    """The exported archive with a few values replaced anywhere by hostile ones."""
    data = json.loads(json.dumps(archive))
    for _ in range(draw(st.integers(1, 3))):
        node: Any = data
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            key = draw(st.sampled_from(keys))
            if isinstance(node[key], dict | list) and node[key] and draw(st.booleans()):
                node = node[key]
                continue
            if key not in ("format", "version"):
                node[key] = draw(json_values)
            break
    return data


def test_damaged_archives_never_make_a_5xx(played: World):
    archive = tournament_archive(played.tournament)
    staff = played.client("staff")

    @FUZZ
    @given(damaged=damaged_archives(archive))
    def check(damaged: dict[str, Any]) -> None:
        response = staff.post("/api/tournaments/import/", damaged, format="json")
        assert response.status_code < 500, response.content

    check()
