"""Games played on the site (docs/online.md): a challenge with its settings, the game room
it becomes, and the room's finished games. The room's row is the truth of the game: its
current game's record (the position is the record replayed by the engine), the score,
the dice's seeds and roll counter, the clocks and the sequence number every action
carries. tournaments/services/online/ makes every write."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Variant
from tournaments.wording.names import BOT_LEVEL_NAMES, GNUBG_LEVEL_NAMES


class ChallengeStatus(models.TextChoices):
    OPEN = "open", _("open")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    CANCELLED = "cancelled", _("cancelled")


class RoomStatus(models.TextChoices):
    WAITING = "waiting", _("waiting for the first roll")
    PLAYING = "playing", _("being played")
    FINISHED = "finished", _("finished")
    ABORTED = "aborted", _("aborted")


class RoomGameEnd(models.TextChoices):
    PLAYED = "played", _("played out")
    RESIGNED = "resigned", _("resignation")
    DROPPED = "dropped", _("double dropped")
    TIMEOUT = "timeout", _("time ran out")
    ABORTED = "aborted", _("aborted")


# the evaluator's levels, then GNU Backgammon's (short backgammon, services/gnubg_bot.py)
BOT_LEVEL_CHOICES = list(BOT_LEVEL_NAMES.items()) + list(GNUBG_LEVEL_NAMES.items())


class Challenge(models.Model):
    """An offer to play a series: open to anyone signed in (no opponent, no token), to a
    named user, to whoever has the link (``token``), or to the bot at ``bot_level``.
    ``settings`` holds the series' settings (services/online/settings.py: one reader)."""

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.CASCADE,
        related_name="challenges_made",
    )  # fmt: skip
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("opponent"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="challenges_received",
    )  # fmt: skip
    token = models.CharField(_("link"), max_length=32, blank=True, db_index=True)
    bot_level = models.CharField(
        _("bot's level"), max_length=24, blank=True, choices=BOT_LEVEL_CHOICES
    )
    variant = models.CharField(_("game"), max_length=5, choices=Variant.choices)
    settings = models.JSONField(_("settings"), default=dict)
    status = models.CharField(
        _("status"), max_length=9, choices=ChallengeStatus.choices, default=ChallengeStatus.OPEN
    )
    rematch_of = models.ForeignKey(
        "tournaments.Room", verbose_name=_("rematch of"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="rematches",
    )  # fmt: skip
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [models.Index(fields=["status", "-created"], name="challenge_status_created")]

    def __str__(self) -> str:
        return _("challenge %(id)s by %(user)s") % {"id": self.pk, "user": self.creator}


class Room(models.Model):
    """A series being played. Two seats, ``a`` (the challenge's creator) and ``b``: each a
    user or the bot at a level; ``a_white`` says which seat has white in the current game
    (the starter of a game takes the colour that moves first, L12)."""

    challenge = models.OneToOneField(
        Challenge, verbose_name=_("challenge"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="room",
    )  # fmt: skip
    a_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("first player"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    b_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("second player"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    a_bot = models.CharField(_("first player's bot level"), max_length=24, blank=True)
    b_bot = models.CharField(_("second player's bot level"), max_length=24, blank=True)
    a_white = models.BooleanField(_("first player has white"), default=True)
    variant = models.CharField(_("game"), max_length=5, choices=Variant.choices)
    settings = models.JSONField(_("settings"), default=dict)
    status = models.CharField(
        _("status"), max_length=8, choices=RoomStatus.choices, default=RoomStatus.WAITING
    )
    # every change bumps it; every action names the seq it was sent at (stale: refused)
    seq = models.PositiveIntegerField(_("sequence number"), default=0)
    # the dice (engine/dice.py): the server seed stays secret until the series ends
    server_seed = models.CharField(_("server seed"), max_length=64)
    seed_hash = models.CharField(_("server seed's hash"), max_length=64)
    a_seed = models.CharField(_("first player's seed"), max_length=64, blank=True)
    b_seed = models.CharField(_("second player's seed"), max_length=64, blank=True)
    client_seed = models.CharField(_("client seed"), max_length=130, blank=True)
    rolls = models.PositiveIntegerField(_("rolls so far"), default=0)
    dice = models.JSONField(_("dice to play"), null=True, blank=True)
    # the series
    a_score = models.DecimalField(
        _("first player's score"), max_digits=6, decimal_places=1, default=0
    )
    b_score = models.DecimalField(
        _("second player's score"), max_digits=6, decimal_places=1, default=0
    )
    game_number = models.PositiveSmallIntegerField(_("game"), default=1)
    game_first_roll = models.PositiveIntegerField(_("first roll of the game"), default=0)
    record = models.TextField(_("record of the current game"), blank=True)
    crawford = models.BooleanField(_("Crawford game"), default=False)
    # the series' winner once finished ("a", "b"; empty: drawn or not over)
    winner = models.CharField(_("winner"), max_length=1, blank=True)
    # clocks (milliseconds of reserve; a turn's deadline, swept by sweep_rooms)
    a_reserve_ms = models.BigIntegerField(_("first player's reserve"), default=0)
    b_reserve_ms = models.BigIntegerField(_("second player's reserve"), default=0)
    turn_started = models.DateTimeField(_("turn started"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    # open sockets per seat (a player may have two tabs)
    a_connected = models.PositiveSmallIntegerField(_("first player's connections"), default=0)
    b_connected = models.PositiveSmallIntegerField(_("second player's connections"), default=0)
    # each player's page beats (services/online/presence.py): present while seen lately,
    # so a server process killed with its sockets' counts still up does not keep them in
    a_seen = models.DateTimeField(_("first player last seen"), null=True, blank=True)
    b_seen = models.DateTimeField(_("second player last seen"), null=True, blank=True)
    chat = models.JSONField(_("chat"), default=list, blank=True)
    a_chat_off = models.BooleanField(_("first player turned the chat off"), default=False)
    b_chat_off = models.BooleanField(_("second player turned the chat off"), default=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("game room")
        verbose_name_plural = _("game rooms")
        constraints = [
            models.CheckConstraint(
                condition=(Q(a_user__isnull=False) | ~Q(a_bot=""))
                & (Q(b_user__isnull=False) | ~Q(b_bot="")),
                name="room_two_players",
                violation_error_message=_("a room has two players, each a user or the bot"),
            ),
        ]

    def __str__(self) -> str:
        return _("game room %(id)s") % {"id": self.pk}


class RoomGame(models.Model):
    """A finished game of a room: its record (checked by the one record check), the
    result, and the evaluator's analysis (GameAnalysis's fields, as a bot game keeps)."""

    room = models.ForeignKey(
        Room, verbose_name=_("game room"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("game"))
    a_white = models.BooleanField(_("first player had white"))
    record = models.TextField(_("record"))
    winner = models.CharField(_("winner"), max_length=5, blank=True)  # white, black, "": draw
    kind = models.CharField(_("result"), max_length=4)
    cube = models.PositiveSmallIntegerField(_("cube"), default=1)
    points = models.PositiveSmallIntegerField(_("points"), default=0)
    ended = models.CharField(_("how it ended"), max_length=8, choices=RoomGameEnd.choices)
    crawford = models.BooleanField(_("Crawford game"), default=False)
    analysis = models.JSONField(_("analysis"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), auto_now_add=True)

    class Meta:
        ordering = ["room", "number"]
        verbose_name = _("game played online")
        verbose_name_plural = _("games played online")
        constraints = [
            models.UniqueConstraint(
                fields=["room", "number"],
                name="roomgame_number_once",
                violation_error_message=_("a game with this number exists already in the room"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.room} #{self.number}"
