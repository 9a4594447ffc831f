"""The forms of a tournament played online (docs/online.md, "Tournaments played online"):
the setting on the tournament's creation and settings page, a no-show's forfeit
reversed, a user's e-mail preference. They shape input; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import OnlinePlay
from tournaments.models.deletion import REASON_MAX
from tournaments.services.online.settings import CLOCKS, TIMEOUT_COSTS
from tournaments.services.online.tournament_rooms import MAX_WINDOW

CLOCK_LABELS = {"live": _("live: a delay each turn, then a reserve"),
                "correspondence": _("correspondence: days a move"), "none": _("none")}  # fmt: skip
COST_LABELS = {"game": _("the game"), "series": _("the series")}


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%dT%H:%M")


class OnlinePlayForm(forms.Form):
    """Played online or over the board; each round's start window (minutes after the
    pairing, or a set end for a slow event) and the rooms' clock. Its fields carry the
    prefix ``online`` beside the tournament's form."""

    prefix = "online"
    enabled = forms.BooleanField(
        label=_("Played online, in the site's game rooms"), required=False,
        help_text=_("Each paired series gets its game room; the results enter by themselves."),
    )  # fmt: skip
    window_minutes = forms.IntegerField(
        label=_("Start window (minutes after the pairing)"), min_value=1, max_value=MAX_WINDOW,
        initial=15, required=False,
        help_text=_("A player who has not joined by then loses the series by forfeit."),
    )  # fmt: skip
    window_until = forms.DateTimeField(
        label=_("Or: the rounds must start by"), required=False, widget=DateTimeInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text=_("For a slow event over days; empty: the minutes above."),
    )  # fmt: skip
    clock = forms.ChoiceField(label=_("Clock"), choices=[(c, CLOCK_LABELS[c]) for c in CLOCKS],
                              initial="live", required=False)  # fmt: skip
    delay_s = forms.IntegerField(label=_("Delay each turn (seconds)"), min_value=0,
                                 max_value=600, initial=12, required=False)  # fmt: skip
    reserve_s = forms.IntegerField(
        label=_("Reserve for each point or game of the series (seconds)"), min_value=0,
        max_value=3600, initial=60, required=False,
    )  # fmt: skip
    days = forms.IntegerField(label=_("Days a move (correspondence)"), min_value=1,
                              max_value=30, initial=3, required=False)  # fmt: skip
    timeout_costs = forms.ChoiceField(
        label=_("A player out of time loses"), choices=[(c, COST_LABELS[c]) for c in TIMEOUT_COSTS],
        initial="game", required=False,
    )  # fmt: skip
    pair_next = forms.BooleanField(
        label=_("Pair the next round by itself when the last series of the round ends"),
        required=False,
        help_text=_("A Swiss with its number of rounds set, or a round robin; otherwise the "
                    "director pairs it."),
    )  # fmt: skip

    def __init__(self, *args: Any, play: OnlinePlay | None = None, **kwargs: Any) -> None:
        if play is not None:
            kwargs.setdefault("initial", {
                "enabled": True, "window_minutes": play.window_minutes,
                "window_until": play.window_until, "pair_next": play.pair_next, **play.clock,
            })  # fmt: skip
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("enabled"):
            for name in ("delay_s", "reserve_s", "days", "clock", "timeout_costs"):
                if data.get(name) in (None, ""):
                    data[name] = self.fields[name].initial
            if data.get("window_minutes") is None:
                data["window_minutes"] = self.fields["window_minutes"].initial
        return data

    def settings(self) -> dict[str, Any] | None:
        """What online_play_set takes; None: played over the board."""
        data = self.cleaned_data
        if not data.get("enabled"):
            return None
        clock = {k: data[k] for k in ("clock", "delay_s", "reserve_s", "days", "timeout_costs")}
        return {"window_minutes": data["window_minutes"], "window_until": data.get("window_until"),
                "clock": clock, "pair_next": bool(data.get("pair_next"))}  # fmt: skip


class ForfeitReverseForm(forms.Form):
    reason = forms.CharField(
        label=_("Why the forfeit is reversed"), max_length=REASON_MAX,
        widget=forms.TextInput(attrs={"size": 40}),
    )  # fmt: skip


class NoShowDecisionForm(forms.Form):
    """A director's decision on a room neither player joined: both lose by forfeit, or
    ``minutes`` more to start; with a reason either way."""

    reason = forms.CharField(
        label=_("Why"), max_length=REASON_MAX, widget=forms.TextInput(attrs={"size": 40}),
    )  # fmt: skip
    minutes = forms.IntegerField(
        label=_("More minutes to start"), min_value=1, max_value=MAX_WINDOW, required=False,
    )  # fmt: skip


class MailPreferenceForm(forms.Form):
    room_opened = forms.BooleanField(
        label=_("E-mail me when the game room of my tournament series opens"), required=False,
    )  # fmt: skip
