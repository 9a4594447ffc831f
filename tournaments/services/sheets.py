"""A whole series' scoresheet at once, and what a director should know before changing a
result: each game goes through the one result service (``game_enter_quick``, which asks
``result_rules``), all of them in one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import (
    CLOSED_STATUSES,
    Game,
    GameEnd,
    Player,
    Round,
    Series,
    Tournament,
)
from tournaments.selectors.access import User
from tournaments.selectors.brackets import BRACKET_FORMATS
from tournaments.services.errors import ApplicationError, Conflict
from tournaments.services.result_rules import result_rules
from tournaments.services.results import game_enter_quick
from tournaments.services.series import series_next_starter
from tournaments.wording.lists import round_numbers


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a scoresheet: who had white, who won and how."""

    white: Player
    winner: Player | None
    kind: str
    ended: str = GameEnd.PLAYED
    cube: int = 1


class SheetRowError(ApplicationError):
    """A line of the scoresheet is refused (nothing of the sheet is saved)."""

    def __init__(self, row: int, number: int, exc: ApplicationError) -> None:
        super().__init__(
            _("Game %(n)d: %(why)s"), code=exc.code,
            params={**exc.params, "n": number, "why": exc.message},
            field=exc.field, rule=exc.rule,
        )  # fmt: skip
        self.row = row
        self.number = number


@transaction.atomic
def series_enter_sheet(
    *, series: Series, rows: Sequence[SheetRow], first: int | None = None, by: User | None = None
) -> list[Game]:
    """Enter several games of a series from its scoresheet, in order, from game ``first``
    (default: the next; a number already entered is a conflict). Each game is checked as
    if entered alone, after the ones before it; one refused game refuses the sheet."""
    if not rows:
        raise ApplicationError(_("The scoresheet has no games."), code="sheet-empty", field="games")
    if first is None:
        first = series.games.count() + 1
    games = []
    for row, line in enumerate(rows):
        number = first + row
        try:
            game = game_enter_quick(
                series=series, white=line.white, winner=line.winner, kind=line.kind,
                ended=line.ended, cube=line.cube, number=number, by=by,
            )  # fmt: skip
        except Conflict:
            raise
        except ApplicationError as exc:
            raise SheetRowError(row, number, exc) from None
        games.append(game)
    return games


def correction_warnings(*, game: Game) -> list[str]:
    """What else a correction of ``game`` may change, for the director to confirm first:
    later rounds paired on the old result, later bracket series moved on by it."""
    series = game.series
    tournament = series.tournament
    warnings = later_rounds_warnings(series=series)
    if tournament.format in BRACKET_FORMATS and series.status in CLOSED_STATUSES:
        warnings.append(
            _(
                "The winner of this series moved on in the bracket: if the winner changes, "
                "the later series change too (refused once they have games)."
            )
        )
    return warnings


def later_rounds_warnings(*, series: Series) -> list[str]:
    """The later rounds paired on the series' result and its players' series in them (a
    correction or a deleted game changes that result; the pairings stay)."""
    tournament = series.tournament
    warnings: list[str] = []
    if series.round is not None:
        later = list(
            Round.objects.filter(tournament=tournament, number__gt=series.round.number)
            .order_by("number")
            .values_list("number", flat=True)
        )
        if later:
            warnings.append(
                ngettext(
                    "Round %(later)s was paired on the old result of this series: its "
                    "pairings stay as they are (re-pair it if it has no results yet).",
                    "Rounds %(later)s were paired on the old result of this series: their "
                    "pairings stay as they are (re-pair them if they have no results yet).",
                    len(later),
                )
                % {"later": round_numbers(later)}
            )
            players = [p for p in (series.player1_id, series.player2_id) if p is not None]
            affected = list(
                Series.objects.filter(tournament=tournament, round__number__gt=series.round.number)
                .filter(Q(player1_id__in=players) | Q(player2_id__in=players))
                .select_related("player1", "player2", "round")
                .order_by("round__number", "table", "id")
            )
            if affected:
                warnings.append(
                    _("Their later series, paired on the old result: %(series)s.")
                    % {"series": ", ".join(
                        _("round %(n)d: %(series)s") % {"n": s.round.number, "series": s}
                        for s in affected if s.round is not None
                    )}
                )  # fmt: skip
    return warnings


def series_played_at(*, tournament: Tournament, limit: int = 5) -> str:
    """The series already played to the tournament's length, named for a director who
    wants to change it (empty if none): they keep the length they were played to."""
    played = list(
        Series.objects.filter(tournament=tournament, games__isnull=False)
        .select_related("player1", "player2", "tournament")
        .distinct()
        .order_by("round__number", "table", "id")
    )
    if not played:
        return ""
    shown = ", ".join(
        f"{s} {s.score1.normalize():f}:{s.score2.normalize():f} ({s.get_status_display()})"
        for s in played[:limit]
    )
    more = len(played) - limit
    if more > 0:
        shown += " " + _("and %(n)d more") % {"n": more}
    return _("Already played to %(n)d: %(series)s.") % {"n": tournament.series_length,
                                                      "series": shown}  # fmt: skip


def sheet_next_starters(*, series: Series, games: Sequence[Game]) -> dict[str, str]:
    """Who starts a scoresheet's next line after a line whose starter and winner are
    known, for the page to fill in (static/js/scoresheet.js): keyed
    ``"<starter id>:<winner id or empty for a draw>"``, from ``series_next_starter`` (L12),
    the rule the entry checks: the page's suggestion and the check are one. Empty when
    the next starter is drawn by lot."""
    one, two = series.player1, series.player2
    if one is None or two is None:
        return {}
    white_starts = result_rules(series=series, games=list(games)).first_colour == "white"
    found: dict[str, str] = {}
    for starter, other in ((one, two), (two, one)):
        for winner in (one, two, None):
            white, black = (starter, other) if white_starts else (other, starter)
            last = Game(series=series, number=len(games) + 1, white=white, black=black,
                        winner=winner)  # fmt: skip
            following = series_next_starter(series, [*games, last])
            if following is not None:
                key = f"{starter.pk}:{winner.pk if winner is not None else ''}"
                found[key] = str(following.pk)
    return found
