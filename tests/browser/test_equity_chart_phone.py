"""The equity chart on a phone (390 x 844, Czech and English): it has its scale (points of
equity on the left, the turns' numbers below, the sides' names on the right), and every
label of it is readable where it is drawn: at least 11 CSS px high once the drawing is
scaled to the screen, no two labels on each other, each inside the drawing and the
screen. Before, the labels came out at 9.8 px: the figure's default 40 px margins left the
736-unit drawing 278 px wide, and five levels labelled 28 units apart would have touched
at a larger size."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.tournaments.analysis_data import a_series, record_for
from tournaments.models import Game
from tournaments.services.analysis import game_analyse
from tournaments.services.results import game_enter_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# every label of the chart's scale as drawn: its text, its box on the screen and its font
# size in CSS px (the computed size in the drawing's units times the drawing's scale)
LABELS = """() => {
  const svg = document.getElementById("equity-chart");
  const scale = svg.getScreenCTM().a;
  return Array.from(svg.querySelectorAll(".scale text")).map((t) => {
    const box = t.getBoundingClientRect();
    return {
      text: t.textContent.trim(),
      left: box.left, right: box.right, top: box.top, bottom: box.bottom,
      px: parseFloat(getComputedStyle(t).fontSize) * scale,
      visible: getComputedStyle(t).display !== "none" && box.width > 0,
    };
  });
}"""


def _analysed_game(settings: Any) -> Game:
    settings.ANALYSIS_ON_STORE = False
    series = a_series()
    game = game_enter_record(series=series, record=record_for(series, 11))
    game_analyse(game=game)
    return game


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
        and a["top"] < b["bottom"] - 0.5
        and b["top"] < a["bottom"] - 0.5
    )


@pytest.mark.parametrize(
    ("language", "sides"), [("cs", ("bílý", "černý")), ("en", ("white", "black"))]
)
def test_the_equity_chart_has_a_readable_scale_on_a_phone(
    live_server: Any, browser: Browser, settings: Any, language: str, sides: tuple[str, str]
) -> None:
    game = _analysed_game(settings)
    context = browser.new_context(locale=language, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    chart = page.locator("#equity-chart")
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5
    labels = [label for label in page.evaluate(LABELS) if label["visible"]]
    texts = [label["text"] for label in labels]
    # the scale: the even line and points on either side of it, turn numbers, the sides
    assert {"0", "0.0", "0,0"} & set(texts) and any(t.startswith("+") for t in texts), texts
    assert any(t.startswith("\u2212") for t in texts), texts  # a minus sign, not a hyphen
    assert sum(t.isdigit() and t != "0" for t in texts) >= 2, texts  # turn numbers
    if language == "cs":  # the reader's decimal comma
        assert not any("." in t for t in texts), texts
    assert set(sides) <= set(texts), texts
    for label in labels:
        assert label["px"] >= 11, label
        assert label["left"] >= 0 and label["right"] <= 390, label
        # inside the drawing too: an SVG cuts what goes past its edge
        assert box["x"] <= label["left"] and label["right"] <= box["x"] + box["width"], label
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            assert not _overlap(a, b), (a, b)
    context.close()
