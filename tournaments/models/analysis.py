"""GNU Backgammon's analysis of a short-backgammon game (tournaments/services/analysis.py):
each player's error rate and luck rate, as gnubg prints them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class GameAnalysis(models.Model):
    """gnubg's figures for one game, in millipoints (mEMG) a move as gnubg prints them;
    replaced when the game is analysed again."""

    game = models.OneToOneField(
        "tournaments.Game", on_delete=models.CASCADE, related_name="analysis"
    )
    white_error_rate = models.FloatField(_("white's error rate"))
    black_error_rate = models.FloatField(_("black's error rate"))
    white_luck_rate = models.FloatField(_("white's luck rate"))
    black_luck_rate = models.FloatField(_("black's luck rate"))
    record_version = models.PositiveIntegerField(default=0)  # the game's version analysed
    analysed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}"
