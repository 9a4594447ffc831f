"""Directors' pages for a round and a series (docs/director_rounds.md): delete or pair a round
again before any result (after a confirmation), change its pairings with the pairing's
checks shown as warnings, choose who starts game 1, enter a whole scoresheet at once. The
services decide; their refusals are shown as messages or next to the field."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.forms import QuickResultForm, _series_players, add_service_error
from tournaments.models import Player, Round, Series
from tournaments.selectors.access import is_director
from tournaments.selectors.pages import series_with_games
from tournaments.services.errors import ApplicationError
from tournaments.services.result_rules import crawford_notice, games_still_possible, result_rules
from tournaments.services.rounds import (
    round_delete,
    round_delete_check,
    round_pairings_swap,
    round_repair,
    round_repair_check,
    round_warnings,
    series_chosen_starter,
    series_starter_set,
    starter_choosable,
)
from tournaments.services.sheets import (
    SheetRow,
    SheetRowError,
    series_enter_sheet,
    sheet_next_starters,
)
from tournaments.views.director import directed_tournament

ROUND_ACTIONS = {
    "delete": gettext_lazy("Delete round %(n)d"),
    "repair": gettext_lazy("Pair round %(n)d again"),
}


def _round(request: HttpRequest, pk: int, number: int | None = None) -> Round:
    tournament = directed_tournament(request, pk)
    rounds = Round.objects.filter(tournament=tournament).select_related("tournament")
    rnd = rounds.filter(number=number).first() if number else rounds.order_by("-number").first()
    if rnd is None:
        raise Http404
    return rnd


def _round_context(rnd: Round) -> dict[str, Any]:
    rows = rnd.series.select_related("player1", "player2", "winner").prefetch_related("games")
    series = list(rows)
    warnings = round_warnings(round=rnd)
    by_series: dict[int, list[str]] = {}
    for w in warnings:
        by_series.setdefault(w.series_id, []).append(w.message)
    movable = [
        p
        for s in series
        if not s.games.all() and (not s.closed or s.player2_id is None)
        for p in (s.player1, s.player2)
        if p is not None
    ]
    last = not Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists()
    return {
        "t": rnd.tournament, "round": rnd, "rows": [(s, by_series.get(s.pk, [])) for s in series],
        "warnings": warnings, "movable": sorted(movable, key=lambda p: p.name.casefold()),
        "last": last,
    }  # fmt: skip


@login_required
def round_manage(request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
    """A round's pairings for its director: the checks' warnings, two players to swap (or
    the bye to move), and deleting or re-pairing the round."""
    rnd = _round(request, pk, number)
    return render(request, "tournaments/round_manage.html", _round_context(rnd))


@login_required
def round_action(request: HttpRequest, pk: int, number: int, action: str) -> HttpResponse:
    """Delete or re-pair a round: a confirmation page first (GET), then the change
    (POST)."""
    if action not in ROUND_ACTIONS:
        raise Http404
    rnd = _round(request, pk, number)
    title = str(ROUND_ACTIONS[action]) % {"n": rnd.number}
    if request.method != "POST":
        check = round_delete_check if action == "delete" else round_repair_check
        refusal = ""
        try:  # the service's rule: the page offers only what the click would do
            check(round=rnd)
        except ApplicationError as exc:
            refusal = exc.message
        return render(
            request, "tournaments/round_confirm.html",
            {"t": rnd.tournament, "round": rnd, "action": action, "title": title,
             "series": rnd.series.select_related("player1", "player2"), "refusal": refusal},
        )  # fmt: skip
    try:
        if action == "delete":
            round_delete(round=rnd)
            messages.success(request, _("Round %(n)d is deleted.") % {"n": number})
            return redirect("tournaments:tournament", pk=pk)
        new = round_repair(round=rnd)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:round_manage", pk=pk, number=number)
    messages.success(request, _("Round %(n)d is paired again.") % {"n": new.number})
    return redirect("tournaments:round_manage", pk=pk, number=new.number)


def _posted_player(request: HttpRequest, name: str) -> Player:
    raw = request.POST.get(name, "")
    player = None
    if raw.isascii() and raw.isdigit() and len(raw) < 10:
        player = Player.objects.filter(pk=int(raw)).first()
    if player is None:
        raise ApplicationError(
            _("Choose two players of the round."), code="choose-two-of-round-series", field=name
        )
    return player


@login_required
@require_POST
def round_swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Two players change places (any two series, or with the bye); the pairing's
    concerns come back as warnings."""
    rnd = _round(request, pk, number)
    try:
        warnings = round_pairings_swap(
            round=rnd,
            player_a=_posted_player(request, "player_a"),
            player_b=_posted_player(request, "player_b"),
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The two players have changed places."))
        for w in warnings:
            messages.warning(request, w.message)
    return redirect("tournaments:round_manage", pk=pk, number=number)


def _directed_series(request: HttpRequest, pk: int) -> Series:
    try:
        series = series_with_games(pk=pk)
    except Series.DoesNotExist:
        raise Http404 from None
    if not is_director(request.user, series.tournament):
        raise PermissionDenied
    return series


@login_required
@require_POST
def series_starter(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose who starts game 1 (or leave it to the lot)."""
    series = _directed_series(request, pk)
    raw = request.POST.get("starter", "")
    starter = next((p for p in (series.player1, series.player2) if p and str(p.pk) == raw), None)
    try:
        if raw and starter is None:
            raise ApplicationError(
                _("Choose a player of this series."), code="choose-series-player", field="starter"
            )
        series_starter_set(series=series, starter=starter)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        if starter is None:
            messages.success(request, _("Game 1 is started by lot."))
        else:
            messages.success(request, _("%(name)s starts game 1.") % {"name": starter})
    return redirect("tournaments:series", pk=pk)


class SheetRowForm(QuickResultForm):
    """One line of the scoresheet: left empty (no starter chosen), it is not a game."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        starter = self.fields[self.first_field]
        assert isinstance(starter, forms.ChoiceField)
        starter.choices = [("", "-"), *_series_players(self.series)]
        for field in self.fields.values():
            field.required = False  # an empty line is no game

    @property
    def used(self) -> bool:
        return bool(self.is_bound and self.data.get(self.add_prefix(self.first_field)))

    def clean(self) -> dict[str, Any]:
        if not self.used:
            return {}
        data = super().clean() or {}
        for name in ("kind", "ended"):
            if not data.get(name):
                self.add_error(name, _("This field is required."))
        return data


def sheet_forms(series: Series, data: Any = None) -> list[SheetRowForm]:
    games = list(series.games.all())
    rules = result_rules(series=series, games=games)
    rows = []
    for i in range(max(games_still_possible(series, games), 1)):
        row_rules = rules if i == 0 else replace(rules, crawford=False, starter=None)
        rows.append(SheetRowForm(data, series=series, rules=row_rules, prefix=f"g{i + 1}"))
    return rows


@login_required
def series_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """Directors: the whole scoresheet of a series in one form; every game is checked as
    if entered alone, and one refused game saves none."""
    series = _directed_series(request, pk)
    if series.closed or series.player2_id is None:
        messages.error(request, _("The series is closed: no more games can be entered."))
        return redirect("tournaments:series", pk=pk)
    rows = sheet_forms(series, request.POST if request.method == "POST" else None)
    first = series.games.count() + 1
    error = ""
    if request.method == "POST" and all(f.is_valid() for f in rows):
        used = [f for f in rows if f.used]
        lines = []
        for f in used:
            white = f.white_player()
            assert white is not None
            lines.append(SheetRow(
                white=white, winner=f.player("winner"), kind=f.cleaned_data["kind"],
                ended=f.cleaned_data["ended"], cube=f.cleaned_data["cube"] or 1,
            ))  # fmt: skip
        try:
            games = series_enter_sheet(series=series, rows=lines, first=first, by=request.user)
        except SheetRowError as exc:
            add_service_error(used[exc.row], exc)
            error = exc.message
        except ApplicationError as exc:
            error = exc.message
        else:
            messages.success(request, _("%(n)d games are entered.") % {"n": len(games)})
            return redirect("tournaments:series", pk=pk)
    played = list(series.games.select_related("white", "black").order_by("number"))
    context = {
        "s": series, "t": series.tournament, "rows": rows, "first": first, "error": error,
        "numbered": [(first + i, f) for i, f in enumerate(rows)],
        "crawford_notice": crawford_notice(series, played),
        "starts_next": sheet_next_starters(series=series, games=played),
        "starter_field": rows[0].first_field if rows else "white",
    }  # fmt: skip
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/sheet.html", context, status=status)


def series_director_context(series: Series) -> dict[str, Any]:
    """What the series page adds for its directors: the starter choice."""
    return {
        "starter_choosable": starter_choosable(series.tournament),
        "chosen_starter": series_chosen_starter(series),
    }
