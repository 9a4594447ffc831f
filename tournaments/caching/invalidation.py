"""Invalidation: every write bumps the versions the cached pages are keyed by
(docs/caching.md).

Every write that changes what a tournament's pages show bumps ``Tournament.cache_version``
(to ``max(version + 1, now in microseconds)``: never a number given out before, even after
a database restore) in the write's own transaction: the model signals below catch every
``save()`` and ``delete()`` of the models the pages read (a new service is covered without
knowing about caches), and the few bulk writes call ``tournaments_touch`` themselves. A
reader builds its key from the version, so a stale entry is never found again, whichever
process or cache (Redis, local memory) stored it, and an entry is never deleted, only left
to expire. Visitors read the versions from the shared cache: every bump renews their
generations there, at once and on commit (generations.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Q
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete

from tournaments.caching.generations import generations_bump, tournament_gen, tournaments_bumped
from tournaments.models import (
    Club,
    Correction,
    Entry,
    Game,
    GameAnalysis,
    Player,
    PlayerRating,
    ProhibitedPair,
    Round,
    Series,
    Submission,
    Tournament,
)
from tournaments.models.tournament import new_cache_version


def tournaments_touch(*, ids: Iterable[int] | None = None, where: Q | None = None) -> None:
    """Bump the cache version of the given tournaments (or of those matching ``where``):
    one UPDATE, in the caller's transaction; their generations in the shared cache get
    new tokens now and on commit (generations.py). Once a transaction: tournaments it
    has bumped already (and not rolled back) are not bumped again; given by id, they
    cost no query."""
    qs = Tournament.objects.all()
    done = tournaments_bumped()
    if ids is not None:
        qs = qs.filter(pk__in=[pk for pk in ids if pk not in done])
    if where is not None:
        qs = qs.filter(where)
        if done:
            qs = qs.exclude(pk__in=done)
    # one statement that also says which tournaments it bumped (no signal tells)
    try:
        inner, params = qs.values("pk").query.sql_with_params()
    except EmptyResultSet:  # no ids given
        return
    table, column = Tournament._meta.db_table, Tournament._meta.get_field("cache_version").column
    # max(version + 1, now): never a version given out before a database restore
    # (new_cache_version); CASE, not GREATEST: SQLite has none
    sql = (
        f'UPDATE "{table}" SET "{column}" = CASE WHEN "{column}" + 1 > %s '  # our names,
        f'THEN "{column}" + 1 ELSE %s END WHERE "id" IN ({inner}) RETURNING "id"'  # not input
    )
    now = new_cache_version()
    with connection.cursor() as cursor:
        cursor.execute(sql, (now, now, *params))
        bumped = [row[0] for row in cursor.fetchall()]
    generations_bump(map(tournament_gen, bumped), tournaments=bumped)


def people_changed() -> None:
    """A write no tournament's version follows (players, clubs, ratings): the lists and
    the player pages read again (generations.py)."""
    generations_bump(())


def tournaments_touch_players(*, player_ids: Iterable[int]) -> None:
    """A player's name, club or rating shows on the pages of every tournament they play in."""
    ids = list(player_ids)
    if ids:
        tournaments_touch(where=Q(pk__in=Entry.objects.filter(player__in=ids).values("tournament")))


# --- the writes: every save and delete of what the pages read bumps its tournament ---


def _touch_tournament(sender: Any, instance: Any, **kwargs: Any) -> None:
    pk = instance.tournament_id if not isinstance(instance, Tournament) else instance.pk
    if pk is not None:
        tournaments_touch(ids=[pk])


def _touch_by_series(sender: Any, instance: Any, **kwargs: Any) -> None:
    if sender.series.is_cached(instance):  # the series at hand: its tournament by id
        tournaments_touch(ids=[instance.series.tournament_id])
    else:
        tournaments_touch(where=Q(series=instance.series_id))


def _touch_by_game(sender: Any, instance: Correction | GameAnalysis, **kwargs: Any) -> None:
    game = instance.game if sender.game.is_cached(instance) else None
    if game is not None and Game.series.is_cached(game):
        tournaments_touch(ids=[game.series.tournament_id])
    else:
        tournaments_touch(where=Q(series__games=instance.game_id))


def _touch_by_player(sender: Any, instance: Player, **kwargs: Any) -> None:
    tournaments_touch_players(player_ids=[instance.pk])
    people_changed()  # the player's own page and the API's lists, entered or not


def _touch_by_rating(sender: Any, instance: PlayerRating, **kwargs: Any) -> None:
    tournaments_touch_players(player_ids=[instance.player_id])
    people_changed()


