"""Pairings and brackets on the database: the algorithms of tournaments/pairing/ are pure
functions; this module only loads plain data for them and saves what they return
(STYLE.md 7, like Tabbycat's draw manager)."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.caching import tournaments_touch
from tournaments.models import (
    CLOSED_STATUSES,
    Entry,
    Format,
    Player,
    ProhibitedPair,
    Round,
    Series,
    SeriesStatus,
    Tournament,
)
from tournaments.pairing import (
    FloatDirection,
    MatchState,
    PairingError,
    SwissPlayer,
    berger_schedule,
    length_for,
    pair_swiss_round,
)
from tournaments.pairing.types import Why
from tournaments.selectors.brackets import BRACKET_FORMATS, bracket_of, seeded_players
from tournaments.selectors.brackets import seating as _seating
from tournaments.selectors.ratings import ratings_in
from tournaments.services.errors import ApplicationError, pairing_refused

BERGER_BYE = Why("berger-bye")

ROUND_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN, Format.SWISS)


@transaction.atomic
def entries_seed(*, tournament: Tournament, order: list[Player] | None = None) -> None:
    """Seed the entries: in the given order, or by the rating in the tournament's game
    when no order is given."""
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=tournament)}
    if order is None:
        active = [e.player for e in entries.values() if not e.withdrawn]
        rating = ratings_in(variant=tournament.variant, players=(p.pk for p in active))
        order = sorted(active, key=lambda p: (-rating[p.pk], p.name.casefold()))
    missing = [p for p in order if p.pk not in entries]
    if missing:
        raise ApplicationError(
            _("%(name)s is not registered for the tournament."),
            code="not-registered",
            params={"name": missing[0].name},
            field="order",
        )
    for e in entries.values():
        e.seed = None
    for number, player in enumerate(order, start=1):
        entries[player.pk].seed = number
    Entry.objects.bulk_update(list(entries.values()), ["seed"])
    tournaments_touch(ids=[tournament.pk])  # a bulk write: no signal


def _current_round_open(tournament: Tournament) -> Round | None:
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return None
    if last.series.exclude(status__in=CLOSED_STATUSES).exists():
        return last
    return None


def _bye(
    tournament: Tournament, round: Round, player: Player, table: int, why: str, code: Why
) -> Series:
    return Series.objects.create(
        tournament=tournament, round=round, player1=player, player2=None, table=table,
        status=SeriesStatus.FINISHED, winner=player, finished_at=timezone.now(),
        pairing={"reason": why, "why": code.as_dict(), "bye": True},
    )  # fmt: skip


@transaction.atomic
def round_generate(*, tournament: Tournament, override: bool = False) -> Round:
    """Pair the next round of a round robin or Swiss tournament. The current round must
    be finished, unless the director overrides."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.format not in ROUND_FORMATS:
        raise ApplicationError(
            _("a tournament played as %(format)s has no rounds to generate"),
            code="no-rounds-to-generate",
            params={"format": tournament.get_format_display()},
            field="format",
        )
    open_round = _current_round_open(tournament)
    if open_round is not None and not override:
        raise ApplicationError(
            _("round %(number)s is not finished yet (a director may override)"),
            code="round-not-finished",
            params={"number": open_round.number},
            field="override",
        )
    number = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    number += 1
    if tournament.format == Format.SWISS:
        rnd = _swiss_round(tournament, number)
    else:
        rnd = _round_robin_round(tournament, number)
    from tournaments.services.online.tournament_rooms import round_rooms_create

    round_rooms_create(round=rnd)  # a tournament played online: each series' game room
    return rnd


