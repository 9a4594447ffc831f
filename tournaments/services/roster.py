"""A director's people: entries (register, remove before pairing, withdraw and undo),
co-directors and the pairs that must not meet. Every door (pages, API) calls these."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models import Entry, Player, ProhibitedPair, Series, Tournament
from tournaments.models import SeriesStatus as Status
from tournaments.selectors.people import players_similar
from tournaments.services.errors import ApplicationError, Conflict
from tournaments.services.people import club_for_player, player_create
from tournaments.services.series import series_recompute
from tournaments.services.setup import entries_open_check, entry_register


class SimilarNames(Conflict):
    """A new player's name looks like existing players': ``players`` are they, and
    ``current`` says the same as plain data (for the API's 409)."""

    def __init__(self, message: str, *, players: list[Player], field: str | None = None):
        current = [
            {"id": p.pk, "name": p.name, "club": p.club.name if p.club else None} for p in players
        ]
        super().__init__(message, current=current, field=field)
        self.players = players


def _entry(tournament: Tournament, player: Player, *, lock: bool = False) -> Entry:
    rows = Entry.objects.select_for_update() if lock else Entry.objects
    entry = rows.filter(tournament=tournament, player=player).first()
    if entry is None:
        raise ApplicationError(
            _("%(name)s is not registered for the tournament."),
            code="not-registered",
            params={"name": player.name},
            field="player",
        )
    return entry


@transaction.atomic
def entry_register_new(
    *,
    tournament: Tournament,
    name: str,
    club: str = "",
    rating: float | None = None,
    seed: int | None = None,
    force: bool = False,
    gender: str | None = None,
) -> Entry:
    """Make a new player and register them (``gender``: player_create's); refused with
    the similar existing players (``SimilarNames``) unless ``force``: typing "Eva
    Kucerova" when "Eva Kučerová" exists is a second entry of the same person far more
    often than a namesake.

    ``club`` is a club's name, found as a players CSV finds it (case ignored) or made;
    ``rating`` is where the player's rating history starts, in the CSV's range."""
    entries_open_check(tournament=tournament)  # before offering similar names to choose
    if not force:
        similar = players_similar(name=name)
        if similar:
            raise SimilarNames(
                _(
                    "A player with a similar name exists: %(names)s. Choose them, or confirm "
                    "that this is somebody else."
                )
                % {"names": ", ".join(p.name for p in similar)},
                players=similar,
                field="new_name",
            )
    player = player_create(
        name=name, club=club_for_player(name=club), rating=rating, variant=tournament.variant,
        gender=gender,
    )  # fmt: skip
    return entry_register(tournament=tournament, player=player, seed=seed)


def _series_of(tournament: Tournament, player: Player) -> Q:
    return Q(tournament=tournament) & (Q(player1=player) | Q(player2=player))


@transaction.atomic
def entry_remove(*, tournament: Tournament, player: Player) -> None:
    """Take a player off the list before they are paired (a mistake, a duplicate);
    once paired, a player withdraws instead and their results stay."""
    entry = _entry(tournament, player, lock=True)
    if Series.objects.filter(_series_of(tournament, player)).exists():
        raise ApplicationError(
            _("%(name)s is paired already: withdraw them instead."),
            code="paired-already",
            params={"name": player.name},
            field="player",
        )
    ProhibitedPair.objects.filter(tournament=tournament).filter(
        Q(player_a=player) | Q(player_b=player)
    ).delete()
    entry.delete()


def _forfeited_by_withdrawal(tournament: Tournament, player: Player) -> list[Series]:
    """The series that ``entry_withdraw`` forfeited to the opponent (marked "forfeit")."""
    rows = Series.objects.filter(_series_of(tournament, player), status=Status.FORFEITED)
    return [
        s
        for s in rows.select_related("tournament").order_by("pk")
        if s.pairing.get("forfeit") and s.winner_id not in (None, player.pk)
    ]


def withdrawal_effects(*, tournament: Tournament, player: Player) -> list[Series]:
    """What undoing ``player``'s withdrawal gives back: the series forfeited by it."""
    return _forfeited_by_withdrawal(tournament, player)


@transaction.atomic
def entry_reinstate(*, tournament: Tournament, player: Player) -> int:
    """Undo a withdrawal: the player is paired again from the next round, and the series
    forfeited by the withdrawal are open again (scored from their games). Series the
    withdrawal cancelled were deleted: the director pairs them again. Returns how many
    series were reopened."""
    entry = _entry(tournament, player, lock=True)
    if not entry.withdrawn:
        raise ApplicationError(
            _("%(name)s has not withdrawn."),
            code="not-withdrawn",
            params={"name": player.name},
            field="player",
        )
    forfeited = _forfeited_by_withdrawal(tournament, player)
    from tournaments.selectors.brackets import BRACKET_FORMATS

    if forfeited and tournament.format in BRACKET_FORMATS:
        raise ApplicationError(
            _("The withdrawal moved the opponents on in the bracket: it cannot be undone."),
            code="withdrawal-final",
            field="player",
        )
    entry.withdrawn = False
    entry.save(update_fields=["withdrawn"])
    reopened = 0
    for s in forfeited:
        s.pairing = {k: v for k, v in s.pairing.items() if k != "forfeit"}
        s.status, s.winner, s.finished_at = Status.SCHEDULED, None, None
        s.version += 1
        s.save()
        series_recompute(series=s)
        reopened += 1
    return reopened


# co-directors -------------------------------------------------------------------------


def _user_named(username: str) -> User:
    user = User.objects.filter(username=str(username).strip()).first()
    if user is None:
        raise ApplicationError(
            _("There is no user %(name)s."),
            code="no-such-user",
            params={"name": username},
            field="username",
        )
    return user


@transaction.atomic
def tournament_director_add(*, tournament: Tournament, username: str) -> User:
    """Let another user direct the tournament (they need an account first)."""
    user = _user_named(username)
    if tournament.directors.filter(pk=user.pk).exists():
        raise ApplicationError(
            _("%(name)s directs the tournament already."),
            code="director-already",
            params={"name": username},
            field="username",
        )
    tournament.directors.add(user)
    return user


@transaction.atomic
def tournament_director_remove(*, tournament: Tournament, username: str) -> None:
    """A director stops directing; the last one stays (a tournament needs somebody)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    user = _user_named(username)
    if not locked.directors.filter(pk=user.pk).exists():
        raise ApplicationError(
            _("%(name)s does not direct the tournament."),
            code="not-a-director",
            params={"name": username},
            field="username",
        )
    if locked.directors.count() == 1:
        raise ApplicationError(
            _("The last director cannot be removed: add another first."),
            code="last-director",
            field="username",
        )
    locked.directors.remove(user)


# pairs that must not meet ---------------------------------------------------------------


@transaction.atomic
def prohibited_pair_add(
    *, tournament: Tournament, player_a: Player, player_b: Player, reason: str = ""
) -> ProhibitedPair:
    """Two registered players who must not be paired against each other (Swiss rounds
    keep them apart; a round robin pairs everyone, so it only warns)."""
    if player_a.pk == player_b.pk:
        raise ApplicationError(
            _("Choose two different players."), code="same-player-twice", field="player_b"
        )
    for field, player in (("player_a", player_a), ("player_b", player_b)):
        if not Entry.objects.filter(tournament=tournament, player=player).exists():
            raise ApplicationError(
                _("%(name)s is not registered for the tournament."),
                code="not-registered",
                params={"name": player.name},
                field=field,
            )
    reason = str(reason).strip()
    if len(reason) > ProhibitedPair._meta.get_field("reason").max_length:  # type: ignore[operator]
        raise ApplicationError(_("The reason is too long."), code="reason-too-long", field="reason")
    low, high = sorted((player_a, player_b), key=lambda p: p.pk)
    pairs = ProhibitedPair.objects.select_for_update().filter(tournament=tournament)
    if pairs.filter(Q(player_a=low, player_b=high) | Q(player_a=high, player_b=low)).exists():
        raise ApplicationError(
            _("These two are kept apart already."), code="prohibited-already", field="player_b"
        )
    return ProhibitedPair.objects.create(
        tournament=tournament, player_a=low, player_b=high, reason=reason
    )


def prohibited_pair_remove(*, pair: ProhibitedPair) -> None:
    """The two players may meet again."""
    pair.delete()


__all__ = [
    "SimilarNames",
    "entry_register_new",
    "entry_reinstate",
    "entry_remove",
    "prohibited_pair_add",
    "prohibited_pair_remove",
    "tournament_director_add",
    "tournament_director_remove",
    "withdrawal_effects",
]
