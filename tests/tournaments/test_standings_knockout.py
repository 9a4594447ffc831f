"""Elimination events are ranked by their bracket, not like Swiss: the pure placement
(no database), then through the tournament page, the API standings endpoint and the CSV."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.helpers import rated_player
from tournaments.models import Player, Series, SeriesStatus, Tournament
from tournaments.pairing import Bracket, double_elimination, single_elimination
from tournaments.selectors.knockout import knockout_places
from tournaments.selectors.standings import (
    PlayerData,
    ScoringRules,
    SeriesData,
    compute_standings,
)
from tournaments.services.pairings import bracket_create
from tournaments.services.results import game_enter_quick
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create

Pick = Callable[[str, str, str], str]  # (match id, first player, second player) -> winner


def favourite(match_id: str, a: str, b: str) -> str:
    """The better seed wins (names sort by seed: S1, S2 ...)."""
    return min(a, b, key=lambda name: int(name[1:]))


def play_out(bracket: Bracket[str], pick: Pick = favourite) -> dict[str, int]:
    """Play every match as ``pick`` says; the results as ``Bracket.advance`` takes them."""
    results: dict[str, int] = {}
    while ready := bracket.advance(results).ready():
        for m in ready:
            a, b = m.players
            assert a is not None and b is not None
            results[m.match.id] = 0 if pick(m.match.id, a, b) == a else 1
    return results


def seeds(n: int) -> list[str]:
    return [f"S{i}" for i in range(1, n + 1)]


def places(bracket: Bracket[str], results: dict[str, int]) -> list[tuple[str, str]]:
    """(player, place as shown: "3" or "5=") best first."""
    return [
        (p.player, f"{p.rank}{'=' if p.shared else ''}") for p in knockout_places(bracket, results)
    ]


# pure placement -------------------------------------------------------------------


def test_single_elimination_third_place_series_decides_3_and_4() -> None:
    bracket = single_elimination(seeds(8), third_place=True)
    results = play_out(bracket)
    assert places(bracket, results) == [
        ("S1", "1"), ("S2", "2"), ("S3", "3"), ("S4", "4"),
        ("S5", "5="), ("S6", "5="), ("S7", "5="), ("S8", "5="),
    ]  # fmt: skip
    assert {p.player: p.out_in for p in knockout_places(bracket, results)}["S5"] == "quarterfinal"


def test_single_elimination_without_third_place_series_semi_losers_share_3rd() -> None:
    bracket = single_elimination(seeds(16))
    shown = dict(places(bracket, play_out(bracket)))
    assert [shown[f"S{i}"] for i in (1, 2, 3, 4, 5, 8, 9, 16)] == [
        "1", "2", "3=", "3=", "5=", "5=", "9=", "9=",
    ]  # fmt: skip


def test_third_place_not_played_yet_leaves_3_shared() -> None:
    bracket = single_elimination(seeds(4), third_place=True)
    results = {"W1-1": 0, "W1-2": 1, "W2-1": 1}  # the final is played, the P3 is not
    assert places(bracket, results) == [("S3", "1"), ("S1", "2"), ("S2", "3="), ("S4", "3=")]
    results["P3"] = 1
    assert places(bracket, results)[2:] == [("S2", "3"), ("S4", "4")]


def test_final_loser_is_2nd_alone_even_with_the_same_series_won_as_the_3rd() -> None:
    # 6 players: S1 and S2 go through on byes; S4 wins its first series and the P3, so
    # S2 (final loser) and S4 both won two series: the bracket, not points, separates them.
    bracket = single_elimination(seeds(6), third_place=True)

    def pick(match_id: str, a: str, b: str) -> str:
        return max(a, b) if match_id == "P3" else favourite(match_id, a, b)

    assert places(bracket, play_out(bracket, pick)) == [
        ("S1", "1"), ("S2", "2"), ("S4", "3"), ("S3", "4"), ("S5", "5="), ("S6", "5="),
    ]  # fmt: skip


def test_players_still_in_share_the_top_place() -> None:
    bracket = single_elimination(seeds(8))
    first_round = {f"W1-{k}": 0 for k in range(1, 5)}
    assert [shown for _, shown in places(bracket, first_round)] == ["1="] * 4 + ["5="] * 4


def test_double_elimination_by_the_losers_round() -> None:
    bracket = double_elimination(seeds(8))
    results = play_out(bracket)
    assert "GF-2" not in results  # the winners' bracket champion won the grand final
    assert places(bracket, results) == [
        ("S1", "1"), ("S2", "2"), ("S3", "3"), ("S4", "4"),
        ("S5", "5="), ("S6", "5="), ("S7", "7="), ("S8", "7="),
    ]  # fmt: skip


@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_grand_final_and_reset(reset: bool) -> None:
    bracket = double_elimination(seeds(4), bracket_reset=reset)

    def pick(match_id: str, a: str, b: str) -> str:
        # S2 loses to S1 in the winners' final, wins the losers' bracket and GF-1;
        # S1 wins the reset.
        if match_id == "GF-1":
            return "S2"
        return favourite(match_id, a, b)

    results = play_out(bracket, pick)
    assert ("GF-2" in results) is reset
    champion, second = ("S1", "S2") if reset else ("S2", "S1")
    assert places(bracket, results) == [(champion, "1"), (second, "2"), ("S3", "3"), ("S4", "4")]


def test_byes_are_advances_not_series_won_and_no_tie_breaks() -> None:
    bracket = single_elimination([1, 2, 3])  # 1 has a bye, 2 beats 3, 1 beats 2
    series = [
        SeriesData(1, None, SeriesStatus.FINISHED, 1, slot="W1-1"),
        SeriesData(2, 3, SeriesStatus.FINISHED, 2, slot="W1-2"),
        SeriesData(1, 2, SeriesStatus.FINISHED, 1, slot="W2-1"),
    ]
    players = [PlayerData(i, f"P{i}") for i in (1, 2, 3)]
    rows = compute_standings(
        players=players, series=series, rules=ScoringRules(knockout=True, tie_breaks=()),
        bracket=bracket,
    )  # fmt: skip
    assert [(r.player_id, r.rank, r.shared) for r in rows] == [(1, 1, False), (2, 2, False),
                                                               (3, 3, False)]  # fmt: skip
    assert [(r.played, r.won, r.points) for r in rows] == [(1, 1, 1), (2, 1, 1), (1, 0, 0)]
    assert all(r.tiebreaks == () for r in rows)


# through the page, the API and the CSV -------------------------------------------


def knockout(
    format: str, count: int, pick: Callable[[Series], Player], **settings: object
) -> Tournament:
    """An elimination event of ``count`` players (P1 the top seed by rating), every series
    to one point, played out with ``pick`` choosing each winner."""
    t = tournament_create(name=f"KO {format} {count}", start_date=datetime.date(2026, 6, 1),
                          format=format, series_length=1, **settings)  # fmt: skip
    for i in range(1, count + 1):
        entry_register(tournament=t, player=rated_player(f"P{i}", 2000 - i))
    bracket_create(tournament=t)
    while True:
        open_series = (
            Series.objects.filter(tournament=t, player2__isnull=False)
            .exclude(status__in=[SeriesStatus.FINISHED, SeriesStatus.FORFEITED])
            .select_related("player1", "player2", "tournament")
            .order_by("id")
        )
        s = open_series.first()
        if s is None:
            return t
        white = series_next_white(s, []) or s.player1
        assert white is not None
        game_enter_quick(series=s, white=white, winner=pick(s), kind="oin")


def better_seed(s: Series) -> Player:
    assert s.player1 is not None and s.player2 is not None
    return min(s.player1, s.player2, key=lambda p: int(p.name[1:]))


def upset_in_third_place(s: Series) -> Player:
    assert s.player1 is not None and s.player2 is not None
    if s.slot == "P3":
        return max(s.player1, s.player2, key=lambda p: int(p.name[1:]))
    return better_seed(s)


SIX_WITH_P3 = [("P1", "1"), ("P2", "2"), ("P4", "3"), ("P3", "4"), ("P5", "5="), ("P6", "5=")]


def page_places(html: str) -> list[tuple[str, str]]:
    table = html.split('class="standings"', 1)[1].split("</table>", 1)[0]
    found = re.findall(r'<td>(\d+=?)</td>\s*<th scope="row"><a [^>]*>(?:<bdi>)?([^<]+)<', table)
    return [(name, rank) for rank, name in found]


@pytest.mark.django_db
def test_tournament_page_ranks_a_knockout_by_the_bracket(client: Client) -> None:
    t = knockout("single_elimination", 6, upset_in_third_place, third_place=True)
    response = client.get(reverse("tournaments:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert page_places(html) == SIX_WITH_P3
    table = html.split('class="standings"', 1)[1].split("</table>", 1)[0]
    for label in ("Buchholz", "Sonneborn-Berger", "head-to-head", "series won"):
        assert label not in table
    assert "Places come from the bracket" in html


@pytest.mark.django_db
def test_api_standings_of_a_knockout() -> None:
    t = knockout("single_elimination", 6, upset_in_third_place, third_place=True)
    rows = APIClient().get(f"/api/tournaments/{t.pk}/standings/").json()
    shown = [(r["player_name"], f"{r['rank']}{'=' if r['shared'] else ''}") for r in rows]
    assert shown == SIX_WITH_P3
    assert all(r["tiebreaks"] == {} for r in rows)
    by_name = {r["player_name"]: r for r in rows}
    # P1: a bye, then two series won; the bye is an advance, not a series won
    assert (by_name["P1"]["played"], by_name["P1"]["won"], by_name["P1"]["points"]) == (
        2, 2, "2.00",
    )  # fmt: skip


@pytest.mark.django_db
def test_standings_csv_of_a_knockout_has_no_tie_breaks() -> None:
    t = knockout("single_elimination", 6, upset_in_third_place, third_place=True)
    response = APIClient().get(f"/api/tournaments/{t.pk}/standings.csv", HTTP_ACCEPT_LANGUAGE="en")
    lines = response.content.decode().splitlines()
    assert lines[0] == (
        "rank,player,club,series played,series won,series drawn,series lost,game points for,"
        "game points against,mars wins,points,withdrawn"
    )
    assert [tuple(line.split(",")[1::-1]) for line in lines[1:]] == SIX_WITH_P3


@pytest.mark.django_db
def test_double_elimination_through_the_api() -> None:
    def pick(s: Series) -> Player:
        if s.slot == "GF-1":  # the losers' bracket finalist wins: the bracket is reset
            return s.player2 if s.player2 is not None else better_seed(s)
        return better_seed(s)

    t = knockout("double_elimination", 4, pick)
    assert Series.objects.filter(tournament=t, slot="GF-2").exists()
    rows = APIClient().get(f"/api/tournaments/{t.pk}/standings/").json()
    assert [(r["player_name"], r["rank"], r["shared"]) for r in rows] == [
        ("P1", 1, False), ("P2", 2, False), ("P3", 3, False), ("P4", 4, False),
    ]  # fmt: skip


@pytest.mark.django_db
def test_knockout_page_queries_do_not_grow(client: Client, django_assert_max_num_queries) -> None:
    counts = []
    for size in (4, 12):
        t = knockout("single_elimination", size, better_seed, third_place=True)
        with django_assert_max_num_queries(14) as ctx:
            assert client.get(reverse("tournaments:tournament", args=[t.pk])).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
