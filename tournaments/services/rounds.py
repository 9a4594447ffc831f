"""Directors' changes to a round before its results: delete it, pair it again, change its
pairings (any two players, the bye), and choose who starts game 1 of a series.

The pairing's own checks (a repeat pairing, a prohibited pair, a second bye, a Swiss float)
do not refuse a director's change: they come back as warnings, as in Tabbycat's draw
editor. What would lose a result is refused."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.engine import variant_named
from tournaments.models import (
    Format,
    Game,
    Player,
    ProhibitedPair,
    Round,
    Series,
    Submission,
    Tournament,
)
from tournaments.services.errors import ApplicationError
from tournaments.services.pairings import ROUND_FORMATS, round_generate


@dataclass(frozen=True, slots=True)
class PairingWarning:
    """A concern about one series of a round: shown, not refused."""

    series_id: int
    code: str  # repeat, prohibited, second_bye, float
    message: str


def _round_results(rnd: Round) -> None:
    """Refuse if the round has a result: a game entered or a result submitted."""
    games = Game.objects.filter(series__round=rnd).count()
    if games:
        raise ApplicationError(
            _("Round %(n)d has %(games)d games entered: its pairings can no longer change."),
            code="round-has-games",
            params={"n": rnd.number, "games": games},
            field="round",
        )
    if Submission.objects.filter(series__round=rnd).exists():
        raise ApplicationError(
            _("Round %(n)d has submitted results: decide them first."),
            code="round-has-submissions",
            params={"n": rnd.number},
            field="round",
        )


def _last_round(rnd: Round) -> None:
    later = Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number)
    if later.exists():
        raise ApplicationError(
            _("Round %(n)d is not the last round: delete the later rounds first."),
            code="round-not-last",
            params={"n": rnd.number},
            field="round",
        )


def round_delete_check(*, round: Round) -> None:
    """Raise ApplicationError unless ``round`` may be deleted: the last round, no result."""
    _last_round(round)
    _round_results(round)


def round_repair_check(*, round: Round) -> None:
    """Raise ApplicationError unless ``round`` may be paired again: a round of a Swiss or a
    round robin that may be deleted. The confirmation page asks it before offering the
    button, ``round_repair`` before pairing: one rule for both."""
    if round.tournament.format not in ROUND_FORMATS:
        raise ApplicationError(
            _("Rounds paired by hand cannot be paired again: change their pairings instead."),
            code="round-paired-by-hand",
            field="round",
        )
    round_delete_check(round=round)


@transaction.atomic
def round_delete(*, round: Round) -> int:
    """Delete the last round before any result (its series and byes go with it); returns
    the round's number."""
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    Tournament.objects.select_for_update().get(pk=rnd.tournament_id)
    round_delete_check(round=rnd)
    number = rnd.number
    rnd.delete()
    return number


@transaction.atomic
def round_repair(*, round: Round) -> Round:
    """Pair the last round again before any result: after a withdrawal, a late entry or a
    new prohibited pair, say. The new round has the same number."""
    tournament = Tournament.objects.get(pk=round.tournament_id)
    current = Round.objects.select_related("tournament").get(pk=round.pk)
    round_repair_check(round=current)
    round_delete(round=round)
    # the round was paired already, so the director's earlier decision to pair it stands
    new = round_generate(tournament=tournament, override=True)
    if not current.published:  # paired ahead (services/schedule.py): still unseen
        new.published = False
        new.save(update_fields=["published"])
    return new


def _points_before(tournament: Tournament, number: int) -> dict[int, Decimal]:
    from tournaments.selectors.standings import progress_by_round

    points: dict[int, Decimal] = {}
    for player, steps in progress_by_round(tournament=tournament).items():
        points[player] = Decimal(0)
        for key, total in steps:
            if key is not None and key < number:
                points[player] = total
    return points


def _met_before(
    series: list[Series], number: int
) -> tuple[dict[frozenset[int], int], dict[int, int]]:
    """Before round ``number``: the round where each pair first met, and where each
    player first had a bye."""
    met: dict[frozenset[int], int] = {}
    byes: dict[int, int] = {}
    for s in series:
        assert s.round is not None
        if s.round.number >= number:
            continue
        if s.player1_id and s.player2_id:
            met.setdefault(frozenset((s.player1_id, s.player2_id)), s.round.number)
        elif s.player1_id:
            byes.setdefault(s.player1_id, s.round.number)
    return met, byes


def round_warnings(*, round: Round) -> list[PairingWarning]:
    """What the pairing's checks say about the round's series: players who met before,
    prohibited pairs, a second bye, and in a Swiss round players of different scores (a
    float) whose series the pairing does not explain."""
    tournament = round.tournament
    series = list(
        Series.objects.filter(tournament=tournament, round__isnull=False)
        .select_related("round", "player1", "player2")
        .order_by("round__number", "table", "id")
    )
    met, byes = _met_before(series, round.number)
    prohibited = {
        frozenset((a, b)): reason
        for a, b, reason in ProhibitedPair.objects.filter(tournament=tournament).values_list(
            "player_a_id", "player_b_id", "reason"
        )
    }
    swiss = tournament.format == Format.SWISS
    points = _points_before(tournament, round.number) if swiss else {}
    warnings: list[PairingWarning] = []
    for s in series:
        if s.round_id != round.pk:
            continue
        names = {"a": s.player1, "b": s.player2}
        if s.player2 is None:
            if s.player1_id in byes:
                message = _("%(a)s had a bye in round %(n)d already.")
                warnings.append(
                    PairingWarning(s.pk, "second_bye", message % {**names, "n": byes[s.player1_id]})
                )
            continue
        pair = frozenset((s.player1_id or 0, s.player2_id or 0))
        if pair in met:
            message = _("%(a)s and %(b)s played each other in round %(n)d.")
            warnings.append(PairingWarning(s.pk, "repeat", message % {**names, "n": met[pair]}))
        if pair in prohibited:
            why = f" ({prohibited[pair]})" if prohibited[pair] else ""
            message = _("%(a)s and %(b)s are a prohibited pair%(why)s.")
            warnings.append(PairingWarning(s.pk, "prohibited", message % {**names, "why": why}))
        explained = s.pairing.get("floated_down") or s.pairing.get("floated_up")
        one, two = points.get(s.player1_id or 0), points.get(s.player2_id or 0)
        if swiss and not explained and one is not None and two is not None and one != two:
            message = _(
                "%(a)s (%(p)s points) and %(b)s (%(q)s points) come from different score groups."
            )
            shown = {"p": f"{one.normalize():f}", "q": f"{two.normalize():f}"}
            warnings.append(PairingWarning(s.pk, "float", message % {**names, **shown}))
    return warnings


