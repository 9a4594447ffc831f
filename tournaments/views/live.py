"""Pages that keep themselves up to date: the tiny version endpoint that static/js/live.js
polls, and the full-screen hall view (docs/live.md).

The endpoint answers the tournament's ``cache_version``, which every write that changes
what its pages show bumps (tournaments/caching/): one indexed query, and a 304 without
a body while nothing has changed. The series and game pages poll their tournament's.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.caching import cached, tournament_key
from tournaments.models import RoomStatus, SeriesRoom, Tournament
from tournaments.selectors.pages import tournament_page
from tournaments.selectors.rows import SeriesRow
from tournaments.selectors.standings import StandingRow
from tournaments.views.common import check_visible, visible_tournament


def live_etag(tournament: Tournament) -> str:
    """The ETag of the live endpoint: changes with every write to the tournament."""
    return f'"live-{tournament.pk}-{tournament.cache_version}"'


@require_GET
def tournament_live(request: HttpRequest, pk: int) -> HttpResponse:
    """``{"version": N}`` with an ETag; 304 on a matching If-None-Match."""
    try:
        tournament = Tournament.objects.only("id", "published", "cache_version").get(pk=pk)
    except Tournament.DoesNotExist:
        raise Http404 from None
    check_visible(request.user, tournament)  # a 404 before any 304: nothing leaks
    etag = live_etag(tournament)
    response = get_conditional_response(request, etag=etag) or JsonResponse(
        {"version": tournament.cache_version}
    )
    response.headers["ETag"] = etag
    # every poll reaches the server; private: a proxy must not answer for another user
    patch_cache_control(response, no_cache=True, private=True)
    return response


@dataclass(frozen=True, slots=True)
class HallData:
    title: str  # the round shown ("Round 3", "Series in play")
    series: list[SeriesRow]
    standings: list[StandingRow]
    knockout: bool
    rooms: dict[int, int]  # a series' live game room (played online), to watch


def _live_rooms(tournament: Tournament) -> dict[int, int]:
    rows = SeriesRoom.objects.filter(
        series__tournament=tournament, room__status__in=(RoomStatus.WAITING, RoomStatus.PLAYING)
    ).values_list("series_id", "room_id")  # fmt: skip
    return dict(rows)


def _hall_data(tournament: Tournament) -> HallData:
    page = tournament_page(tournament=tournament)
    numbered = [r for r in page.rounds if r.round is not None and r.series]
    if numbered and not page.knockout:
        # the first round still being played (rounds may be paired ahead), else the last
        going = [r for r in numbered if any(not s.closed and s.player2_id for s in r.series)]
        current = going[0] if going else numbered[-1]
        assert current.round is not None
        name = current.round.name or _("Round %(n)s") % {"n": current.round.number}
        series = sorted(current.series, key=lambda s: (s.table or 10**6, s.pk))
        return HallData(name, series, page.standings, False, _live_rooms(tournament))
    every = [s for r in page.rounds for s in r.series]
    playing = [s for s in every if not s.closed and s.player2_id is not None]
    return HallData(_("Series in play"), playing, page.standings, page.knockout,
                    _live_rooms(tournament))  # fmt: skip


def hall_body(tournament: Tournament) -> SafeString:
    """The hall view's content, the same for everybody: cached at the version."""

    def build() -> str:
        data = _hall_data(tournament)
        return render_to_string("tournaments/_hall_body.html", {"hall": data, "t": tournament})

    return mark_safe(cached(tournament_key("hall", tournament), build))


def tournament_hall(request: HttpRequest, pk: int) -> HttpResponse:
    """The full-screen page for the playing hall: the current round and the standings,
    large, without navigation; it follows the results by itself."""
    tournament = visible_tournament(request, pk)[0]
    context = {"t": tournament, "body": hall_body(tournament)}
    return render(request, "tournaments/hall.html", context)


__all__ = ["hall_body", "live_etag", "tournament_hall", "tournament_live"]
