"""Merging two players who are one person, and undoing it (docs/director_rounds.md).

``player_merge``: the kept player takes every row that pointed at the absorbed one -
entries, series, games, submitted results, pairs kept apart, requests to play, the
rating histories - and the absorbed player's account; the absorbed player's own ratings
(its start) are set aside, its row deleted, and the ratings of every game either played
are replayed from scratch (services/ratings.py). Who may: staff, or a user who directs
every tournament either player is entered in. Refused when both play in one tournament
(their series may be against each other, and a tournament holds a player once: remove
one entry before pairing) and when both have accounts (two people sign in: only they can
say which is theirs).

``player_merge_undo``: until the next change of any rating, the merge goes back - the
absorbed player is made again with its id, its rows and account return, and the ratings
are replayed again."""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    F,
    ForeignObjectRel,
    Max,
    Model,
    Q,
    Value,
    When,
)
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.caching import people_changed, tournaments_touch
from tournaments.models import (
    Entry,
    Player,
    PlayerMerge,
    PlayerRating,
    RatingChange,
    Series,
    Tournament,
)
from tournaments.models.merging import REASON_MAX
from tournaments.selectors.access import User, is_staff, signed_in
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.ratings import ratings_recompute

# the player's own fields kept for an undo (the id is kept apart)
OWN_FIELDS = ("name", "gender", "club_id", "country", "contact", "active", "user_id")


def _relations() -> dict[type[Model], list[str]]:
    """Every model's fields that point at a player, read from the models (a new relation
    is moved without a change here). The ratings are not among them: the absorbed
    player's start ratings are set aside whole, the histories replayed."""
    found: dict[type[Model], list[str]] = {}
    for rel in Player._meta.get_fields(include_hidden=True):
        if isinstance(rel, ForeignObjectRel) and isinstance(rel.related_model, type):
            model = rel.related_model
            if model in (PlayerRating, RatingChange, PlayerMerge):
                continue  # set aside whole / replayed from the series / the audit
            found.setdefault(model, []).append(rel.field.name)
    return found


def _repoint(model: type[Model], fields: list[str], picks: dict[str, Q], to: int) -> None:
    """One UPDATE that points ``to`` each of ``fields`` where its pick holds: a row's
    players change together (a series' winner stays one of its two players)."""
    rows = model._default_manager.filter(reduce(operator.or_, picks.values()))
    rows.update(**{
        f: Case(When(picks[f], then=Value(to)), default=F(f), output_field=BigIntegerField())
        for f in fields
        if f in picks
    })  # fmt: skip


def _key(model: type[Model], field: str) -> str:
    return f"{model._meta.label}.{field}"


def merge_tournaments(*, kept: Player, absorbed: Player) -> list[Tournament]:
    """The tournaments either player is entered in or paired in."""
    ids = set(
        Entry.objects.filter(player__in=[kept, absorbed]).values_list("tournament", flat=True)
    )
    for field in ("player1", "player2"):
        ids |= set(
            Series.objects.filter(**{f"{field}__in": [kept, absorbed]}).values_list(
                "tournament", flat=True
            )
        )
    return list(Tournament.objects.filter(pk__in=ids).order_by("start_date", "pk"))


def may_merge(user: User | None, *, kept: Player, absorbed: Player) -> bool:
    """Staff, or a user who directs every tournament either player plays in (at least
    one: two players of no tournament are the list's, which staff keep)."""
    if is_staff(user):
        return True
    account = signed_in(user)
    if account is None:
        return False
    tournaments = merge_tournaments(kept=kept, absorbed=absorbed)
    directed = set(account.directed_tournaments.values_list("pk", flat=True))
    return bool(tournaments) and all(t.pk in directed for t in tournaments)


def merge_check(*, user: User | None, kept: Player, absorbed: Player) -> None:
    """Raise unless ``user`` may merge ``absorbed`` into ``kept`` now (the page asks it
    before offering the button, ``player_merge`` before merging: one rule)."""
    if kept.pk == absorbed.pk:
        raise ApplicationError(
            _("Choose two different players."), code="merge-same-player", field="into"
        )
    if not may_merge(user, kept=kept, absorbed=absorbed):
        raise PermissionDenied(
            _("Only staff, or the directors of every tournament both players play in, may "
              "merge them."),
            code="merge-not-allowed",
        )  # fmt: skip
    shared = Tournament.objects.filter(entries__player=kept).filter(
        entries__player=absorbed
    ) | Tournament.objects.filter(entry_requests__player=kept).filter(
        entry_requests__player=absorbed
    )
    names = sorted({t.name for t in shared})
    if names:
        raise ApplicationError(
            _("Both players are entered in %(tournaments)s: one person cannot play there "
              "twice. Remove one of the entries first (before pairing), or keep both."),
            code="merge-same-tournament",
            params={"tournaments": ", ".join(names)},
            field="into",
        )  # fmt: skip
    if kept.user_id is not None and absorbed.user_id is not None:
        raise ApplicationError(
            _("Both players have accounts: two people sign in as them. Only the owner of "
              "an account can say which player is theirs."),
            code="merge-two-accounts",
            field="into",
        )  # fmt: skip


def _rating_mark() -> list[int]:
    """The ratings' history as it stands: any rating change after it (a new row, a
    replay, a deletion) changes this."""
    row = RatingChange.objects.aggregate(last=Max("pk"), count=Count("pk"))
    return [row["last"] or 0, row["count"]]


def _variants(*players: Player) -> list[str]:
    rows = PlayerRating.objects.filter(player__in=players).values_list("variant", flat=True)
    played = RatingChange.objects.filter(player__in=players).values_list("variant", flat=True)
    return sorted(set(rows) | set(played))


