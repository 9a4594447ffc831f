"""Small things of the pages: the pip counts on the board say what they are, and the rating
chart has values, dates and a focusable point per rated series."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine import BLACK, WHITE, Position
from tests.tournaments.pages_data import round_robin
from tournaments.board import board_svg
from tournaments.models import RatingChange
from tournaments.selectors.charts import nice_ticks, rating_chart

EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_the_pip_counts_on_the_board_are_labelled() -> None:
    pos = Position.start("long")
    with translation.override("en"):
        svg = board_svg(pos)
    white, black = pos.pips(WHITE), pos.pips(BLACK)
    assert 'class="pips-label">pips</text>' in svg
    assert f"<title>white: {white} pips</title>{white}</text>" in svg
    assert f"<title>black: {black} pips</title>{black}</text>" in svg
    assert f"pips: white {white} · black {black}" in svg  # the board's accessible name


@pytest.mark.parametrize(
    ("low", "high"), [(1487.3, 1523.9), (1500.0, 1500.0), (900.0, 2100.0), (1499.9, 1500.2)]
)
def test_chart_values_are_round_and_cover_the_ratings(low: float, high: float) -> None:
    ticks = nice_ticks(low, high)
    assert ticks[0] <= low and ticks[-1] >= high and 3 <= len(ticks) <= 7
    steps = {round(b - a, 6) for a, b in pairwise(ticks)}
    assert len(steps) == 1


@pytest.mark.django_db
def test_the_rating_chart_has_axes_dates_and_a_point_per_series(client: Client) -> None:
    t = round_robin(4)
    change = RatingChange.objects.filter(series__tournament=t).select_related(
        "series__tournament", "series__player1", "series__player2", "player"
    ).first()  # fmt: skip
    assert change is not None
    history = list(RatingChange.objects.filter(player=change.player).select_related(
        "series__tournament", "series__player1", "series__player2"
    ).order_by("at"))  # fmt: skip
    chart = rating_chart(history)
    assert chart is not None and len(chart.points) == len(history)
    ys = [v.position for v in chart.values]
    for p, h in zip(chart.points, history, strict=True):
        assert min(ys) <= p.y <= max(ys) and p.value == h.after  # inside the value axis
    html = client.get(reverse("tournaments:player", args=[change.player_id]), **EN).content
    text = html.decode()
    point = re.search(r'<a href="/series/(\d+)/" class="point" aria-label="([^"]+)"><title>', text)
    assert point is not None and int(point.group(1)) == history[0].series_id
    assert f"{t.name} ({history[0].series})" in point.group(2)
    assert f"rating {history[0].after:.1f}" in point.group(2)
    assert 1 <= text.count('class="axis date') <= min(len(history), 4)
    assert 'class="axis">' in text  # values on the left
    assert "<script>" not in text and 'src="/static/js/rating_chart.js"' in text
    czech = client.get(
        reverse("tournaments:player", args=[change.player_id]), HTTP_ACCEPT_LANGUAGE="cs"
    ).content.decode()
    svg = czech[czech.index('<svg id="rating-chart-') : czech.index("</svg>")]
    coordinates = re.findall(r' (?:c?[xy][12]?|points)="([^"]*)"', svg)
    assert coordinates and not [c for c in coordinates if "," in c and " " not in c]
