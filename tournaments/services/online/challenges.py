"""Challenges (docs/online.md): an offer to play a series with its settings - open to
anyone signed in, to a named user, to whoever has its link, or to the bot at a level (a
room at once) - accepted (a room), declined, cancelled, or offered again as a rematch."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User as AuthUser
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.engine import BOT_LEVELS, variant_named
from tournaments.models import Challenge, ChallengeStatus, Room, RoomStatus
from tournaments.selectors.access import User, signed_in
from tournaments.services.botgames import bot_levels
from tournaments.services.errors import ApplicationError
from tournaments.services.gnubg_bot import GNUBG_LEVELS
from tournaments.services.online.rooms import room_create, seat_of
from tournaments.services.online.settings import settings_read
from tournaments.wording.names import bot_level_name, variant_name


def _player(user: User | None) -> AuthUser:
    player = signed_in(user)
    if player is None:
        raise ApplicationError(_("Sign in to play online."), code="sign-in")
    return player


def challenge_create(*, user: User, variant: str, settings: object = None,
                     opponent: str = "", link: bool = False,
                     bot_level: str = "") -> Challenge:  # fmt: skip
    """A new challenge by ``user``: to the user named ``opponent``, by a link (``link``:
    a token only its holder can accept), to the bot at ``bot_level`` (its room starts at
    once; a game with an evaluator), or else open to anyone signed in."""
    player = _player(user)
    s = settings_read(variant=variant, data=settings)
    challenge = Challenge(creator=player, variant=variant, settings=s.to_json())
    if bot_level:
        _bot_level_check(variant, bot_level)
        challenge.bot_level = bot_level
        challenge.status = ChallengeStatus.ACCEPTED
    elif opponent:
        found = get_user_model().objects.filter(username__iexact=opponent.strip()).first()
        if found is None or found.pk == player.pk or not found.is_active:
            raise ApplicationError(
                _("There is no other player called %(name)s."), code="no-such-opponent",
                params={"name": opponent.strip()[:40]}, field="opponent",
            )  # fmt: skip
        challenge.opponent = found
    elif link:
        challenge.token = secrets.token_urlsafe(16)
    with transaction.atomic():
        challenge.save()
        if bot_level:
            room_create(a_user=player, b_bot=bot_level, variant=variant, settings=s,
                        challenge_id=challenge.pk)  # fmt: skip
    return challenge


def _bot_level_check(variant: str, level: str) -> None:
    """A level of the bot in ``variant``: the evaluator's (long nardy, Lurč) or, where
    gnubg is installed, GNU Backgammon's (short backgammon, services/gnubg_bot.py)."""
    if level not in BOT_LEVELS and level not in GNUBG_LEVELS:
        raise ApplicationError(
            _("unknown level %(level)s"), code="bot-unknown-level",
            params={"level": level[:20]}, field="bot_level",
        )  # fmt: skip
    if not bot_levels(variant):
        raise ApplicationError(
            _("The bot does not play this game yet."), code="bot-no-evaluator",
            field="variant",
        )  # fmt: skip
    if level not in bot_levels(variant):
        raise ApplicationError(
            _("%(level)s is not a level of the bot in %(game)s."),
            code="bot-level-not-for-game", field="bot_level",
            params={"level": bot_level_name(level), "game": variant_name(variant)},
        )  # fmt: skip


BOT_ROOM_SETTINGS = {"series_mode": "games", "length": 1, "clock": "none"}
COLOURS = ("white", "black")


def challenge_bot(*, user: User, variant: str, level: str, colour: str) -> Room:
    """The lobby's game against the bot (docs/play.md): one game of ``variant`` at
    ``level`` in a game room, without a clock, the user playing ``colour`` (``random``:
    drawn) - the user starts game 1 with white, or black in Lurč (Z1). New games are
    counted as the bot games' are (scope ``botgame``); the finished game joins the user's
    games against the bot (services/online/bot_history.py)."""
    from tournaments.api.throttles import PageThrottle

    player = _player(user)
    if colour not in (*COLOURS, "random"):
        raise ApplicationError(
            _("choose white, black or random"), code="bot-unknown-colour", field="colour"
        )
    if not PageThrottle("botgame", f"user:{player.pk}").allow_request(None, None):
        raise ApplicationError(
            _("You have started too many games lately: try again in a minute."),
            code="bot-too-many",
        )
    challenge = challenge_create(user=player, variant=variant, settings=BOT_ROOM_SETTINGS,
                                 bot_level=level)  # fmt: skip
    _colour_set(challenge, colour)
    return Room.objects.get(challenge=challenge)


def _colour_set(challenge: Challenge, colour: str) -> None:
    """The user's colour against the bot kept with the challenge (``colour``, drawn when
    ``random``) and what the user asked (``colour_asked``: a rematch asks it again)."""
    chosen = secrets.choice(COLOURS) if colour == "random" else colour
    challenge.settings = {**challenge.settings, "colour": chosen, "colour_asked": colour}
    Challenge.objects.filter(pk=challenge.pk).update(settings=challenge.settings)


