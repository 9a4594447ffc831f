"""A round robin's whole schedule paired at once, and its rounds published one by one
(services/schedule.py decides)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Round
from tournaments.services.errors import ApplicationError
from tournaments.services.schedule import round_publish, round_robin_pair_all
from tournaments.views.director import directed_tournament


@login_required
@require_POST
def schedule_pair(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = directed_tournament(request, pk)
    try:
        rounds = round_robin_pair_all(tournament=tournament)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:entries", pk=pk)
    messages.success(
        request,
        _("Rounds %(first)d to %(last)d are paired and not published: players and visitors "
          "see each round once you publish it.") % {"first": rounds[0].number,
                                                     "last": rounds[-1].number},
    )  # fmt: skip
    return redirect("tournaments:round_manage", pk=pk, number=rounds[0].number)


@login_required
@require_POST
def round_publish_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = directed_tournament(request, pk)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        round_publish(round=rnd, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Round %(n)d is published.") % {"n": number})
    return redirect("tournaments:round_manage", pk=pk, number=number)


# added to tournaments/urls.py's patterns (the app's namespace)
URLS = [
    path("tournaments/<int:pk>/schedule/", schedule_pair, name="schedule_pair"),
    path("tournaments/<int:pk>/publish/<int:number>/", round_publish_page, name="round_publish"),
]
