"""The pages' forms. They only read and shape input; the services decide, and a refusal
(ResultError with a field) is shown next to that field by ``add_service_error``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import GameEnd, GameKind, Player, Series, TieBreak, Tournament
from tournaments.services.errors import ResultError

TIE_BREAK_SLOTS = 6

TOURNAMENT_FIELDS = [
    "name", "start_date", "end_date", "venue", "variant", "format", "published",
    "series_mode", "series_length", "first_move", "mars", "last_roll", "block_check",
    "block_ahead", "draw_scoring", "points_series_win", "points_series_draw",
    "points_series_loss", "points_per_game_point", "bye_points", "forfeit_game_points",
    "swiss_rounds", "third_place", "consolation", "bracket_reset", "withdrawal",
]  # fmt: skip


def add_service_error(form: forms.BaseForm, exc: ResultError) -> None:
    """Show a service's refusal on the field it names (else above the form), with the
    line and column for a record."""
    where = ""
    if exc.line is not None:
        where = _("line %(line)s, column %(col)s: ") % {"line": exc.line, "col": exc.col or 1}
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, f"{where}{exc.message}")


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """The tournament's settings; the tie-breaks are chosen in order, one per select."""

    class Meta:
        model = Tournament
        fields = TOURNAMENT_FIELDS
        widgets = {"start_date": DateInput(), "end_date": DateInput()}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        current = list(self.instance.tie_breaks or []) if self.instance else []
        choices = [("", "—"), *TieBreak.choices]
        for i in range(TIE_BREAK_SLOTS):
            self.fields[f"tie_break_{i + 1}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": i + 1},
                choices=choices,
                required=False,
                initial=current[i] if i < len(current) else "",
            )

    def tie_break_fields(self) -> list[forms.BoundField]:
        return [self[f"tie_break_{i + 1}"] for i in range(TIE_BREAK_SLOTS)]

    def settings_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in TOURNAMENT_FIELDS]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = [data.get(f"tie_break_{i + 1}") for i in range(TIE_BREAK_SLOTS)]
        breaks = [c for c in chosen if c]
        if len(set(breaks)) != len(breaks):
            self.add_error("tie_break_1", _("A tie-break is listed twice."))
        data["tie_breaks"] = breaks
        return data


class EntryForm(forms.Form):
    """Register a club player, or a new player by name."""

    player = forms.ModelChoiceField(
        label=_("Player"), queryset=Player.objects.none(), required=False
    )
    new_name = forms.CharField(label=_("or a new player"), max_length=120, required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Player.objects.exclude(entries__tournament=tournament).select_related(
            "club"
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not (data.get("new_name") or "").strip():
            self.add_error("player", _("Choose a player or type a new player's name."))
        return data


def _series_players(series: Series) -> list[tuple[str, str]]:
    return [(str(p.pk), p.name) for p in (series.player1, series.player2) if p is not None]


class QuickResultForm(forms.Form):
    """A game as written on a scoresheet."""

    number = forms.IntegerField(widget=forms.HiddenInput, required=False)
    white = forms.ChoiceField(label=_("White (started the game)"))
    winner = forms.ChoiceField(label=_("Winner"), required=False)
    kind = forms.ChoiceField(label=_("Result"), choices=GameKind.choices)
    ended = forms.ChoiceField(label=_("Ended by"), choices=GameEnd.choices, initial="played")
    cube = forms.IntegerField(label=_("Cube"), min_value=1, initial=1)

    def __init__(self, *args: Any, series: Series, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = _series_players(series)
        self.series = series
        white = self.fields["white"]
        winner = self.fields["winner"]
        assert isinstance(white, forms.ChoiceField) and isinstance(winner, forms.ChoiceField)
        white.choices = players
        winner.choices = [("", _("nobody (a draw)")), *players]
        if series.tournament.variant != "short":
            self.fields["cube"].widget = forms.HiddenInput()
            self.fields["ended"].choices = [c for c in GameEnd.choices if c[0] != GameEnd.DROPPED]  # type: ignore[attr-defined]

    def player(self, name: str) -> Player | None:
        pk = self.cleaned_data.get(name)
        for p in (self.series.player1, self.series.player2):
            if p is not None and str(p.pk) == pk:
                return p
        return None


class RecordForm(forms.Form):
    """A full game record, pasted or uploaded; the engine checks it on submit."""

    number = forms.IntegerField(widget=forms.HiddenInput, required=False)
    record = forms.CharField(
        label=_("Game record"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "class": "record"}),
    )
    upload = forms.FileField(label=_("or upload a record file (.nrd)"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("upload")
        if upload is not None:
            raw = upload.read(200_000)
            try:
                data["record"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("upload", _("The file is not UTF-8 text."))
        if not (data.get("record") or "").strip() and not self.errors:
            self.add_error("record", _("Paste the record or upload its file."))
        return data


class CorrectionForm(QuickResultForm):
    """A director's correction: the new result, or a new record, and why."""

    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))
    record = forms.CharField(
        label=_("New record (optional)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "class": "record"}),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    field_order = ["reason", "winner", "kind", "ended", "cube", "record"]

    def __init__(self, *args: Any, series: Series, **kwargs: Any) -> None:
        super().__init__(*args, series=series, **kwargs)
        self.fields["white"].required = False
        self.fields["white"].widget = forms.HiddenInput()


class RejectForm(forms.Form):
    note = forms.CharField(label=_("Why"), required=False, max_length=500)
