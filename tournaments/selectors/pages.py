"""Reads for the web pages, each in a fixed number of queries whatever the tournament's
size: the views ask these for everything they show."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q, QuerySet

from tournaments.models import (
    Entry,
    Format,
    Game,
    Player,
    PlayerRating,
    RatingChange,
    Round,
    Series,
    Submission,
    SubmissionStatus,
    TieBreak,
    Tournament,
    Variant,
)
from tournaments.selectors.access import (
    User,
    director_flag,
    visible_rating_changes,
    visible_series,
    visible_tournaments,
)
from tournaments.selectors.bracket_drawing import Drawing, bracket_drawing
from tournaments.selectors.brackets import BRACKET_FORMATS, bracket_of
from tournaments.selectors.charts import RatingChart, rating_chart
from tournaments.selectors.crosstable import (
    CrossRows,
    SwissRows,
    round_robin_crosstable,
    swiss_crosstable,
)
from tournaments.selectors.rows import SeriesRow, attach_players, series_rows
from tournaments.selectors.standings import (
    StandingRow,
    shown_tie_breaks,
    standings_for_tournament,
)
from tournaments.services.errors import ApplicationError
from tournaments.wording.rule_options import rule_sentences

ROUND_ROBIN_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN)


def _series_rows() -> QuerySet[Series]:
    return Series.objects.select_related("round", "player1", "player2", "winner")


def tournaments_visible(user: User | None) -> list[Tournament]:
    """The tournaments the user may see (tournaments/selectors/access.py; one query)."""
    return list(visible_tournaments(user))


@dataclass(frozen=True, slots=True)
class RoundRows:
    round: Round | None
    series: list[SeriesRow]


@dataclass
class TournamentPage:
    tournament: Tournament
    rounds: list[RoundRows]
    standings: list[StandingRow]
    tie_breaks: list[str]
    crosstable: CrossRows = field(default_factory=list)
    swiss_rounds: list[int] = field(default_factory=list)
    swiss_crosstable: SwissRows = field(default_factory=list)
    bracket: Drawing | None = None
    bracket_error: str = ""

    @property
    def knockout(self) -> bool:
        """Ranked by the bracket, without tie-breaks."""
        return self.tournament.format in BRACKET_FORMATS

    @property
    def rule_sentences(self) -> list[str]:
        """The rules of the tournament's game in sentences (tournaments/wording/rule_options.py)."""
        return rule_sentences(self.tournament)

    @property
    def standings_tie_break_labels(self) -> list[str]:
        return [str(TieBreak(v).label) for v in self.tie_breaks if v in TieBreak.values]


def tournament_page(*, tournament: Tournament) -> TournamentPage:
    """Everything the tournament page shows: seven queries for a round robin, eight for
    a Swiss, twelve with a bracket, whatever the size. Series are plain rows
    (selectors/rows.py), not model instances."""
    # the same page for everybody: rounds paired ahead and not published are not on it
    # (their directors see them on the round's page)
    series = series_rows(
        Series.objects.filter(tournament=tournament).exclude(round__published=False)
    )
    rounds = list(Round.objects.filter(tournament=tournament, published=True).order_by("number"))
    by_round: dict[int | None, list[SeriesRow]] = defaultdict(list)
    for s in series:
        by_round[s.round_id].append(s)
    rows = [RoundRows(r, by_round.get(r.pk, [])) for r in rounds]
    if by_round.get(None):
        rows.append(RoundRows(None, by_round[None]))
    bracket, bracket_error = None, ""
    if tournament.format in BRACKET_FORMATS:
        try:
            bracket = bracket_of(tournament)  # three queries, shared with the standings
        except ApplicationError as exc:
            bracket_error = exc.message
    standings = standings_for_tournament(tournament=tournament, bracket=bracket)
    tie_breaks = list(shown_tie_breaks(tournament))
    page = TournamentPage(tournament, rows, standings, tie_breaks)
    page.bracket_error = bracket_error
    if tournament.format in ROUND_ROBIN_FORMATS:
        page.crosstable = round_robin_crosstable(standings, series)
    elif tournament.format == Format.SWISS:
        first_whites = dict(
            Game.objects.filter(series__tournament=tournament, number=1).values_list(
                "series_id", "white_id"
            )
        )  # one query more
        numbers = {r.pk: r.number for r in rounds}
        page.swiss_rounds, page.swiss_crosstable = swiss_crosstable(
            standings, series, first_whites, numbers
        )
    if bracket is not None:
        names = dict(
            Entry.objects.filter(tournament=tournament).values_list("player_id", "player__name")
        )
        page.bracket = bracket_drawing(bracket, series, names)
    return page


