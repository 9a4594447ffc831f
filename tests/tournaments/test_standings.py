"""Standings and tie-breaks: the worked example of docs/standings.md, computed by hand.

Five players, three rounds, default points (series won 1, drawn ½, lost 0, bye 1, no points
per game point), a forfeit worth 3 game points:

    round 1  Anna-Boris 4-2 (oin, Boris mars, koks)   Cyril-Dana 2½-1½ (oin cube 2, oin, draw)
             Emil bye
    round 2  Anna-Cyril 2-2 drawn (mars each)         Boris-Emil forfeited by Emil
             Dana bye
    round 3  Anna-Dana 1-3 (Dana oin, Anna oin, Dana mars)
             Emil-Cyril 3-1 (Emil koks, Cyril oin)    Boris bye
    round 4  Anna-Boris in play: does not count
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal as D

import pytest
from pytest_django import DjangoAssertNumQueries

from tournaments.models import (
    Club,
    Entry,
    Game,
    GameKind,
    Player,
    Round,
    Series,
    SeriesStatus,
    TieBreak,
    Tournament,
)
from tournaments.selectors import progress_by_round, standings_for_tournament
from tournaments.selectors.standings import (
    GameData,
    PlayerData,
    ScoringRules,
    SeriesData,
    StandingRow,
    compute_progress,
    compute_standings,
)

ANNA, BORIS, CYRIL, DANA, EMIL = 1, 2, 3, 4, 5
FINISHED, FORFEITED = SeriesStatus.FINISHED, SeriesStatus.FORFEITED
OIN, MARS, KOKS, DRAW = GameKind.OIN, GameKind.MARS, GameKind.KOKS, GameKind.DRAW
ALL_TIE_BREAKS = tuple(str(t) for t in TieBreak)

PLAYERS = [
    PlayerData(ANNA, "Anna", "Brno"),
    PlayerData(BORIS, "Boris", "Praha"),
    PlayerData(CYRIL, "Cyril"),
    PlayerData(DANA, "Dana", "Praha"),
    PlayerData(EMIL, "Emil", "Brno", withdrawn=True),
]


def g(winner: int | None, kind: str = OIN, cube: int = 1) -> GameData:
    value = {"oin": 1, "mars": 2, "koks": 3}.get(str(kind), 0) * cube
    return GameData(winner, value, kind)


SERIES = [
    SeriesData(ANNA, BORIS, FINISHED, ANNA, 1, (g(ANNA), g(BORIS, MARS), g(ANNA, KOKS))),
    SeriesData(CYRIL, DANA, FINISHED, CYRIL, 1, (g(CYRIL, cube=2), g(DANA), g(None, DRAW))),
    SeriesData(EMIL, None, FINISHED, None, 1),
    SeriesData(ANNA, CYRIL, FINISHED, None, 2, (g(ANNA, MARS), g(CYRIL, MARS))),
    SeriesData(BORIS, EMIL, FORFEITED, BORIS, 2),
    SeriesData(DANA, None, FINISHED, None, 2),
    SeriesData(ANNA, DANA, FINISHED, DANA, 3, (g(DANA), g(ANNA), g(DANA, MARS))),
    SeriesData(EMIL, CYRIL, FINISHED, EMIL, 3, (g(EMIL, KOKS), g(CYRIL))),
    SeriesData(BORIS, None, FINISHED, None, 3),
    SeriesData(ANNA, BORIS, SeriesStatus.IN_PLAY, None, 4, (g(BORIS, KOKS, 4),)),
]

RULES = ScoringRules(forfeit_game_points=3, tie_breaks=ALL_TIE_BREAKS)

# name, played, won, drawn, lost, game points for, against, mars wins, points
TOTALS = {
    "Boris": (3, 2, 0, 1, D(5), D(4), 1, D(2)),
    "Emil": (3, 2, 0, 1, D(3), D(4), 1, D(2)),
    "Dana": (3, 2, 0, 1, D("4.5"), D("3.5"), 1, D(2)),
    "Anna": (3, 1, 1, 1, D(7), D(7), 2, D("1.5")),
    "Cyril": (3, 1, 1, 1, D("5.5"), D("6.5"), 1, D("1.5")),
}
# head-to-head, Buchholz, cut 1, Sonneborn-Berger, series won, mars wins, difference, progressive
TIE_BREAKS = {
    "Boris": (D(1), D("3.5"), D(2), D(2), D(2), D(1), D(1), D(3)),
    "Emil": (D(0), D("3.5"), D(2), D("1.5"), D(2), D(1), D(-1), D(4)),
    "Dana": (D(0), D(3), D("1.5"), D("1.5"), D(2), D(1), D(1), D(3)),
    "Anna": (D("0.5"), D("5.5"), D(4), D("2.75"), D(1), D(2), D(0), D(4)),
    "Cyril": (D("0.5"), D("5.5"), D(4), D("2.75"), D(1), D(1), D(-1), D(4)),
}


def ranks(rows: list[StandingRow]) -> list[tuple[str, int, bool]]:
    return [(r.player_name, r.rank, r.shared) for r in rows]


def totals(row: StandingRow) -> tuple[object, ...]:
    return (
        row.played,
        row.won,
        row.drawn,
        row.lost,
        row.game_points_for,
        row.game_points_against,
        row.mars_wins,
        row.points,
    )


def assert_worked_example(rows: list[StandingRow]) -> None:
    assert ranks(rows) == [
        ("Boris", 1, False),
        ("Emil", 2, False),
        ("Dana", 3, False),
        ("Anna", 4, False),
        ("Cyril", 5, False),
    ]
    for row in rows:
        assert totals(row) == TOTALS[row.player_name], row.player_name
        assert [key for key, _ in row.tiebreaks] == list(ALL_TIE_BREAKS)
        assert tuple(v for _, v in row.tiebreaks) == TIE_BREAKS[row.player_name], row.player_name
    assert [r.withdrawn for r in rows] == [False, True, False, False, False]


def standings(rules: ScoringRules = RULES, series: list[SeriesData] = SERIES) -> list[StandingRow]:
    return compute_standings(players=PLAYERS, series=series, rules=rules)


# Pure tests: no database.


def test_worked_example_every_tie_break() -> None:
    rows = standings()

    assert_worked_example(rows)
    assert [r.club_name for r in rows] == ["Praha", "Brno", "Praha", "Brno", ""]
    assert rows[0].game_point_difference == D(1)


def test_default_tie_breaks_give_the_same_order() -> None:
    rows = standings(replace(RULES, tie_breaks=ScoringRules().tie_breaks))

    assert [r.player_name for r in rows] == ["Boris", "Emil", "Dana", "Anna", "Cyril"]
    # Anna and Cyril stay level until the game-point difference.
    assert rows[3].tiebreaks == (
        ("head_to_head", D("0.5")),
        ("buchholz", D("5.5")),
        ("sonneborn_berger", D("2.75")),
        ("series_won", D(1)),
        ("game_point_difference", D(0)),
    )


def test_without_tie_breaks_equal_points_share_the_rank() -> None:
    rows = standings(replace(RULES, tie_breaks=()))

    assert ranks(rows) == [
        ("Boris", 1, True),
        ("Dana", 1, True),
        ("Emil", 1, True),
        ("Anna", 4, True),
        ("Cyril", 4, True),
    ]
    assert all(r.tiebreaks == () for r in rows)


def test_remaining_ties_share_the_rank_competition_style() -> None:
    rows = standings(replace(RULES, tie_breaks=(TieBreak.BUCHHOLZ,)))

    assert ranks(rows) == [
        ("Boris", 1, True),
        ("Emil", 1, True),
        ("Dana", 3, False),
        ("Anna", 4, True),
        ("Cyril", 4, True),
    ]


def test_head_to_head_only_among_players_still_tied() -> None:
    rows = standings(replace(RULES, tie_breaks=(TieBreak.PROGRESSIVE, TieBreak.HEAD_TO_HEAD)))

    # Progressive separates Emil (4) from Boris and Dana (3), who never met: 0 each.
    assert ranks(rows) == [
        ("Emil", 1, False),
        ("Boris", 2, True),
        ("Dana", 2, True),
        ("Anna", 4, True),
        ("Cyril", 4, True),
    ]
    h2h = {r.player_name: r.tiebreaks[1][1] for r in rows}
    assert h2h == {"Emil": None, "Boris": D(0), "Dana": D(0), "Anna": D("0.5"), "Cyril": D("0.5")}


def test_head_to_head_in_a_group_of_five() -> None:
    # A bye worth ½ puts everyone on 1½; only the series among them count for head-to-head.
    rows = standings(replace(RULES, bye=D("0.5"), tie_breaks=(TieBreak.HEAD_TO_HEAD,)))

    assert {r.points for r in rows} == {D("1.5")}
    assert ranks(rows) == [
        ("Anna", 1, True),
        ("Cyril", 1, True),
        ("Boris", 3, True),
        ("Dana", 3, True),
        ("Emil", 3, True),
    ]
    assert [r.tiebreaks[0][1] for r in rows] == [D("1.5"), D("1.5"), D(1), D(1), D(1)]


def test_points_per_game_point() -> None:
    rows = standings(replace(RULES, per_game_point=D("0.1")))

    # A bye brings no game points: Boris 2 + 0.5, Dana 2 + 0.45, Emil 2 + 0.3, ...
    assert [(r.player_name, r.points) for r in rows] == [
        ("Boris", D("2.5")),
        ("Dana", D("2.45")),
        ("Emil", D("2.3")),
        ("Anna", D("2.2")),
        ("Cyril", D("2.05")),
    ]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]


def test_draw_scoring_one_and_head_to_head_with_game_points() -> None:
    rules = replace(
        RULES,
        draw_scoring="one",
        per_game_point=D("0.1"),
        tie_breaks=(TieBreak.HEAD_TO_HEAD, TieBreak.BUCHHOLZ),
    )
    rows = {r.player_name: r for r in standings(rules)}

    # The drawn game gives Cyril and Dana 1 game point each instead of ½.
    assert (rows["Cyril"].game_points_for, rows["Cyril"].game_points_against) == (D(6), D(7))
    assert (rows["Dana"].game_points_for, rows["Dana"].game_points_against) == (D(5), D(4))
    assert rows["Cyril"].points == D("2.1")
    # Boris and Dana on 2.5 never met; Buchholz: Anna 2.2 + Emil 2.3 against Cyril 2.1 + Anna 2.2.
    assert rows["Boris"].tiebreaks == (("head_to_head", D(0)), ("buchholz", D("4.5")))
    assert rows["Dana"].tiebreaks == (("head_to_head", D(0)), ("buchholz", D("4.3")))
    assert (rows["Boris"].rank, rows["Dana"].rank) == (1, 2)
    assert rows["Anna"].tiebreaks[0] == ("head_to_head", None)  # alone on 2.2


def test_head_to_head_counts_points_per_game_point() -> None:
    rules = replace(RULES, per_game_point=D("0.1"), tie_breaks=(TieBreak.HEAD_TO_HEAD,))
    level = [SeriesData(ANNA, BORIS, FINISHED, None, 1, (g(ANNA, MARS), g(BORIS, MARS)))]
    rows = standings(rules, level)

    # A drawn series 2-2: ½ + 2 times 0.1 each; both level, everyone else on 0.
    assert [(r.player_name, r.points, r.rank, r.shared) for r in rows[:2]] == [
        ("Anna", D("0.7"), 1, True),
        ("Boris", D("0.7"), 1, True),
    ]
    assert rows[0].tiebreaks == (("head_to_head", D("0.7")),)


def test_forfeit_game_points() -> None:
    by_name = {r.player_name: r for r in standings(replace(RULES, forfeit_game_points=0))}

    assert (by_name["Boris"].game_points_for, by_name["Boris"].game_points_against) == (D(2), D(4))
    assert (by_name["Emil"].game_points_for, by_name["Emil"].game_points_against) == (D(3), D(1))
    assert (by_name["Boris"].won, by_name["Emil"].lost) == (2, 1)


def test_forfeited_without_a_winner_is_lost_by_both() -> None:
    rows = standings(series=[SeriesData(ANNA, BORIS, FORFEITED, None, 1)])

    anna = rows[0]
    assert (anna.player_name, anna.played, anna.won, anna.drawn, anna.lost) == ("Anna", 1, 0, 0, 1)
    assert (anna.points, anna.game_points_for, anna.game_points_against) == (D(0),) * 3
    assert all(r.rank == 1 and r.shared for r in rows)


def test_bye_only() -> None:
    rows = standings(series=[SeriesData(CYRIL, None, FINISHED, None, 1)])

    cyril = rows[0]
    assert (cyril.player_name, cyril.played, cyril.won, cyril.points) == ("Cyril", 1, 1, D(1))
    assert dict(cyril.tiebreaks) == {
        "head_to_head": None,
        "buchholz": D(0),
        "buchholz_cut1": D(0),
        "sonneborn_berger": D(0),
        "series_won": D(1),
        "mars_wins": D(0),
        "game_point_difference": D(0),
        "progressive": D(1),
    }


def test_buchholz_cut1_needs_two_opponents() -> None:
    one_series = [SeriesData(ANNA, BORIS, FINISHED, ANNA, 1, (g(ANNA),))]
    rows = {r.player_name: r for r in standings(series=one_series)}

    assert dict(rows["Boris"].tiebreaks)["buchholz"] == D(1)
    assert dict(rows["Boris"].tiebreaks)["buchholz_cut1"] == D(0)


def test_players_without_an_entry_still_appear() -> None:
    rows = compute_standings(players=PLAYERS[:1], series=SERIES[:1], rules=RULES)

    assert [(r.player_name, r.points, r.withdrawn) for r in rows] == [
        ("Anna", D(1), False),
        ("#2", D(0), False),
    ]


def test_unknown_tie_break_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-break 'coin_toss'"):
        standings(replace(RULES, tie_breaks=("coin_toss",)))


def test_progress_by_round_puts_series_without_a_round_last() -> None:
    series = [*SERIES, SeriesData(CYRIL, DANA, FINISHED, DANA, None, (g(DANA),))]
    progress = compute_progress(players=PLAYERS, series=series, rules=RULES)

    assert progress[ANNA] == ((1, D(1)), (2, D("1.5")), (3, D("1.5")), (None, D("1.5")))
    assert progress[DANA] == ((1, D(0)), (2, D(1)), (3, D(2)), (None, D(3)))
    # The pseudo-round counts for progressive: Dana 0 + 1 + 2 + 3.
    rows = {r.player_name: r for r in standings(series=series)}
    assert dict(rows["Dana"].tiebreaks)["progressive"] == D(6)


# Database tests: the same example built from model rows.


def make_tournament(**settings: object) -> Tournament:
    return Tournament.objects.create(
        name="Brno Open", start_date=datetime.date(2025, 5, 1), **settings
    )


def add_series(
    tournament: Tournament,
    round_: Round | None,
    player1: Player,
    player2: Player | None,
    games: list[tuple[Player | None, str, int]],
    *,
    status: str = FINISHED,
    winner: Player | None = None,
) -> Series:
    series = Series.objects.create(
        tournament=tournament, round=round_, player1=player1, player2=player2
    )
    scores = {player1.pk: D(0)}
    for number, (game_winner, kind, cube) in enumerate(games, start=1):
        assert player2 is not None
        scores.setdefault(player2.pk, D(0))
        game = Game.objects.create(
            series=series, number=number, white=player1, black=player2,
            winner=game_winner, kind=kind, cube=cube,
        )  # fmt: skip
        if game_winner is not None:
            scores[game_winner.pk] += game.value
    # The trigger refuses games for a closed series: close it after its games.
    series.status, series.winner = status, winner
    series.score1 = scores[player1.pk]
    series.score2 = scores.get(player2.pk, D(0)) if player2 else D(0)
    series.save()
    return series


def build_worked_example() -> Tournament:
    brno, praha = Club.objects.create(name="Brno"), Club.objects.create(name="Praha")
    anna = Player.objects.create(name="Anna", club=brno)
    boris = Player.objects.create(name="Boris", club=praha)
    cyril = Player.objects.create(name="Cyril")
    dana = Player.objects.create(name="Dana", club=praha)
    emil = Player.objects.create(name="Emil", club=brno)
    t = make_tournament(forfeit_game_points=3, tie_breaks=list(ALL_TIE_BREAKS))
    for player in (anna, boris, cyril):
        Entry.objects.create(tournament=t, player=player)
    Entry.objects.create(tournament=t, player=emil, withdrawn=True)  # Dana has no entry
    r1, r2, r3, r4 = (Round.objects.create(tournament=t, number=n) for n in (1, 2, 3, 4))
    add_series(t, r1, anna, boris, [(anna, OIN, 1), (boris, MARS, 1), (anna, KOKS, 1)], winner=anna)
    add_series(t, r1, cyril, dana, [(cyril, OIN, 2), (dana, OIN, 1), (None, DRAW, 1)], winner=cyril)
    add_series(t, r1, emil, None, [])
    add_series(t, r2, anna, cyril, [(anna, MARS, 1), (cyril, MARS, 1)])
    add_series(t, r2, boris, emil, [], status=FORFEITED, winner=boris)
    add_series(t, r2, dana, None, [])
    add_series(t, r3, anna, dana, [(dana, OIN, 1), (anna, OIN, 1), (dana, MARS, 1)], winner=dana)
    add_series(t, r3, emil, cyril, [(emil, KOKS, 1), (cyril, OIN, 1)], winner=emil)
    add_series(t, r3, boris, None, [])
    add_series(t, r4, anna, boris, [(boris, KOKS, 4)], status=SeriesStatus.IN_PLAY)
    return t


def build_round_robin(size: int) -> Tournament:
    t = make_tournament()
    clubs = [Club.objects.create(name=f"Club {i}") for i in range(3)]
    players = [Player.objects.create(name=f"Player {i:02}", club=clubs[i % 3]) for i in range(size)]
    for player in players:
        Entry.objects.create(tournament=t, player=player)
    round_ = Round.objects.create(tournament=t, number=1)
    for i, first in enumerate(players):
        for second in players[i + 1 :]:
            add_series(t, round_, first, second, [(first, MARS, 1), (second, OIN, 1)], winner=first)
    return t


@pytest.mark.django_db
def test_worked_example_from_the_database() -> None:
    tournament = build_worked_example()

    rows = standings_for_tournament(tournament=tournament)

    assert_worked_example(rows)
    assert [r.club_name for r in rows] == ["Praha", "Brno", "Praha", "Brno", ""]
    ids = {p.name: p.pk for p in Player.objects.all()}
    assert [r.player_id for r in rows] == [ids[r.player_name] for r in rows]
    progress = progress_by_round(tournament=tournament)
    assert progress[ids["Emil"]] == ((1, D(1)), (2, D(1)), (3, D(2)))


@pytest.mark.django_db
@pytest.mark.parametrize("build", [build_worked_example, lambda: build_round_robin(12)])
def test_fixed_number_of_queries(
    build: Callable[[], Tournament], django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    tournament = build()

    # Entries with players and clubs; closed series with rounds, players and clubs; games.
    with django_assert_num_queries(3) as captured:
        rows = standings_for_tournament(tournament=tournament)

    assert len(rows) in (5, 12)
    assert "tournaments_game" in captured.captured_queries[-1]["sql"]


@pytest.mark.django_db
def test_round_robin_table() -> None:
    tournament = build_round_robin(4)

    rows = standings_for_tournament(tournament=tournament)

    # Player i beats everyone after them: 3, 2, 1, 0 wins.
    assert [(r.player_name, r.club_name, r.won, r.points, r.rank) for r in rows] == [
        ("Player 00", "Club 0", 3, D(3), 1),
        ("Player 01", "Club 1", 2, D(2), 2),
        ("Player 02", "Club 2", 1, D(1), 3),
        ("Player 03", "Club 0", 0, D(0), 4),
    ]
