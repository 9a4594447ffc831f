"""Tournament standings: series, game points, tournament points, tie-breaks and ranks.

`compute_standings` is a pure function over plain data, tested without a database;
`standings_for_tournament` loads that data in three queries (entries, closed series, their
games; three more for an elimination event's bracket) whatever the tournament's size. An
elimination event is ranked by its bracket (selectors/knockout.py), not by points and
tie-breaks. The rules, for directors: docs/standings.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from tournaments.models import (
    CLOSED_STATUSES,
    DEFAULT_TIE_BREAKS,
    DrawScoring,
    Entry,
    Format,
    Game,
    GameKind,
    Series,
    SeriesStatus,
    Tournament,
    points_of,
)
from tournaments.pairing import Bracket, PairingError
from tournaments.selectors.brackets import bracket_of
from tournaments.selectors.knockout import knockout_places
from tournaments.selectors.tiebreaks import (
    HALF,
    ONE,
    ZERO,
    Outcome,
    Placing,
    RoundKey,
    TieBreakValues,
    cumulative_points,
    rank_players,
)
from tournaments.services.errors import ApplicationError

MARS_KINDS = frozenset({GameKind.MARS, GameKind.KOKS})
KNOCKOUT_FORMATS = frozenset({Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION})


@dataclass(frozen=True, slots=True)
class PlayerData:
    player_id: int
    name: str
    club_name: str = ""
    withdrawn: bool = False
    gender: str = ""  # grammatical (Player.gender): "f", "m" or "" when not known


@dataclass(frozen=True, slots=True)
class GameData:
    winner_id: int | None  # None: a drawn game
    value: int  # game points to the winner, as Game.value: oin 1, mars 2, koks 3, times the cube
    kind: str = GameKind.OIN


@dataclass(frozen=True, slots=True)
class SeriesData:
    player1_id: int | None
    player2_id: int | None  # None (or player1_id None): a bye for the other player
    status: str
    winner_id: int | None = None  # None in a closed series: drawn (finished) or both lost
    round_number: RoundKey = None
    games: tuple[GameData, ...] = ()
    slot: str = ""  # the bracket match (W1-1, L2-1, GF-1, P3 ...) of an elimination event


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The tournament's settings that the standings depend on."""

    series_win: Decimal = ONE
    series_draw: Decimal = HALF
    series_loss: Decimal = ZERO
    per_game_point: Decimal = ZERO
    draw_scoring: str = DrawScoring.HALF
    bye: Decimal = ONE
    forfeit_game_points: int = 0
    tie_breaks: tuple[str, ...] = tuple(str(t) for t in DEFAULT_TIE_BREAKS)
    knockout: bool = False  # ranked by the bracket: no tie-breaks, a bye only advances

    @classmethod
    def of(cls, tournament: Tournament) -> ScoringRules:
        knockout = tournament.format in KNOCKOUT_FORMATS
        return cls(
            series_win=tournament.points_series_win,
            series_draw=tournament.points_series_draw,
            series_loss=tournament.points_series_loss,
            per_game_point=tournament.points_per_game_point,
            draw_scoring=tournament.draw_scoring,
            bye=tournament.bye_points,
            forfeit_game_points=tournament.forfeit_game_points,
            tie_breaks=() if knockout else tuple(str(key) for key in tournament.tie_breaks),
            knockout=knockout,
        )

    @property
    def drawn_game(self) -> Decimal:
        """Game points each player gets for a drawn game."""
        return ONE if self.draw_scoring == DrawScoring.ONE else HALF

    def series_points(self, weight: Decimal) -> Decimal:
        return {ONE: self.series_win, HALF: self.series_draw}.get(weight, self.series_loss)


@dataclass(frozen=True, slots=True)
class StandingRow:
    player_id: int
    player_name: str
    club_name: str
    played: int
    won: int
    drawn: int
    lost: int
    game_points_for: Decimal
    game_points_against: Decimal
    mars_wins: int
    points: Decimal
    tiebreaks: TieBreakValues  # (TieBreak value, value) in the tournament's order
    rank: int  # competition ranking: 1, 2, 2, 4
    shared: bool  # the rank is shared with the next or previous rows
    withdrawn: bool
    gender: str = ""  # grammatical (Player.gender), for "odstoupil(a)"

    @property
    def game_point_difference(self) -> Decimal:
        return self.game_points_for - self.game_points_against


