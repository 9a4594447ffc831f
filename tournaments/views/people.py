"""A director's people pages: co-directors and pairs kept apart, the player search,
removing, withdrawing and reinstating entries (each after a confirmation page), and
invitations by which a player claims their profile with a login."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from tournaments.forms import add_service_error
from tournaments.models import CLOSED_STATUSES, Entry, Player, ProhibitedPair, Series, Tournament
from tournaments.selectors.access import is_director
from tournaments.selectors.people import players_matching
from tournaments.selectors.ratings import ratings_in
from tournaments.services.errors import ApplicationError
from tournaments.services.invitations import (
    INVITATION_DAYS,
    invitation_claim,
    invitation_claim_new_account,
    invitation_player,
    invitation_send,
    invitation_token,
    invitation_withdraw,
)
from tournaments.services.pairings import entry_withdraw
from tournaments.services.roster import (
    entry_reinstate,
    entry_remove,
    prohibited_pair_add,
    prohibited_pair_remove,
    tournament_director_add,
    tournament_director_remove,
    withdrawal_effects,
)
from tournaments.services.setup import entry_register
from tournaments.views.director import directed_tournament

SEARCH_LIMIT = 15


class DirectorForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)


class PairForm(forms.Form):
    player_a = forms.ModelChoiceField(label=gettext_lazy("Player"), queryset=Player.objects.none())
    player_b = forms.ModelChoiceField(
        label=gettext_lazy("must not play"), queryset=Player.objects.none()
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200, required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entered = Player.objects.filter(entries__tournament=tournament).order_by("name")
        for name in ("player_a", "player_b"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = entered


class EmailForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("Email address"))


class NewAccountForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    email = forms.EmailField(
        label=gettext_lazy("Email address (for a forgotten password)"), required=False
    )
    password = forms.CharField(label=gettext_lazy("Password"), widget=forms.PasswordInput)


def _entry_or_404(tournament: Tournament, player_pk: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player__user"), tournament=tournament, player_id=player_pk
    )


@login_required
def tournament_people(request: HttpRequest, pk: int) -> HttpResponse:
    """Co-directors and the pairs kept apart: add here, remove after a confirmation."""
    tournament = directed_tournament(request, pk)
    director_form = DirectorForm(request.POST if request.POST.get("op") == "director" else None)
    pair_form = PairForm(
        request.POST if request.POST.get("op") == "pair" else None, tournament=tournament
    )
    if request.method == "POST":
        try:
            if director_form.is_bound and director_form.is_valid():
                name = director_form.cleaned_data["username"]
                tournament_director_add(tournament=tournament, username=name)
                messages.success(
                    request, _("%(name)s directs the tournament too.") % {"name": name}
                )
                return redirect("tournaments:people", pk=pk)
            if pair_form.is_bound and pair_form.is_valid():
                data = pair_form.cleaned_data
                prohibited_pair_add(
                    tournament=tournament,
                    player_a=data["player_a"],
                    player_b=data["player_b"],
                    reason=data["reason"],
                )
                messages.success(request, _("The two players will not be paired together."))
                return redirect("tournaments:people", pk=pk)
        except ApplicationError as exc:
            add_service_error(director_form if director_form.is_bound else pair_form, exc)
    context = {
        "t": tournament,
        "directors": list(tournament.directors.order_by("username")),
        "pairs": list(
            ProhibitedPair.objects.filter(tournament=tournament).select_related(
                "player_a", "player_b"
            )
        ),
        "director_form": director_form,
        "pair_form": pair_form,
        "swiss": tournament.format == "swiss",
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/people.html", context, status=status)


@login_required
def director_remove(request: HttpRequest, pk: int, username: str) -> HttpResponse:
    """Confirm, then stop ``username`` directing the tournament."""
    tournament = directed_tournament(request, pk)
    if not tournament.directors.filter(username=username).exists():
        raise Http404
    if request.method == "POST":
        try:
            tournament_director_remove(tournament=tournament, username=username)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(name)s no longer directs.") % {"name": username})
        if not is_director(request.user, tournament):  # they removed themselves
            return redirect("tournaments:tournament", pk=pk)
        return redirect("tournaments:people", pk=pk)
    return _confirm(
        request,
        tournament,
        _("Remove %(name)s as a director?") % {"name": username},
        [_("They will no longer change the tournament.")],
        _("Remove the director"),
        reverse("tournaments:people", args=[pk]),
    )


@login_required
def pair_remove(request: HttpRequest, pk: int, pair_pk: int) -> HttpResponse:
    tournament = directed_tournament(request, pk)
    pair = get_object_or_404(ProhibitedPair, pk=pair_pk, tournament=tournament)
    if request.method == "POST":
        prohibited_pair_remove(pair=pair)
        messages.success(request, _("The two players may be paired together again."))
        return redirect("tournaments:people", pk=pk)
    return _confirm(
        request,
        tournament,
        _("Let %(pair)s play each other?") % {"pair": pair},
        [],
        _("Allow the pairing"),
        reverse("tournaments:people", args=[pk]),
    )


def _confirm(
    request: HttpRequest,
    tournament: Tournament,
    question: str,
    details: list[str],
    button: str,
    back: str,
) -> HttpResponse:
    context = {
        "t": tournament,
        "question": question,
        "details": details,
        "button": button,
        "back": back,
    }
    return render(request, "tournaments/confirm.html", context)


ENTRY_ACTIONS = ("remove", "withdraw", "reinstate")


def _entry_consequences(tournament: Tournament, entry: Entry, action: str) -> list[str]:
    name = entry.player.name
    if action == "remove":
        return [
            _("%(name)s leaves the list of players; their player profile stays.") % {"name": name}
        ]
    if action == "reinstate":
        back = withdrawal_effects(tournament=tournament, player=entry.player)
        lines = [_("%(name)s is paired again from the next round.") % {"name": name}]
        lines += [_("Series reopened: %(series)s") % {"series": s} for s in back]
        return lines
    open_series = (
        Series.objects.filter(tournament=tournament)
        .filter(Q(player1=entry.player) | Q(player2=entry.player))
        .exclude(status__in=CLOSED_STATUSES)
        .select_related("player1", "player2")
    )
    what = _("cancelled") if tournament.withdrawal == "cancel" else _("forfeited to the opponent")
    lines = [
        _("%(name)s is no longer paired; their results so far stay in the standings.")
        % {"name": name}
    ]
    lines += [_("%(series)s: %(what)s") % {"series": s, "what": what} for s in open_series]
    lines.append(_("You can undo the withdrawal later."))
    return lines


@login_required
def entry_action(request: HttpRequest, pk: int, player_pk: int, action: str) -> HttpResponse:
    """Remove (before pairing), withdraw or reinstate an entry: GET asks, POST does."""
    if action not in ENTRY_ACTIONS:
        raise Http404
    tournament = directed_tournament(request, pk)
    entry = _entry_or_404(tournament, player_pk)
    player = entry.player
    if request.method == "POST":
        try:
            if action == "remove":
                entry_remove(tournament=tournament, player=player)
                done = _("%(name)s is removed from the tournament.")
            elif action == "withdraw":
                entry_withdraw(tournament=tournament, player=player)
                done = _("%(name)s has withdrawn.")
            else:
                entry_reinstate(tournament=tournament, player=player)
                done = _("%(name)s plays again.")
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, done % {"name": player.name})
        return redirect("tournaments:entries", pk=pk)
    questions = {
        "remove": (_("Remove %(name)s from the tournament?"), _("Remove")),
        "withdraw": (_("Withdraw %(name)s?"), _("Withdraw")),
        "reinstate": (_("Undo the withdrawal of %(name)s?"), _("Undo the withdrawal")),
    }
    question, button = questions[action]
    return _confirm(
        request,
        tournament,
        question % {"name": player.name},
        _entry_consequences(tournament, entry, action),
        button,
        reverse("tournaments:entries", args=[pk]),
    )


@login_required
@require_GET
def player_search(request: HttpRequest, pk: int) -> HttpResponse:
    """Players not yet registered whose name matches ``q`` (accents and case ignored),
    as JSON for the search-as-you-type script."""
    tournament = directed_tournament(request, pk)
    query = request.GET.get("q", "")[:120]
    found = players_matching(query=query, exclude=tournament, limit=SEARCH_LIMIT)
    # the rating in the tournament's game (docs/ratings.md)
    rating = ratings_in(variant=tournament.variant, players=(p.pk for p in found))
    return JsonResponse({"query": query, "results": [_player_json(p, rating[p.pk]) for p in found]})


def _player_json(player: Player, rating: float) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club.name if player.club else "",
        "rating": round(rating),
    }


@login_required
def entry_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Register a player chosen from the search results (a plain POST of ``player``)."""
    tournament = directed_tournament(request, pk)
    if request.method != "POST":
        return redirect("tournaments:entries", pk=pk)
    raw = request.POST.get("player", "")
    player = None
    if raw.isascii() and raw.isdigit() and len(raw) < 10:
        player = Player.objects.filter(pk=int(raw)).first()
    try:
        if player is None:
            raise ApplicationError(
                _("Choose a player from the list."), code="choose-player", field="player"
            )
        entry_register(tournament=tournament, player=player)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(name)s is registered.") % {"name": player.name})
    return redirect("tournaments:entries", pk=pk)


