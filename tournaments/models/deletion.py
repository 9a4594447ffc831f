"""The audit trail of deletions: a tournament (or a game) deleted by a director, with what
went with it and why. The row outlives what it names, so it keeps the name, the id and a
summary, not a foreign key."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

REASON_MAX = 500


class DeletionKind(models.TextChoices):
    TOURNAMENT = "tournament", _("tournament")
    GAME = "game", _("game")


class Deletion(models.Model):
    """Who deleted what, when and why; ``summary`` says what went with it (counts, the
    players whose ratings were recomputed)."""

    kind = models.CharField(_("kind"), max_length=10, choices=DeletionKind.choices)
    label = models.CharField(_("what"), max_length=300)
    object_id = models.PositiveBigIntegerField(_("id"))
    summary = models.JSONField(_("summary"), default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    by_name = models.CharField(_("user name"), max_length=150, blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now)
    reason = models.CharField(_("reason"), max_length=REASON_MAX)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("deletion")
        verbose_name_plural = _("deletions")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.label} ({self.at:%Y-%m-%d %H:%M})"
