"""Pages for everybody: the tournament list, a tournament, a series and a player."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.gzip import gzip_page

from tournaments.caching.pages import public_page
from tournaments.caching.versions import (
    player_version,
    series_version,
    tournament_version,
    tournaments_version,
)
from tournaments.models import OnlinePlay, Player, Series, SeriesRoom, Tournament
from tournaments.selectors.access import may_create_tournaments, may_see_series
from tournaments.selectors.analysis import player_analysis, tournament_analysis_rows
from tournaments.selectors.luck_share import tournament_luck_share
from tournaments.selectors.pages import (
    pairings_sheet,
    player_page,
    series_for,
    tournaments_visible,
)
from tournaments.selectors.stats import tournament_dice, tournament_stats
from tournaments.services.analysis import analyser
from tournaments.services.online.room_lists import player_open_rooms
from tournaments.views.common import check_visible, visible_tournament
from tournaments.views.entry_requests import ask_offer
from tournaments.views.fragments import last_round_number, player_figures, tournament_body
from tournaments.views.merging import merge_offer
from tournaments.views.online_tournament import live_rooms
from tournaments.views.sheets import print_extras, series_page_context


@public_page(tournaments_version)
def home(request: HttpRequest) -> HttpResponse:
    """The front page: the tournaments, published ones and those the user directs."""
    can_create = may_create_tournaments(request.user)
    return render(
        request,
        "tournaments/home.html",
        {"tournaments": tournaments_visible(request.user), "can_create": can_create},
    )


@gzip_page  # every position or a whole table: several times smaller on a phone
@public_page(tournament_version)  # anonymous visitors: one cache read (gzipped too)
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, directing = visible_tournament(request, pk)
    body = tournament_body(tournament, directing=directing)  # cached by version
    context = {"body": body, "t": tournament, "directing": directing,
               "last_round": last_round_number(tournament),
               "can_analyse": directing and analyser(tournament.variant) is not None,
               "ask": ask_offer(tournament=tournament, user=request.user)}  # fmt: skip
    online = Tournament.objects.filter(pk=tournament.pk).values(  # one query for both
        play=Exists(OnlinePlay.objects.filter(tournament=OuterRef("pk"))),
        rooms=Exists(SeriesRoom.objects.filter(series__tournament=OuterRef("pk"))),
    )[0]
    if online["play"] or online["rooms"]:
        context |= live_rooms(tournament, request.user) | {"online_play": online["play"]}
    return render(request, "tournaments/tournament.html", context)


@public_page(tournament_version)
def tournament_statistics(request: HttpRequest, pk: int) -> HttpResponse:
    """The dice and pips of every player over the tournament's recorded games, and the
    verdict on all its dice together (the figures of GET /api/tournaments/<id>/stats/)."""
    tournament, directing = visible_tournament(request, pk)
    rows = tournament_stats(tournament=tournament)
    context = {"t": tournament, "rows": rows, "dice": tournament_dice(rows),
               "directing": directing,
               "analysis_rows": tournament_analysis_rows(tournament.pk),
               "luck_share": tournament_luck_share(tournament.pk)}  # fmt: skip
    return render(request, "tournaments/statistics.html", context)


def tournament_print(request: HttpRequest, pk: int) -> HttpResponse:
    """Pairings and scoresheets of the open series, for the printer."""
    tournament, directing = visible_tournament(request, pk)
    sheet = pairings_sheet(tournament=tournament, directing=directing)
    series = [s for s in sheet if not s.closed]
    return render(
        request,
        "tournaments/print.html",
        {"t": tournament, "series": series, "directing": directing}
        | print_extras(tournament, series),
    )


@public_page(series_version)
def series_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The score, the games and who started each; the forms to enter the next game for
    directors, and to submit it for the series' players."""
    try:
        series, directing = series_for(pk=pk, user=request.user)
    except Series.DoesNotExist:
        raise Http404 from None
    directing = check_visible(request.user, series.tournament, directing=directing)
    if not may_see_series(request.user, series, directing=directing):
        raise Http404  # a round paired ahead, not published yet
    context = series_page_context(request, series, directing)
    return render(request, "tournaments/series.html", context)


@public_page(player_version)
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    page = player_page(player=player, user=request.user)  # what the user may see only
    dice = player_figures(player=player, user=request.user)  # cached by versions
    analysed = player_analysis(player=player, user=request.user)
    rows = [] if analysed is None else [(player.name, analysed)]
    context = {"page": page, "player": player, "dice": dice, "analysis_rows": rows,
               "merge_offer": merge_offer(player=player, user=request.user),
               "player_rooms": player_open_rooms(player=player)}  # fmt: skip
    return render(request, "tournaments/player.html", context)
