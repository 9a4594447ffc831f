"""The rows of the two long tables (a round's pairings, the standings), written in Python.

A 128-player Swiss shows 448 pairings and 128 standings rows; as template loops they were
most of the page's cold rendering (three ``{% url %}`` tags, two ``floatformat`` and a
dozen variable lookups a row). Here each row is one f-string of escaped values: the
links' paths are reversed once, the numbers formatted once per distinct value, the
labels translated once per table. The markup is the templates' own, unchanged
(docs/performance.md); the tables' heads stay in the templates."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.formats import localize
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from tournaments.models import Series, SeriesStatus
from tournaments.selectors.rows import SeriesRow
from tournaments.wording.gender import withdrawn_word

register = template.Library()

DASH = "\N{EN DASH}"  # the templates' "nothing here"
_ID = 987654321  # a stand-in id: the path is reversed once, the id put in per row


@lru_cache(maxsize=8192)
def _escaped(text: str) -> str:
    return html.escape(text)


def escape(value: object) -> str:
    """``django.utils.html.escape``'s text (the same characters, the same entities),
    without its lazy-string wrapper, and remembered: a name is written in every round
    and every crosstable row."""
    return _escaped(str(value))


def _paths(name: str) -> Callable[[object], str]:
    before, after = reverse(name, args=[_ID]).split(str(_ID))
    return lambda pk: f"{before}{pk}{after}"


def _memo(format_one: Callable[[Any], str]) -> Callable[[Any], str]:
    done: dict[Any, str] = {}

    def formatted(value: Any) -> str:
        if value not in done:
            done[value] = format_one(value)
        return done[value]

    return formatted


def _number(arg: str) -> Callable[[Decimal | None], str]:
    """``floatformat:arg``, escaped, as the templates wrote it (localized)."""
    return _memo(lambda value: escape(floatformat(value, arg)))


@register.simple_tag
def pairing_rows(series_list: Iterable[Series | SeriesRow]) -> SafeString:
    """The rows of _pairings.html: table, players, score, status."""
    player, series_path = _paths("tournaments:player"), _paths("tournaments:series")
    score = _number("-1")
    series_label, bye = escape(gettext("Series")), escape(gettext("bye"))
    status = {value: escape(label) for value, label in SeriesStatus.choices}
    out = []
    for s in series_list:
        table = s.table or s.slot or ""
        one, two = s.player1, s.player2
        won1 = "won" if s.winner_id and s.winner_id == s.player1_id else ""
        won2 = "won" if s.winner_id and s.winner_id == s.player2_id else ""
        name1 = (f'<a href="{player(s.player1_id)}"><bdi>{escape(one)}</bdi></a>'
                 if one else "?")  # fmt: skip
        name2 = (f'<a href="{player(s.player2_id)}"><bdi>{escape(two)}</bdi></a>'
                 if two else DASH)  # fmt: skip
        result = f"{score(s.score1)} : {score(s.score2)}" if s.player2_id else bye
        out.append(
            f"\n    <tr>\n      <td>{escape(table)}</td>\n"
            f'      <td class="{won1}">{name1}</td>\n'
            f'      <td class="score"><a href="{series_path(s.pk)}" aria-label="{series_label} '
            f'{escape(s)}">{result}</a></td>\n'
            f'      <td class="{won2}">{name2}</td>\n'
            f'      <td class="no-phone">{status.get(s.status, escape(s.status))}</td>\n'
            "    </tr>\n  "
        )
    return mark_safe("".join(out))


@register.simple_tag
def standing_rows(rows: Iterable[Any]) -> SafeString:
    """The rows of _standings.html: rank, player, record, points and tie-breaks."""
    player = _paths("tournaments:player")
    one_place, two_places = _number("-1"), _number("-2")
    count = _memo(lambda value: escape(localize(value)))
    withdrawn = _withdrawn_marks()
    out = []
    for row in rows:
        breaks = "".join(
            f"<td>{DASH if value is None else two_places(value)}</td>" for _, value in row.tiebreaks
        )
        marked = ' class="withdrawn"' if row.withdrawn else ""
        gone = _withdrawn_mark(row, withdrawn)
        out.append(
            f"\n    <tr{marked}>\n"
            f"      <td>{count(row.rank)}{'=' if row.shared else ''}</td>\n"
            f'      <th scope="row"><a href="{player(row.player_id)}"><bdi>'
            f"{escape(row.player_name)}</bdi></a>{gone}</th>\n"
            f"      <td>{count(row.played)}</td><td>{count(row.won)}</td>"
            f"<td>{count(row.drawn)}</td><td>{count(row.lost)}</td>\n"
            f"      <td>{one_place(row.game_points_for)}:"
            f"{one_place(row.game_points_against)}</td>\n"
            f"      <td><strong>{two_places(row.points)}</strong></td>\n"
            f"      {breaks}\n"
            "    </tr>\n  "
        )
    return mark_safe("".join(out))


def _withdrawn_marks() -> dict[str, str]:
    """The "(withdrawn)" beside a name, by the player's grammatical gender."""
    return {
        gender: f' <span class="muted">({escape(withdrawn_word(gender))})</span>'
        for gender in ("", "f", "m")
    }