def _game_points(
    series: SeriesData, p1: int, p2: int, rules: ScoringRules
) -> tuple[dict[int, Decimal], dict[int, int]]:
    """Game points scored by each player of a two-player series, and mars wins."""
    scored = {p1: ZERO, p2: ZERO}
    mars = {p1: 0, p2: 0}
    if series.status == SeriesStatus.FORFEITED:
        if series.winner_id in scored:
            scored[series.winner_id] = Decimal(rules.forfeit_game_points)
        return scored, mars
    for game in series.games:
        if game.winner_id is None:
            scored[p1] += rules.drawn_game
            scored[p2] += rules.drawn_game
        elif game.winner_id in scored:
            scored[game.winner_id] += game.value
            mars[game.winner_id] += game.kind in MARS_KINDS
    return scored, mars


def series_outcomes(series: SeriesData, rules: ScoringRules) -> tuple[Outcome, ...]:
    """Each player's side of a series; nothing for a series not finished or forfeited."""
    if series.status not in CLOSED_STATUSES:
        return ()
    present = [pid for pid in (series.player1_id, series.player2_id) if pid is not None]
    if len(present) == 1:
        if rules.knockout:
            return ()  # a bye in a bracket is an advance, not a series won
        return (Outcome(present[0], None, series.round_number, ONE, rules.bye),)
    if len(present) != 2:
        return ()
    p1, p2 = present
    scored, mars = _game_points(series, p1, p2, rules)
    outcomes = []
    for me, other in ((p1, p2), (p2, p1)):
        if series.winner_id is None:
            # Finished without a winner: drawn. Forfeited without one: both forfeited.
            weight = HALF if series.status == SeriesStatus.FINISHED else ZERO
        else:
            weight = ONE if series.winner_id == me else ZERO
        outcomes.append(
            Outcome(
                player_id=me,
                opponent_id=other,
                round_number=series.round_number,
                weight=weight,
                points=rules.series_points(weight) + scored[me] * rules.per_game_point,
                game_points_for=scored[me],
                game_points_against=scored[other],
                mars_wins=mars[me],
            )
        )
    return tuple(outcomes)


def _all_outcomes(series: Iterable[SeriesData], rules: ScoringRules) -> list[Outcome]:
    return [outcome for one in series for outcome in series_outcomes(one, rules)]


def _everyone(players: Iterable[PlayerData], outcomes: Iterable[Outcome]) -> list[PlayerData]:
    """The entered players and anyone else who played, sorted by name."""
    known = {p.player_id: p for p in players}
    for o in outcomes:
        if o.player_id not in known:
            known[o.player_id] = PlayerData(o.player_id, f"#{o.player_id}")
    return sorted(known.values(), key=lambda p: (p.name.casefold(), p.player_id))


def bracket_results(series: Iterable[SeriesData]) -> dict[str, int]:
    """The winning side (0: player 1, 1: player 2) of each decided bracket series."""
    return {
        s.slot: 0 if s.winner_id == s.player1_id else 1
        for s in series
        if s.slot and s.status in CLOSED_STATUSES
        and s.winner_id is not None and s.player1_id is not None and s.player2_id is not None
    }  # fmt: skip


def bracket_placings(
    bracket: Bracket[int] | None, series: Iterable[SeriesData], player_ids: list[int]
) -> list[Placing]:
    """Places by the bracket; without one (not buildable yet), everyone shares 1st."""
    if bracket is None:
        return [Placing(pid, 1, len(player_ids) > 1, ()) for pid in player_ids]
    results = bracket_results(series)
    try:
        places = knockout_places(bracket, results, player_ids)
    except PairingError:  # results that no longer fit the seeding: show it unranked
        places = knockout_places(bracket, {}, player_ids)
    known = set(player_ids)
    return [Placing(p.player, p.rank, p.shared, ()) for p in places if p.player in known]


