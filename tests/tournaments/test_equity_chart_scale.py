"""The equity chart has a scale: the points of equity on the left (+1, 0, -1, in the
reader's numbers) and the turns' numbers below; before, only "white" and "black"."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.pages_data import recorded_game, round_robin
from tournaments.models import GameAnalysis
from tournaments.selectors.analysis import _chart

pytestmark = pytest.mark.django_db


def _turns(count: int, swing: float) -> list[dict[str, Any]]:
    return [
        {"index": i, "turn": i // 2 + 1, "side": "white" if i % 2 == 0 else "black", "played": "x",
         "equity": (swing if i % 4 < 2 else -swing) * 1000, "mark": None}
        for i in range(count)
    ]  # fmt: skip


def test_the_chart_has_levels_and_turn_numbers() -> None:
    with translation.override("cs"):
        chart = _chart(_turns(60, 1.2), [])
    assert chart is not None
    labels = [label for _y, label, _major in chart.levels]
    assert labels == ["\N{MINUS SIGN}1,0", "\N{MINUS SIGN}0,5", "0,0", "+0,5", "+1,0"]
    # a phone labels every other level: 0 and the whole points (the CSS hides the rest)
    assert [major for _y, _label, major in chart.levels] == [True, False, True, False, True]
    ys = [y for y, _label, _major in chart.levels]
    assert ys == sorted(ys, reverse=True) and chart.zero in ys  # +1 at the top
    assert [label for _x, label in chart.turn_marks] == ["5", "10", "15", "20", "25", "30"]
    with translation.override("en"):
        wide = _chart(_turns(20, 2.6), [])
    assert wide is not None and [label for _y, label, _major in wide.levels][-1] == "+2"


def test_the_game_page_draws_the_scale() -> None:
    game = recorded_game(round_robin(4))
    GameAnalysis.objects.create(
        game=game, source="net", evaluator="long (50000 games, x)", turns=_turns(40, 1.0),
        white_error_rate=1, black_error_rate=2, white_luck_rate=0, black_luck_rate=0,
        record_version=game.version,
    )  # fmt: skip
    html = Client().get(reverse("tournaments:game", args=[game.pk]),
                        HTTP_ACCEPT_LANGUAGE="en").content.decode()  # fmt: skip
    chart = html[
        html.find('id="equity-chart"') : html.find("</svg>", html.find('id="equity-chart"'))
    ]
    assert '<g class="scale"' in chart and ">+1.0</text>" in chart and ">10</text>" in chart
    caption = html[html.find('<figcaption id="equity-chart-caption"') :]
    assert "Left: points; below: the turn's number." in caption[:700]
