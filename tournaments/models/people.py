"""Clubs and players."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Variant

START_RATING = 1500.0


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True, help_text=_("ISO 3166 code"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Gender(models.TextChoices):
    """A player's grammatical gender: Czech says "odstoupila" of a woman, "odstoupil" of a
    man, and "odstoupil(a)" when it is not known (blank)."""

    FEMININE = "f", _("feminine")
    MASCULINE = "m", _("masculine")


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    gender = models.CharField(
        _("grammatical gender"), max_length=1, choices=Gender.choices, blank=True,
        help_text=_("How the pages speak of the player (Czech: odstoupil or odstoupila); "
                    "blank when not known."),
    )  # fmt: skip
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="players",
    )  # fmt: skip
    country = models.CharField(_("country"), max_length=2, blank=True, help_text=_("ISO 3166 code"))
    contact = models.CharField(_("contact"), max_length=200, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, verbose_name=_("user account"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="player",
    )  # fmt: skip
    active = models.BooleanField(_("active"), default=True)
    invitations_withdrawn = models.PositiveIntegerField(
        _("invitations withdrawn"),
        default=0,
        editable=False,
        help_text=_("Raised when a director withdraws every invitation link made so far."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["name", "club"],
                name="player_unique_name_in_club",
                violation_error_message=_("a player of this name is already in the club"),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerRating(models.Model):
    """A player's rating in one game (variant): long nardy, short backgammon and Lurč are
    rated apart (docs/ratings.md). A row exists for each game the player has played rated
    series of, or was given a starting rating for; any other game starts at 1500."""

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    variant = models.CharField(_("game"), max_length=5, choices=Variant.choices)
    rating = models.FloatField(_("rating"), default=START_RATING)
    start_rating = models.FloatField(
        _("starting rating"),
        default=START_RATING,
        help_text=_("Where the rating history starts: given on registration or import."),
    )
    experience = models.PositiveIntegerField(
        _("experience"), default=0, help_text=_("Sum of the lengths of the rated series played.")
    )

    class Meta:
        ordering = ["player", "variant"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "variant"],
                name="player_rating_once_per_variant",
                violation_error_message=_("a player has one rating in each game"),
            ),
            models.CheckConstraint(
                condition=models.Q(rating__gt=0),
                name="player_rating_positive",
                violation_error_message=_("a rating is positive"),
            ),
            models.CheckConstraint(
                condition=models.Q(start_rating__gt=0),
                name="player_start_rating_positive",
                violation_error_message=_("a rating is positive"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_variant_display()} {self.rating:.1f}"


class RatingChange(models.Model):
    """One line of a player's rating history: the series that changed it."""

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="rating_changes"
    )
    series = models.ForeignKey(
        "tournaments.Series", verbose_name=_("series"), on_delete=models.CASCADE,
        related_name="rating_changes",
    )  # fmt: skip
    # the series' tournament's game, kept here so that one game's history is read and
    # replayed without joining the tournaments (it is locked once series are paired)
    variant = models.CharField(_("game"), max_length=5, choices=Variant.choices)
    before = models.FloatField(_("rating before"))
    after = models.FloatField(_("rating after"))
    experience_before = models.PositiveIntegerField(_("experience before"))
    at = models.DateTimeField(_("when"))

    class Meta:
        ordering = ["player", "variant", "at", "id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "series"],
                name="rating_once_per_series",
                violation_error_message=_("a series changes a player's rating only once"),
            ),
        ]
        indexes = [models.Index(fields=["variant", "at"], name="rating_change_variant_at")]

    @property
    def delta(self) -> float:
        return self.after - self.before

    def __str__(self) -> str:
        return f"{self.player}: {self.before:.1f} -> {self.after:.1f}"


class PendingSignup(models.Model):
    """A sign-up not yet confirmed by its mailed link. Only such a row lets a confirmation
    link (or one sent again) activate an account, and only such an account is cleared when
    it expires: an account an administrator deactivated has none, whether or not it ever
    signed in on a page (services/accounts.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, verbose_name=_("user account"), primary_key=True,
        on_delete=models.CASCADE, related_name="pending_signup",
    )  # fmt: skip
    created = models.DateTimeField(_("signed up"), default=timezone.now)

    class Meta:
        verbose_name = _("unconfirmed sign-up")
        verbose_name_plural = _("unconfirmed sign-ups")

    def __str__(self) -> str:
        return str(self.user)
