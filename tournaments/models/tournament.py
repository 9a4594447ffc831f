"""Tournaments, their entries and rounds."""

from __future__ import annotations

import time
import uuid
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.expressions import Combinable
from django.utils.translation import gettext_lazy as _

from tournaments.engine import RULE_OPTIONS, OneOf, OnOff
from tournaments.wording.rule_options import HELP_TEXTS, TITLES, option_choices


class Variant(models.TextChoices):
    LONG = "long", _("long nardy")
    SHORT = "short", _("short backgammon")
    LURC = "lurc", _("Lurč")


class Format(models.TextChoices):
    MANUAL = "manual", _("pairings by hand")
    ROUND_ROBIN = "round_robin", _("round robin")
    DOUBLE_ROUND_ROBIN = "double_round_robin", _("double round robin")
    SWISS = "swiss", _("Swiss")
    SINGLE_ELIMINATION = "single_elimination", _("single elimination")
    DOUBLE_ELIMINATION = "double_elimination", _("double elimination")


class SeriesMode(models.TextChoices):
    POINTS = "points", _("first to N points")
    GAMES = "games", _("exactly N games")


class FirstMove(models.TextChoices):
    """RULES L12: who starts the later games of a series."""

    LOSER = "loser", _("the loser of the previous game")
    WINNER = "winner", _("the winner of the previous game")
    ALTERNATE = "alternate", _("alternately (the players swap colours)")
    LOT = "lot", _("by lot before every game (backgammon's opening roll)")


class DrawScoring(models.TextChoices):
    """RULES L11."""

    HALF = "half", _("½-½")
    ONE = "one", _("1-1")


class TieBreak(models.TextChoices):
    HEAD_TO_HEAD = "head_to_head", _("head-to-head")
    BUCHHOLZ = "buchholz", _("Buchholz")
    BUCHHOLZ_CUT1 = "buchholz_cut1", _("Buchholz cut 1")
    SONNEBORN_BERGER = "sonneborn_berger", _("Sonneborn-Berger")
    SERIES_WON = "series_won", _("series won")
    MARS_WINS = "mars_wins", _("mars wins")
    GAME_POINT_DIFFERENCE = "game_point_difference", _("game-point difference")
    PROGRESSIVE = "progressive", _("progressive score")


DEFAULT_TIE_BREAKS = [
    TieBreak.HEAD_TO_HEAD,
    TieBreak.BUCHHOLZ,
    TieBreak.SONNEBORN_BERGER,
    TieBreak.SERIES_WON,
    TieBreak.GAME_POINT_DIFFERENCE,
]


def on_off_field(name: str) -> models.BooleanField[bool | Combinable, bool]:
    """The checkbox of the engine's on/off rule option ``name``: its default from the
    engine, its labels from tournaments/wording/rule_options.py."""
    option = RULE_OPTIONS[name]
    assert isinstance(option, OnOff), name
    return models.BooleanField(
        TITLES[name], default=option.default, help_text=HELP_TEXTS.get(name, "")
    )


def choice_field(name: str) -> models.CharField[str | int | Combinable, str]:
    """The field of the engine's rule option ``name`` with named values: its values and
    default from the engine, their labels from tournaments/wording/rule_options.py."""
    option = RULE_OPTIONS[name]
    assert isinstance(option, OneOf), name
    return models.CharField(
        TITLES[name],
        max_length=max(len(v) for v in option.values),
        choices=option_choices(option),
        default=option.default,
        help_text=HELP_TEXTS.get(name, ""),
    )


def default_tie_breaks() -> list[str]:
    return [str(t) for t in DEFAULT_TIE_BREAKS]