def series_with_games(*, pk: int) -> Series:
    """A series with its tournament, players and games (two queries); the games' players
    are the series' own instances (selectors/rows.py: attach_players)."""
    return series_for(pk=pk, user=None)[0]


def series_for(*, pk: int, user: User | None) -> tuple[Series, bool]:
    """``series_with_games`` and whether ``user`` directs its tournament (``is_director``,
    read with the series: no query of its own)."""
    series = (
        Series.objects.select_related("tournament", "round", "player1", "player2", "winner")
        .annotate(directing=director_flag(user, "tournament_id"))
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
        .get(pk=pk)
    )
    attach_players(series, list(series.games.all()))
    return series, bool(series.directing)


def game_with_series(*, pk: int) -> Game:
    """A game with its series, tournament and players (one query)."""
    return Game.objects.select_related(
        "series__tournament", "series__round", "series__player1", "series__player2",
        "white", "black", "winner",
    ).get(pk=pk)  # fmt: skip


@dataclass
class GameRating:
    """A player's rating in one game, its history and its chart."""

    variant: str
    label: str
    rating: PlayerRating
    history: list[RatingChange]
    chart: RatingChart | None


@dataclass
class PlayerPage:
    player: Player
    series: list[Series]
    ratings: list[GameRating]


def rating_history_visible(*, player: Player, user: User | None) -> list[RatingChange]:
    """The player's rating changes, oldest first, without those of series in tournaments
    the user may not see (one query)."""
    return list(
        visible_rating_changes(user)
        .filter(player=player)
        .select_related("series__tournament", "series__player1", "series__player2")
        .order_by("at", "series_id")
    )


def ratings_by_game(*, player: Player, user: User | None) -> list[GameRating]:
    """The player's rating in each game they have one in (played, or given a start), in
    the order of the games, each with the history of the series the user may see (two
    queries)."""
    history = rating_history_visible(player=player, user=user)
    rows = {r.variant: r for r in PlayerRating.objects.filter(player=player)}
    games = []
    for variant, label in Variant.choices:
        if variant in rows:
            mine = [h for h in history if h.variant == variant]
            games.append(GameRating(variant, str(label), rows[variant], mine, rating_chart(mine)))
    return games


def player_page(*, player: Player, user: User | None) -> PlayerPage:
    """A player's series and games in every tournament the user may see, their rating in
    each game and its history of those series (four queries)."""
    games = Game.objects.select_related("white", "winner").order_by("number")
    series = list(
        visible_series(user)
        .select_related("round", "player1", "player2", "winner", "tournament")
        .filter(Q(player1=player) | Q(player2=player))
        .prefetch_related(Prefetch("games", queryset=games))
        .order_by("-tournament__start_date", "tournament_id", "round__number", "id")
    )
    return PlayerPage(player, series, ratings_by_game(player=player, user=user))


def pending_submissions(*, user: User) -> list[Submission]:
    """Submitted results the user may confirm: as the opponent or as a director (one
    query)."""
    if not user.is_authenticated:
        return []
    qs = Submission.objects.filter(
        status=SubmissionStatus.PENDING, report__isnull=True  # a report is decided whole
    ).select_related(
        "series__tournament", "series__player1", "series__player2", "submitted_by__player",
        "white", "winner",
    )  # fmt: skip
    qs = qs.filter(series__tournament__in=visible_tournaments(user))
    if not getattr(user, "is_superuser", False):
        mine = Q(series__player1__user=user.pk) | Q(series__player2__user=user.pk)
        qs = qs.filter(mine | Q(series__tournament__directors=user.pk)).exclude(
            Q(submitted_by=user.pk) & ~Q(series__tournament__directors=user.pk)
        )
    return list(qs.distinct().order_by("submitted_at"))


def pairings_sheet(*, tournament: Tournament, directing: bool = False) -> list[Series]:
    """The open series for printing pairings and scoresheets (one query); a round not
    published yet only for its directors."""
    rows = _series_rows().select_related("tournament").filter(tournament=tournament)
    if not directing:
        rows = rows.exclude(round__published=False)
    return list(rows.exclude(player2__isnull=True).order_by("round__number", "table", "slot", "id"))