def _round_robin_round(tournament: Tournament, number: int) -> Round:
    players = seeded_players(tournament)
    withdrawn = list(Player.objects.filter(entries__tournament=tournament, entries__withdrawn=True))
    # withdrawn players keep their seat, so the schedule stays the one first made
    seats = [p.pk for p in players] + [p.pk for p in withdrawn]
    seating = _seating(tournament)
    try:
        schedule = berger_schedule(
            sorted(seats, key=seating.__getitem__),
            double=tournament.format == Format.DOUBLE_ROUND_ROBIN,
        )
    except PairingError as exc:
        raise pairing_refused(exc) from None
    if number > len(schedule):
        raise ApplicationError(
            ngettext(
                "all %(count)s rounds of the round robin are paired",
                "all %(count)s rounds of the round robin are paired",
                len(schedule),
            ),
            code="round-robin-complete",
            params={"count": len(schedule)},
        )
    by_id = {p.pk: p for p in [*players, *withdrawn]}
    active = {p.pk for p in players}
    rnd = Round.objects.create(tournament=tournament, number=number)
    for table, (a, b) in enumerate(schedule[number - 1], start=1):
        if b is None or b not in active:
            if a in active:
                _bye(
                    tournament,
                    rnd,
                    by_id[a],
                    table,
                    "round robin: a bye (Berger table)",
                    BERGER_BYE,
                )
            continue
        if a not in active:
            _bye(tournament, rnd, by_id[b], table, "round robin: a bye (Berger table)", BERGER_BYE)
            continue
        Series.objects.create(
            tournament=tournament, round=rnd, player1=by_id[a], player2=by_id[b], table=table,
            pairing={"reason": f"round robin, Berger table round {number}",
                     "why": Why("berger", (("round", number),)).as_dict()},
        )  # fmt: skip
    return rnd


def _swiss_history(
    tournament: Tournament,
) -> tuple[dict[int, set[int]], set[int], dict[int, dict[int, FloatDirection]]]:
    """Who met whom, who had a bye, and who floated (down or up) in which round."""
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: set[int] = set()
    floats: dict[int, dict[int, FloatDirection]] = defaultdict(dict)
    series = Series.objects.filter(tournament=tournament).select_related("round")
    for s in series:
        if s.player1_id and s.player2_id:
            opponents[s.player1_id].add(s.player2_id)
            opponents[s.player2_id].add(s.player1_id)
        elif s.player1_id:
            byes.add(s.player1_id)
        played_in = s.round.number if s.round else 0
        directions: tuple[tuple[str, FloatDirection], ...] = (
            ("floated_down", "down"),
            ("floated_up", "up"),
        )
        for key, direction in directions:
            if s.pairing.get(key):
                floats[s.pairing[key]][played_in] = direction
    return opponents, byes, floats


def _swiss_round(tournament: Tournament, number: int) -> Round:
    from tournaments.selectors.standings import standings_for_tournament

    if tournament.swiss_rounds and number > tournament.swiss_rounds:
        raise ApplicationError(
            ngettext(
                "all %(count)s Swiss rounds are paired",
                "all %(count)s Swiss rounds are paired",
                tournament.swiss_rounds,
            ),
            code="swiss-complete",
            params={"count": tournament.swiss_rounds},
        )
    players = seeded_players(tournament)
    if len(players) < 2:
        raise ApplicationError(
            _("a Swiss round needs at least two players"), code="too-few-players"
        )
    points = {row.player_id: row.points for row in standings_for_tournament(tournament=tournament)}
    opponents, byes, floats = _swiss_history(tournament)
    swiss = [
        SwissPlayer(
            p.pk,
            points.get(p.pk, Decimal(0)),
            rank,
            p.pk in byes,
            frozenset(opponents[p.pk]),
            tuple(floats[p.pk].get(r) for r in range(1, number)),
        )
        for rank, p in enumerate(players, start=1)
    ]
    prohibited = {
        frozenset((a, b))
        for a, b in ProhibitedPair.objects.filter(tournament=tournament).values_list(
            "player_a_id", "player_b_id"
        )
    }
    try:
        result = pair_swiss_round(swiss, prohibited=prohibited)
    except PairingError as exc:
        names = {p.pk: p.name for p in players}
        raise pairing_refused(exc, names).within(
            _("round %(number)s: %(message)s"), number=number
        ) from None
    by_id = {p.pk: p for p in players}
    rnd = Round.objects.create(tournament=tournament, number=number)
    table = 0
    for table, pair in enumerate(result.pairs, start=1):
        Series.objects.create(
            tournament=tournament, round=rnd, player1=by_id[pair.first],
            player2=by_id[pair.second], table=table,
            pairing={"reason": pair.reason, "floated_down": pair.floated_down,
                     "floated_up": pair.floated_up, "why": pair.why and pair.why.as_dict()},
        )  # fmt: skip
    if result.bye is not None:
        _bye(tournament, rnd, by_id[result.bye], table + 1, result.bye_reason or "a bye",
             result.bye_why or Why("bye"))  # fmt: skip
    return rnd