def new_cache_version() -> int:
    """A tournament's first ``cache_version``, and the least its next one may be: the
    time in microseconds. Versions only grow (``max(version + 1, now)``,
    caching/invalidation.py), so after a database restore, which takes them back, a write
    gives a version newer than any given out before the restore, never one whose cached
    pages show another state."""
    return time.time_ns() // 1000


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    variant = models.CharField(
        _("game"), max_length=5, choices=Variant.choices, default=Variant.LONG
    )
    format = models.CharField(
        _("format"), max_length=20, choices=Format.choices, default=Format.MANUAL
    )
    published = models.BooleanField(_("published"), default=True)
    self_registration = models.BooleanField(
        _("players may ask to play"), default=False,
        help_text=_("Signed-in players ask to play on the tournament's page; you approve or "
                    "decline each request on the players page (until round 1 of a round "
                    "robin is paired)."),
    )  # fmt: skip
    rated = models.BooleanField(
        _("rated"), default=True,
        help_text=_("Its finished series count in the players' ratings."),
    )  # fmt: skip
    # who this tournament is, wherever its archive goes: an import of an archive whose
    # tournament is here already is refused (or made a copy, with a fingerprint of its own)
    fingerprint = models.UUIDField(
        _("fingerprint"), default=uuid.uuid4, unique=True, editable=False
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("directors"), blank=True,
        related_name="directed_tournaments",
    )  # fmt: skip
    # series
    series_mode = models.CharField(
        _("series played"), max_length=6, choices=SeriesMode.choices, default=SeriesMode.POINTS
    )
    series_length = models.PositiveSmallIntegerField(_("series length"), default=5)
    first_move = models.CharField(
        _("first move in later games"), max_length=9, choices=FirstMove.choices,
        default=FirstMove.LOSER,
    )  # fmt: skip
    # game rules: the engine's options (tournaments/wording/rule_options.py), one field each
    mars = on_off_field("mars")
    last_roll = on_off_field("last_roll")
    block_check = choice_field("block_check")
    block_ahead = choice_field("block_ahead")
    cube = on_off_field("cube")
    opening_roll = choice_field("opening_roll")
    draw_scoring = models.CharField(
        _("a draw scores"), max_length=4, choices=DrawScoring.choices, default=DrawScoring.HALF
    )
    # standings
    points_series_win = models.DecimalField(
        _("points for a series won"), max_digits=5, decimal_places=2, default=Decimal(1)
    )
    points_series_draw = models.DecimalField(
        _("points for a series drawn"), max_digits=5, decimal_places=2, default=Decimal("0.5")
    )
    points_series_loss = models.DecimalField(
        _("points for a series lost"), max_digits=5, decimal_places=2, default=Decimal(0)
    )
    points_per_game_point = models.DecimalField(
        _("points per game point"), max_digits=5, decimal_places=2, default=Decimal(0)
    )
    tie_breaks = models.JSONField(_("tie-breaks, in order"), default=default_tie_breaks)
    bye_points = models.DecimalField(
        _("points for a bye"), max_digits=5, decimal_places=2, default=Decimal(1)
    )
    forfeit_game_points = models.PositiveSmallIntegerField(
        _("game points for a series won by forfeit"), default=0
    )
    # pairings and brackets (tournaments/pairing/)
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), null=True, blank=True)
    third_place = models.BooleanField(_("series for third place"), default=False)
    consolation = models.BooleanField(_("consolation bracket"), default=False)
    bracket_reset = models.BooleanField(_("grand final bracket reset"), default=True)
    lengths_by_stage = models.JSONField(
        _("series lengths by stage"), default=dict, blank=True,
        help_text=_('For example {"final": 9, "W1": 3}: stages missing use the series length.'),
    )  # fmt: skip
    withdrawal = models.CharField(
        _("when a player withdraws"), max_length=7, default="forfeit",
        choices=[("forfeit", _("remaining series are forfeited")),
                 ("cancel", _("remaining series are cancelled"))],
    )  # fmt: skip

    # Bumped (in the write's transaction) by every write that changes what the tournament's
    # pages show: cached pages are keyed by it (tournaments/caching/). Never a number
    # given out before, even after a database restore: see ``new_cache_version``.
    cache_version = models.PositiveBigIntegerField(
        _("cache version"), default=new_cache_version, editable=False
    )

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(series_length__gte=1),
                name="tournament_series_length_positive",
                violation_error_message=_("a series is at least one point or game long"),
            ),
            models.CheckConstraint(
                condition=models.Q(end_date__isnull=True)
                | models.Q(end_date__gte=models.F("start_date")),
                name="tournament_ends_after_start",
                violation_error_message=_("the tournament ends before it starts"),
            ),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Never write back a cache version read earlier: only bumps change it."""
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.attname for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "cache_version"
            ]  # fmt: skip
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The tie-breaks must be known ones, each once (forms and the admin call this)."""
        from django.core.exceptions import ValidationError

        breaks = self.tie_breaks
        if not isinstance(breaks, list) or any(b not in TieBreak.values for b in breaks):
            raise ValidationError(
                {"tie_breaks": _("Tie-breaks must be a list of: %s") % ", ".join(TieBreak.values)}
            )
        if len(set(breaks)) != len(breaks):
            raise ValidationError({"tie_breaks": _("A tie-break is listed twice.")})


class ProhibitedPair(models.Model):
    """Two players the director does not want paired (family members, say)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="prohibited_pairs",
    )  # fmt: skip
    player_a = models.ForeignKey(
        "tournaments.Player", verbose_name=_("first player"), on_delete=models.CASCADE,
        related_name="+",
    )  # fmt: skip
    player_b = models.ForeignKey(
        "tournaments.Player", verbose_name=_("second player"), on_delete=models.CASCADE,
        related_name="+",
    )  # fmt: skip
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("prohibited pair")
        verbose_name_plural = _("prohibited pairs")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player_a=models.F("player_b")),
                name="prohibited_two_players",
                violation_error_message=_("a prohibited pair is two different players"),
            ),
            models.UniqueConstraint(
                fields=["tournament", "player_a", "player_b"],
                name="prohibited_once",
                violation_error_message=_("this pair is already prohibited"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a} / {self.player_b}"


class Entry(models.Model):
    """A player registered for a tournament."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="entries",
    )  # fmt: skip
    player = models.ForeignKey(
        "tournaments.Player", verbose_name=_("player"), on_delete=models.PROTECT,
        related_name="entries",
    )  # fmt: skip
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

    class Meta:
        ordering = ["tournament", "seed", "player__name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="entry_once",
                violation_error_message=_("the player is already registered"),
            ),
        ]

    def __str__(self) -> str:
        return _("%(player)s in %(tournament)s") % {
            "player": self.player,
            "tournament": self.tournament,
        }


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=100, blank=True)
    # a round paired ahead (a round robin's whole schedule at once) waits unseen by players
    # and visitors until the director publishes it
    published = models.BooleanField(_("published"), default=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"],
                name="round_number_once",
                violation_error_message=_("a round with this number exists already"),
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1),
                name="round_number_positive",
                violation_error_message=_("a round's number is positive"),
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.tournament}: {_('round')} {self.number}"
