"""The rating chart of the player page as plain numbers for an SVG: axes with round
values, dates under the points, one focusable point per rated series. The template
writes the words (dates and numbers in the active language)."""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

from django.utils import timezone

from tournaments.models import RatingChange

# the drawing area inside the viewBox: room for the values on the left, the dates below
WIDTH, HEIGHT = 480, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 12, 40
DATE_LABELS = 4  # at most this many dates under the axis: they must fit at 390 px
DATE_GAP = 100  # the least distance between two dates' middles


@dataclass(frozen=True, slots=True)
class Tick:
    position: float  # y for values, x for dates
    value: float


@dataclass(frozen=True, slots=True)
class DateTick:
    x: float
    date: datetime.date
    anchor: str  # SVG text-anchor: the first and last dates stay inside the chart


@dataclass(frozen=True, slots=True)
class ChartPoint:
    x: float
    y: float
    value: float
    change: float
    date: datetime.date
    tournament: str
    series: str
    series_id: int

    @property
    def sign(self) -> str:
        """A plus before a gain (a loss has its minus)."""
        return "+" if self.change > 0 else ""


@dataclass(frozen=True, slots=True)
class RatingChart:
    width: int
    height: int
    left: int
    bottom: float  # y of the x axis
    right: int  # x where the plot ends
    polyline: str
    start: tuple[float, float]  # the rating before the first rated series
    points: list[ChartPoint]
    values: list[Tick]
    dates: list[DateTick]
    low: float
    high: float


def nice_ticks(low: float, high: float, *, count: int = 4) -> list[float]:
    """Round values from at or below ``low`` to at or above ``high``, about ``count``
    steps of 1, 2 or 5 times a power of ten.

    >>> nice_ticks(1487.3, 1523.9)
    [1480.0, 1490.0, 1500.0, 1510.0, 1520.0, 1530.0]
    >>> nice_ticks(1500, 1500)
    [1495.0, 1500.0, 1505.0]
    """
    if high - low < 1e-9:
        low, high = low - 5, high + 5
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step - 1e-9:
        ticks.append(round(value, 6))
        value += step
    return ticks


def _spread(n: int, k: int) -> list[int]:
    """``k`` indices out of ``range(n)``, evenly apart, the first and the last included."""
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


def rating_chart(history: list[RatingChange]) -> RatingChart | None:
    """The chart of the rating after each rated series, oldest first; ``None`` without
    any. ``history`` comes with its series and tournaments (rating_history_visible)."""
    if not history:
        return None
    values = [history[0].before] + [h.after for h in history]
    ticks = nice_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return round(TOP + (high - value) / (high - low) * plot_h, 1)

    def x(index: int) -> float:
        return round(LEFT + index * step, 1)

    points = [
        ChartPoint(
            x=x(i),
            y=y(h.after),
            value=h.after,
            change=h.after - h.before,
            date=timezone.localdate(h.at),
            tournament=h.series.tournament.name,
            series=str(h.series),
            series_id=h.series_id,
        )
        for i, h in enumerate(history, start=1)
    ]
    dates: list[DateTick] = []
    for i in _spread(len(points), DATE_LABELS):
        px = points[i].x
        if dates and (dates[-1].date == points[i].date or px - dates[-1].x < DATE_GAP):
            continue  # a date once; labels that would run into each other: the first
        anchor = "end" if WIDTH - RIGHT - px < 40 else "start" if px - LEFT < 40 else "middle"
        dates.append(DateTick(px, points[i].date, anchor))
    return RatingChart(
        width=WIDTH, height=HEIGHT, left=LEFT, bottom=HEIGHT - BOTTOM, right=WIDTH - RIGHT,
        polyline=" ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)),
        start=(x(0), y(values[0])), points=points,
        values=[Tick(y(v), v) for v in ticks], dates=dates,
        low=min(values), high=max(values),
    )  # fmt: skip
