"""The standings and pairings rows written in Python (tournaments/templatetags/
table_rows.py) give the markup the template loops gave: escaped names, byes, withdrawn
players, missing tie-breaks, localized numbers."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

from django.utils import translation

from tournaments.models import Player, Series
from tournaments.templatetags.table_rows import pairing_rows, standing_rows


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
