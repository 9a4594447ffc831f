"""Directors' pages: create and configure a tournament, register players, pair rounds
and brackets, correct results. The services decide; a refusal is shown in the form."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.forms import (
    TOURNAMENT_FIELDS,
    CorrectionForm,
    EntryForm,
    TournamentDeleteForm,
    TournamentForm,
    add_service_error,
)
from tournaments.forms_online import OnlinePlayForm
from tournaments.models import Entry, Game, OnlinePlay, Player, Tournament
from tournaments.selectors.access import is_director, may_create_tournaments
from tournaments.selectors.brackets import BRACKET_FORMATS
from tournaments.selectors.pages import game_with_series
from tournaments.selectors.ratings import rating_in
from tournaments.services.deletion import (
    tournament_delete,
    tournament_delete_check,
    tournament_delete_summary,
)
from tournaments.services.directing import (
    NeedsConfirmation,
    tournament_create_by,
    tournament_update,
)
from tournaments.services.entry_requests import entry_requests_waiting
from tournaments.services.errors import ApplicationError
from tournaments.services.online.tournament_rooms import online_play_clear, online_play_set
from tournaments.services.pairings import (
    ROUND_FORMATS,
    bracket_create,
    entries_seed,
    entry_withdraw,
    round_generate,
    series_swap,
)
from tournaments.services.results import game_correct
from tournaments.services.roster import SimilarNames, entry_register_new
from tournaments.services.schedule import next_unpublished
from tournaments.services.setup import FIXED_PLAYER_FORMATS, entry_register
from tournaments.services.sheets import correction_warnings


def directed_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not is_director(request.user, tournament):
        raise PermissionDenied
    return tournament


def _settings(form: TournamentForm) -> dict[str, Any]:
    data = {name: form.cleaned_data[name] for name in TOURNAMENT_FIELDS}
    data["tie_breaks"] = [str(b) for b in form.cleaned_data["tie_breaks"]]
    data["lengths_by_stage"] = form.cleaned_data["lengths_by_stage"]
    return data


def _online_apply(tournament: Tournament, online: OnlinePlayForm) -> None:
    """The tournament is played online (its start window and clock) or over the board."""
    chosen = online.settings()
    if chosen is None:
        online_play_clear(tournament=tournament)
    else:
        online_play_set(tournament=tournament, **chosen)


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not may_create_tournaments(request.user):
        raise PermissionDenied
    form = TournamentForm(request.POST if request.method == "POST" else None)
    online = OnlinePlayForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid() and online.is_valid():
        data = _settings(form)
        try:
            with transaction.atomic():
                tournament = tournament_create_by(
                    by=request.user, name=data.pop("name"), start_date=data.pop("start_date"),
                    **data,
                )  # fmt: skip
                _online_apply(tournament, online)
        except ApplicationError as exc:
            add_service_error(online if exc.field in online.fields else form, exc)
        else:
            messages.success(request, _("The tournament is created."))
            return redirect("tournaments:entries", pk=tournament.pk)
    status = 400 if form.is_bound else 200
    return render(request, "tournaments/tournament_form.html", {"form": form, "online": online},
                  status=status)  # fmt: skip


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = directed_tournament(request, pk)
    form = TournamentForm(
        request.POST if request.method == "POST" else None,
        instance=Tournament.objects.get(pk=tournament.pk),
    )
    play = OnlinePlay.objects.filter(tournament=tournament).first()
    online = OnlinePlayForm(request.POST if request.method == "POST" else None, play=play)
    warnings: list[str] = []
    if request.method == "POST" and form.is_valid() and online.is_valid():
        try:
            with transaction.atomic():
                tournament_update(
                    tournament=tournament, confirmed=request.POST.get("confirm") == "1",
                    **_settings(form),
                )  # fmt: skip
                _online_apply(tournament, online)
        except NeedsConfirmation as exc:
            warnings = exc.warnings
            messages.warning(request, exc.message)
        except ApplicationError as exc:
            add_service_error(online if exc.field in online.fields else form, exc)
        else:
            messages.success(request, _("The settings are saved."))
            return redirect("tournaments:tournament", pk=pk)
    status = 400 if form.is_bound else 200
    return render(
        request, "tournaments/tournament_form.html",
        {"form": form, "online": online, "t": tournament, "warnings": warnings}, status=status,
    )  # fmt: skip


@login_required
def tournament_delete_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a tournament: what goes with it and whose ratings are recomputed (GET),
    then, with a reason and the name typed again, the deletion (POST)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        tournament_delete_check(tournament=tournament, by=request.user)
    except ApplicationError:
        raise PermissionDenied from None
    posted = request.method == "POST"
    form = TournamentDeleteForm(request.POST if posted else None, tournament=tournament)
    if posted and form.is_valid():
        try:
            tournament_delete(
                tournament=tournament, by=request.user, reason=form.cleaned_data["reason"]
            )
        except ApplicationError as exc:
            add_service_error(form, exc)
        else:
            messages.success(
                request, _("The tournament %(name)s is deleted.") % {"name": tournament.name}
            )
            return redirect("tournaments:home")
    summary = tournament_delete_summary(tournament=tournament)
    return render(
        request, "tournaments/tournament_delete.html",
        {"t": tournament, "form": form, "summary": summary}, status=400 if posted else 200,
    )  # fmt: skip


@login_required
def entries(request: HttpRequest, pk: int) -> HttpResponse:
    """Register players; withdraw them; seed by rating; pair the next round or the bracket."""
    tournament = directed_tournament(request, pk)
    form = EntryForm(request.POST if request.method == "POST" else None, tournament=tournament)
    similar = None
    if request.method == "POST" and form.is_valid():
        try:
            player: Player = _register(tournament, form.cleaned_data)
        except ApplicationError as exc:
            add_service_error(form, exc)
            similar = exc.players if isinstance(exc, SimilarNames) else None
        else:
            messages.success(request, _("%(name)s is registered.") % {"name": player.name})
            return redirect("tournaments:entries", pk=pk)
    from tournaments.views.people import entries_extra  # dirA: search, claims, paired

    rows = (
        Entry.objects.filter(tournament=tournament)
        .select_related("player__club", "player__user")
        .annotate(rating=rating_in(tournament.variant, player="player"))
    )
    context = {
        "t": tournament, "form": form, "entries": list(rows), **entries_extra(request, tournament),
        "similar": similar, "requests": entry_requests_waiting(tournament=tournament),
        "can_round": tournament.format in ROUND_FORMATS,
        "can_schedule": tournament.format in FIXED_PLAYER_FORMATS,
        "next_unpublished": next_unpublished(tournament),
        "can_bracket": tournament.format in BRACKET_FORMATS,
        "swappable": _swappable(tournament),
    }  # fmt: skip
    return render(
        request, "tournaments/entries.html", context, status=400 if form.is_bound else 200
    )


def _register(tournament: Tournament, data: dict[str, Any]) -> Player:
    """The chosen player, or a new one unless similar names exist (dirA: SimilarNames)."""
    if data["player"]:
        chosen: Player = data["player"]
        entry_register(tournament=tournament, player=chosen, seed=data["seed"])
        return chosen
    try:
        entry = entry_register_new(
            tournament=tournament,
            name=data["new_name"],
            club=data.get("new_club") or "",
            rating=data.get("new_rating"),
            seed=data["seed"],
            force=data.get("confirm_new", False),
            gender=data.get("new_gender") or None,
        )
    except ApplicationError as exc:
        fields = {"name": "new_name", "club": "new_club", "rating": "new_rating"}
        exc.field = fields.get(exc.field or "", exc.field)
        raise
    return entry.player


def _posted_player(request: HttpRequest, tournament: Tournament) -> Player:
    """The registered player a button names; anything else is the director's mistake (a
    message), never a server error."""
    raw = request.POST.get("player", "")
    entry = None
    if raw.isascii() and raw.isdigit() and len(raw) < 10:
        entry = Entry.objects.filter(tournament=tournament, player_id=int(raw)).first()
    if entry is None:
        raise ApplicationError(
            _("Choose a player registered for the tournament."),
            code="choose-registered-player",
            field="player",
        )
    return entry.player


def _act(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    tournament = directed_tournament(request, pk)
    try:
        if action == "round":
            rnd = round_generate(tournament=tournament, override=bool(request.POST.get("override")))
            messages.success(request, _("Round %(n)s is paired.") % {"n": rnd.number})
        elif action == "bracket":
            made = bracket_create(tournament=tournament)
            made_text = ngettext(
                "The bracket is made: %(n)s series.", "The bracket is made: %(n)s series.", made
            )
            messages.success(request, made_text % {"n": made})
        elif action == "seed":
            entries_seed(tournament=tournament)
            messages.success(request, _("Players are seeded by rating."))
        elif action == "swap":
            _swap(tournament, request.POST.get("player_a"), request.POST.get("player_b"))
            messages.success(request, _("The two players have changed places."))
        elif action == "withdraw":
            player = _posted_player(request, tournament)
            entry_withdraw(tournament=tournament, player=player)
            messages.success(request, _("%(name)s has withdrawn.") % {"name": player.name})
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:entries", pk=pk)
    target = (
        "tournaments:entries"
        if action in ("seed", "withdraw", "swap")
        else "tournaments:tournament"
    )
    return redirect(target, pk=pk)


def _swap(tournament: Tournament, a: str | None, b: str | None) -> None:
    """Two players of the last round change places before their series start (the
    pairings service checks that they have not)."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        raise ApplicationError(_("There is no round yet."), code="no-round-yet")
    by_player = {}
    for s in last.series.all():
        for pid in (s.player1_id, s.player2_id):
            if pid is not None:
                by_player[str(pid)] = s
    if a not in by_player or b not in by_player:
        raise ApplicationError(
            _("Choose two players of round %(n)s."),
            code="choose-two-of-round",
            params={"n": last.number},
        )
    series_swap(
        first=by_player[a], second=by_player[b],
        player_a=Player.objects.get(pk=a), player_b=Player.objects.get(pk=b),
    )  # fmt: skip


