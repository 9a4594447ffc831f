"""The pages of a tournament played online (docs/online.md, "Tournaments played online"):
the director's live view of a round's rooms (who is in, the score, the clocks, a link to
watch; no-shows and timeouts marked, a no-show's forfeit reversed with a reason, a room
neither player joined decided: both lose by forfeit or more time, with a reason), and a
user's e-mail preference. The tournament, player and hall pages list the live games
through ``live_rooms``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import path
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.forms import add_service_error
from tournaments.forms_online import ForfeitReverseForm, MailPreferenceForm, NoShowDecisionForm
from tournaments.models import MailPreference, OnlinePlay, Series, Tournament
from tournaments.services.errors import ApplicationError
from tournaments.services.online.room_lists import (
    RoomRow,
    rooms_forget,
    rooms_shared,
    tournament_rooms,
    tournament_rooms_shared,
)
from tournaments.services.online.tournament_rooms import (
    mail_preference_set,
    no_show_both_forfeit,
    no_show_more_time,
    no_show_reverse,
)
from tournaments.views.director import directed_tournament


def live_rooms(tournament: Tournament, user: Any) -> dict[str, Any]:
    """The tournament page's part: its live games (to watch) and the user's own (to join)."""
    rows = tournament_rooms_shared(tournament=tournament, live_only=True)
    uid = user.pk if getattr(user, "is_authenticated", False) else None
    mine = [r for r in rows if uid is not None and uid in (r.one.user_id, r.two.user_id)]
    return {"live_rooms": rows, "my_rooms": mine}


@login_required
def round_rooms(request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
    """The director's live view: every room of a round (the last paired by default; a
    knockout's rooms all together), refreshed by the page every few seconds."""
    tournament = directed_tournament(request, pk)
    numbers = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    if number is None and numbers:
        number = numbers[-1]
    shown = number if numbers else None

    def table() -> tuple[str, int]:
        """The rooms' table (its forms carry this director's CSRF token) and how many
        rooms are live."""
        rows: list[RoomRow] = tournament_rooms(tournament=tournament, round_number=shown)
        html = render_to_string("tournaments/online/_round_rooms_table.html",
                                {"rows": rows}, request=request)  # fmt: skip
        return html, sum(1 for r in rows if r.live)

    html, live = rooms_shared(_director_key(request, tournament.pk, shown), table)
    context = {
        "t": tournament, "table": mark_safe(html), "number": number, "numbers": numbers,
        "online": OnlinePlay.objects.filter(tournament=tournament).first(), "live": live,
    }  # fmt: skip
    return render(request, "tournaments/online/round_rooms.html", context)


def _director_key(request: HttpRequest, tournament_id: int, number: int | None) -> str:
    return f"director:{request.user.pk}:{get_language()}:{tournament_id}:{number}"


@login_required
@require_POST
def forfeit_reverse(request: HttpRequest, pk: int) -> HttpResponse:
    """Reverse a no-show's forfeit (a director, with a reason): the series is open again
    in a new room with a new start window."""
    series = get_object_or_404(Series.objects.select_related("tournament", "round"), pk=pk)
    directed_tournament(request, series.tournament_id)
    form = ForfeitReverseForm(request.POST)
    number = series.round.number if series.round else None
    back = redirect("tournaments:online_rooms", pk=series.tournament_id)
    if number is not None:
        back = redirect("tournaments:online_round_rooms", pk=series.tournament_id, number=number)
    if not form.is_valid():
        messages.error(request, _("Say why the forfeit is reversed."))
        return back
    try:
        no_show_reverse(series=series, by=request.user, reason=form.cleaned_data["reason"])
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The forfeit is reversed: the series has a new room."))
        # the director sees the new room at once, not the table shared a moment ago
        rooms_forget(_director_key(request, series.tournament_id, number))
    return back


@login_required
@require_POST
def no_show_decide(request: HttpRequest, pk: int, decision: str) -> HttpResponse:
    """A room neither player joined by the close of its start window: both lose by
    forfeit, or they get more minutes to start (a director, with a reason)."""
    series = get_object_or_404(Series.objects.select_related("tournament", "round"), pk=pk)
    directed_tournament(request, series.tournament_id)
    form = NoShowDecisionForm(request.POST)
    number = series.round.number if series.round else None
    back = redirect("tournaments:online_rooms", pk=series.tournament_id)
    if number is not None:
        back = redirect("tournaments:online_round_rooms", pk=series.tournament_id, number=number)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(str(e) for e in errors))
        return back
    reason = form.cleaned_data["reason"]
    try:
        if decision == "forfeit-both":
            no_show_both_forfeit(series=series, by=request.user, reason=reason)
            done = _("Both players lost the series by forfeit.")
        else:
            minutes = form.cleaned_data["minutes"]
            if minutes is None:
                messages.error(request, _("Say how many more minutes the players have."))
                return back
            link = no_show_more_time(series=series, by=request.user, reason=reason,
                                     minutes=minutes)  # fmt: skip
            done = _("The players have more time: the window closes %(at)s.") % {
                "at": date_format(timezone.localtime(link.window_closes), "DATETIME_FORMAT")
            }
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
        rooms_forget(_director_key(request, series.tournament_id, number))
    return back


@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    """What the user is told by e-mail: their tournament game's room opening."""
    pref = MailPreference.objects.filter(user_id=request.user.pk or 0).first()
    initial = {"room_opened": bool(pref and pref.room_opened)}
    form = MailPreferenceForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            mail_preference_set(user=request.user, room_opened=form.cleaned_data["room_opened"])
        except ApplicationError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Your e-mail settings are saved."))
            return redirect("tournaments:account_settings")
    has_email = bool(getattr(request.user, "email", ""))
    context = {"form": form, "has_email": has_email}
    status = 400 if form.errors else 200
    return render(request, "tournaments/online/account_settings.html", context, status=status)


URLS = [
    path("tournaments/<int:pk>/rooms/", round_rooms, name="online_rooms"),
    path("tournaments/<int:pk>/rooms/<int:number>/", round_rooms, name="online_round_rooms"),
    path("series/<int:pk>/forfeit-reverse/", forfeit_reverse, name="forfeit_reverse"),
    path(
        "series/<int:pk>/forfeit-both/",
        no_show_decide,
        {"decision": "forfeit-both"},
        name="no_show_forfeit_both",
    ),
    path(
        "series/<int:pk>/more-time/",
        no_show_decide,
        {"decision": "more-time"},
        name="no_show_more_time",
    ),
    path("accounts/settings/", account_settings, name="account_settings"),
]

__all__ = [
    "URLS",
    "account_settings",
    "forfeit_reverse",
    "live_rooms",
    "no_show_decide",
    "round_rooms",
]