def compute_standings(
    *,
    players: Iterable[PlayerData],
    series: Iterable[SeriesData],
    rules: ScoringRules,
    bracket: Bracket[int] | None = None,
) -> list[StandingRow]:
    """The standings table, best first; players whose rank is shared are sorted by name.
    With ``rules.knockout`` the places come from ``bracket`` and its results."""
    series = list(series)
    outcomes = _all_outcomes(series, rules)
    everyone = _everyone(players, outcomes)
    mine: dict[int, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        mine[o.player_id].append(o)
    points = {p.player_id: sum((o.points for o in mine[p.player_id]), ZERO) for p in everyone}
    if rules.knockout:
        placings = bracket_placings(bracket, series, [p.player_id for p in everyone])
    else:
        placings = rank_players(
            player_ids=[p.player_id for p in everyone],
            points=points,
            tie_breaks=rules.tie_breaks,
            outcomes=outcomes,
        )
    by_id = {p.player_id: p for p in everyone}
    rows = []
    for placing in placings:
        player, played = by_id[placing.player_id], mine[placing.player_id]
        rows.append(
            StandingRow(
                player_id=player.player_id,
                player_name=player.name,
                club_name=player.club_name,
                played=len(played),
                won=sum(1 for o in played if o.weight == ONE),
                drawn=sum(1 for o in played if o.weight == HALF),
                lost=sum(1 for o in played if o.weight == ZERO),
                game_points_for=sum((o.game_points_for for o in played), ZERO),
                game_points_against=sum((o.game_points_against for o in played), ZERO),
                mars_wins=sum(o.mars_wins for o in played),
                points=points[player.player_id],
                tiebreaks=placing.tiebreaks,
                rank=placing.rank,
                shared=placing.shared,
                withdrawn=player.withdrawn,
                gender=player.gender,
            )
        )
    return rows


def compute_progress(
    *, players: Iterable[PlayerData], series: Iterable[SeriesData], rules: ScoringRules
) -> dict[int, tuple[tuple[RoundKey, Decimal], ...]]:
    """Per player id, the running total of tournament points after each round."""
    outcomes = _all_outcomes(series, rules)
    return cumulative_points(outcomes, [p.player_id for p in _everyone(players, outcomes)])


# The selectors: load plain data in a fixed number of queries.


def _load(tournament: Tournament) -> tuple[list[PlayerData], list[SeriesData]]:
    """Plain rows (``values_list``), not model instances: a 128-player Swiss has about
    5,000 of those, which cost more than the standings themselves."""
    entries = Entry.objects.filter(tournament=tournament).values_list(
        "player_id", "player__name", "player__club__name", "withdrawn", "player__gender"
    )
    # a player withdrawn before playing (a duplicate, a no-show) is not counted; one who
    # played stays, marked withdrawn (docs/standings.md)
    players = {
        pk: PlayerData(pk, name, club or "", gender=gender)
        for pk, name, club, gone, gender in entries
        if not gone
    }
    withdrawn = {pk for pk, _, _, gone, _ in entries if gone}
    closed = Series.objects.filter(tournament=tournament, status__in=CLOSED_STATUSES)
    rows = list(
        closed.values_list(
            "pk", "player1_id", "player2_id", "status", "winner_id", "round__number", "slot",
            "player1__name", "player1__club__name", "player2__name", "player2__club__name",
            "player1__gender", "player2__gender",
        )
    )  # fmt: skip
    games: dict[int, list[GameData]] = defaultdict(list)
    for series_id, winner_id, kind, cube in (
        Game.objects.filter(series__in=closed.values("pk"))
        .order_by("series_id", "number")
        .values_list("series_id", "winner_id", "kind", "cube")
    ):
        games[series_id].append(GameData(winner_id, points_of(kind, cube), kind))
    series: list[SeriesData] = []
    for pk, one, two, status, winner, number, slot, name1, club1, name2, club2, g1, g2 in rows:
        for player, name, club, gender in ((one, name1, club1, g1), (two, name2, club2, g2)):
            if player is not None and player not in players:
                players[player] = PlayerData(player, name, club or "", player in withdrawn, gender)
        series.append(
            SeriesData(
                player1_id=one,
                player2_id=two,
                status=status,
                winner_id=winner,
                round_number=number,
                games=tuple(games.get(pk, ())),
                slot=slot,
            )
        )
    return list(players.values()), series


def tournament_bracket(tournament: Tournament) -> Bracket[int] | None:
    """An elimination event's bracket (three queries); None if it cannot be made yet."""
    try:
        return bracket_of(tournament)
    except ApplicationError:
        return None


def standings_for_tournament(
    *, tournament: Tournament, bracket: Bracket[int] | None = None
) -> list[StandingRow]:
    """The tournament's standings, best first (three queries; an elimination event's
    bracket three more, unless the caller has it already)."""
    players, series = _load(tournament)
    rules = ScoringRules.of(tournament)
    if rules.knockout and bracket is None:
        bracket = tournament_bracket(tournament)
    return compute_standings(players=players, series=series, rules=rules, bracket=bracket)


def shown_tie_breaks(tournament: Tournament) -> tuple[str, ...]:
    """The tie-breaks the standings show: the tournament's, none for a knockout."""
    return ScoringRules.of(tournament).tie_breaks


def progress_by_round(*, tournament: Tournament) -> dict[int, tuple[tuple[RoundKey, Decimal], ...]]:
    """Per player id, (round number or None, points so far) after each round played."""
    players, series = _load(tournament)
    return compute_progress(players=players, series=series, rules=ScoringRules.of(tournament))


__all__ = [
    "GameData",
    "PlayerData",
    "ScoringRules",
    "SeriesData",
    "StandingRow",
    "bracket_placings",
    "bracket_results",
    "compute_progress",
    "compute_standings",
    "progress_by_round",
    "series_outcomes",
    "shown_tie_breaks",
    "standings_for_tournament",
    "tournament_bracket",
]
