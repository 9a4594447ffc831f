"""Two players who are one person, merged; and a player's own request to play.

A merge keeps what it moved (which rows of which relation pointed at the absorbed
player) and the absorbed player's own fields and ratings, so that it can be undone until
the next rating change (``rating_mark``: the ratings' history as it stood after the
merge). The absorbed player's row is gone meanwhile; undoing makes it again with its id."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

REASON_MAX = 500


class PlayerMerge(models.Model):
    kept = models.ForeignKey(
        "tournaments.Player", verbose_name=_("kept player"), on_delete=models.CASCADE,
        related_name="merges",
    )  # fmt: skip
    absorbed_id = models.PositiveBigIntegerField(_("absorbed player's id"))
    absorbed_name = models.CharField(_("absorbed player"), max_length=200)
    absorbed = models.JSONField(_("absorbed player's fields"), default=dict)
    moved = models.JSONField(_("rows moved"), default=dict)  # "Model.field": [ids]
    ratings = models.JSONField(_("absorbed ratings"), default=list)  # rows deleted
    variants = models.JSONField(_("games recomputed"), default=list)
    rating_mark = models.JSONField(_("ratings after the merge"), default=list)
    reason = models.CharField(_("reason"), max_length=REASON_MAX, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    at = models.DateTimeField(_("at"), default=timezone.now)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("undone by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")

    def __str__(self) -> str:
        return f"{self.absorbed_name} → {self.kept}"


class EntryRequestStatus(models.TextChoices):
    PENDING = "pending", _("waiting for the director")
    APPROVED = "approved", _("approved")
    DECLINED = "declined", _("declined")


class EntryRequest(models.Model):
    """A signed-in player asks to play in a tournament that allows it; a director
    approves (the player is entered) or declines."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="entry_requests",
    )  # fmt: skip
    player = models.ForeignKey(
        "tournaments.Player", verbose_name=_("player"), on_delete=models.CASCADE,
        related_name="entry_requests",
    )  # fmt: skip
    status = models.CharField(
        _("status"), max_length=8, choices=EntryRequestStatus.choices,
        default=EntryRequestStatus.PENDING,
    )  # fmt: skip
    at = models.DateTimeField(_("asked at"), default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("request to play")
        verbose_name_plural = _("requests to play")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="entry_request_once",
                violation_error_message=_("this player has asked to play already"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} → {self.tournament}"
