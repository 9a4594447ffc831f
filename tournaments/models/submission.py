"""Results submitted by players, counted once the opponent or a director confirms them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.engine import variant_named
from tournaments.wording.names import result_text


class SubmissionStatus(models.TextChoices):
    PENDING = "pending", _("waiting for confirmation")
    CONFIRMED = "confirmed", _("confirmed")
    REJECTED = "rejected", _("rejected")


class SeriesReport(models.Model):
    """A player's report of several games of a series at once: its games are pending
    submissions (``submissions``), confirmed or rejected together, once."""

    series = models.ForeignKey(
        "tournaments.Series", verbose_name=_("series"), on_delete=models.CASCADE,
        related_name="reports",
    )  # fmt: skip
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("submitted by"), on_delete=models.CASCADE,
        related_name="+",
    )  # fmt: skip
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    status = models.CharField(
        _("status"), max_length=9, choices=SubmissionStatus.choices,
        default=SubmissionStatus.PENDING,
    )  # fmt: skip
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["series", "submitted_at", "id"]
        verbose_name = _("series report")
        verbose_name_plural = _("series reports")

    def __str__(self) -> str:
        return f"{self.series} ({self.get_status_display()})"


class Submission(models.Model):
    series = models.ForeignKey(
        "tournaments.Series", verbose_name=_("series"), on_delete=models.CASCADE,
        related_name="submissions",
    )  # fmt: skip
    number = models.PositiveSmallIntegerField(_("game"))
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("submitted by"), on_delete=models.CASCADE,
        related_name="+",
    )  # fmt: skip
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    # a quick result, or a full record
    white = models.ForeignKey(
        "tournaments.Player", verbose_name=_("white"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="+",
    )  # fmt: skip
    winner = models.ForeignKey(
        "tournaments.Player", verbose_name=_("winner"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="+",
    )  # fmt: skip
    kind = models.CharField(_("result"), max_length=4, blank=True)
    ended = models.CharField(_("ended by"), max_length=8, default="played")
    cube = models.PositiveSmallIntegerField(_("cube"), default=1)
    record = models.TextField(_("record"), blank=True)
    status = models.CharField(
        _("status"), max_length=9, choices=SubmissionStatus.choices,
        default=SubmissionStatus.PENDING,
    )  # fmt: skip
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)
    game = models.ForeignKey(
        "tournaments.Game", verbose_name=_("game"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    # one game of a series report: decided only with the whole report
    report = models.ForeignKey(
        SeriesReport, verbose_name=_("series report"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="submissions",
    )  # fmt: skip

    class Meta:
        ordering = ["series", "number", "submitted_at"]
        verbose_name = _("submitted result")
        verbose_name_plural = _("submitted results")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "number"],
                condition=models.Q(status="pending"),
                name="submission_one_pending_per_game",
                violation_error_message=_(
                    "a result for this game is already waiting for confirmation"
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} #{self.number} ({self.get_status_display()})"

    @property
    def result_text(self) -> str:
        """Who won and how, as every page says a result (tournaments.wording.names.result_text);
        empty for a record submitted before its result was kept with it."""
        if not self.kind:
            return ""
        winner = None if self.winner_id is None else str(self.winner)
        gammons = variant_named(self.series.tournament.variant).gammons
        return result_text(
            winner=winner, kind=self.kind, ended=self.ended, cube=self.cube, gammons=gammons
        )

    @property
    def movetext(self) -> str:
        """The record's moves without its tag lines: numbered turns in the project's
        notation (docs/notation.md), as the canonical writer stores them."""
        lines = [line for line in self.record.splitlines() if not line.startswith("[")]
        return "\n".join(lines).strip()
