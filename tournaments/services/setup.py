"""Setting a tournament up: registering players, rounds and series, forfeits."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.engine import variant_named
from tournaments.models import (
    CLOSED_STATUSES,
    DrawScoring,
    Entry,
    FirstMove,
    Format,
    Player,
    Round,
    Series,
    SeriesStatus,
    TieBreak,
    Tournament,
)
from tournaments.models.tournament import default_tie_breaks
from tournaments.pairing.elimination import stage_known
from tournaments.services.errors import ApplicationError
from tournaments.services.names import name_clean

MAX_SEED = MAX_ROUND = 32767  # small integer columns

# what a tournament's settings are: its fields but the id and the directors (access)
TOURNAMENT_SETTINGS = frozenset(
    f.name
    for f in Tournament._meta.get_fields()
    if f.concrete and not f.many_to_many and f.name != "id"
)


def tournament_check(tournament: Tournament) -> None:
    """The rules every tournament's settings keep; raises ApplicationError on the field."""
    tournament.name = name_clean(
        tournament.name, max_length=Tournament._meta.get_field("name").max_length
    )
    tie_breaks = tournament.tie_breaks
    if not isinstance(tie_breaks, list) or any(t not in TieBreak.values for t in tie_breaks):
        unknown = tie_breaks if not isinstance(tie_breaks, list) else [
            t for t in tie_breaks if t not in TieBreak.values
        ]  # fmt: skip
        if not unknown:
            raise ApplicationError(
                _("the tie-breaks are a list"), code="tie-breaks-list", field="tie_breaks"
            )
        raise ApplicationError(
            _("unknown tie-break %(name)s"),
            code="unknown-tie-break",
            params={"name": repr(unknown[0])},
            field="tie_breaks",
        )
    if len(set(tie_breaks)) != len(tie_breaks):
        raise ApplicationError(
            _("A tie-break is listed twice."), code="tie-break-twice", field="tie_breaks"
        )
    if tournament.series_length is None or tournament.series_length < 1:
        raise ApplicationError(
            _("A series is at least one point or game long."),
            code="series-length",
            field="series_length",
        )
    lengths_by_stage_check(tournament)
    tournament_options_check(tournament)
    if (
        tournament.end_date
        and tournament.start_date
        and tournament.end_date < tournament.start_date
    ):
        raise ApplicationError(
            _("The tournament ends before it starts."), code="ends-before-start", field="end_date"
        )
    integers_check(tournament)
    try:
        tournament.full_clean(exclude=["directors"], validate_constraints=False)
    except ValidationError as exc:
        raise ApplicationError.from_validation(exc) from None


# ranked by the bracket, not by points and tie-breaks (docs/standings.md)
BRACKET_FORMATS = frozenset({Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION})


def tie_breaks_apply(fmt: str) -> bool:
    """Whether a tournament of format ``fmt`` has standings that tie-breaks order (round
    robin, Swiss, pairings by hand); an elimination event ranks by its bracket."""
    return fmt not in BRACKET_FORMATS


def draws_apply(variant: str) -> bool:
    """Whether a game of ``variant`` can end in a draw, so that a draw's score (L11) is
    a setting of it: only under the right of last roll (L10), which the variant declares."""
    return variant_named(variant).last_roll


def first_moves_of(variant: str) -> tuple[str, ...]:
    """Who may start the later games of a series of ``variant`` (L12): the loser, the
    winner, alternately; by lot only where the variant has a lot (L2, S2; not in Lurč,
    where black starts, Z1)."""
    lot = variant_named(variant).lot
    return tuple(str(m) for m in FirstMove.values if lot or m != FirstMove.LOT)


def tournament_options_check(tournament: Tournament) -> None:
    """Refuse a setting that does not apply to the tournament's game or format (the
    form offers only those that do, from the same three functions above)."""
    variant, fmt = tournament.variant, tournament.format
    if not tie_breaks_apply(fmt) and tournament.tie_breaks == []:
        tournament.tie_breaks = default_tie_breaks()  # none chosen: the default, unused
    chosen = tournament.tie_breaks != default_tie_breaks()  # the default is no choice
    if chosen and not tie_breaks_apply(fmt):
        raise ApplicationError(
            _("%(format)s ranks by the bracket: it has no tie-breaks."),
            code="tie-breaks-not-applicable",
            params={"format": tournament.get_format_display()},
            field="tie_breaks",
        )
    if tournament.draw_scoring != DrawScoring.HALF and not draws_apply(variant):
        raise ApplicationError(
            _("%(variant)s has no draws (L10): a draw's score is not its setting."),
            code="draw-scoring-not-applicable",
            params={"variant": tournament.get_variant_display()},
            field="draw_scoring",
            rule="L10",
        )
    if tournament.first_move not in first_moves_of(variant):
        raise ApplicationError(
            _(
                "%(variant)s has no lot: black starts (Z1); later games are started by the "
                "loser, the winner or alternately."
            ),
            code="first-move-not-applicable",
            params={"variant": tournament.get_variant_display()},
            field="first_move",
            rule="Z1",
        )


