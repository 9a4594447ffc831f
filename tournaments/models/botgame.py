"""A game a user plays against the bot on /play/ (docs/play.md): the record grows a
turn at a time, the dice come from the seed kept here, and the finished game keeps its
analysis. tournaments/services/botgames.py makes every write."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Variant
from tournaments.wording.names import BOT_LEVEL_NAMES, GNUBG_LEVEL_NAMES


class BotGameStatus(models.TextChoices):
    PLAYING = "playing", _("being played")
    FINISHED = "finished", _("finished")


class BotColour(models.TextChoices):
    WHITE = "white", _("white")
    BLACK = "black", _("black")


class BotGame(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="bot_games",
    )  # fmt: skip
    # the game: long nardy and Lurč against the project's evaluator, short backgammon
    # against GNU Backgammon (its own levels, the cube included)
    variant = models.CharField(
        _("game"), max_length=5, choices=Variant.choices, default=Variant.LONG
    )
    level = models.CharField(
        _("level"), max_length=24,
        choices=list(BOT_LEVEL_NAMES.items()) + list(GNUBG_LEVEL_NAMES.items()),
    )  # fmt: skip
    colour = models.CharField(_("your colour"), max_length=5, choices=BotColour.choices)
    # the dice of every turn (engine.evaluator.bot.bot_dice)
    seed = models.BigIntegerField(_("dice seed"))
    record = models.TextField(_("record"))
    status = models.CharField(
        _("status"), max_length=8, choices=BotGameStatus.choices, default=BotGameStatus.PLAYING
    )
    winner = models.CharField(_("winner"), max_length=5, choices=BotColour.choices, blank=True)
    kind = models.CharField(_("result"), max_length=4, blank=True)  # oin or mars
    # how a finished game ended: "played" (the last checker off) or "resigned" by the user
    ended = models.CharField(_("how it ended"), max_length=8, default="played")
    # each move stored renews it; a form carries the version it was shown with, so that
    # a second submit of the same page is refused instead of played twice
    version = models.PositiveIntegerField(_("version"), default=0)
    # with the cube (short backgammon): the user has rolled the turn's dice, so may no
    # longer double before it (S7); a turn played clears it
    rolled = models.BooleanField(_("rolled"), default=False)
    # the evaluator's analysis once finished: GameAnalysis's fields (services/analysis.py)
    analysis = models.JSONField(_("analysis"), null=True, blank=True)
    created = models.DateTimeField(_("started at"), auto_now_add=True)
    finished = models.DateTimeField(_("finished at"), null=True, blank=True)
    # a game played against the bot in a game room (services/online/bot_history.py): its
    # copy here, finished, gives it the history, replay, analysis and downloads of these
    room_game = models.OneToOneField(
        "tournaments.RoomGame", verbose_name=_("game in the game room"), null=True,
        blank=True, on_delete=models.SET_NULL, related_name="bot_game",
    )  # fmt: skip

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["user", "-created"], name="botgame_user_created")]
        verbose_name = _("game against the bot")
        verbose_name_plural = _("games against the bot")

    def __str__(self) -> str:
        return _("game against the bot %(id)s (%(level)s)") % {
            "id": self.pk,
            "level": self.get_level_display(),
        }

    @property
    def bot_colour(self) -> str:
        return BotColour.BLACK if self.colour == BotColour.WHITE else BotColour.WHITE
