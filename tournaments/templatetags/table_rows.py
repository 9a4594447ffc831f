"""The rows of the two long tables (a round's pairings, the standings), written in Python.

A 128-player Swiss shows 448 pairings and 128 standings rows; as template loops they were
most of the page's cold rendering (three ``{% url %}`` tags, two ``floatformat`` and a
dozen variable lookups a row). Here each row is one f-string of escaped values: the
links' paths are reversed once, the numbers formatted once per distinct value, the
labels translated once per table. The markup is the templates' own, unchanged
(docs/performance.md); the tables' heads stay in the templates."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from tournaments.models import Series, SeriesStatus

register = template.Library()

DASH = "\N{EN DASH}"  # the templates' "nothing here"
_ID = 987654321  # a stand-in id: the path is reversed once, the id put in per row


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
def pairing_rows(series_list: Iterable[Series]) -> SafeString:
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
    withdrawn = f' <span class="muted">({escape(gettext("withdrawn"))})</span>'
    out = []
    for row in rows:
        breaks = "".join(
            f"<td>{DASH if value is None else two_places(value)}</td>" for _, value in row.tiebreaks
        )
        marked = ' class="withdrawn"' if row.withdrawn else ""
        out.append(
            f"\n    <tr{marked}>\n"
            f"      <td>{count(row.rank)}{'=' if row.shared else ''}</td>\n"
            f'      <th scope="row"><a href="{player(row.player_id)}"><bdi>'
            f"{escape(row.player_name)}</bdi></a>{withdrawn if row.withdrawn else ''}</th>\n"
            f"      <td>{count(row.played)}</td><td>{count(row.won)}</td>"
            f"<td>{count(row.drawn)}</td><td>{count(row.lost)}</td>\n"
            f"      <td>{one_place(row.game_points_for)}:"
            f"{one_place(row.game_points_against)}</td>\n"
            f"      <td><strong>{two_places(row.points)}</strong></td>\n"
            f"      {breaks}\n"
            "    </tr>\n  "
        )
    return mark_safe("".join(out))