def _swappable(tournament: Tournament) -> list[Player]:
    """The players of the last round whose series have not started."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return []
    open_series = last.series.filter(status="scheduled", games__isnull=True).select_related(
        "player1", "player2"
    )
    players = [p for s in open_series for p in (s.player1, s.player2) if p is not None]
    return sorted(players, key=lambda p: p.name.casefold())


@login_required
@require_POST
def pair(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    if action not in ("round", "bracket", "seed", "withdraw", "swap"):
        raise Http404
    return _act(request, pk, action)


@login_required
def game_correction(request: HttpRequest, pk: int) -> HttpResponse:
    """A director corrects a game's result or record, saying why."""
    try:
        game: Game = game_with_series(pk=pk)
    except Game.DoesNotExist:
        raise Http404 from None
    series = game.series
    if not is_director(request.user, series.tournament):
        raise PermissionDenied
    initial = {
        "white": game.white_id, "winner": game.winner_id or "", "kind": game.kind,
        "ended": game.ended, "cube": game.cube, "version": game.version,
    }  # fmt: skip
    form = CorrectionForm(
        request.POST if request.method == "POST" else None, series=series, initial=initial,
        game=game,
    )  # fmt: skip
    warnings = correction_warnings(game=game)  # to be confirmed before saving
    if request.method == "POST" and warnings and not request.POST.get("confirmed"):
        form.is_valid()
        form.add_error(None, _("Read the warnings below and confirm the correction."))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data["record"].strip():
                game_correct(
                    game=game, by=request.user, reason=data["reason"], record=data["record"],
                    expected_version=data["version"],
                )  # fmt: skip
            else:
                game_correct(
                    game=game, by=request.user, reason=data["reason"],
                    winner=form.player("winner"), kind=data["kind"], ended=data["ended"],
                    cube=data["cube"], drop_record=data.get("drop_record", False),
                    expected_version=data["version"],
                )  # fmt: skip
        except ApplicationError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("The result is corrected."))
            return redirect("tournaments:series", pk=series.pk)
    status = 400 if form.is_bound else 200
    return render(
        request, "tournaments/correct.html",
        {"form": form, "game": game, "s": series, "t": series.tournament, "warnings": warnings},
        status=status,
    )  # fmt: skip