def _withdrawn_mark(row: Any, withdrawn: dict[str, str]) -> str:
    if not row.withdrawn:
        return ""
    return withdrawn.get(getattr(row, "gender", ""), withdrawn[""])


def _cross_head(number: int, row: Any, withdrawn: dict[str, str]) -> str:
    marked = ' class="withdrawn"' if row.withdrawn else ""
    return (
        f'\n    <tr{marked}><th scope="row">{number}. <bdi>{escape(row.player_name)}</bdi>'
        f"{_withdrawn_mark(row, withdrawn)}</th>\n      "
    )


def _cross_tail(row: Any, two_places: Callable[[Any], str]) -> str:
    breaks = "".join(
        f"<td>{DASH if value is None else two_places(value)}</td>" for _, value in row.tiebreaks
    )
    return f"\n      <td><strong>{two_places(row.points)}</strong></td>\n      {breaks}</tr>\n  "


class _SwissCellText:
    """The markup of one series in a Swiss crosstable cell (it was _swiss_cell.html):
    the labels translated once per table."""

    def __init__(self) -> None:
        self.series = _paths("tournaments:series")
        self.bye = (
            '<span aria-hidden="true">\N{EN DASH}&nbsp;+</span>'
            f'<span class="visually-hidden">{escape(gettext("a bye"))}</span>'
        )
        self.letter = {"w": escape(pgettext("crosstable: white", "w")),
                       "b": escape(pgettext("crosstable: black", "b"))}  # fmt: skip
        self.colour = {"w": f", {escape(gettext('white'))}", "b": f", {escape(gettext('black'))}"}
        self.result = {
            "1": pgettext("series result", "won"),
            "0": pgettext("series result", "lost"),
            "½": pgettext("series result", "drawn"),
            "+": gettext("won without play"),
            "-": gettext("lost without play"),
        }
        self.unfinished = escape(gettext("not finished"))
        self.against = gettext("against %(name)s (no. %(n)s)")

    def __call__(self, c: Any) -> str:
        won = {"1": "won", "+": "won", "0": "lost", "-": "lost"}.get(c.result, "")
        head = f'<a href="{self.series(c.series.pk)}" class="{won}">'
        if c.bye:
            return f"{head}{self.bye}</a>"
        number = "?" if not c.opponent else c.opponent
        shown = f"{number}{self.letter.get(c.colour, '')}"
        if c.result:
            shown += f"&nbsp;{c.result}"
        said = self.against % {"name": escape(c.opponent_name), "n": number}
        result = escape(self.result[c.result]) if c.result in self.result else self.unfinished
        return (
            f'{head}<span aria-hidden="true">{shown}</span><span class="visually-hidden">'
            f"{said}{self.colour.get(c.colour, '')}: {result}</span></a>"
        )


