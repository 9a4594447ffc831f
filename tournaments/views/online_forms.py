"""The lobby's challenge form (docs/online.md): who is challenged and the series' settings,
the fields the service's settings reader takes (services/online/settings.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import DrawScoring, FirstMove, SeriesMode, Variant
from tournaments.models.online import BOT_LEVEL_CHOICES
from tournaments.services.botgames import level_choices
from tournaments.services.online.settings import MAX_LENGTH, RoomSettings

DEFAULTS = RoomSettings()
OPPONENTS = (
    ("anyone", _("anyone signed in (an open challenge in the lobby)")),
    ("user", _("a player I name")),
    ("link", _("whoever I send the link to")),
    ("bot", _("the bot")),
)
CLOCKS = (
    ("live", _("live: a delay a turn and a reserve")),
    ("correspondence", _("correspondence: days a move")),
    ("none", _("no clock")),
)
TIMEOUT_COSTS = (
    ("game", _("the game (scored as a resignation)")),
    ("series", _("the series")),
)
OPENING_ROLLS = (
    ("lot", _("the lot is white's first roll")),
    ("fresh", _("white rolls afresh after the lot")),
)
SETTING_FIELDS = (
    "series_mode", "length", "mars", "last_roll", "draw_scoring", "first_move", "cube",
    "crawford", "opening_roll", "clock", "delay_s", "reserve_s", "days", "timeout_costs",
)  # fmt: skip


class ChallengeForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"), choices=Variant.choices, initial=Variant.LONG)
    opponent_kind = forms.ChoiceField(
        label=_("Opponent"), choices=OPPONENTS, initial="anyone", widget=forms.RadioSelect
    )
    opponent = forms.CharField(
        label=_("Player's username"), required=False, max_length=150,
        help_text=_("For a challenge to a player you name."),
    )  # fmt: skip
    bot_level = forms.ChoiceField(
        label=_("The bot's level"), choices=BOT_LEVEL_CHOICES, required=False,
        help_text=_("The project's evaluator plays long nardy and Lurč, GNU Backgammon short "
                    "backgammon where it is installed."),
    )  # fmt: skip
    series_mode = forms.ChoiceField(
        label=_("Series"), choices=SeriesMode.choices, initial=DEFAULTS.series_mode
    )
    length = forms.IntegerField(
        label=_("N (points or games)"), min_value=1, max_value=MAX_LENGTH, initial=DEFAULTS.length
    )
    mars = forms.BooleanField(
        label=_("Mars counts double (off: oin only)"), required=False, initial=DEFAULTS.mars
    )
    last_roll = forms.BooleanField(
        label=_("The right of last roll (long nardy)"), required=False,
        initial=DEFAULTS.last_roll,
    )  # fmt: skip
    draw_scoring = forms.ChoiceField(
        label=_("A draw scores"), choices=DrawScoring.choices, initial=DEFAULTS.draw_scoring
    )
    first_move = forms.ChoiceField(
        label=_("Who starts the next game"), choices=FirstMove.choices,
        initial=DEFAULTS.first_move,
    )  # fmt: skip
    cube = forms.BooleanField(
        label=_("Doubling cube (short backgammon)"), required=False, initial=DEFAULTS.cube
    )
    crawford = forms.BooleanField(
        label=_("Crawford rule (a match to N points with the cube)"), required=False,
        initial=DEFAULTS.crawford,
    )  # fmt: skip
    opening_roll = forms.ChoiceField(
        label=_("Opening roll (short backgammon)"), choices=OPENING_ROLLS,
        initial=DEFAULTS.opening_roll,
    )  # fmt: skip
    clock = forms.ChoiceField(label=_("Clock"), choices=CLOCKS, initial=DEFAULTS.clock)
    delay_s = forms.IntegerField(
        label=_("Delay a turn (seconds)"), min_value=0, max_value=600, initial=DEFAULTS.delay_s
    )
    reserve_s = forms.IntegerField(
        label=_("Reserve for each point or game of the series (seconds)"), min_value=0,
        max_value=3600, initial=DEFAULTS.reserve_s,
    )  # fmt: skip
    days = forms.IntegerField(
        label=_("Correspondence: days a move"), min_value=1, max_value=30, initial=DEFAULTS.days
    )
    timeout_costs = forms.ChoiceField(
        label=_("A timeout loses"), choices=TIMEOUT_COSTS, initial=DEFAULTS.timeout_costs
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        level = self.fields["bot_level"]
        assert isinstance(level, forms.ChoiceField)
        level.choices = level_choices()  # gnubg's too, where it is installed

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("opponent_kind")
        if kind == "user" and not (data.get("opponent") or "").strip():
            self.add_error("opponent", _("Name the player you challenge."))
        if kind == "bot" and not data.get("bot_level"):
            self.add_error("bot_level", _("Choose the bot's level."))
        return data

    def settings(self) -> dict[str, Any]:
        """The settings as the service reads them (services/online/settings.py)."""
        return {name: self.cleaned_data[name] for name in SETTING_FIELDS}