def lengths_by_stage_check(tournament: Tournament) -> None:
    """The series lengths by knockout stage: stages the format's bracket has, each 1 to
    99 points or games long (none for a format without a bracket)."""
    lengths = tournament.lengths_by_stage
    if lengths in (None, {}):
        tournament.lengths_by_stage = {}
        return
    if not isinstance(lengths, dict):
        raise ApplicationError(
            _("The lengths by stage are a stage → length mapping."),
            code="lengths-by-stage-shape",
            field="lengths_by_stage",
        )
    for stage, length in lengths.items():
        if not stage_known(tournament.format, stage):
            raise ApplicationError(
                _("%(format)s has no stage %(stage)s."),
                code="lengths-by-stage-unknown",
                params={"format": tournament.get_format_display(), "stage": stage},
                field="lengths_by_stage",
            )
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= 99:
            raise ApplicationError(
                _("A series of the stage %(stage)s is 1 to 99 long."),
                code="lengths-by-stage-length",
                params={"stage": stage},
                field="lengths_by_stage",
            )


def integers_check(instance: Model) -> None:
    """Integers within their columns' range on every database (SQLite's is wider than
    PostgreSQL's, which would refuse the value with a server error)."""
    for field in instance._meta.concrete_fields:
        bounds = BaseDatabaseOperations.integer_field_ranges.get(field.get_internal_type())
        value = getattr(instance, field.attname)
        if bounds is None or isinstance(value, bool) or not isinstance(value, int):
            continue
        low, high = bounds
        if not low <= value <= high:
            raise ApplicationError(
                _("%(field)s must be between %(low)d and %(high)d."),
                code="integer-range",
                params={"field": field.verbose_name, "low": low, "high": high},
                field=field.name,
            )


def tournament_settings_check(settings: dict[str, Any]) -> None:
    unknown = sorted(set(settings) - TOURNAMENT_SETTINGS)
    if unknown:
        raise ApplicationError(
            _("%(field)s is not a tournament setting."),
            code="unknown-setting",
            params={"field": unknown[0]},
            field=unknown[0],
        )


@transaction.atomic
def tournament_create(*, name: str, start_date: Any, **settings: Any) -> Tournament:
    """A new tournament; the settings are the model's fields (checked here)."""
    tournament_settings_check(settings)
    tournament = Tournament(name=name, start_date=start_date, **settings)
    tournament_check(tournament)
    tournament.save()
    return tournament


def seed_check(seed: int | None) -> None:
    """Raise ApplicationError unless ``seed`` is none or in range."""
    if seed is not None and not 1 <= seed <= MAX_SEED:
        raise ApplicationError(
            _("A seed is between 1 and %(n)d."), code="seed-range", params={"n": MAX_SEED},
            field="seed",
        )  # fmt: skip


FIXED_PLAYER_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN)


def entries_open_check(*, tournament: Tournament) -> None:
    """Raise ApplicationError when no player may join any more: a round robin's schedule
    is made for its players (the Berger tables), so once a round of it is paired a
    player entered late would have no games. Every way in asks this: the players page,
    the API, the admin, a CSV list, a player's own request."""
    if tournament.format in FIXED_PLAYER_FORMATS and tournament.rounds.exists():
        raise ApplicationError(
            _("The round robin is paired already: a player entered now would have no games. "
              "Enter players before round 1 is paired, or delete the rounds paired so far."),
            code="round-robin-paired",
            field="player",
        )  # fmt: skip


def entry_check(*, tournament: Tournament, player: Player, seed: int | None = None) -> None:
    """Raise ApplicationError unless the player may be registered (once, with a seed in
    range, while the tournament takes players: ``entries_open_check``)."""
    seed_check(seed)
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise ApplicationError(
            _("%(player)s is already registered"),
            code="already-registered",
            params={"player": player.name},
            field="player",
        )
    entries_open_check(tournament=tournament)