@register.simple_tag
def crosstable_rows(rows: Iterable[Any], swiss: bool) -> SafeString:
    """The rows of _crosstable.html: a Swiss' cells per round, or a round robin's per
    opponent (selectors/crosstable.py)."""
    two_places, score = _number("-2"), _number("-1")
    withdrawn = _withdrawn_marks()
    swiss_cell = _SwissCellText() if swiss else None
    series = _paths("tournaments:series")
    out = []
    for number, (row, cells) in enumerate(rows, start=1):
        out.append(_cross_head(number, row, withdrawn))
        for cell in cells:
            if swiss_cell is not None:
                inner = "<br>".join(f"{swiss_cell(c)}\n" for c in cell)
                out.append(f"\n        <td>{inner}</td>\n        \n      ")
            elif cell is None:
                out.append(
                    '\n        <td class="self" aria-label="\N{EM DASH}"></td>\n        \n      '
                )
            else:
                inner = "<br>".join(
                    f'<a href="{series(c.series.pk)}" class="'
                    f'{"won" if c.won else "lost" if c.won is False else ""}">'
                    f"{score(c.score_for)}:{score(c.score_against)}</a>"
                    for c in cell
                )
                out.append(f"\n        <td>{inner}</td>\n      ")
        out.append(_cross_tail(row, two_places))
    return mark_safe("".join(out))


def _bracket_line(line: Any, x: str, x_score: str, count: Callable[[Any], str]) -> str:
    classes = f"bk-name{' bk-won' if line.won else ''}{' bk-muted' if line.muted else ''}"
    player = f' data-player="{count(line.player_id)}"' if line.player_id else ""
    title = f"<title>{escape(line.name)}</title>" if line.short != line.name else ""
    text = (
        f'<text class="{classes}"{player} x="{x}" y="{count(line.y)}">'
        f"{escape(line.short)}{title}</text>"
    )
    if line.score:
        won = " bk-won" if line.won else ""
        text += (
            f'<text class="bk-score{won}" x="{x_score}" y="{count(line.y)}">'
            f"{escape(line.score)}</text>"
        )
    return text + "\n    "


@register.simple_tag
def bracket_boxes(boxes: Iterable[Any]) -> SafeString:
    """The boxes of _bracket.html's SVG (selectors/bracket_drawing.py): one a series."""
    series = _paths("tournaments:series")
    count = _memo(lambda value: escape(localize(value)))
    out = []
    for b in boxes:
        about = (
            f'data-slot="{escape(b.slot)}" data-players="{escape(b.players)}" '
            f'aria-label="{escape(b.label)}">'
        )
        if b.series_pk:
            head = f'<a class="bk-box" id="bk-{escape(b.slot)}" href="{series(b.series_pk)}" '
        else:
            head = f'<g class="bk-box bk-open" id="bk-{escape(b.slot)}" tabindex="0" role="group" '
        x, y = count(b.x), count(b.y)
        middle, right = count(b.y + 24), count(b.x + 200)
        name_x, score_x = count(b.x + 8), count(b.x + 192)
        lines = "".join(_bracket_line(line, name_x, score_x, count) for line in b.lines)
        out.append(
            f"\n  {head}{about}\n    <title>{escape(b.label)}</title>\n"
            f'    <rect class="bk-frame" x="{x}" y="{y}" width="200" height="48" rx="4"/>\n'
            f'    <line class="bk-split" x1="{x}" y1="{middle}" x2="{right}" y2="{middle}"/>\n'
            f'    <text class="bk-slot" x="{count(b.x + 196)}" y="{count(b.y - 3)}">'
            f"{escape(b.slot)}</text>\n    {lines}\n  {'</a>' if b.series_pk else '</g>'}\n  "
        )
    return mark_safe("".join(out))