def bot_room_starter(room: Room) -> str | None:
    """The seat that starts game 1 of a room the lobby's bot form made: the one whose
    chosen colour moves first; None (the lot) for any other challenge's room."""
    colour = (room.challenge.settings or {}).get("colour") if room.challenge else None
    if colour not in COLOURS or not (room.a_bot or room.b_bot):
        return None
    user_seat = "a" if room.a_user_id is not None else "b"
    first = variant_named(room.variant).first_side
    return user_seat if COLOURS.index(colour) == first else ("b" if user_seat == "a" else "a")


def _locked(challenge_id: int) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None:
        raise ApplicationError(_("There is no such challenge."), code="no-such-challenge")
    if challenge.status != ChallengeStatus.OPEN:
        raise ApplicationError(
            _("This challenge is %(status)s already."), code="challenge-closed",
            params={"status": challenge.get_status_display()},
        )  # fmt: skip
    return challenge


def challenge_accept(*, challenge_id: int, user: User, token: str = "") -> Room:
    """``user`` accepts: the room of the series, the creator in its first seat. Refused:
    one's own challenge, another player's direct challenge, a link challenge without
    its token, a challenge no longer open."""
    player = _player(user)
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.creator_id == player.pk:
            raise ApplicationError(_("You cannot accept your own challenge."), code="own-challenge")
        if challenge.opponent_id not in (None, player.pk) or (
            challenge.token and not secrets.compare_digest(challenge.token, token or "")
        ):
            raise ApplicationError(_("This challenge is not for you."), code="not-for-you")
        s = settings_read(variant=challenge.variant, data=challenge.settings)
        challenge.status = ChallengeStatus.ACCEPTED
        challenge.opponent = player
        challenge.save(update_fields=["status", "opponent"])
        return room_create(a_user=challenge.creator, b_user=player, variant=challenge.variant,
                           settings=s, challenge_id=challenge.pk)  # fmt: skip


def challenge_decline(*, challenge_id: int, user: User) -> Challenge:
    """The challenged user says no (a direct challenge only)."""
    player = _player(user)
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.opponent_id != player.pk:
            raise ApplicationError(_("This challenge is not for you."), code="not-for-you")
        challenge.status = ChallengeStatus.DECLINED
        challenge.save(update_fields=["status"])
    return challenge


def challenge_cancel(*, challenge_id: int, user: User) -> Challenge:
    """The creator takes the challenge back while it is open."""
    player = _player(user)
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.creator_id != player.pk:
            raise ApplicationError(_("Only its creator cancels a challenge."),
                                   code="challenge-not-yours")  # fmt: skip
        challenge.status = ChallengeStatus.CANCELLED
        challenge.save(update_fields=["status"])
    return challenge


def challenge_rematch(*, room_id: int, user: User) -> Challenge:
    """A player of a finished series offers another with the same settings: to the same
    opponent (the bot: a room at once). An offer of theirs already open is the one they
    made; the opponent's open offer is accepted (both asked: the rematch starts); a
    rematch accepted already is the one (the next is offered from its own room)."""
    player = _player(user)
    room = Room.objects.select_related("a_user", "b_user").filter(pk=room_id).first()
    seat = seat_of(room, player) if room is not None else None
    if room is None or seat is None:
        raise ApplicationError(_("Only a player of the series offers a rematch."),
                               code="rematch-not-yours")  # fmt: skip
    if room.status not in (RoomStatus.FINISHED, RoomStatus.ABORTED):
        raise ApplicationError(_("The series is still being played."), code="not-finished")
    other = "b" if seat == "a" else "a"
    opponent = getattr(room, f"{other}_user")
    offered = (
        Challenge.objects.filter(
            rematch_of=room, status__in=(ChallengeStatus.OPEN, ChallengeStatus.ACCEPTED)
        )
        .order_by("-pk")
        .first()
    )
    if offered is not None and (
        offered.status == ChallengeStatus.ACCEPTED or offered.creator_id == player.pk
    ):
        return offered  # the rematch is on already, or this player's offer waits
    if offered is not None:
        challenge_accept(challenge_id=offered.pk, user=player)
        return Challenge.objects.select_related("room").get(pk=offered.pk)
    challenge = challenge_create(
        user=player, variant=room.variant, settings=room.settings,
        opponent=opponent.get_username() if opponent else "",
        bot_level=getattr(room, f"{other}_bot"),
    )  # fmt: skip
    Challenge.objects.filter(pk=challenge.pk).update(rematch_of=room)
    challenge.rematch_of = room
    asked = _colour_asked(room)
    if challenge.bot_level and asked:  # the lobby's bot form: the colour asked again
        _colour_set(challenge, asked)
    return challenge


def _colour_asked(room: Room) -> str | None:
    """The colour the user asked for in the lobby's bot form that made ``room`` (white,
    black or random); None for any other room."""
    settings = (room.challenge.settings or {}) if room.challenge else {}
    asked = settings.get("colour_asked", settings.get("colour"))
    return asked if asked in (*COLOURS, "random") else None
