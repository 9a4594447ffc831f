"""The game page (board, move list, replay) and the record check as you type."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST

from tournaments.board import HEIGHT, WIDTH
from tournaments.models import Game, Series
from tournaments.selectors.pages import game_with_series
from tournaments.selectors.replay import game_replay
from tournaments.services.engine_bridge import check_record
from tournaments.services.errors import ResultError
from tournaments.services.submissions import is_series_player
from tournaments.views.common import check_visible


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
    return render(request, "tournaments/game.html", context)


@require_POST
def record_check(request: HttpRequest, pk: int) -> JsonResponse:
    """The engine's verdict on a record typed for the next game of series ``pk``: what
    the form would say on submit, nothing saved."""
    try:
        series = Series.objects.select_related("tournament", "player1", "player2").get(pk=pk)
    except Series.DoesNotExist:
        raise Http404 from None
    directing = check_visible(request.user, series.tournament)
    if not (directing or is_series_player(request.user, series)):
        return JsonResponse({"ok": False, "message": "not allowed"}, status=403)
    text = request.POST.get("record", "")
    if not text.strip():
        return JsonResponse({"ok": False, "empty": True, "message": ""})
    try:
        checked = check_record(text, tournament=series.tournament)
    except ResultError as exc:
        return JsonResponse({"ok": False, "message": exc.message, "line": exc.line, "col": exc.col})
    result = "draw" if checked.winner is None else f"{checked.winner} {checked.kind}"
    return JsonResponse({"ok": True, "message": f"{checked.white} - {checked.black}: {result}"})
