"""A tournament played online (docs/online.md, "Tournaments played online"): chosen at
the tournament's creation, with each round's start window and the rooms' clock (the
clock fields a challenge has, read by services/online/settings.py: one truth); every
paired series of two users gets its game room, linked here to the series."""

from __future__ import annotations

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
    clock = models.JSONField(_("clock"), default=dict)

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

    class Meta:
        verbose_name = _("series played online")
        verbose_name_plural = _("series played online")

    def __str__(self) -> str:
        return f"{self.series} - {self.room}"
