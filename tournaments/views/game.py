"""The game page: board, move list, replay."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page

from tournaments.models import Game
from tournaments.selectors.pages import game_with_series
from tournaments.views.common import check_visible
from tournaments.views.fragments import replay_html


def _turn(request: HttpRequest) -> int | None:
    """The position asked for by ``?turn=`` (the page works without JavaScript); None:
    the last one."""
    try:
        return int(request.GET.get("turn", ""))
    except ValueError:
        return None


@gzip_page  # every position or a whole table: several times smaller on a phone
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        game: Game = game_with_series(pk=pk)
    except Game.DoesNotExist:
        raise Http404 from None
    series = game.series
    directing = check_visible(request.user, series.tournament)
    replay, has_frames = replay_html(game.record, _turn(request))
    context: dict[str, object] = {
        "game": game, "s": series, "t": series.tournament, "replay_html": replay,
        "has_frames": has_frames, "directing": directing,
    }  # fmt: skip
    return render(request, "tournaments/game.html", context)