# brackets -------------------------------------------------------------------


@transaction.atomic
def bracket_create(*, tournament: Tournament) -> int:
    """Seed an elimination event (by the entries' seeds, else by rating) and create the
    series that can be played; returns how many."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.format not in BRACKET_FORMATS:
        raise ApplicationError(
            _("a tournament played as %(format)s has no bracket"),
            code="no-bracket",
            params={"format": tournament.get_format_display()},
        )
    if tournament.series.exists():
        raise ApplicationError(_("the bracket is already made"), code="bracket-made")
    if not Entry.objects.filter(tournament=tournament, seed__isnull=False).exists():
        entries_seed(tournament=tournament)
    return bracket_sync(tournament=tournament)


def _bracket_series(
    tournament: Tournament, match_id: str, m: MatchState[int], one: int | None, two: int | None
) -> Series:
    """The series of a bracket match whose players are known (a bye when ``two`` is None)."""
    length = length_for(m.match.stage, tournament.lengths_by_stage or {},
                        tournament.series_length)  # fmt: skip
    series = Series(
        tournament=tournament, slot=match_id, player1_id=one, player2_id=two,
        length=None if length == tournament.series_length else length,
        pairing={"reason": f"{m.match.bracket} bracket, {m.match.stage}",
                 "why": {"code": "bracket", "params": {"bracket": m.match.bracket,
                         "round": m.match.round, "stage": m.match.stage}}},
    )  # fmt: skip
    if two is None:
        series.status, series.winner_id = SeriesStatus.FINISHED, one
        series.finished_at = timezone.now()
        series.pairing = {
            "reason": "a bye in the bracket",
            "bye": True,
            "why": {"code": "bracket-bye", "params": {}},
        }
    series.save()
    return series


def _bracket_results(existing: dict[str, Series]) -> dict[str, int]:
    """The winning side (0: first, 1: second) of each bracket series decided by play."""
    results = {}
    for slot, s in existing.items():
        if s.status in CLOSED_STATUSES and s.winner_id is not None and s.player2_id is not None:
            results[slot] = 0 if s.winner_id == s.player1_id else 1
    return results


def bracket_fed_by(*, series: Series) -> list[Series]:
    """The later bracket series that ``series``' result put a player into (its winner,
    or its loser in double elimination): a game deleted reopens it, services/deletion.py.
    Empty outside brackets and for a series not decided by play."""
    tournament = series.tournament
    if (
        tournament.format not in BRACKET_FORMATS or not series.slot
        or series.status not in CLOSED_STATUSES or series.player2_id is None
    ):  # fmt: skip
        return []
    fed = {
        m.id for m in bracket_of(tournament).matches
        if any(getattr(source, "match", None) == series.slot for source in m.sources)
    }  # fmt: skip
    return list(
        Series.objects.filter(tournament=tournament, slot__in=fed)
        .select_related("player1", "player2")
        .order_by("slot")
    )


def bracket_sync(*, tournament: Tournament) -> int:
    """Move winners (and, in double elimination, losers) on: every bracket match whose
    players are known gets its series; a series whose earlier result changed is updated
    while it has no games. Returns the number of series created or changed."""
    bracket = bracket_of(tournament)
    existing = {s.slot: s for s in Series.objects.filter(tournament=tournament)}
    results = _bracket_results(existing)
    try:
        state = bracket.advance(results)
    except PairingError as exc:
        raise pairing_refused(exc) from None
    changed = 0
    players = {p.pk: p for p in Player.objects.filter(entries__tournament=tournament)}
    for match_id, m in state.matches.items():
        if m.status not in ("ready", "walkover", "played"):
            continue
        one, two = m.players
        if m.status == "walkover":
            one, two = (one or two), None
        series = existing.get(match_id)
        if series is None:
            _bracket_series(tournament, match_id, m, one, two)
            changed += 1
        elif (series.player1_id, series.player2_id) != (one, two):
            if series.games.exists():
                raise ApplicationError(
                    _("%(match)s has games already: its players cannot change now "
                      "(%(one)s - %(two)s)"),
                    code="bracket-series-started",
                    params={"match": match_id, "one": players.get(one or 0),
                            "two": players.get(two or 0)},
                )  # fmt: skip
            series.player1_id, series.player2_id = one, two
            series.save(update_fields=["player1", "player2"])
            changed += 1
    from tournaments.services.online.tournament_rooms import bracket_rooms_open

    bracket_rooms_open(tournament=tournament)  # played online: the next stage's rooms open
    return changed


# director's changes -----------------------------------------------------------


def _not_started(series: Series) -> None:
    if series.games.exists() or series.status in CLOSED_STATUSES:
        raise ApplicationError(
            _("the series %(series)s has started: its pairing cannot change"),
            code="swap-series-started",
            params={"series": str(series)},
        )


@transaction.atomic
def series_swap(*, first: Series, second: Series, player_a: Player, player_b: Player) -> None:
    """Swap two players between two series of the same round before they start."""
    if first.round_id is None or first.round_id != second.round_id or first.pk == second.pk:
        raise ApplicationError(
            _("swap players between two series of the same round"), code="swap-same-round"
        )
    for s in (first, second):
        _not_started(s)
    if player_a.pk not in (first.player1_id, first.player2_id):
        raise ApplicationError(
            _("%(player)s does not play in %(series)s"),
            code="player-not-in-that-series",
            params={"player": player_a.name, "series": str(first)},
            field="player_a",
        )
    if player_b.pk not in (second.player1_id, second.player2_id):
        raise ApplicationError(
            _("%(player)s does not play in %(series)s"),
            code="player-not-in-that-series",
            params={"player": player_b.name, "series": str(second)},
            field="player_b",
        )
    for s, old, new in ((first, player_a, player_b), (second, player_b, player_a)):
        if s.player1_id == old.pk:
            s.player1 = new
        else:
            s.player2 = new
        s.pairing = {
            **s.pairing,
            "reason": "changed by the director",
            "why": {"code": "director", "params": {}},
        }
        s.save()


@transaction.atomic
def entry_withdraw(*, tournament: Tournament, player: Player) -> int:
    """Withdraw a player: the remaining series are forfeited to the opponents or
    cancelled, as the tournament sets. Returns how many series it touched."""
    entry = Entry.objects.select_for_update().filter(tournament=tournament, player=player).first()
    if entry is None:
        raise ApplicationError(
            _("%(name)s is not registered for the tournament."),
            code="not-registered",
            params={"name": player.name},
            field="player",
        )
    if entry.withdrawn:
        raise ApplicationError(
            _("%(player)s has already withdrawn"),
            code="already-withdrawn",
            params={"player": player.name},
            field="player",
        )
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    from tournaments.services.online.tournament_rooms import player_rooms_close

    player_rooms_close(tournament=tournament, player_id=player.pk)  # played online
    remaining = (
        Series.objects.filter(tournament=tournament)
        .exclude(status__in=CLOSED_STATUSES)
        .filter(Q(player1=player) | Q(player2=player))
    )
    touched = 0
    for s in remaining:
        opponent = s.player2 if s.player1_id == player.pk else s.player1
        if tournament.withdrawal == "cancel" and not s.games.exists():
            s.delete()
        elif opponent is not None:
            s.status, s.winner, s.finished_at = SeriesStatus.FORFEITED, opponent, timezone.now()
            s.pairing = {**s.pairing, "forfeit": f"{player} withdrew"}
            s.save()
        touched += 1
    if tournament.format in BRACKET_FORMATS:
        bracket_sync(tournament=tournament)
    return touched


@transaction.atomic
def entry_late(*, tournament: Tournament, player: Player) -> Entry:
    """A late entry in a Swiss tournament: paired from the next round on, with no points
    for the rounds missed."""
    if tournament.format != Format.SWISS:
        raise ApplicationError(
            _("late entries join Swiss tournaments only"), code="late-entry-swiss", field="player"
        )
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise ApplicationError(
            _("%(player)s is already registered"),
            code="already-registered",
            params={"player": player.name},
            field="player",
        )
    return Entry.objects.create(tournament=tournament, player=player)
