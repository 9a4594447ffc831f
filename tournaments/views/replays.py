"""Every position of a replay as JSON (views/fragments.py replay_frames), fetched by
static/js/replay.js once a reader steps through the game: the game page and a finished
game against the bot carry only the position shown. The address is the page's own
followed by ``frames/``, and whoever may see the page may see its positions."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from django.views.decorators.gzip import gzip_page

from tournaments.models import BotGame, BotGameStatus, Game
from tournaments.selectors.analysis import game_analysis_page
from tournaments.selectors.botgames import bot_game_page
from tournaments.selectors.pages import game_with_series
from tournaments.selectors.stats import game_analysis
from tournaments.views.common import check_visible
from tournaments.views.fragments import replay_frames


@gzip_page
def game_frames(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament game's positions, marked as its page is when analysed."""
    try:
        game: Game = game_with_series(pk=pk)
    except Game.DoesNotExist:
        raise Http404 from None
    check_visible(request.user, game.series.tournament)
    analysis = game_analysis(game) if game.record else None
    analysis_page = game_analysis_page(game, analysis) if analysis is not None else None
    marks = analysis_page.marks if analysis_page is not None else []
    return JsonResponse(replay_frames(game.record, marks))


@login_required
@gzip_page
def bot_game_frames(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished game against the bot's positions: its player's only."""
    game = get_object_or_404(BotGame, pk=pk, user_id=request.user.pk)
    if game.status != BotGameStatus.FINISHED:
        raise Http404
    page = bot_game_page(game)
    marks = page.analysis.marks if page.analysis is not None else []
    return JsonResponse(replay_frames(game.record, marks))


URLS = [
    path("games/<int:pk>/frames/", game_frames, name="game_frames"),
    path("play/<int:pk>/frames/", bot_game_frames, name="play_frames"),
]
