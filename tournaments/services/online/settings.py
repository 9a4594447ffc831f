"""A challenge's and a room's settings (docs/online.md): read and checked in one place,
stored as JSON on the challenge and copied to its room. The game rules are the same
fields a tournament has (its choices: Variant, SeriesMode, FirstMove, DrawScoring and
the engine's rule options); the clock and what a timeout costs are the room's own."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from django.utils.translation import gettext as _

from tournaments.engine import RULE_OPTIONS, variant_named
from tournaments.models import DrawScoring, FirstMove, SeriesMode, Tournament, Variant
from tournaments.services.errors import ApplicationError
from tournaments.services.records import match_tags, tournament_tags

MAX_LENGTH = 25
CLOCKS = ("live", "correspondence", "none")
TIMEOUT_COSTS = ("game", "series")
OPENING_ROLLS: tuple[str, ...] = tuple(RULE_OPTIONS["opening_roll"].values)


@dataclass(frozen=True)
class RoomSettings:
    """What a series played on the site is: the game's rules and the clock."""

    series_mode: str = SeriesMode.POINTS.value
    length: int = 3
    mars: bool = True
    last_roll: bool = False
    draw_scoring: str = DrawScoring.HALF.value
    first_move: str = FirstMove.LOSER.value
    cube: bool = True  # short backgammon only (S7)
    crawford: bool = True  # the Crawford game in a series to N points with the cube
    opening_roll: str = "lot"  # short backgammon (S2)
    clock: str = "live"
    delay_s: int = 12  # each turn's delay, before the reserve runs
    reserve_s: int = 60  # the reserve for each point (or game) of the series' length
    days: int = 3  # correspondence: days a move
    timeout_costs: str = "game"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _int(data: dict[str, Any], name: str, low: int, high: int, default: int) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApplicationError(
            _("%(name)s must be a whole number from %(low)s to %(high)s"),
            code="settings-number", params={"name": name, "low": low, "high": high}, field=name,
        )  # fmt: skip
    return int(value)


def _choice(data: dict[str, Any], name: str, values: tuple[str, ...], default: str) -> str:
    value = data.get(name, default)
    if value not in values:
        raise ApplicationError(
            _("%(name)s must be one of: %(values)s"),
            code="settings-choice", params={"name": name, "values": ", ".join(values)},
            field=name,
        )  # fmt: skip
    return str(value)


def _bool(data: dict[str, Any], name: str, default: bool) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise ApplicationError(
            _("%(name)s must be true or false"), code="settings-bool", params={"name": name},
            field=name,
        )  # fmt: skip
    return value


def settings_read(*, variant: str, data: object) -> RoomSettings:
    """The settings of a series of ``variant`` from a challenge's JSON (absent fields take
    the defaults); options the variant does not have are switched off (long nardy has no
    cube, only long nardy has the right of last roll). Refused: unknown values."""
    if variant not in Variant.values:
        raise ApplicationError(
            _("unknown game %(variant)s"), code="settings-variant",
            params={"variant": str(variant)[:20]}, field="variant",
        )  # fmt: skip
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ApplicationError(_("the settings must be an object"), code="settings-not-object")
    v = variant_named(variant)
    d = RoomSettings()
    cube = _bool(data, "cube", d.cube) and v.cube
    opening = _choice(data, "opening_roll", OPENING_ROLLS, d.opening_roll)
    first_move = _choice(data, "first_move", tuple(FirstMove.values), d.first_move)
    if v.lot_is_first_roll and opening == "lot":
        # S2: white's first roll is the lot in every game, so every game opens with one
        first_move = FirstMove.LOT.value
    if not v.lot and first_move == FirstMove.LOT:
        first_move = FirstMove.LOSER.value  # Z1: no lot in Lurč
    return RoomSettings(
        series_mode=_choice(data, "series_mode", tuple(SeriesMode.values), d.series_mode),
        length=_int(data, "length", 1, MAX_LENGTH, d.length),
        mars=_bool(data, "mars", d.mars) and v.gammons,
        last_roll=_bool(data, "last_roll", d.last_roll) and v.last_roll,
        draw_scoring=_choice(data, "draw_scoring", tuple(DrawScoring.values), d.draw_scoring),
        first_move=first_move,
        cube=cube,
        crawford=_bool(data, "crawford", d.crawford) and cube,
        opening_roll=opening if v.lot_is_first_roll else d.opening_roll,
        clock=_choice(data, "clock", CLOCKS, d.clock),
        delay_s=_int(data, "delay_s", 0, 600, d.delay_s),
        reserve_s=_int(data, "reserve_s", 0, 3600, d.reserve_s),
        days=_int(data, "days", 1, 30, d.days),
        timeout_costs=_choice(data, "timeout_costs", TIMEOUT_COSTS, d.timeout_costs),
    )


def settings_of(room_settings: dict[str, Any], variant: str) -> RoomSettings:
    """A stored room's settings (written by settings_read: read again, never trusted)."""
    return settings_read(variant=variant, data=room_settings)


def rules_tournament(s: RoomSettings, variant: str) -> Tournament:
    """The settings as an unsaved tournament: what the one record check
    (services/records.py::check_record) and the record's tags read."""
    return Tournament(
        variant=variant, series_mode=s.series_mode, series_length=s.length, mars=s.mars,
        last_roll=s.last_roll, cube=s.cube, opening_roll=s.opening_roll,
        draw_scoring=s.draw_scoring, first_move=s.first_move,
    )  # fmt: skip


def record_rule_tags(s: RoomSettings, variant: str, *, crawford: bool) -> dict[str, str]:
    """The rule tags of a game of the series: the tournament's options, and for a series to
    N points with the cube its length and whether this is the Crawford game (S7)."""
    tags = tournament_tags(rules_tournament(s, variant))
    if s.cube and s.series_mode == SeriesMode.POINTS:
        tags |= match_tags(length=s.length, crawford=crawford)
    return tags
