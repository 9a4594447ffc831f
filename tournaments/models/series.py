"""Series (matches of several games), their games and the audit trail of corrections."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.engine import WHITE, Outcome, variant_named
from tournaments.wording.names import PLAYER_PARAMS, pairing_reason, result_text
from tournaments.wording.verification import verification_text


def points_of(kind: str, cube: int = 1) -> int:
    """Game points of a result of ``kind`` with the cube at ``cube``, from the engine's
    one table (a draw: 0, its scoring is a tournament setting, L11)."""
    return Outcome(None if kind == "draw" else WHITE, kind, cube=cube).points


class SeriesStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("scheduled")
    IN_PLAY = "in_play", _("in play")
    FINISHED = "finished", _("finished")
    FORFEITED = "forfeited", _("forfeited")


CLOSED_STATUSES = (SeriesStatus.FINISHED, SeriesStatus.FORFEITED)


class Series(models.Model):
    """A match of several games between two players."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="series",
    )  # fmt: skip
    round = models.ForeignKey(
        "tournaments.Round", verbose_name=_("round"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="series",
    )  # fmt: skip
    slot = models.CharField(_("bracket slot"), max_length=20, blank=True)
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    player1 = models.ForeignKey(
        "tournaments.Player", verbose_name=_("first player"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    player2 = models.ForeignKey(
        "tournaments.Player", verbose_name=_("second player"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    length = models.PositiveSmallIntegerField(
        _("length"), null=True, blank=True, help_text=_("Empty: the tournament's series length.")
    )
    status = models.CharField(
        _("status"), max_length=9, choices=SeriesStatus.choices, default=SeriesStatus.SCHEDULED
    )
    score1 = models.DecimalField(
        _("first player's score"), max_digits=6, decimal_places=1, default=Decimal(0)
    )
    score2 = models.DecimalField(
        _("second player's score"), max_digits=6, decimal_places=1, default=Decimal(0)
    )
    winner = models.ForeignKey(
        "tournaments.Player", verbose_name=_("winner"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    pairing = models.JSONField(
        _("why paired"), default=dict, blank=True,
        help_text=_("The pairing's explanation: reason, floated_down, floated_up."),
    )  # fmt: skip

    class Meta:
        ordering = ["tournament", "round__number", "table", "id"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.CheckConstraint(
                condition=~Q(player1=F("player2")),
                name="series_two_different_players",
                violation_error_message=_("a series is played by two different players"),
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("player1")) | Q(winner=F("player2")),
                name="series_winner_is_a_player",
                violation_error_message=_("the winner of a series is one of its players"),
            ),
            models.CheckConstraint(
                condition=Q(length__gte=1) | Q(length__isnull=True),
                name="series_length_positive",
                violation_error_message=_("a series is at least one point or game long"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player1 or '?'} - {self.player2 or '?'}"

    @property
    def target(self) -> int:
        return self.length or self.tournament.series_length

    @property
    def closed(self) -> bool:
        return self.status in CLOSED_STATUSES

    @property
    def pairing_reason(self) -> str:
        """Why the series was paired, in the reader's language, with the players' names."""
        names = {p.pk: p.name for p in (self.player1, self.player2) if p is not None}
        why = (self.pairing or {}).get("why")
        params = why.get("params") if isinstance(why, dict) else None
        others = {
            v for k, v in (params or {}).items()
            if k in PLAYER_PARAMS and isinstance(v, int) and v not in names
        }  # fmt: skip
        if others:  # a reason naming players of other series: their names, never ids
            from tournaments.models.people import Player

            names |= dict(Player.objects.filter(pk__in=others).values_list("pk", "name"))
        return pairing_reason(self.pairing or {}, names)


class GameKind(models.TextChoices):
    OIN = "oin", _("oin")
    MARS = "mars", _("mars")
    KOKS = "koks", _("koks")
    DRAW = "draw", _("draw")


class GameEnd(models.TextChoices):
    PLAYED = "played", _("played out")
    RESIGNED = "resigned", _("resignation")
    DROPPED = "dropped", _("double dropped")


class Game(models.Model):
    """One game of a series, as entered: who had white, who won and how, the record."""

    series = models.ForeignKey(
        Series, verbose_name=_("series"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("game"))
    white = models.ForeignKey(
        "tournaments.Player", verbose_name=_("white"), on_delete=models.PROTECT, related_name="+"
    )
    black = models.ForeignKey(
        "tournaments.Player", verbose_name=_("black"), on_delete=models.PROTECT, related_name="+"
    )
    winner = models.ForeignKey(
        "tournaments.Player", verbose_name=_("winner"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    kind = models.CharField(_("result"), max_length=4, choices=GameKind.choices)
    ended = models.CharField(
        _("ended by"), max_length=8, choices=GameEnd.choices, default=GameEnd.PLAYED
    )
    cube = models.PositiveSmallIntegerField(_("cube"), default=1)
    record = models.TextField(_("record"), blank=True)
    verified = models.BooleanField(_("verified"), default=False)
    # what the engine found, as a code and params (tournaments/wording/verification.py), said in
    # the reader's language by ``verification``
    verification_note = models.JSONField(_("verification message"), default=dict, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("entered by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "number"],
                name="game_number_once",
                violation_error_message=_("a game with this number exists already in the series"),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="game_number_positive",
                violation_error_message=_("a game's number is positive"),
            ),
            models.CheckConstraint(
                condition=~Q(white=F("black")),
                name="game_two_players",
                violation_error_message=_("a game is played by two different players"),
            ),
            models.CheckConstraint(
                condition=(Q(kind="draw") & Q(winner__isnull=True))
                | (~Q(kind="draw") & (Q(winner=F("white")) | Q(winner=F("black")))),
                name="game_winner_matches_result",
                violation_error_message=_(
                    "a draw has no winner, and any other result is won by one of the game's players"
                ),
            ),
            models.CheckConstraint(
                condition=Q(cube__gte=1),
                name="game_cube_positive",
                violation_error_message=_("the cube is at least 1"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} #{self.number}"

    @property
    def value(self) -> int:
        """Game points to the winner (oin 1, mars 2, koks 3, times the cube); 0: draw.
        The one table is the engine's (``Outcome.points``)."""
        return points_of(self.kind, self.cube)

    @property
    def verification(self) -> str:
        """The verification note in the reader's language ("ok, white won (mars)")."""
        return verification_text(self.verification_note, gammons=self.gammons)

    @property
    def result_text(self) -> str:
        """The result as the pages show it (tournaments.wording.names.result_text)."""
        winner = None if self.winner_id is None else str(self.winner)
        return result_text(winner=winner, kind=self.kind, ended=self.ended, cube=self.cube,
                           gammons=self.gammons)  # fmt: skip

    @property
    def result_detail(self) -> str:
        """The result without the winner (a table names the winner in its own column)."""
        return result_text(winner=None, kind=self.kind, ended=self.ended, cube=self.cube,
                           with_winner=False, gammons=self.gammons)  # fmt: skip

    @property
    def gammons(self) -> bool:
        """Whether the game's variant knows wins of more than one point (not Lurč, Z11):
        as the variant declares it, for the result's name."""
        return variant_named(self.series.tournament.variant).gammons

    @property
    def loser_id(self) -> int | None:
        if self.winner_id is None:
            return None
        return self.black_id if self.winner_id == self.white_id else self.white_id


class Correction(models.Model):
    """The audit trail: a result changed by a director, with the value before and after."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="corrections"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("corrected by"), null=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    at = models.DateTimeField(_("when"), auto_now_add=True)
    reason = models.TextField(_("reason"))
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))

    class Meta:
        ordering = ["game", "at", "id"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")

    def __str__(self) -> str:
        return f"{self.game}: {self.reason}"
