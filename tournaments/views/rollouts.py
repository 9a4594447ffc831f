"""Rollouts on a game's page (services/rollouts.py): the section's context, the request
that starts one, and the small JSON the page polls for their progress."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from tournaments.jobs.runner import JobError, TooManyJobs
from tournaments.models import BotGame, Game, GameAnalysis
from tournaments.selectors.pages import game_with_series
from tournaments.selectors.stats import game_analysis
from tournaments.services.errors import ApplicationError
from tournaments.services.rollouts import (
    TOO_MANY,
    GameRollouts,
    botgame_rollable,
    botgame_rollout_start,
    botgame_rollouts,
    game_rollouts,
    games_offered,
    may_roll_out,
    rollable,
    rollable_turns,
    rollout_start,
)
from tournaments.views.common import check_visible
from tournaments.wording.names import side_name

# the plays' chances are shown in per cent
PERCENT = ("win", "win_mars", "lose_mars")


def _turn_label(t: dict[str, Any]) -> str:
    dice = "-".join(str(d) for d in t.get("dice", []))
    label = f"{t.get('turn')}. {side_name(str(t.get('side', '')))} {dice}: {t.get('played')}"
    error = t.get("error") or 0
    return f"{label} ({-int(error)} mp)" if error else label


def _section(
    turns_list: list[dict[str, Any]], found: GameRollouts, *, may: bool, urls: dict[str, str]
) -> dict[str, Any]:
    turns = {int(t["index"]): t for t in turns_list}
    done = []
    for r in found.done:
        t = turns.get(int(r["turn"]), {})
        plays = [p | {k + "_pct": round(100 * float(p[k]), 1) for k in PERCENT} for p in r["plays"]]
        done.append(r | {"label": _turn_label(t) if t else "", "plays": plays})
    waiting = [{"job": j, "label": _turn_label(turns.get(int(j.params.get("turn", -1)), {}))}
               for j in found.waiting]  # fmt: skip
    context: dict[str, Any] = {"rollouts": done, "rollouts_waiting": waiting,
                               "rollout_urls": urls}  # fmt: skip
    if may:
        choices = [(int(t["index"]), _turn_label(t)) for t in rollable_turns(turns_list)]
        marked = [int(t["index"]) for t in turns_list if t.get("mark") and not t.get("forced")]
        context |= {"rollout_turns": choices, "rollout_games": games_offered(),
                    "rollout_marked": marked[0] if marked else None}  # fmt: skip
    return context


def rollout_context(
    request: HttpRequest, game: Game, analysis: GameAnalysis | None
) -> dict[str, Any]:
    """The game page's rollout section: results, rollouts on their way, and the form for
    whoever may ask (a player of the game, a director)."""
    if analysis is None or not rollable(game, analysis):
        return {}
    urls = {"ask": reverse("tournaments:game_rollout", args=[game.pk]),
            "state": reverse("tournaments:game_rollouts", args=[game.pk]),
            "page": reverse("tournaments:game", args=[game.pk])}  # fmt: skip
    return _section(analysis.turns, game_rollouts(game), may=may_roll_out(request.user, game),
                    urls=urls)  # fmt: skip


def botgame_rollout_context(game: BotGame) -> dict[str, Any]:
    """The same section on the page of a finished game against the bot (its player's)."""
    if not botgame_rollable(game):
        return {}
    urls = {"ask": reverse("tournaments:botgame_rollout", args=[game.pk]),
            "state": reverse("tournaments:botgame_rollouts", args=[game.pk]),
            "page": reverse("tournaments:play_game", args=[game.pk])}  # fmt: skip
    turns = (game.analysis or {}).get("turns", [])
    return _section(turns, botgame_rollouts(game), may=True, urls=urls)


def _game(pk: int) -> Game:
    try:
        return game_with_series(pk=pk)
    except Game.DoesNotExist:
        raise Http404 from None


@login_required
@require_POST
def game_rollout(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask for a rollout of one turn of the game (``turn``: the analysis' index of a turn
    with a choice; ``games``: one of the numbers offered)."""
    game = _game(pk)
    check_visible(request.user, game.series.tournament)
    if not may_roll_out(request.user, game):
        raise PermissionDenied
    try:
        rollout_start(game=game, analysis=game_analysis(game), turn=request.POST.get("turn", ""),
                      games=request.POST.get("games", ""), by=request.user)  # fmt: skip
    except (JobError, ApplicationError) as exc:
        status = 429 if isinstance(exc, TooManyJobs) or exc.code == TOO_MANY else 400
        page = {"message": exc.message, "t": game.series.tournament, "game": game}
        return render(request, "tournaments/job_refused.html", page, status=status)
    return redirect(reverse("tournaments:game", args=[game.pk]) + "#rollouts")


def game_rollouts_state(request: HttpRequest, pk: int) -> HttpResponse:
    """What the page polls: the rollouts of the game on their way, with their progress,
    and how many have a result (the page is loaded again when that changes)."""
    game = _game(pk)
    check_visible(request.user, game.series.tournament)
    return _state(game_rollouts(game))


def _state(found: GameRollouts) -> JsonResponse:
    waiting = [
        {"job": j.pk, "status": j.status, "done": j.done, "total": j.total,
         "turn": j.params.get("turn")} for j in found.waiting
    ]  # fmt: skip
    return JsonResponse({"done": len(found.done), "waiting": waiting})


def _own_botgame(request: HttpRequest, pk: int) -> BotGame:
    game = BotGame.objects.filter(pk=pk, user_id=int(request.user.pk or 0)).first()
    if game is None:
        raise Http404
    return game


@login_required
@require_POST
def botgame_rollout(request: HttpRequest, pk: int) -> HttpResponse:
    """Its player asks for a rollout of one turn of a finished game against the bot."""
    game = _own_botgame(request, pk)
    try:
        botgame_rollout_start(game=game, turn=request.POST.get("turn", ""),
                              games=request.POST.get("games", ""), by=request.user)  # fmt: skip
    except (JobError, ApplicationError) as exc:
        status = 429 if isinstance(exc, TooManyJobs) or exc.code == TOO_MANY else 400
        page = {"message": exc.message, "t": None}
        return render(request, "tournaments/job_refused.html", page, status=status)
    return redirect(reverse("tournaments:play_game", args=[game.pk]) + "#rollouts")


@login_required
def botgame_rollouts_state(request: HttpRequest, pk: int) -> HttpResponse:
    """:func:`game_rollouts_state` of a game against the bot, for its player."""
    return _state(botgame_rollouts(_own_botgame(request, pk)))


URLS = [
    path("games/<int:pk>/rollout/", game_rollout, name="game_rollout"),
    path("games/<int:pk>/rollouts.json", game_rollouts_state, name="game_rollouts"),
    path("play/<int:pk>/rollout/", botgame_rollout, name="botgame_rollout"),
    path("play/<int:pk>/rollouts.json", botgame_rollouts_state, name="botgame_rollouts"),
]
