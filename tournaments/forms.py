"""The pages' forms. They only read and shape input; the services decide, and a refusal
(ApplicationError with a field) is shown next to that field by ``add_service_error``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournaments.engine import BOT_DEFAULT_LEVEL
from tournaments.models import (
    DrawScoring,
    FirstMove,
    Format,
    Game,
    GameEnd,
    GameKind,
    Player,
    Series,
    TieBreak,
    Tournament,
    Variant,
)
from tournaments.models.deletion import REASON_MAX
from tournaments.models.people import Gender
from tournaments.pairing.elimination import STAGES_OFFERED
from tournaments.services.botgames import bot_variants, level_choices
from tournaments.services.deletion import deletion_reason_check
from tournaments.services.errors import ApplicationError
from tournaments.services.records import tournament_tags
from tournaments.services.result_rules import ResultRules, result_rules
from tournaments.services.setup import draws_apply, first_moves_of, tie_breaks_apply
from tournaments.wording.names import variant_name
from tournaments.wording.rule_options import TOURNAMENT_OPTION_NAMES, TOURNAMENT_OPTIONS

TIE_BREAK_SLOTS = 6
RULE_FIELDS = {o.tag: o.name for o in TOURNAMENT_OPTIONS}  # record tag -> field

TOURNAMENT_FIELDS = [
    "name", "start_date", "end_date", "venue", "variant", "format", "published",
    "self_registration", "rated", "series_mode", "series_length", "first_move",
    *TOURNAMENT_OPTION_NAMES,
    "draw_scoring", "points_series_win",
    "points_series_draw", "points_series_loss", "points_per_game_point", "bye_points",
    "forfeit_game_points",
    "swiss_rounds", "third_place", "consolation", "bracket_reset", "withdrawal",
]  # fmt: skip


# the settings only some formats have (tournaments/pairing/)
FORMAT_FIELDS = {
    "swiss_rounds": ("swiss",),
    "third_place": ("single_elimination",),
    "consolation": ("single_elimination",),
    "bracket_reset": ("double_elimination",),
}


# A series length per knockout stage (Tournament.lengths_by_stage), offered by name for
# the formats whose bracket has the stage (tournaments/pairing/elimination.py).
STAGE_LABELS = {
    "quarterfinal": _("Series length: quarterfinals"),
    "semifinal": _("Series length: semifinals"),
    "final": _("Series length: final"),
    "third-place": _("Series length: series for third place"),
    "consolation-final": _("Series length: consolation final"),
    "winners-final": _("Series length: winners' bracket final"),
    "losers-final": _("Series length: losers' bracket final"),
}
STAGE_FORMATS = {
    stage: tuple(f for f, offered in STAGES_OFFERED.items() if stage in offered)
    for stage in STAGE_LABELS
}


def stage_field(stage: str) -> str:
    return "length_" + stage.replace("-", "_")


def add_service_error(form: forms.BaseForm, exc: ApplicationError) -> None:
    """Show a service's refusal on the field it names (else above the form), with the
    line and column for a record."""
    where = ""
    if exc.line is not None:
        where = _("line %(line)s, column %(col)s: ") % {"line": exc.line, "col": exc.col or 1}
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, f"{where}{exc.message}")
    for warning in getattr(exc, "warnings", None) or ():  # what an unconfirmed change alters
        form.add_error(field, warning)


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


class OptionGamesSelect(forms.Select):
    """A select whose options carry the games that have them (``data-games``, space
    separated), for static/js/tournament_form.js."""

    def __init__(self, *args: Any, games: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games = games

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        if str(option["value"]) in self.games:
            option["attrs"]["data-games"] = self.games[str(option["value"])]
        return option


def _games_where(applies: Any) -> str:
    return " ".join(v for v in Variant.values if applies(v))


def _rule_fields_not_in(variant: str) -> list[str]:
    """The rule settings that a game of ``variant`` does not have: those whose record
    tag the tournament's rule tags leave out (services.records.tournament_tags)."""
    have = tournament_tags(Tournament(variant=variant))
    return [name for tag, name in RULE_FIELDS.items() if tag not in have]


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """The tournament's settings; the tie-breaks are chosen in order, one per select."""

    class Meta:
        model = Tournament
        fields = TOURNAMENT_FIELDS
        widgets = {"start_date": DateInput(), "end_date": DateInput()}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:  # the game is chosen: offer only the rules it has
            for name in _rule_fields_not_in(self.instance.variant):
                self.fields[name].widget = forms.HiddenInput()
                self.fields[name].required = False
        if "opening_roll" in self.fields:  # older clients leave it out: the default
            self.fields["opening_roll"].required = False
        # who starts later games: the choices the game has (setup.first_moves_of)
        first_move = self.fields["first_move"]
        assert isinstance(first_move, forms.ChoiceField)
        if self.instance.pk:  # the game is chosen: only its choices, script or not
            offered = first_moves_of(self.instance.variant)
            first_move.choices = [(v, label) for v, label in FirstMove.choices if v in offered]
        first_move.widget = OptionGamesSelect(
            choices=first_move.choices,
            games={m.value: _games_where(lambda v, m=m: m in first_moves_of(v)) for m in FirstMove},
        )
        self.fields["draw_scoring"].required = False  # a game without draws leaves it out
        if self.instance.pk and not draws_apply(self.instance.variant):
            self.fields["draw_scoring"].widget = forms.HiddenInput()
        lengths = self.instance.lengths_by_stage or {}
        for stage, label in STAGE_LABELS.items():
            self.fields[stage_field(stage)] = forms.IntegerField(
                label=label, min_value=1, max_value=99, required=False,
                initial=lengths.get(stage),
                help_text=_("Empty: the series length above."),
            )  # fmt: skip
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

    def tie_break_formats(self) -> str:
        """The formats whose standings tie-breaks order (setup.tie_breaks_apply)."""
        return " ".join(f for f in Format.values if tie_breaks_apply(f))

    def settings_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in TOURNAMENT_FIELDS]

    def settings_rows(self) -> list[tuple[forms.BoundField, str, str, str | None]]:
        """Each setting with the games and formats that have it (space-separated, empty:
        all) and the value the script puts back when it hides it (None: it keeps what was
        chosen), for static/js/tournament_form.js; the games come from the one rules source
        (``_rule_fields_not_in``), and ``clean`` resets what the chosen game lacks. The
        draw's score is put back to ½-½: setup.py refuses any other for a game without
        draws, which a director could not see once the script hid it."""
        games = {
            name: " ".join(v for v in Variant.values if name not in _rule_fields_not_in(v))
            for name in RULE_FIELDS.values()
        }
        games["draw_scoring"] = _games_where(draws_apply)
        resets = {"draw_scoring": DrawScoring.HALF.value}
        rows = [
            (self[n], games.get(n, ""), " ".join(FORMAT_FIELDS.get(n, ())), resets.get(n))
            for n in TOURNAMENT_FIELDS
        ]
        return rows + [
            (self[stage_field(stage)], "", " ".join(STAGE_FORMATS[stage]), None)
            for stage in STAGE_LABELS
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # a rule the chosen game does not have keeps its default (the engine ignores it)
        variant = data.get("variant") or self.instance.variant
        defaults = Tournament()
        for name in _rule_fields_not_in(variant):
            data[name] = getattr(defaults, name)
        data["opening_roll"] = data.get("opening_roll") or defaults.opening_roll
        data["draw_scoring"] = data.get("draw_scoring") or defaults.draw_scoring
        chosen = [data.get(f"tie_break_{i + 1}") for i in range(TIE_BREAK_SLOTS)]
        breaks = [c for c in chosen if c]
        if len(set(breaks)) != len(breaks):
            self.add_error("tie_break_1", _("A tie-break is listed twice."))
        data["tie_breaks"] = breaks
        data["lengths_by_stage"] = self._lengths_by_stage(data)
        return data

    def _lengths_by_stage(self, data: dict[str, Any]) -> dict[str, int]:
        """The lengths typed for the chosen format's stages; a stage set through the API
        that the form does not offer (``round-2``) is kept while the format stays."""
        fmt = data.get("format") or self.instance.format
        kept = {
            stage: n for stage, n in (self.instance.lengths_by_stage or {}).items()
            if stage not in STAGE_LABELS and fmt == self.instance.format
        }  # fmt: skip
        for stage in STAGES_OFFERED.get(fmt, ()):
            if data.get(stage_field(stage)) is not None:
                kept[stage] = data[stage_field(stage)]
        return kept


class EntryForm(forms.Form):
    """Register a club player, or a new player by name."""

    player = forms.ModelChoiceField(
        label=_("Player"), queryset=Player.objects.none(), required=False
    )
    new_name = forms.CharField(label=_("or a new player"), max_length=120, required=False)
    new_club = forms.CharField(
        label=_("New player's club"), max_length=120, required=False,
        help_text=_("An existing club of this name, or a new one."),
    )  # fmt: skip
    new_rating = forms.FloatField(
        label=_("New player's rating"), min_value=1, max_value=10_000, required=False,
        localize=True, help_text=_("Where their rating history starts; empty: 1500."),
    )  # fmt: skip
    new_gender = forms.ChoiceField(
        label=_("New player's grammatical gender"), required=False,
        choices=[("", _("by the surname (-ová, -á: feminine)")), *Gender.choices],
        help_text=_("How Czech pages speak of them (odstoupil, odstoupila)."),
    )  # fmt: skip
    seed = forms.IntegerField(label=_("Seed"), min_value=1, required=False)
    confirm_new = forms.BooleanField(
        label=_("Yes, a new player (not one of the similar names)"), required=False,
        widget=forms.HiddenInput,
    )  # fmt: skip

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
    """A game as written on a scoresheet. It offers only what the game can be
    (``result_rules``): the outcomes that exist, a draw only under the last-roll rule,
    the cube only where it is used and not in the Crawford game; the player who started
    is asked by the colour that moves first (black in Lurč), and the defaults are a
    valid result."""

    number = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=1, max_value=999
    )
    white = forms.ChoiceField(label=_("White (started the game)"))
    winner = forms.ChoiceField(label=_("Winner"), required=False)
    kind = forms.ChoiceField(label=_("Result"), choices=GameKind.choices)
    ended = forms.ChoiceField(label=_("Ended by"), choices=GameEnd.choices, initial="played")
    cube = forms.IntegerField(label=_("Cube"), min_value=1, max_value=64, initial=1)

    def __init__(
        self, *args: Any, series: Series, rules: ResultRules | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        players = _series_players(series)
        self.series = series
        self.rules = rules or result_rules(series=series, games=list(series.games.all()))
        first = self.rules.first_colour
        self.first_field = first
        starter = forms.ChoiceField(
            label=_("White (started the game)") if first == "white"
            else _("Black (started the game)"),
            choices=players,
            initial=self.rules.starter.pk if self.rules.starter else None,
        )  # fmt: skip
        if first != "white":  # the starter's field is named by the colour he takes
            del self.fields["white"]
            self.fields = {first: starter, **self.fields}
        else:
            self.fields["white"] = starter
        winner = self.fields["winner"]
        assert isinstance(winner, forms.ChoiceField)
        winner.choices = players + ([("", _("nobody (a draw)"))] if self.rules.draw else [])
        winner.required = not self.rules.draw
        winner.initial = players[0][0] if players else None
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        labels = dict(GameKind.choices)
        if self.rules.kinds == (GameKind.OIN,):
            labels[GameKind.OIN] = _("win (1 point)")
        kind.choices = [(k, labels[k]) for k in self.rules.kinds]
        kind.initial = GameKind.OIN
        ended = self.fields["ended"]
        assert isinstance(ended, forms.ChoiceField)
        ended.choices = [c for c in GameEnd.choices if c[0] in self.rules.endings]
        if not self.rules.cube or self.rules.crawford:
            self.fields["cube"].widget = forms.HiddenInput()
            self.fields["cube"].required = False

    # Whether the winner fits the result (a draw has none, any other result has one) is
    # decided by ResultRules.check, for every door: a contradiction is refused there,
    # never mended here (a winner chosen with "draw" used to be dropped in silence).

    def player(self, name: str) -> Player | None:
        pk = self.cleaned_data.get(name)
        for p in (self.series.player1, self.series.player2):
            if p is not None and str(p.pk) == pk:
                return p
        return None

    def white_player(self) -> Player | None:
        """Who had white: the starter, or in Lurč the starter's opponent."""
        starter = self.player(self.first_field)
        if starter is None or self.first_field == "white":
            return starter
        return self.series.player2 if starter == self.series.player1 else self.series.player1


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
            # the API's cap on an uploaded record (NARDY_MAX_UPLOAD_BYTES): a larger file is
            # refused, not cut to the cap and read as a shorter record
            limit = int(getattr(settings, "NARDY_MAX_UPLOAD_BYTES", 5 * 2**20))
            raw = upload.read(limit + 1)
            if len(raw) > limit:
                self.add_error(
                    "upload", _("The file is larger than %(mb)s MB.") % {"mb": limit // 2**20}
                )
                return data
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
    drop_record = forms.BooleanField(
        label=_("Drop the game's record"),
        required=False,
        help_text=_(
            "A record the engine verified decides its game's result. Drop the record only "
            "when it is not this game's (the reason says why): its analysis goes with it."
        ),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    field_order = ["reason", "winner", "kind", "ended", "cube", "record", "drop_record"]

    def __init__(self, *args: Any, series: Series, game: Game | None = None, **kwargs: Any) -> None:
        rules = None
        if game is not None:  # the rules of that game (its Crawford state, its starter)
            rules = result_rules(series=series, games=list(series.games.all()), number=game.number)
        super().__init__(*args, series=series, rules=rules, **kwargs)
        self.fields[self.first_field].required = False
        self.fields[self.first_field].widget = forms.HiddenInput()
        if game is None or not game.record:
            del self.fields["drop_record"]


class RejectForm(forms.Form):
    note = forms.CharField(label=_("Why"), required=False, max_length=500)


class PlayStartForm(forms.Form):
    """A new game against the bot: the game (those the bot plays here), the level (the
    engine's, the strongest first chosen; GNU Backgammon's for short backgammon) and the
    colour. The service says which levels go with which game."""

    variant = forms.ChoiceField(label=_("Game"), initial="long", required=False)
    level = forms.ChoiceField(
        label=_("Level"),
        help_text=_("Long nardy and Lurč: the project's evaluator. Short backgammon: GNU "
                    "Backgammon's levels."),
    )  # fmt: skip
    colour = forms.ChoiceField(
        label=_("Your colour"),
        choices=[("random", _("random")), ("white", _("white")), ("black", _("black"))],
        initial="random",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        level = self.fields["level"]
        assert isinstance(level, forms.ChoiceField)
        level.choices = level_choices()
        level.initial = BOT_DEFAULT_LEVEL
        variant = self.fields["variant"]
        assert isinstance(variant, forms.ChoiceField)
        variant.choices = [(v, variant_name(v)) for v in bot_variants()]

    def clean_variant(self) -> str:
        return str(self.cleaned_data.get("variant") or "long")  # long nardy when not asked


class PlayTurnForm(forms.Form):
    """One turn against the bot: its movetext and the version of the page it was
    chosen on (a second submit of the same page is refused)."""

    version = forms.IntegerField(min_value=0, max_value=2**31 - 1)
    turn = forms.CharField(required=False, max_length=2000, strip=True)
    # the paš chosen after a Lurč houšek (Z8)
    pas = forms.IntegerField(required=False, min_value=1, max_value=6)


class DeletionReasonForm(forms.Form):
    """Why something is deleted (the service's rule, services/deletion.py)."""

    reason = forms.CharField(
        label=_("Why is it deleted?"),
        required=False,  # the service says what a reason must be, in its words
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": REASON_MAX, "required": True}),
        help_text=_("Kept with the record of the deletion."),
    )

    def clean_reason(self) -> str:
        try:
            return deletion_reason_check(self.cleaned_data.get("reason"))
        except ApplicationError as exc:
            raise forms.ValidationError(exc.message, code=exc.code) from None


class GameDeleteForm(DeletionReasonForm):
    """Deleting a game entered by mistake: why, and, when its series' result was used
    already (the warnings shown), that the director read what it changes."""

    confirmed = forms.BooleanField(
        label=_("I have read the warnings: delete the game all the same"), required=False
    )


class TournamentDeleteForm(DeletionReasonForm):
    """Deleting a tournament: why, and its name typed again, so that a click on the wrong
    tournament deletes nothing."""

    name = forms.CharField(label=_("The tournament's name, to confirm"), max_length=300)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["name"].help_text = _("Type %(name)s") % {"name": tournament.name}

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        if name.strip() != self.tournament.name.strip():
            raise forms.ValidationError(
                _("This is not the tournament's name: type %(name)s."),
                code="deletion-name",
                params={"name": self.tournament.name},
            )
        return name