def _recompute(variants: list[str]) -> None:
    for variant in variants:
        ratings_recompute(variant=variant)


def _reason(reason: str) -> str:
    reason = str(reason).strip()
    if len(reason) > REASON_MAX:
        raise ApplicationError(_("The reason is too long."), code="reason-too-long", field="reason")
    return reason


@transaction.atomic
def player_merge(*, kept: Player, absorbed: Player, by: User, reason: str = "") -> PlayerMerge:
    """Merge ``absorbed`` into ``kept`` (see the module's docstring); returns the audit
    row, which ``player_merge_undo`` takes."""
    players = Player.objects.select_for_update().filter(pk__in=[kept.pk, absorbed.pk])
    locked = {p.pk: p for p in players.order_by("pk")}
    kept, absorbed = locked[kept.pk], locked[absorbed.pk]
    merge_check(user=by, kept=kept, absorbed=absorbed)
    reason = _reason(reason)
    variants = _variants(kept, absorbed)
    touched = [t.pk for t in merge_tournaments(kept=kept, absorbed=absorbed)]
    moved: dict[str, list[int]] = {}
    for model, fields in _relations().items():
        picks = {}
        for field in fields:
            ids = sorted(model._default_manager.filter(**{field: absorbed}).values_list(
                "pk", flat=True))  # fmt: skip
            if ids:
                moved[_key(model, field)] = ids
                picks[field] = Q(**{field: absorbed})
        if picks:
            _repoint(model, fields, picks, kept.pk)
    ratings = list(
        PlayerRating.objects.filter(player=absorbed).values(
            "variant", "rating", "start_rating", "experience"
        )
    )
    for row in ratings:  # the kept player's history starts where the absorbed one's did
        if not PlayerRating.objects.filter(player=kept, variant=row["variant"]).exists():
            PlayerRating.objects.create(
                player=kept, variant=row["variant"], rating=row["start_rating"],
                start_rating=row["start_rating"],
            )  # fmt: skip
    own: dict[str, Any] = {f: getattr(absorbed, f) for f in OWN_FIELDS}
    user = absorbed.user
    absorbed_id, absorbed_name = absorbed.pk, absorbed.name
    absorbed.delete()  # its ratings go with it (kept in ``ratings``)
    if user is not None:
        kept.user = user
        kept.save(update_fields=["user"])
    _recompute(variants)
    merge = PlayerMerge.objects.create(
        kept=kept, absorbed_id=absorbed_id, absorbed_name=absorbed_name, absorbed=own,
        moved=moved, ratings=ratings, variants=variants, rating_mark=_rating_mark(),
        reason=reason, by=signed_in(by),
    )  # fmt: skip
    people_changed()
    if touched:
        tournaments_touch(where=Q(pk__in=touched))
    return merge


def merge_undo_check(*, merge: PlayerMerge, user: User | None) -> None:
    """Raise unless ``merge`` may be undone now, by ``user`` (who may merge them)."""
    if merge.undone_at is not None:
        raise ApplicationError(
            _("This merge has been undone already."), code="merge-undone-already"
        )
    if not (is_staff(user) or merge.by_id == getattr(signed_in(user), "pk", None)):
        raise PermissionDenied(
            _("Only staff, or who merged the players, may undo the merge."),
            code="merge-undo-not-allowed",
        )
    if _rating_mark() != list(merge.rating_mark):
        raise ApplicationError(
            _("Ratings have changed since the merge: it can no longer be undone."),
            code="merge-undo-too-late",
        )


@transaction.atomic
def player_merge_undo(*, merge: PlayerMerge, by: User) -> Player:
    """Undo ``merge`` (until the next rating change): the absorbed player is back with
    its id, fields, ratings, rows and account; the ratings are replayed. Returns it."""
    merge = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
    merge_undo_check(merge=merge, user=by)
    kept = Player.objects.select_for_update().get(pk=merge.kept_id)
    own = dict(merge.absorbed)
    if own.get("user_id") is not None and kept.user_id == own["user_id"]:
        kept.user = None
        kept.save(update_fields=["user"])
    try:
        with transaction.atomic():
            player = Player.objects.create(pk=merge.absorbed_id, **own)
    except IntegrityError:
        raise ApplicationError(
            _("%(name)s cannot be made again: the name (or the account) is taken meanwhile."),
            code="merge-undo-conflict",
            params={"name": merge.absorbed_name},
        ) from None
    for model, fields in _relations().items():
        picks = {
            f: Q(pk__in=merge.moved[_key(model, f)], **{f: kept})
            for f in fields
            if merge.moved.get(_key(model, f))
        }
        if picks:
            _repoint(model, fields, picks, player.pk)
    for row in merge.ratings:
        PlayerRating.objects.create(player=player, **row)
    _recompute(list(merge.variants))
    merge.undone_at, merge.undone_by = timezone.now(), signed_in(by)
    merge.save(update_fields=["undone_at", "undone_by"])
    people_changed()
    touched = [t.pk for t in merge_tournaments(kept=kept, absorbed=player)]
    if touched:
        tournaments_touch(where=Q(pk__in=touched))
    return player


def merge_undoable(merge: PlayerMerge) -> bool:
    """Whether ``merge`` can still be undone (nobody's ratings changed since)."""
    return merge.undone_at is None and _rating_mark() == list(merge.rating_mark)


__all__ = [
    "may_merge",
    "merge_check",
    "merge_tournaments",
    "merge_undo_check",
    "merge_undoable",
    "player_merge",
    "player_merge_undo",
]
