"""The Swiss crosstable against a small Swiss worked out by hand: five players, three
rounds, a bye in each round and a forfeit; series of one game, a win and a bye score 1.

    round 1: A-B A wins (A white)   C-D C wins (D white)   E bye
    round 2: A-C A wins (C white)   E-B E wins (E white)   D bye
    round 3: A-E A wins (E white)   C-D C wins by forfeit  B bye

Points: A 3, C 2, E 2, B 1, D 1. Buchholz (byes left out): A 1+2+2 = 5, C 1+3+1 = 5,
E 1+3 = 4, B 3+2 = 5, D 2+2 = 4; so C is above E and B above D. Sonneborn-Berger (the
points of the opponents beaten): A 5, C 1+1 = 2, E 1, B 0, D 0. The rows: 1 A, 2 C,
3 E, 4 B, 5 D."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Player, Series, Tournament
from tournaments.pairing.types import Why
from tournaments.selectors.pages import tournament_page
from tournaments.services.pairings import _bye
from tournaments.services.results import game_enter_quick
from tournaments.services.setup import (
    entry_register,
    round_create,
    series_create,
    series_forfeit,
    tournament_create,
)

pytestmark = pytest.mark.django_db
EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}
BYE = "\N{EN DASH} +"  # a bye as printed: no opponent, a win


def _play(t: Tournament, p: dict[str, Player], pairs: list[tuple[str, str, str]], bye: str) -> None:
    """Pairs (first, second, how), the first player wins: with white ("first"), with
    black ("first-black") or without play ("forfeit"); then ``bye`` has the bye."""
    rnd = round_create(tournament=t)
    for table, (a, b, how) in enumerate(pairs, start=1):
        s = series_create(tournament=t, round=rnd, player1=p[a], player2=p[b], table=table)
        if how == "forfeit":
            series_forfeit(series=s, winner=p[a])
        else:
            white = p[a] if how == "first" else p[b]
            game_enter_quick(series=s, white=white, winner=p[a], kind="oin")
    _bye(t, rnd, p[bye], len(pairs) + 1, "a bye", Why("bye"))


@pytest.fixture
def swiss() -> Tournament:
    t = tournament_create(
        name="Hand Swiss", start_date=datetime.date(2026, 6, 1), format="swiss",
        series_length=1, tie_breaks=["buchholz", "sonneborn_berger"],
    )  # fmt: skip
    p = {n: Player.objects.create(name=n) for n in "ABCDE"}
    for player in p.values():
        entry_register(tournament=t, player=player)
    _play(t, p, [("A", "B", "first"), ("C", "D", "first-black")], bye="E")
    _play(t, p, [("A", "C", "first-black"), ("E", "B", "first")], bye="D")
    _play(t, p, [("A", "E", "first-black"), ("C", "D", "forfeit")], bye="B")
    return t


def test_swiss_crosstable_values(swiss: Tournament) -> None:
    page = tournament_page(tournament=swiss)
    assert page.swiss_rounds == [1, 2, 3]
    table = {
        row.player_name: (
            row.points,
            [v for _, v in row.tiebreaks],
            [
                "bye" if c.bye else f"{c.opponent}{c.colour}{c.result}"
                for cell in cells
                for c in cell
            ],
        )
        for row, cells in page.swiss_crosstable
    }
    assert [row.player_name for row, _ in page.swiss_crosstable] == list("ACEBD")
    assert table == {
        "A": (Decimal(3), [Decimal(5), Decimal(5)], ["4w1", "2b1", "3b1"]),
        "C": (Decimal(2), [Decimal(5), Decimal(2)], ["5b1", "1w0", "5+"]),
        "E": (Decimal(2), [Decimal(4), Decimal(1)], ["bye", "4w1", "1w0"]),
        "B": (Decimal(1), [Decimal(5), Decimal(0)], ["1b0", "3b0", "bye"]),
        "D": (Decimal(1), [Decimal(4), Decimal(0)], ["2w0", "bye", "2-"]),
    }


def _cells(html: str) -> list[list[str]]:
    """The visible text of each row of the crosstable: the cells as printed."""
    table = html[html.index('<table class="crosstable swiss">') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr[^>]*><th scope=\"row\">.*?</tr>", table, re.S)
    out = []
    for row in rows:
        cells = re.findall(r"<td>(.*?)</td>", row, re.S)
        out.append(
            [
                " ".join(re.findall(r'<span aria-hidden="true">(.*?)</span>', c)).replace(
                    "&nbsp;", " "
                )
                or re.sub(r"<[^>]+>", "", c)
                for c in cells
            ]
        )
    return out


@pytest.mark.parametrize("page", ["tournament", "print_standings"])
def test_swiss_crosstable_on_the_pages(client: Client, swiss: Tournament, page: str) -> None:
    html = client.get(reverse(f"tournaments:{page}", args=[swiss.pk]), **EN).content.decode()
    assert _cells(html) == [
        ["4w 1", "2b 1", "3b 1", "3", "5", "5"],
        ["5b 1", "1w 0", "5 +", "2", "5", "2"],
        [BYE, "4w 1", "1w 0", "2", "4", "1"],
        ["1b 0", "3b 0", BYE, "1", "5", "0"],
        ["2w 0", BYE, "2 -", "1", "4", "0"],
    ]
    assert "against A (no. 1), black: lost" in html  # what a screen reader says for B, round 1


def test_a_round_robin_keeps_its_crosstable_of_opponents(client: Client) -> None:
    from tests.tournaments.pages_data import round_robin

    t = round_robin(4)
    page = tournament_page(tournament=t)
    assert page.swiss_rounds == [] and len(page.crosstable) == 4
    html = client.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    assert '<table class="crosstable">' in html and Series.objects.filter(tournament=t).exists()
