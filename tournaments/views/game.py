"""The game page: board, move list, replay."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST

from tournaments.caching.pages import public_page
from tournaments.caching.versions import game_version
from tournaments.forms import GameDeleteForm, add_service_error
from tournaments.models import Game
from tournaments.selectors.analysis import game_analysis_page
from tournaments.selectors.pages import game_with_series
from tournaments.selectors.stats import game_analysis, game_stats_page
from tournaments.services.analysis import analysable
from tournaments.services.deletion import game_delete, game_delete_check, game_delete_plan
from tournaments.services.directing import NeedsConfirmation
from tournaments.services.errors import ApplicationError
from tournaments.views.common import asked_turn, check_visible
from tournaments.views.fragments import replay_html
from tournaments.views.rollouts import rollout_context
from tournaments.views.sheets import game_extras


@gzip_page  # every position or a whole table: several times smaller on a phone
@public_page(game_version, params={"turn": r"-?\d{1,4}"})
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        game: Game = game_with_series(pk=pk)
    except Game.DoesNotExist:
        raise Http404 from None
    series = game.series
    directing = check_visible(request.user, series.tournament)
    analysis = game_analysis(game) if game.record else None
    analysis_page = game_analysis_page(game, analysis) if analysis is not None else None
    marks = analysis_page.marks if analysis_page is not None else []
    replay = replay_html(game.record, asked_turn(request), marks)
    context: dict[str, object] = {
        "game": game, "s": series, "t": series.tournament, "replay_html": replay.html,
        "has_frames": replay.last >= 0, "directing": directing,
        "irregular": replay.irregular,
    }  # fmt: skip
    if replay.last >= 0:
        stats = game_stats_page(game=game, positions=replay.last + 1)
        if stats is not None:
            x = stats.chart.xs.split(",")[replay.turn]
            context |= {"game_stats": stats, "current_x": x, "analysis": analysis,
                        "can_analyse": directing and analysable(game)}  # fmt: skip
    if analysis_page is not None:
        context["game_analysis"] = analysis_page
    context |= rollout_context(request, game, analysis)
    context |= game_extras(game)
    return render(request, "tournaments/game.html", context)


@login_required
@require_POST
def game_analyse(request: HttpRequest, pk: int) -> HttpResponse:
    """Directors: GNU Backgammon analyses the game, or with ``series=1`` every recorded
    game of its series, as a background job (offered only where gnubg is installed)."""
    from tournaments.jobs import job_start
    from tournaments.models import JobKind
    from tournaments.selectors.access import is_director

    try:
        game: Game = game_with_series(pk=pk)
    except Game.DoesNotExist:
        raise Http404 from None
    tournament = game.series.tournament
    if not is_director(request.user, tournament):
        raise PermissionDenied
    if not analysable(game):
        raise Http404
    params = {"series": game.series_id} if request.POST.get("series") else {"game": game.pk}
    job = job_start(kind=JobKind.GAMES_ANALYSE, params=params, by=request.user,
                    tournament=tournament)  # fmt: skip
    return redirect("tournaments:job", pk=job.pk)


@login_required
def game_delete_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Directors: delete a game entered by mistake. GET shows what goes (the game, its
    record, corrections, the series' score before and after) and what it changes, or why
    it cannot go; POST with a reason (and, after warnings, the confirmation) deletes it
    and goes back to the series."""
    try:
        game: Game = game_with_series(pk=pk)
    except Game.DoesNotExist:
        raise Http404 from None
    try:
        game_delete_check(game=game, by=request.user)
    except ApplicationError:
        raise PermissionDenied from None
    posted = request.method == "POST"
    form = GameDeleteForm(request.POST if posted else None)
    if posted and form.is_valid():
        try:
            deletion = game_delete(
                game=game, by=request.user, reason=form.cleaned_data["reason"],
                confirmed=form.cleaned_data["confirmed"],
            )  # fmt: skip
        except NeedsConfirmation as exc:
            form.add_error("confirmed", exc.message)
        except ApplicationError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("%(game)s is deleted.") % {"game": deletion.label})
            return redirect("tournaments:series", pk=game.series_id)
    plan = game_delete_plan(game=game)
    return render(
        request, "tournaments/game_delete.html",
        {"game": game, "s": plan.series, "t": plan.series.tournament, "plan": plan,
         "form": form},
        status=400 if posted else 200,
    )  # fmt: skip