def _seat(rnd: Round, player: Player) -> Series:
    for s in rnd.series.select_for_update(of=("self",)).select_related("player1", "player2"):
        if player.pk in (s.player1_id, s.player2_id):
            return s
    raise ApplicationError(
        _("%(name)s does not play in round %(n)d."),
        code="not-in-round",
        params={"name": player, "n": rnd.number},
        field="player",
    )


def _unstarted(series: Series) -> None:
    bye = series.player2_id is None and series.pairing.get("bye")
    if series.games.exists() or (series.closed and not bye):
        raise ApplicationError(
            _("The series %(s)s has a result: its pairing cannot change."),
            code="series-started",
            params={"s": series},
            field="player",
        )


def _place(series: Series, old: Player, new: Player) -> None:
    if series.player1_id == old.pk:
        series.player1 = new
    else:
        series.player2 = new
    series.pairing = {
        **{k: v for k, v in series.pairing.items() if k not in ("floated_down", "floated_up")},
        "reason": "changed by the director",
        "why": {"code": "director", "params": {}},  # the pairing's own reason named others
        "starter": None,
    }
    if series.player2_id is None:  # the bye moves with its player
        series.winner = series.player1
    series.save()


@transaction.atomic
def round_pairings_swap(
    *, round: Round, player_a: Player, player_b: Player
) -> list[PairingWarning]:
    """Two players of a round change places: between any two series, or with the bye (the
    bye moves). Series with a game or a result are refused; the pairing's checks on the
    changed series come back as warnings."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    _last_round(rnd)
    if player_a.pk == player_b.pk:
        raise ApplicationError(
            _("Choose two different players."), code="same-player-twice", field="player_b"
        )
    first, second = _seat(rnd, player_a), _seat(rnd, player_b)
    if first.pk == second.pk:
        raise ApplicationError(
            _("%(a)s and %(b)s already play each other."),
            code="already-paired",
            params={"a": player_a, "b": player_b},
            field="player_b",
        )
    for s in (first, second):
        _unstarted(s)
    if Submission.objects.filter(series__in=(first, second)).exists():
        raise ApplicationError(
            _("A result of these series is submitted: decide it first."),
            code="series-has-submission",
        )
    # through a free seat, so that no series holds one player twice on the way
    _place(first, player_a, player_b)
    _place(second, player_b, player_a)
    changed = {first.pk, second.pk}
    return [w for w in round_warnings(round=rnd) if w.series_id in changed]


def starter_choosable(tournament: Tournament) -> bool:
    """Whether a director may choose who starts game 1 instead of the lot: not where the
    lot is white's first roll (S2 with the opening roll ``lot``)."""
    variant = variant_named(tournament.variant)
    return not (variant.lot_is_first_roll and tournament.opening_roll == "lot")


@transaction.atomic
def series_starter_set(*, series: Series, starter: Player | None) -> Series:
    """Choose who starts game 1 of a series (L12: by lot unless the director chooses);
    ``None`` leaves it to the lot again. Only before the first game."""
    series = Series.objects.select_for_update().select_related("tournament").get(pk=series.pk)
    if not starter_choosable(series.tournament):
        raise ApplicationError(
            _("In short backgammon with the opening roll by lot, the lot is white's first "
              "roll (S2): it cannot be chosen. Set the opening roll to a fresh roll first."),
            code="starter-by-lot", field="starter", rule="S2",
        )  # fmt: skip
    if series.player1_id is None or series.player2_id is None:
        raise ApplicationError(_("A bye has no games."), code="bye-no-games", field="starter")
    if series.games.exists() or series.closed:
        raise ApplicationError(
            _("Game 1 of %(s)s is played: who starts it cannot change."),
            code="starter-fixed",
            params={"s": series},
            field="starter",
        )
    if starter is not None and starter.pk not in (series.player1_id, series.player2_id):
        raise ApplicationError(
            _("%(name)s does not play in this series."),
            code="starter-not-in-series",
            params={"name": starter},
            field="starter",
        )
    series.pairing = {**series.pairing, "starter": starter.pk if starter else None}
    series.version += 1
    series.save(update_fields=["pairing", "version"])
    return series


def series_chosen_starter(series: Series) -> Player | None:
    """The player a director chose to start game 1, if any."""
    chosen = series.pairing.get("starter") if isinstance(series.pairing, dict) else None
    for p in (series.player1, series.player2):
        if p is not None and chosen == p.pk:
            return p
    return None


__all__ = [
    "PairingWarning",
    "round_delete",
    "round_delete_check",
    "round_pairings_swap",
    "round_repair",
    "round_repair_check",
    "round_warnings",
    "series_chosen_starter",
    "series_starter_set",
    "starter_choosable",
]