@login_required
@require_POST
def invitation_withdrawn(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Every link made so far for the player stops working; the invitation page then
    shows a new one."""
    tournament = directed_tournament(request, pk)
    entry = _entry_or_404(tournament, player_pk)
    try:
        invitation_withdraw(tournament=tournament, player=entry.player)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Every earlier invitation link for %(name)s is withdrawn.")
            % {"name": entry.player.name},
        )
    return redirect("tournaments:invite", pk=pk, player_pk=player_pk)


@login_required
def invitation_new(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """The invitation link of a registered player, to hand over or to mail."""
    tournament = directed_tournament(request, pk)
    entry = _entry_or_404(tournament, player_pk)
    player = entry.player
    form = EmailForm(request.POST if request.method == "POST" else None)
    link = ""
    with suppress(ApplicationError):  # claimed: the page says by whom
        link = request.build_absolute_uri(
            reverse("tournaments:claim", args=[invitation_token(player=player)])
        )
    if request.method == "POST" and link and form.is_valid():
        try:
            invitation_send(
                tournament=tournament,
                player=player,
                link=link,
                email=form.cleaned_data["email"],
                by=request.user.get_username(),
            )
        except ApplicationError as exc:
            add_service_error(form, exc)
        else:
            messages.success(
                request,
                _("The invitation is sent to %(email)s.") % {"email": form.cleaned_data["email"]},
            )
            return redirect("tournaments:entries", pk=pk)
    context = {
        "t": tournament,
        "player": player,
        "link": link,
        "form": form,
        "days": INVITATION_DAYS,
    }
    return render(request, "tournaments/invite.html", context, status=400 if form.is_bound else 200)


def claim(request: HttpRequest, token: str) -> HttpResponse:
    """A player opens an invitation: signed in, they claim with this login; otherwise
    they create an account here (or sign in first)."""
    try:
        player = invitation_player(token=token)
    except ApplicationError as exc:
        return render(request, "tournaments/claim.html", {"error": exc.message}, status=400)
    form = NewAccountForm(
        request.POST if request.method == "POST" and not request.user.is_authenticated else None
    )
    if request.method == "POST":
        try:
            if request.user.is_authenticated:
                player = invitation_claim(token=token, user=request.user)
            elif form.is_valid():
                data = form.cleaned_data
                player = invitation_claim_new_account(
                    token=token,
                    username=data["username"],
                    password=data["password"],
                    email=data["email"],
                )
                assert player.user is not None
                login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
            else:
                raise ApplicationError(_("Correct the form below."), code="form-invalid")
        except ApplicationError as exc:
            if form.is_bound:
                add_service_error(form, exc)
            else:
                messages.error(request, exc.message)
        else:
            messages.success(request, _("You are %(name)s now: welcome.") % {"name": player.name})
            return redirect("tournaments:player", pk=player.pk)
    context = {"player": player, "form": form, "token": token}
    return render(
        request, "tournaments/claim.html", context, status=400 if request.method == "POST" else 200
    )


def entries_extra(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the players page adds for these pages: the search's results (without
    JavaScript: a plain GET form), who is paired (may not be removed), the counts."""
    query = request.GET.get("q", "")[:120]
    paired: set[int] = set()
    for one, two in Series.objects.filter(tournament=tournament).values_list(
        "player1_id", "player2_id"
    ):
        paired.update(p for p in (one, two) if p is not None)
    return {
        "q": query,
        "found": players_matching(query=query, exclude=tournament, limit=SEARCH_LIMIT)
        if query.strip()
        else [],
        "paired": paired,
        "active_count": Entry.objects.filter(tournament=tournament, withdrawn=False).count(),
    }
