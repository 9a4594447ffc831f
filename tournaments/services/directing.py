"""Directors' writes on a tournament: creating it (directed by its maker), changing its
settings (deleting it: services/deletion.py). Every door (API, pages, admin) calls
these."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from tournaments.models import CLOSED_STATUSES, Series, SeriesStatus, Tournament
from tournaments.pairing.elimination import length_for
from tournaments.selectors.access import User
from tournaments.selectors.brackets import BRACKET_FORMATS, bracket_of
from tournaments.services.errors import ApplicationError
from tournaments.services.people import player_create
from tournaments.services.ratings import ratings_recompute
from tournaments.services.setup import (
    tournament_check,
    tournament_create,
    tournament_settings_check,
)
from tournaments.wording.names import stage_name
from tournaments.wording.rule_options import TOURNAMENT_OPTION_NAMES

# Settings fixed once a series is paired: they change the meaning of games already played
# (the game and its rules, the series' length and who starts), how the pairings are made,
# or the points of standings already shown. A director may still rename the tournament,
# move its dates and venue, publish it, add Swiss rounds, choose what a withdrawal does,
# and reorder the tie-breaks (they change no one's points, only the order of equal ones).
#
# The series length is the exception (NEEDS_CONFIRMATION): once paired, a new length is
# for the series not yet started and the rounds to come; a series started or finished
# keeps the length it is played to. The director confirms after reading which is which.
# The lengths by knockout stage (``lengths_by_stage``) change for the stages not started
# yet (their series paired already are played to the new length, like the final made
# longer before it starts); a stage with a series started or finished keeps its length.
NEEDS_CONFIRMATION = ("series_length",)
LOCKED_ONCE_PAIRED = (
    "variant", "format", "series_mode", "first_move",
    *TOURNAMENT_OPTION_NAMES, "draw_scoring",
    "points_series_win", "points_series_draw", "points_series_loss", "points_per_game_point",
    "bye_points", "forfeit_game_points", "third_place", "consolation",
    "bracket_reset",
)  # fmt: skip


class NeedsConfirmation(ApplicationError):
    """A change that alters series already paired: ``warnings`` say what will change;
    the same change with ``confirmed=True`` makes it."""

    def __init__(
        self, message: str, *, warnings: list[str], field: str | None = None,
        code: str | None = None,
    ) -> None:  # fmt: skip
        super().__init__(message, field=field, code=code)
        self.warnings = warnings


def _named(series: list[Series], limit: int = 8) -> str:
    shown = ", ".join(str(s) for s in series[:limit])
    if len(series) > limit:
        shown += " " + _("and %(n)d more") % {"n": len(series) - limit}
    return shown


def _following_length(tournament: Tournament) -> tuple[list[Series], list[Series]]:
    """The series that follow the tournament's length: (not started, started or closed)."""
    following = Series.objects.filter(tournament=tournament, length__isnull=True)
    unplayed = set(
        following.filter(status=SeriesStatus.SCHEDULED)
        .annotate(played=Count("games"))
        .filter(played=0)
        .values_list("pk", flat=True)
    )
    series = list(
        following.select_related("player1", "player2").order_by("round__number", "table", "id")
    )
    waiting = [s for s in series if s.pk in unplayed]
    return waiting, [s for s in series if s not in waiting]


def series_length_effects(*, tournament: Tournament, length: int) -> list[str]:
    """What a new series length would change in a paired tournament, for the director to
    read before confirming (empty: nothing already paired changes)."""
    if length == tournament.series_length:
        return []
    waiting, kept = _following_length(tournament)
    warnings = []
    if waiting:
        warnings.append(
            _("%(n)d series not started yet will be played to %(new)d: %(series)s.")
            % {"n": len(waiting), "new": length, "series": _named(waiting)}
        )
    if kept:
        warnings.append(
            _("%(n)d series already started or finished keep the length they are played "
              "to, %(old)d: %(series)s.")
            % {"n": len(kept), "old": tournament.series_length, "series": _named(kept)}
        )  # fmt: skip
    warnings.append(_("The rounds paired from now on are played to %(new)d.") % {"new": length})
    return warnings


@transaction.atomic
def tournament_create_by(*, by: User, name: str, start_date: Any, **settings: Any) -> Tournament:
    """A new tournament, directed by the user who made it."""
    tournament = tournament_create(name=name, start_date=start_date, **settings)
    if isinstance(by, AuthUser):
        tournament.directors.add(by)
    return tournament


def _check_locked(tournament: Tournament, settings: dict[str, Any]) -> None:
    """Refuse a change of what is locked once series are paired (LOCKED_ONCE_PAIRED)."""
    for name in LOCKED_ONCE_PAIRED:
        if name in settings and settings[name] != getattr(tournament, name):
            played_at = ""
            if name == "series_mode":
                from tournaments.services.sheets import series_played_at

                played_at = series_played_at(tournament=tournament)
            if played_at:
                raise ApplicationError(
                    _("This cannot change once series are paired. %(played)s"),
                    code="locked-once-played",
                    params={"played": played_at},
                    field=name,
                )
            raise ApplicationError(
                _("This cannot change once series are paired."),
                code="locked-once-paired",
                field=name,
            )


