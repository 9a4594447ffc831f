"""Printed sheets (a round's pairings with its bye, the standings and crosstable, the
bracket) and what the series and game pages add: submitted results waiting or rejected,
the audit trail, the director's starter choice."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.forms import QuickResultForm, RecordForm
from tournaments.models import Game, Round, Series, Tournament
from tournaments.selectors.analysis import analysis_rows
from tournaments.selectors.pages import tournament_page
from tournaments.selectors.sheets import corrections_of, corrections_of_game, series_submissions
from tournaments.services.result_rules import crawford_notice
from tournaments.services.series import series_decided_after, series_next_white
from tournaments.services.submissions import is_series_player, submissions_waiting
from tournaments.views.common import visible_tournament


def series_extras(request: HttpRequest, series: Series, directing: bool) -> dict[str, Any]:
    """For the series page: its submitted results (waiting, or rejected with the note) to
    its players and directors, its corrections to everybody, the starter choice to its
    directors."""
    extras: dict[str, Any] = {"corrections": corrections_of(series=series)}
    if directing or is_series_player(request.user, series):
        extras["submissions"] = series_submissions(series=series)
    if directing:
        from tournaments.views.rounds import series_director_context

        extras |= series_director_context(series)
    return extras


def series_page_context(
    request: HttpRequest,
    series: Series,
    directing: bool,
    *,
    quick_form: QuickResultForm | None = None,
    record_form: RecordForm | None = None,
) -> dict[str, Any]:
    """Everything the series page shows, built in one place: a fresh page and a page shown
    again after a refused entry (with the refused form, bound) differ only in that form."""
    games = list(series.games.select_related("white", "black"))
    context: dict[str, Any] = {
        "s": series, "t": series.tournament, "games": games, "directing": directing,
        "analysis_rows": analysis_rows(games),
    }  # fmt: skip
    playing = not series.closed and series.player2_id is not None
    if playing:
        context["crawford_notice"] = crawford_notice(series, games)
    extras = series_extras(request, series, directing)
    number = len(games) + 1
    # a player's games submitted and waiting come before the one to submit now (a
    # director enters the next game, or confirms the waiting one)
    waiting = [] if directing else submissions_waiting(series=series, games=games)
    if playing and waiting:
        context |= {"waiting_number": number, "waiting_last": number + len(waiting) - 1}
        number += len(waiting)
        playing = series_decided_after(series, [*games, *waiting]) is None
    if playing and (directing or is_series_player(request.user, series)):
        if quick_form is None:
            nxt = series_next_white(series, [*games, *waiting])
            initial = {"number": number, "white": nxt.pk if nxt else None}
            quick_form = QuickResultForm(series=series, initial=initial)
        context |= {
            "next_number": number,
            "quick_form": quick_form,
            "record_form": record_form or RecordForm(initial={"number": number}),
        }
    return context | extras


def game_extras(game: Game) -> dict[str, Any]:
    return {"corrections": corrections_of_game(game=game)}


def print_extras(tournament: Tournament, series: list[Series]) -> dict[str, Any]:
    """For the printed pairings: the numbers of the rounds printed and their byes."""
    rounds = sorted({s.round_id for s in series if s.round_id is not None})
    byes = list(
        Series.objects.filter(round_id__in=rounds, player2__isnull=True)
        .select_related("round", "player1")
        .order_by("round__number", "table")
    )
    numbers = sorted({s.round.number for s in series if s.round is not None})
    return {"round_numbers": numbers, "byes": byes}


def print_round(request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
    """A round's pairings for the wall: its number, every table and the bye."""
    tournament, directing = visible_tournament(request, pk)
    rounds = Round.objects.filter(tournament=tournament)
    rnd = rounds.filter(number=number).first() if number else rounds.order_by("-number").first()
    if rnd is None:
        raise Http404
    series = list(rnd.series.select_related("player1", "player2", "winner").order_by("table", "id"))
    return render(
        request, "tournaments/print_round.html",
        {"t": tournament, "round": rnd, "series": series, "directing": directing},
    )  # fmt: skip


def print_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings, the crosstable and the bracket, for the printer."""
    tournament, directing = visible_tournament(request, pk)
    page = tournament_page(tournament=tournament)
    return render(
        request, "tournaments/print_standings.html",
        {"t": tournament, "page": page, "directing": directing},
    )  # fmt: skip
