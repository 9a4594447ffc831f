"""The standings and pairings rows written in Python (tournaments/templatetags/
table_rows.py) give the markup the template loops gave: escaped names, byes, withdrawn
players, missing tie-breaks, localized numbers."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from django.template import Context, Engine
from django.utils import translation

from tournaments.models import Player, Series
from tournaments.selectors.bracket_drawing import Box, Line, _short
from tournaments.templatetags.table_rows import (
    bracket_boxes,
    crosstable_rows,
    pairing_rows,
    standing_rows,
)


def test_a_pairing_row_escapes_names_and_marks_the_winner_and_a_bye() -> None:
    ann, bob = Player(pk=7, name="<Ann & Co>"), Player(pk=8, name='Bob "B"')
    played = Series(pk=3, table=2, player1=ann, player2=bob, winner=ann, status="finished",
                    score1=Decimal("1.5"), score2=Decimal("0"))  # fmt: skip
    bye = Series(pk=4, table=None, slot="", player1=bob, player2=None, status="finished")
    with translation.override("en"):
        html = pairing_rows([played, bye])
    assert '<td class="won"><a href="/players/7/"><bdi>&lt;Ann &amp; Co&gt;</bdi></a></td>' in html
    assert 'aria-label="Series &lt;Ann &amp; Co&gt; - Bob &quot;B&quot;">1.5 : 0</a>' in html
    assert '<a href="/series/4/" aria-label="Series Bob &quot;B&quot; - ?">bye</a>' in html
    assert '<td class="">\N{EN DASH}</td>' in html and "<td></td>" in html
    assert html.count('<td class="no-phone">finished</td>') == 2
    with translation.override("cs"):
        assert "1,5 : 0" in pairing_rows([played])


def test_a_standings_row_marks_withdrawn_players_shared_ranks_and_missing_tiebreaks() -> None:
    row = SimpleNamespace(
        player_id=9, player_name="Z<oe>", played=3, won=1, drawn=1, lost=1, rank=2, shared=True,
        game_points_for=Decimal("4.5"), game_points_against=Decimal("3"), withdrawn=True,
        points=Decimal("1.50"), tiebreaks=(("buchholz", Decimal("6.25")), ("sb", None)),
    )  # fmt: skip
    with translation.override("en"):
        html = standing_rows([row])
    assert '<tr class="withdrawn">' in html and "<td>2=</td>" in html
    assert "<bdi>Z&lt;oe&gt;</bdi></a> <span" in html and "(withdrawn)" in html
    assert "<td>4.5:3</td>" in html and "<strong>1.50</strong>" in html
    assert "<td>6.25</td><td>\N{EN DASH}</td>" in html


# The crosstable's loops as they were in _crosstable.html and _swiss_cell.html, before
# the rows were written in Python: the tag must give the very same markup.
OLD_CROSSTABLE_ROWS = (
    "{% load i18n %}"
    + """{% for row, cells in rows %}
    <tr{% if row.withdrawn %} class="withdrawn"{% endif %}><th scope="row">{{ forloop.counter }}. <bdi>{{ row.player_name }}</bdi>{% if row.withdrawn %} <span class="muted">({% translate "withdrawn" %})</span>{% endif %}</th>
      {% for cell in cells %}
        {% if swiss %}<td>{% for c in cell %}{% include "cell" %}{% if not forloop.last %}<br>{% endif %}{% endfor %}</td>
        {% elif cell is None %}<td class="self" aria-label="\N{EM DASH}"></td>
        {% else %}<td>{% for c in cell %}<a href="{% url 'tournaments:series' c.series.pk %}" class="{% if c.won %}won{% elif c.won is False %}lost{% endif %}">{{ c.score_for|floatformat:"-1" }}:{{ c.score_against|floatformat:"-1" }}</a>{% if not forloop.last %}<br>{% endif %}{% endfor %}</td>{% endif %}
      {% endfor %}
      <td><strong>{{ row.points|floatformat:"-2" }}</strong></td>
      {% for tb, value in row.tiebreaks %}<td>{% if value is None %}\N{EN DASH}{% else %}{{ value|floatformat:"-2" }}{% endif %}</td>{% endfor %}</tr>
  {% endfor %}"""  # noqa: E501
)
OLD_SWISS_CELL = """{% load i18n %}{% spaceless %}
<a href="{% url 'tournaments:series' c.series.pk %}" class="{% if c.result == '1' or c.result == '+' %}won{% elif c.result == '0' or c.result == '-' %}lost{% endif %}">
{% if c.bye %}<span aria-hidden="true">\N{EN DASH}&nbsp;+</span><span class="visually-hidden">{% translate "a bye" %}</span>
{% else %}<span aria-hidden="true">{{ c.opponent|default:"?" }}{% if c.colour == "w" %}{% translate "w" context "crosstable: white" %}{% elif c.colour == "b" %}{% translate "b" context "crosstable: black" %}{% endif %}{% if c.result %}&nbsp;{{ c.result }}{% endif %}</span>
<span class="visually-hidden">{% blocktranslate with name=c.opponent_name n=c.opponent|default:"?" %}against {{ name }} (no. {{ n }}){% endblocktranslate %}{% if c.colour == "w" %}, {% translate "white" %}{% elif c.colour == "b" %}, {% translate "black" %}{% endif %}: {% if c.result == "1" %}{% translate "won" context "series result" %}{% elif c.result == "0" %}{% translate "lost" context "series result" %}{% elif c.result == "½" %}{% translate "drawn" context "series result" %}{% elif c.result == "+" %}{% translate "won without play" %}{% elif c.result == "-" %}{% translate "lost without play" %}{% else %}{% translate "not finished" %}{% endif %}</span>{% endif %}
</a>{% endspaceless %}
"""  # noqa: E501


def _old_rows(rows: list[Any], swiss: bool) -> str:
    engine = Engine(
        loaders=[("django.template.loaders.locmem.Loader", {"cell": OLD_SWISS_CELL})],
        libraries={"i18n": "django.templatetags.i18n"},
    )
    return engine.from_string(OLD_CROSSTABLE_ROWS).render(Context({"rows": rows, "swiss": swiss}))


def _standing(pid: int, name: str, *, withdrawn: bool = False) -> SimpleNamespace:
    return SimpleNamespace(
        player_id=pid, player_name=name, withdrawn=withdrawn, points=Decimal("2.50"),
        tiebreaks=(("buchholz", Decimal("6.25")), ("sb", None)),
    )  # fmt: skip


def test_the_swiss_crosstable_rows_are_the_old_loops_markup() -> None:
    ann, bob = _standing(7, "<Ann & Co>"), _standing(8, 'Bob "B"', withdrawn=True)

    def cell(pk: int, opponent: int | None, name: str, colour: str, result: str, bye=False):
        series = SimpleNamespace(pk=pk, player2_id=None if bye else 1)
        return SimpleNamespace(series=series, opponent=opponent, opponent_name=name,
                               colour=colour, result=result, bye=bye)  # fmt: skip

    rows = [
        (ann, [[cell(1, 2, 'Bob "B"', "w", "1")], [cell(2, None, "", "", "+", bye=True)],
               [cell(3, 2, 'Bob "B"', "b", "½"), cell(4, None, "?", "", "")]]),
        (bob, [[cell(1, 1, "<Ann & Co>", "b", "0")], [cell(5, 1, "<Ann & Co>", "", "-")],
               [cell(3, 1, "<Ann & Co>", "w", "½")]]),
    ]  # fmt: skip
    for language in ("en", "cs"):
        with translation.override(language):
            assert crosstable_rows(rows, True) == _old_rows(rows, True)


def test_the_round_robin_crosstable_rows_are_the_old_loops_markup() -> None:
    ann, bob = _standing(7, "<Ann & Co>"), _standing(8, 'Bob "B"', withdrawn=True)

    def cell(pk: int, mine: str, theirs: str, won: bool | None) -> SimpleNamespace:
        return SimpleNamespace(series=SimpleNamespace(pk=pk), score_for=Decimal(mine),
                               score_against=Decimal(theirs), won=won)  # fmt: skip

    rows = [
        (ann, [None, [cell(1, "1.5", "3", False), cell(2, "2", "2", None)]]),
        (bob, [[cell(1, "3", "1.5", True)], None]),
    ]
    for language in ("en", "cs"):
        with translation.override(language):
            assert crosstable_rows(rows, False) == _old_rows(rows, False)


OLD_BRACKET_BOXES = """{% for b in d.boxes %}
  {% if b.series_pk %}<a class="bk-box" id="bk-{{ b.slot }}" href="{% url 'tournaments:series' b.series_pk %}" data-slot="{{ b.slot }}" data-players="{{ b.players }}" aria-label="{{ b.label }}">{% else %}<g class="bk-box bk-open" id="bk-{{ b.slot }}" tabindex="0" role="group" data-slot="{{ b.slot }}" data-players="{{ b.players }}" aria-label="{{ b.label }}">{% endif %}
    <title>{{ b.label }}</title>
    <rect class="bk-frame" x="{{ b.x }}" y="{{ b.y }}" width="200" height="48" rx="4"/>
    <line class="bk-split" x1="{{ b.x }}" y1="{{ b.y|add:24 }}" x2="{{ b.x|add:200 }}" y2="{{ b.y|add:24 }}"/>
    <text class="bk-slot" x="{{ b.x|add:196 }}" y="{{ b.y|add:-3 }}">{{ b.slot }}</text>
    {% for line in b.lines %}<text class="bk-name{% if line.won %} bk-won{% endif %}{% if line.muted %} bk-muted{% endif %}"{% if line.player_id %} data-player="{{ line.player_id }}"{% endif %} x="{{ b.x|add:8 }}" y="{{ line.y }}">{{ line.short }}{% if line.short != line.name %}<title>{{ line.name }}</title>{% endif %}</text>{% if line.score %}<text class="bk-score{% if line.won %} bk-won{% endif %}" x="{{ b.x|add:192 }}" y="{{ line.y }}">{{ line.score }}</text>{% endif %}
    {% endfor %}
  {% if b.series_pk %}</a>{% else %}</g>{% endif %}
  {% endfor %}"""  # noqa: E501


def _old_boxes(boxes: list[Box]) -> str:
    """The boxes as _bracket.html's loop drew them before ``{% bracket_boxes %}``."""
    engine = Engine(libraries={"i18n": "django.templatetags.i18n"})
    return engine.from_string(OLD_BRACKET_BOXES).render(Context({"d": {"boxes": boxes}}))


def test_the_bracket_boxes_are_the_old_loops_markup() -> None:
    long_name = "Anna-Marie <Long> & Double-Barrelled"
    played = Box(
        slot="W1-1", stage="W1", x=8, y=1034, series_pk=5, label='Round 1: A & "B"',
        lines=(Line(7, long_name, _short(long_name), "1.5", True, False, 1050),
               Line(8, "Bob", "Bob", "0", False, False, 1074)),
    )  # fmt: skip
    open_box = Box(
        slot="L2-1", stage="L2", x=1252, y=70, series_pk=None, label="open",
        lines=(Line(None, "winner of W1-1", "winner of W1-1", "", False, True, 86),
               Line(None, "bye", "bye", "", False, True, 110)),
    )  # fmt: skip
    for language in ("en", "cs"):
        with translation.override(language):
            assert bracket_boxes([played, open_box]) == _old_boxes([played, open_box])
