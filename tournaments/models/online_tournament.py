"""A tournament played online (docs/online.md, "Tournaments played online"): chosen at
the tournament's creation, with each round's start window and the rooms' clock (the
clock fields a challenge has, read by services/online/settings.py: one truth); every
paired series of two users gets its game room, linked here to the series."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.online import Room
from tournaments.models.series import Series
from tournaments.models.tournament import Tournament


class OnlinePlay(models.Model):
    """The tournament is played in game rooms: ``window_minutes`` after a round is paired
    a player who has not joined their room loses the series by forfeit; ``clock`` holds
    the rooms' clock settings (clock, delay_s, reserve_s, days, timeout_costs)."""

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="online_play",
    )  # fmt: skip
    window_minutes = models.PositiveIntegerField(_("start window (minutes)"), default=15)
    window_until = models.DateTimeField(
        _("start window closes at"), null=True, blank=True,
        help_text=_("A slow event: the rounds paired before this time must start by it."),
    )  # fmt: skip
    clock = models.JSONField(_("clock"), default=dict)
    pair_next = models.BooleanField(
        _("pair the next round by itself when the last series of the round ends"),
        default=False,
    )

    class Meta:
        verbose_name = _("tournament played online")
        verbose_name_plural = _("tournaments played online")

    def __str__(self) -> str:
        return str(self.tournament)


class SeriesRoom(models.Model):
    """A series of a tournament played online and its game room; ``window_closes``: when
    a player who has not joined loses by forfeit (decided by the rooms' sweep)."""

    series = models.OneToOneField(
        Series, verbose_name=_("series"), on_delete=models.CASCADE, related_name="online_room"
    )
    room = models.OneToOneField(
        Room, verbose_name=_("game room"), on_delete=models.CASCADE, related_name="series_link"
    )
    window_closes = models.DateTimeField(_("start window closes"), db_index=True)
    no_show = models.CharField(_("forfeited for not showing"), max_length=1, blank=True)
    reversed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("forfeit reversed by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    reversed_at = models.DateTimeField(_("forfeit reversed at"), null=True, blank=True)
    reversal_reason = models.TextField(_("why the forfeit was reversed"), blank=True)

    class Meta:
        verbose_name = _("series played online")
        verbose_name_plural = _("series played online")

    def __str__(self) -> str:
        return f"{self.series} - {self.room}"


class RoomDecision(models.Model):
    """A director's decision on a room whose round's start window closed with neither
    player in it: both lose the series by forfeit, or ``minutes`` more to start; who,
    when and why are kept (the audit of a reversal's kind)."""

    FORFEIT_BOTH = "forfeit-both"
    MORE_TIME = "more-time"
    KINDS = [(FORFEIT_BOTH, _("both lost by forfeit")), (MORE_TIME, _("more time to start"))]

    link = models.ForeignKey(
        SeriesRoom, verbose_name=_("series played online"), on_delete=models.CASCADE,
        related_name="decisions",
    )  # fmt: skip
    kind = models.CharField(_("decision"), max_length=16, choices=KINDS)
    minutes = models.PositiveIntegerField(_("minutes added"), null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    at = models.DateTimeField(_("when"), auto_now_add=True)
    reason = models.TextField(_("reason"))

    class Meta:
        ordering = ["link", "at", "id"]
        verbose_name = _("no-show decision")
        verbose_name_plural = _("no-show decisions")

    def __str__(self) -> str:
        return f"{self.link}: {self.kind}"


class MailPreference(models.Model):
    """What a user asked to be told by e-mail: ``room_opened``, a tournament's game room
    opened for them (a round paired, a bracket's next series)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="mail_preference",
    )  # fmt: skip
    room_opened = models.BooleanField(_("e-mail me when my tournament game's room opens"),
                                      default=False)  # fmt: skip

    class Meta:
        verbose_name = _("e-mail preference")
        verbose_name_plural = _("e-mail preferences")

    def __str__(self) -> str:
        return str(self.user)