def _touch_by_club(sender: Any, instance: Club, **kwargs: Any) -> None:
    tournaments_touch(
        where=Q(pk__in=Entry.objects.filter(player__club=instance.pk).values("tournament"))
    )
    people_changed()


def _people_deleted(sender: Any, **kwargs: Any) -> None:
    people_changed()


def _corrected_by(user_pk: int) -> Q:
    """The tournaments whose pages show a login by name: the corrections it made (series
    and game pages, the API's games)."""
    return Q(pk__in=Correction.objects.filter(by=user_pk).values("game__series__tournament"))


def _login_saved(
    sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    """A login renamed (the admin, or any ``save()``): the pages naming it read again.
    A new login is named nowhere yet; a sign-in (``last_login``) or a password rehash
    saves other fields only."""
    if created or (update_fields is not None and "username" not in update_fields):
        return
    tournaments_touch(where=_corrected_by(instance.pk))  # and the API's lists (``all``)


def _login_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A login deleted: its corrections lose its name and the tournaments it directed
    their director (the API lists them), by cascades that send no signal. Before the
    delete, while the rows still say which tournaments."""
    directed = Tournament.directors.through.objects.filter(user_id=instance.pk)
    tournaments_touch(where=_corrected_by(instance.pk) | Q(pk__in=directed.values("tournament_id")))


def _directors_changed(sender: Any, instance: Any, action: str, **kwargs: Any) -> None:
    """The API shows a tournament's directors: adding or removing one is a change."""
    if action.startswith("post_"):
        if isinstance(instance, Tournament):
            tournaments_touch(ids=[instance.pk])
        elif kwargs.get("pk_set") is not None:  # changed from the user's side
            tournaments_touch(ids=kwargs["pk_set"])
        else:  # a user's tournaments cleared: which ones is gone already
            tournaments_touch()


def _tournament_saved(sender: Any, instance: Tournament, created: bool, **kwargs: Any) -> None:
    if not created:
        tournaments_touch(ids=[instance.pk])
    else:  # a new id in the lists
        generations_bump([tournament_gen(instance.pk)])


def _tournament_deleted(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    generations_bump([tournament_gen(instance.pk)])


def connect_signals() -> None:
    """Called once from the app's ready()."""
    for model in (Series, Round, Entry, ProhibitedPair):
        post_save.connect(_touch_tournament, sender=model, dispatch_uid=f"cache-{model.__name__}")
        post_delete.connect(
            _touch_tournament, sender=model, dispatch_uid=f"cache-d-{model.__name__}"
        )
    for by_series in (Game, Submission):
        uid = by_series.__name__
        post_save.connect(_touch_by_series, sender=by_series, dispatch_uid=f"cache-{uid}")
        post_delete.connect(_touch_by_series, sender=by_series, dispatch_uid=f"cache-d-{uid}")
    post_save.connect(_touch_by_game, sender=Correction, dispatch_uid="cache-Correction")
    post_save.connect(_touch_by_game, sender=GameAnalysis, dispatch_uid="cache-GameAnalysis")
    post_delete.connect(_touch_by_game, sender=GameAnalysis, dispatch_uid="cache-d-GameAnalysis")
    m2m_changed.connect(
        _directors_changed, sender=Tournament.directors.through, dispatch_uid="cache-directors"
    )
    # Ratings show on no tournament page: their bulk writes (no signal per row) call
    # people_changed() for the player pages and the API (services/ratings.py).
    post_save.connect(_touch_by_player, sender=Player, dispatch_uid="cache-Player")
    post_save.connect(_touch_by_rating, sender=PlayerRating, dispatch_uid="cache-PlayerRating")
    post_save.connect(_touch_by_club, sender=Club, dispatch_uid="cache-Club")
    login = get_user_model()  # its name shows with its corrections
    post_save.connect(_login_saved, sender=login, dispatch_uid="cache-login")
    pre_delete.connect(_login_deleted, sender=login, dispatch_uid="cache-d-login")
    post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="cache-Tournament")
    post_delete.connect(_tournament_deleted, sender=Tournament, dispatch_uid="cache-d-Tournament")
    for person in (Player, Club):  # (their rows' deletion: the cascades' signals bump the rest)
        uid = f"cache-d-{person.__name__}"
        post_delete.connect(_people_deleted, sender=person, dispatch_uid=uid)
    # A club deleted leaves its players without a club by an UPDATE that sends no signal:
    # the standings name their clubs. Before the delete, while the rows still say whose.
    pre_delete.connect(_touch_by_club, sender=Club, dispatch_uid="cache-pd-Club")


__all__ = ["connect_signals", "people_changed", "tournaments_touch", "tournaments_touch_players"]