def tournament_update_check(
    *, tournament: Tournament, paired: bool, confirmed: bool = False, **settings: Any
) -> None:
    """Raise ApplicationError if these changes may not be made, NeedsConfirmation if they
    alter series already paired and are not ``confirmed`` (``tournament`` is changed in
    memory, not saved)."""
    tournament_settings_check(settings)
    if paired and not confirmed:
        for name in NEEDS_CONFIRMATION:
            if name in settings and settings[name] != getattr(tournament, name):
                warnings = series_length_effects(tournament=tournament, length=settings[name])
                raise NeedsConfirmation(
                    _("Series are paired already: confirm the change after reading what "
                      "it changes."),
                    warnings=warnings, field=name,
                )  # fmt: skip
    if paired:
        _check_locked(tournament, settings)
        swiss_rounds = settings.get("swiss_rounds")
        played = tournament.rounds.count()
        if swiss_rounds is not None and swiss_rounds < played:
            raise ApplicationError(
                _("%(n)d rounds are paired already."),
                code="swiss-rounds-below-paired",
                params={"n": played},
                field="swiss_rounds",
            )
    old_lengths = dict(tournament.lengths_by_stage or {})
    old_length = tournament.series_length
    for name, value in settings.items():
        setattr(tournament, name, value)
    tournament_check(tournament)
    if paired:
        stage_lengths_apply(tournament, old_lengths, old_length, save=False)


def stage_lengths_apply(
    tournament: Tournament, old_lengths: dict[str, int], old_length: int, *, save: bool
) -> None:
    """The paired series of the stages whose length ``tournament.lengths_by_stage``
    changes (from ``old_lengths``; ``old_length``: the series length they followed):
    refused, naming the stage, if one of them has started and would be played to another
    length; else (``save``) those not started get the new length."""
    new_lengths = tournament.lengths_by_stage or {}
    changed = {
        stage for stage in {*old_lengths, *new_lengths}
        if old_lengths.get(stage) != new_lengths.get(stage)
    }  # fmt: skip
    if not changed or tournament.format not in BRACKET_FORMATS:
        return
    matches = {m.id: m for m in bracket_of(tournament).matches if m.stage in changed}
    if save:  # a game entered meanwhile locks its series first: counted after it
        rows = Series.objects.filter(tournament=tournament, slot__in=list(matches))
        list(rows.select_for_update(of=("self",)).order_by("pk").values_list("pk"))
    series = (
        Series.objects.filter(tournament=tournament, slot__in=list(matches))
        .exclude(player2__isnull=True)  # a bye is played to no length
        .annotate(played=Count("games"))
        .order_by("id")
    )
    later: dict[int, int | None] = {}
    for s in series:
        m = matches[s.slot]
        length = length_for(m.stage, new_lengths, tournament.series_length)
        if s.played or s.status in CLOSED_STATUSES:
            played_to = s.length or old_length
            if length != played_to:
                raise ApplicationError(
                    _("The stage %(stage)s has started: its series keep the length they "
                      "are played to, %(length)s. Only the stages not started yet may "
                      "change."),
                    code="stage-length-started",
                    params={"stage": stage_name(bracket=m.bracket, round=m.round,
                                                stage=m.stage),
                            "length": played_to},
                    field="lengths_by_stage",
                )  # fmt: skip
        else:
            later[s.pk] = None if length == tournament.series_length else length
    if save:
        for pk, new in later.items():
            Series.objects.filter(pk=pk).update(length=new)


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, confirmed: bool = False, **settings: Any
) -> Tournament:
    """Change a tournament's settings; the rules, the format and the scoring stay once it
    is paired (LOCKED_ONCE_PAIRED). A new series length, once paired, needs ``confirmed``
    and leaves the series started or finished at the length they are played to."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    old_length, old_lengths = locked.series_length, dict(locked.lengths_by_stage or {})
    was_rated = locked.rated
    paired = locked.series.exists()
    tournament_update_check(tournament=locked, paired=paired, confirmed=confirmed, **settings)
    if paired and locked.series_length != old_length:
        _, kept = _following_length(locked)
        Series.objects.filter(pk__in=[s.pk for s in kept]).update(length=old_length)
    if paired:
        stage_lengths_apply(locked, old_lengths, old_length, save=True)
    locked.save()
    if locked.rated != was_rated:  # its series now count in the ratings, or no more
        ratings_recompute()
    return locked


__all__ = [
    "LOCKED_ONCE_PAIRED",
    "NEEDS_CONFIRMATION",
    "NeedsConfirmation",
    "player_create",
    "series_length_effects",
    "tournament_create_by",
    "tournament_update",
    "tournament_update_check",
]