def entry_register(*, tournament: Tournament, player: Player, seed: int | None = None) -> Entry:
    """Register a player for a tournament (once)."""
    entry_check(tournament=tournament, player=player, seed=seed)
    return Entry.objects.create(tournament=tournament, player=player, seed=seed)


def round_number(*, tournament: Tournament, number: int | None = None) -> int:
    """The number a new round gets (``number``, else the next); refused if taken."""
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    number = number or (last or 0) + 1
    if not 1 <= number <= MAX_ROUND:
        raise ApplicationError(
            _("A round's number is between 1 and %(n)d."), code="round-number-range",
            params={"n": MAX_ROUND}, field="number",
        )  # fmt: skip
    if tournament.rounds.filter(number=number).exists():
        raise ApplicationError(
            _("round %(number)s already exists"),
            code="round-exists",
            params={"number": number},
            field="number",
        )
    return number


def round_create(*, tournament: Tournament, number: int | None = None, name: str = "") -> Round:
    """The next round (or round ``number``)."""
    number = round_number(tournament=tournament, number=number)
    return Round.objects.create(tournament=tournament, number=number, name=name)


def series_check(
    *,
    tournament: Tournament,
    player1: Player | None,
    player2: Player | None,
    round: Round | None = None,
) -> None:
    """Raise ApplicationError unless the two (registered) players may be paired."""
    if player1 is not None and player1 == player2:
        raise ApplicationError(
            _("a player cannot play against himself"), code="pair-self", field="player2"
        )
    if round is not None and round.tournament_id != tournament.pk:
        raise ApplicationError(
            _("the round belongs to another tournament"), code="round-elsewhere", field="round"
        )
    registered = set(
        Entry.objects.filter(tournament=tournament, withdrawn=False).values_list(
            "player_id", flat=True
        )
    )
    for field, player in (("player1", player1), ("player2", player2)):
        if player is None:
            continue
        if player.pk not in registered:
            raise ApplicationError(
                _("%(name)s is not registered for the tournament."),
                code="not-registered",
                params={"name": player.name},
                field=field,
            )
        if round is not None and (
            round.series.filter(player1=player).exists()
            or round.series.filter(player2=player).exists()
        ):
            raise ApplicationError(
                _("%(player)s already plays in round %(number)s"),
                code="already-in-round",
                params={"player": player.name, "number": round.number},
                field=field,
            )


@transaction.atomic
def series_create(
    *,
    tournament: Tournament,
    player1: Player | None,
    player2: Player | None,
    round: Round | None = None,
    table: int | None = None,
    slot: str = "",
    length: int | None = None,
) -> Series:
    """Pair two registered players (or leave a bracket slot open: None)."""
    series_check(tournament=tournament, player1=player1, player2=player2, round=round)
    if table is not None and not 1 <= table <= MAX_SEED:
        raise ApplicationError(
            _("A table is between 1 and %(n)d."), code="table-range", params={"n": MAX_SEED},
            field="table",
        )  # fmt: skip
    if length is not None and not 1 <= length <= 99:
        raise ApplicationError(_("A series is 1 to 99 long."), code="length-range", field="length")
    return Series.objects.create(
        tournament=tournament, round=round, player1=player1, player2=player2, table=table,
        slot=slot, length=length,
    )  # fmt: skip


@transaction.atomic
def series_forfeit(*, series: Series, winner: Player) -> Series:
    """The series is won by ``winner`` without (further) play."""
    series = Series.objects.select_for_update(of=("self",)).get(pk=series.pk)
    if series.status in CLOSED_STATUSES:
        raise ApplicationError(
            _("the series is already %(status)s"),
            code="series-decided",
            params={"status": series.get_status_display()},
        )
    if winner.pk not in (series.player1_id, series.player2_id):
        raise ApplicationError(
            _("%(player)s does not play in this series"),
            code="player-not-in-series",
            params={"player": winner.name},
            field="winner",
        )
    series.status = SeriesStatus.FORFEITED
    series.winner = winner
    series.finished_at = timezone.now()
    series.version += 1
    series.save()
    from tournaments.selectors.brackets import BRACKET_FORMATS
    from tournaments.services.pairings import bracket_sync

    if series.tournament.format in BRACKET_FORMATS:
        bracket_sync(tournament=series.tournament)
    return series
