"""The lobby (/play/) and the game room's page (/play/rooms/<id>/), docs/online.md.

Thin: the forms are read here, the services (services/online/) decide; the room's page
is drawn from the room's state (services/online/state.py) and kept live by
static/js/room.js over the WebSocket, or by polling its JSON doors without one."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.forms import PlayStartForm, add_service_error
from tournaments.models import Challenge, ChallengeStatus, Room
from tournaments.selectors.botgames import user_bot_games
from tournaments.selectors.online import (
    link_challenge,
    lobby_challenges,
    open_status,
    room_dice_check,
    settings_summary,
    user_rooms,
)
from tournaments.services.errors import ApplicationError
from tournaments.services.online.challenges import (
    challenge_accept,
    challenge_bot,
    challenge_cancel,
    challenge_create,
    challenge_decline,
    challenge_rematch,
)
from tournaments.services.online.presence import beat_ms, room_seen
from tournaments.services.online.state import room_state
from tournaments.views.online_forms import ChallengeForm
from tournaments.views.online_labels import room_labels

CHALLENGE_ACTIONS = ("accept", "decline", "cancel")


def _int(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and len(value) < 10 else None


def _room_url(room_id: int) -> str:
    return reverse("tournaments:room", args=[room_id])


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby: challenges to accept, decline or cancel, the user's rooms, the challenge
    form, and the bot (its own games, as before)."""
    form = ChallengeForm(prefix="c")
    bot_form = PlayStartForm()
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "challenge":
                form = ChallengeForm(request.POST, prefix="c")
                if form.is_valid():
                    return _challenge(request, form)
                status = 400
            elif action in CHALLENGE_ACTIONS:
                return _challenge_action(request, action)
            elif action == "rematch":
                return _rematch(request)
            else:  # a game against the bot (its own page, docs/play.md)
                bot_form = PlayStartForm(request.POST)
                started = _bot_game(request, bot_form)
                if started is not None:
                    return started
                status = 400
        except ApplicationError as exc:
            if action == "challenge":
                add_service_error(form, exc)
            else:
                messages.error(request, exc.message)
            status = 409 if exc.code == "challenge-closed" else 400
    context = {
        "form": form,
        "bot_form": bot_form,
        "challenges": lobby_challenges(request.user),
        "rooms": user_rooms(request.user),
        "games": user_bot_games(request.user),
    }
    return render(request, "tournaments/online/lobby.html", context, status=status)


def _bot_game(request: HttpRequest, form: PlayStartForm) -> HttpResponse | None:
    """A game against the bot in a game room, as every game on the site (docs/play.md):
    the project's evaluator in long nardy and Lurč, GNU Backgammon in short backgammon.
    None when refused (the form says why)."""
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        room = challenge_bot(
            user=request.user, variant=data["variant"], level=data["level"],
            colour=data["colour"],
        )  # fmt: skip
    except ApplicationError as exc:
        add_service_error(form, exc)
        return None
    return redirect(_room_url(room.pk))


def _challenge(request: HttpRequest, form: ChallengeForm) -> HttpResponse:
    data = form.cleaned_data
    kind = data["opponent_kind"]
    challenge = challenge_create(
        user=request.user, variant=data["variant"], settings=form.settings(),
        opponent=data["opponent"] if kind == "user" else "", link=kind == "link",
        bot_level=data["bot_level"] if kind == "bot" else "",
    )  # fmt: skip
    if kind == "bot":
        return redirect(_room_url(challenge.room.pk))
    if kind == "link":
        url = request.build_absolute_uri(
            reverse("tournaments:challenge_link", args=[challenge.pk, challenge.token])
        )
        messages.success(request, _("Send this link to your opponent: %(url)s") % {"url": url})
    else:
        messages.success(request, _("Your challenge waits in the lobby."))
    return redirect("tournaments:play")


def _challenge_action(request: HttpRequest, action: str) -> HttpResponse:
    pk = _int(request.POST.get("challenge"))
    if pk is None:
        raise ApplicationError(_("There is no such challenge."), code="no-such-challenge")
    if action == "accept":
        room = challenge_accept(
            challenge_id=pk, user=request.user, token=request.POST.get("token", "")[:64]
        )
        rematch_of = Challenge.objects.filter(pk=pk).values_list("rematch_of", flat=True).first()
        if rematch_of is not None:
            _announce(rematch_of)  # the finished room's pages go on to the rematch's room
        return redirect(_room_url(room.pk))
    if action == "decline":
        challenge_decline(challenge_id=pk, user=request.user)
        messages.success(request, _("You declined the challenge."))
    else:
        challenge_cancel(challenge_id=pk, user=request.user)
        messages.success(request, _("Your challenge is cancelled."))
    return redirect("tournaments:play")


def _rematch(request: HttpRequest) -> HttpResponse:
    pk = _int(request.POST.get("room"))
    if pk is None:
        raise ApplicationError(_("There is no such game room."), code="no-such-room")
    challenge = challenge_rematch(room_id=pk, user=request.user)
    _announce(pk)  # the opponent's page of the finished room shows the offer, or the new room
    if challenge.bot_level or challenge.status == ChallengeStatus.ACCEPTED:
        return redirect(_room_url(challenge.room.pk))
    messages.success(request, _("Your rematch offer waits for your opponent in the lobby."))
    return redirect(_room_url(pk))  # wait in the finished room: its page follows the offer


@login_required
def challenge_link(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """A challenge by link: who offers what, and the button that accepts it."""
    challenge = link_challenge(pk, token)
    if challenge is None:
        raise Http404
    context = {
        "challenge": challenge,
        "token": token,
        "open": open_status(challenge),
        "mine": challenge.creator_id == request.user.pk,
        "summary": settings_summary(challenge.get_variant_display(), challenge.settings),
    }
    return render(request, "tournaments/online/challenge.html", context)


def _announce(room_id: int) -> None:
    from tournaments.online.consumer import room_changed

    room_changed(room_id)


def _room(pk: int) -> Room:
    room = Room.objects.select_related("a_user", "b_user").filter(pk=pk).first()
    if room is None:
        raise Http404
    return room


def room_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The game room: players play, anyone else watches (read-only)."""
    room_seen(room_id=pk, user=request.user)  # a player opening the page is in the room
    room = _room(pk)
    state = room_state(room, request.user)
    context: dict[str, Any] = {
        "room": room,
        "state": state,
        "labels": room_labels(),
        "summary": settings_summary(room.get_variant_display(), room.settings),
        "urls": {
            "state": reverse("tournaments:room-state", args=[pk]),
            "action": reverse("tournaments:room-action", args=[pk]),
            "dice": reverse("tournaments:room_dice", args=[pk]),
            "socket": f"/ws/rooms/{pk}/",
            # how often the page asks for the state without a WebSocket (ms)
            "poll_ms": getattr(settings, "ROOM_POLL_MS", 3000),
            # how often a live page beats over the WebSocket (services/online/presence.py)
            "ping_ms": beat_ms(),
        },
    }
    return render(request, "tournaments/online/room.html", context)


@require_GET
def room_dice(request: HttpRequest, pk: int) -> JsonResponse:
    """The finished series' dice check (engine/dicecheck.py) as JSON for the page's button."""
    check = room_dice_check(_room(pk))
    return JsonResponse({"ok": check.ok, "lines": check.lines})
