"""A game's analysis: GNU Backgammon's for short backgammon (only the per-player
figures gnubg prints) or the project's own evaluator's for the variants that declare one
(long nardy: every turn's error and luck too). tournaments/services/analysis.py stores
both."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class AnalysisSource(models.TextChoices):
    GNUBG = "gnubg", _("GNU Backgammon")
    NET = "net", _("the project's evaluator")


class GameAnalysis(models.Model):
    """The figures for one game, in millipoints (mp, 1/1000 of a point; gnubg's mEMG) a
    move; replaced when the game is analysed again.

    ``turns`` (the evaluator only) holds one object a turn: ``turn``, ``side``, ``dice``,
    ``played``, ``best`` (movetext), ``error`` and ``luck`` (mp), ``equity`` (the mover's
    equity after the turn played, in points) and ``forced``. ``sides`` holds each side's
    summary as the engine gives it (``error_rate``, ``unforced``, ``errors`` by mark,
    ``luck``, ``luck_rate``)."""

    game = models.OneToOneField(
        "tournaments.Game", verbose_name=_("game"), on_delete=models.CASCADE,
        related_name="analysis",
    )  # fmt: skip
    source = models.CharField(
        _("analysed by"), max_length=8, choices=AnalysisSource.choices,
        default=AnalysisSource.GNUBG,
    )  # fmt: skip
    evaluator = models.CharField(_("evaluator"), max_length=120, blank=True)
    white_error_rate = models.FloatField(_("white's error rate"))
    black_error_rate = models.FloatField(_("black's error rate"))
    white_luck_rate = models.FloatField(_("white's luck rate"))
    black_luck_rate = models.FloatField(_("black's luck rate"))
    white_luck = models.FloatField(_("white's total luck"), null=True, blank=True)
    black_luck = models.FloatField(_("black's total luck"), null=True, blank=True)
    sides = models.JSONField(_("summary by side"), default=dict, blank=True)
    turns = models.JSONField(_("turns"), default=list, blank=True)
    # the game's version analysed
    record_version = models.PositiveIntegerField(_("version of the game analysed"), default=0)
    analysed_at = models.DateTimeField(_("analysed at"), auto_now=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return _("analysis of game %(id)s") % {"id": self.game_id}

    @property
    def evaluator_credit(self) -> str:
        """The evaluator in words, for the page (wording/evaluator.py)."""
        from tournaments.wording.evaluator import evaluator_credit

        return evaluator_credit(self.evaluator)
