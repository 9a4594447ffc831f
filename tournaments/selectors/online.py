"""The lobby and the game room's page (docs/online.md): the challenges a user may see, the
user's rooms, and a finished series' dice check. Reading only; services/online/ writes."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.engine import EngineError, check_dice_text
from tournaments.models import Challenge, ChallengeStatus, Room, RoomStatus
from tournaments.selectors.access import User, signed_in
from tournaments.selectors.rooms import challenges_for, seat_name

ROOMS_LISTED = 30


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    challenge: Challenge
    mine: bool  # the user made it (may cancel it)
    to_me: bool  # a challenge to the user by name (may decline it)
    summary: str  # the series' settings in a few words


@dataclass(frozen=True, slots=True)
class RoomRow:
    room: Room
    opponent: str
    live: bool  # waiting or being played


def settings_summary(variant_label: str, settings: dict[str, object]) -> str:
    """``long nardy, first to 3 points, clock 12 s + 60 s``: a challenge in a few words."""
    length = settings.get("length", 1)
    n = length if isinstance(length, int) else 1
    if settings.get("series_mode") == "games":
        series = ngettext("%(n)s game", "%(n)s games", n) % {"n": n}
    else:
        series = ngettext("first to %(n)s point", "first to %(n)s points", n) % {"n": n}
    clock = settings.get("clock")
    if clock == "live":
        timing = _("clock %(delay)s s + %(reserve)s s") % {
            "delay": settings.get("delay_s"), "reserve": settings.get("reserve_s"),
        }  # fmt: skip
    elif clock == "correspondence":
        days = settings.get("days")
        d = days if isinstance(days, int) else 1
        timing = ngettext("%(days)s day a move", "%(days)s days a move", d) % {"days": d}
    else:
        timing = _("no clock")
    return f"{variant_label}, {series}, {timing}"


def lobby_challenges(user: User | None) -> list[ChallengeRow]:
    """The open challenges the user sees: open ones, those to the user, the user's own."""
    player = signed_in(user)
    rows = []
    for c in challenges_for(user).order_by("-created", "-pk")[:100]:
        mine = player is not None and c.creator_id == player.pk
        to_me = player is not None and c.opponent_id == player.pk
        rows.append(
            ChallengeRow(c, mine, to_me, settings_summary(c.get_variant_display(), c.settings))
        )
    return rows


def user_rooms(user: User | None) -> list[RoomRow]:
    """The user's rooms, the live ones first, then the newest (bounded)."""
    player = signed_in(user)
    if player is None:
        return []
    rooms = (
        Room.objects.filter(Q(a_user=player) | Q(b_user=player))
        .select_related("a_user", "b_user")
        .order_by("-created", "-pk")[:ROOMS_LISTED]
    )
    rows = []
    for room in rooms:
        other = "b" if room.a_user_id == player.pk else "a"
        live = room.status in (RoomStatus.WAITING, RoomStatus.PLAYING)
        rows.append(RoomRow(room, seat_name(room, other), live))
    return sorted(rows, key=lambda r: not r.live)


def link_challenge(pk: int, token: str) -> Challenge | None:
    """The challenge a link names, when its token is right (None otherwise: a 404)."""
    challenge = Challenge.objects.select_related("creator").filter(pk=pk).first()
    if challenge is None or not challenge.token or challenge.token != token:
        return None
    return challenge


def open_status(challenge: Challenge) -> bool:
    return challenge.status == ChallengeStatus.OPEN


@dataclass(frozen=True, slots=True)
class DiceCheck:
    ok: bool
    lines: list[str]


def room_dice_check(room: Room) -> DiceCheck:
    """Every roll of the series' finished games re-derived from the revealed seed (the
    engine's dice check, engine/dicecheck.py), said in the reader's language."""
    if room.status not in (RoomStatus.FINISHED, RoomStatus.ABORTED):
        return DiceCheck(False, [_("The server seed is revealed when the series ends.")])
    records = [g.record for g in room.games.order_by("number")]
    if not records:
        return DiceCheck(False, [_("No game of the series was finished.")])
    try:
        verdicts = check_dice_text("\n".join(r.rstrip("\n") + "\n" for r in records))
    except EngineError as exc:
        return DiceCheck(False, [exc.describe()])
    lines = []
    for v in verdicts:
        params = dict(v.params)
        if v.ok:
            count = int(params.get("count", "0"))
            lines.append(
                ngettext(
                    "Game %(game)s: its %(count)s roll follows from the seed.",
                    "Game %(game)s: all %(count)s rolls follow from the seed.",
                    count,
                )
                % {"game": v.game, "count": count}
            )
        elif v.code == "dice-mismatch":
            lines.append(
                _("Game %(game)s: roll %(roll)s gives %(expected)s, the record has %(written)s.")
                % {"game": v.game, **params}
            )
        elif v.code == "dice-seed-mismatch":
            lines.append(
                _("Game %(game)s: the revealed seed does not match the hash shown before the "
                  "first roll.") % {"game": v.game}
            )  # fmt: skip
        else:
            lines.append(_("Game %(game)s: %(message)s") % {"game": v.game, "message": v.message})
    return DiceCheck(all(v.ok for v in verdicts), lines)
