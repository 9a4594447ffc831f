"""The game page: board, move list, replay."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page

from tournaments.board import HEIGHT, WIDTH
from tournaments.models import Game
from tournaments.selectors.pages import game_with_series
from tournaments.selectors.replay import game_replay
from tournaments.views.common import check_visible
from tournaments.views.sheets import game_extras


def _turn(request: HttpRequest, last: int) -> int:
    """The position asked for by ``?turn=`` (the page works without JavaScript)."""
    try:
        asked = int(request.GET.get("turn", last))
    except ValueError:
        asked = last
    return max(0, min(asked, last))


@gzip_page  # every position or a whole table: several times smaller on a phone
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        game: Game = game_with_series(pk=pk)
    except Game.DoesNotExist:
        raise Http404 from None
    series = game.series
    directing = check_visible(request.user, series.tournament)
    replay = game_replay(game.record) if game.record else None
    context: dict[str, object] = {
        "game": game, "s": series, "t": series.tournament, "replay": replay,
        "directing": directing, "board_width": WIDTH, "board_height": HEIGHT,
    }  # fmt: skip
    if replay is not None and replay.frames:
        last = len(replay.frames) - 1
        current = _turn(request, last)
        context |= {
            "current": replay.frames[current],
            "previous": max(current - 1, 0),
            "next": min(current + 1, last),
            "last": last,
            "moves": replay.frames[1:],
        }
    context |= game_extras(game)
    return render(request, "tournaments/game.html", context)
