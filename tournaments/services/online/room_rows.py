"""A room's row read and written with the least work (docs/online.md, the benchmark): a
game action reads the room and its seats' users in one query, without a lock, and writes
back only the fields it changed in one ``UPDATE ... WHERE seq = <the seq it read>``. The
update finds no row when another change committed in between (every change of the game
bumps the sequence number): the action was decided on a room that is no longer there and
is not written (services/online/rooms.py then plays it again under the row's lock, where
it is refused as stale). The SQL is made once from the models' fields, so it follows
them; the values go through each field's own conversions, as the ORM's would."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, JSONField, Model

from tournaments.models import Room
from tournaments.services.online.game import Kept
from tournaments.services.online.settings import RoomSettings, settings_of

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]
SEATS = ("a", "b")


@dataclass(frozen=True)
class _Select:
    sql: str
    users: type[Model]
    room_fields: tuple[Field[Any, Any], ...]
    user_fields: tuple[Field[Any, Any], ...]
    converters: tuple[tuple[Converter, ...], ...]  # of each column, in order
    cols: tuple[Any, ...]  # each column as the ORM's expression (what a converter is given)


_SELECTS: dict[tuple[str, str], _Select] = {}


def _converters(db: BaseDatabaseWrapper, col: Any) -> tuple[Converter, ...]:
    """What the ORM applies to a column's value as read (the backend's, then the field's)."""
    return (*db.ops.get_db_converters(col), *col.get_db_converters(db))


def _pk_column(model: type[Model]) -> str:
    pk = model._meta.pk
    assert pk is not None
    return str(pk.column)


def _seq_column() -> str:
    seq = Room._meta.get_field("seq")
    assert isinstance(seq, Field)
    return str(seq.column)


def _select(db: BaseDatabaseWrapper) -> _Select:
    made = _SELECTS.get((db.alias, db.vendor))
    if made is not None:
        return made
    qn = db.ops.quote_name
    meta = Room._meta
    users = meta.get_field("a_user").related_model
    assert isinstance(users, type) and issubclass(users, Model)
    room_fields = tuple(meta.concrete_fields)
    user_fields = tuple(users._meta.concrete_fields)
    columns = [f"r.{qn(f.column)}" for f in room_fields]
    joins = []
    cols = [f.get_col("r") for f in room_fields]
    for seat in SEATS:
        alias = f"u{seat}"
        columns += [f"{alias}.{qn(f.column)}" for f in user_fields]
        cols += [f.get_col(alias) for f in user_fields]
        link = meta.get_field(f"{seat}_user")
        assert isinstance(link, Field)
        joins.append(
            f"LEFT OUTER JOIN {qn(users._meta.db_table)} {alias} "
            f"ON {alias}.{qn(_pk_column(users))} = r.{qn(link.column)}"
        )
    sql = (
        f"SELECT {', '.join(columns)} FROM {qn(meta.db_table)} r {' '.join(joins)} "
        f"WHERE r.{qn(_pk_column(Room))} = %s"
    )
    converters = tuple(_converters(db, col) for col in cols)
    made = _Select(sql, users, room_fields, user_fields, converters, tuple(cols))
    _SELECTS[(db.alias, db.vendor)] = made
    return made


def _converted(db: BaseDatabaseWrapper, value: Any, converters: tuple[Converter, ...],
               col: Any) -> Any:  # fmt: skip
    for convert in converters:
        value = convert(value, col, db)
    return value


def room_read(room_id: int) -> tuple[Room, dict[str, Any]] | None:
    """The room with its seats' users (as ``select_related("a_user", "b_user")`` gives it)
    and its fields' values as read, for ``room_write``; None: no such room."""
    db = connection
    q = _select(db)
    with db.cursor() as cursor:
        cursor.execute(q.sql, [room_id])
        row = cursor.fetchone()
    if row is None:
        return None
    columns = zip(row, q.converters, q.cols, strict=True)
    values = [_converted(db, v, converters, col) for v, converters, col in columns]
    n = len(q.room_fields)
    room = Room.from_db(db.alias, [f.attname for f in q.room_fields], values[:n])
    read: dict[str, Any] = {}
    for i, f in enumerate(q.room_fields):
        # a JSON value is a list or a dict the action may change in place: read apart
        fresh = isinstance(f, JSONField) and values[i] is not None
        read[f.attname] = _converted(db, row[i], q.converters[i], q.cols[i]) if fresh else values[i]
    m = len(q.user_fields)
    for k, seat in enumerate(SEATS):
        start = n + k * m
        user_values = values[start:start + m]  # fmt: skip
        user = None
        if getattr(room, f"{seat}_user_id") is not None:
            user = q.users.from_db(db.alias, [f.attname for f in q.user_fields], user_values)
        Room._meta.get_field(f"{seat}_user").set_cached_value(room, user)  # type: ignore[union-attr]
    return room, read


def room_write(room: Room, read: dict[str, Any]) -> bool:
    """Write the fields of ``room`` that differ from ``read`` (its values as read), if the
    row's sequence number is still the one read; whether it was written."""
    db = connection
    qn = db.ops.quote_name
    changed = [f for f in Room._meta.concrete_fields
               if f.attname in read and getattr(room, f.attname) != read[f.attname]]  # fmt: skip
    if not changed:
        return Room.objects.filter(pk=room.pk, seq=read["seq"]).exists()
    sets = ", ".join(f"{qn(f.column)} = %s" for f in changed)
    values = [f.get_db_prep_save(getattr(room, f.attname), connection=db) for f in changed]
    sql = (
        f"UPDATE {qn(Room._meta.db_table)} SET {sets} "
        f"WHERE {qn(_pk_column(Room))} = %s AND {qn(_seq_column())} = %s"
    )
    with db.cursor() as cursor:
        cursor.execute(sql, [*values, room.pk, read["seq"]])
        return bool(cursor.rowcount == 1)


SETTINGS = Kept(256)  # a room's settings as read, by the JSON's items and the variant


def room_settings(room: Room) -> RoomSettings:
    """The room's settings (``settings_of``: read and checked), kept by what they were
    read from: a room's every action and state asks for them."""
    data = room.settings
    try:
        key = (room.variant, tuple(sorted(data.items())))
        hash(key)
    except (AttributeError, TypeError):  # not a dict of plain values: read it each time
        return settings_of(data, room.variant)
    s = SETTINGS.get(key)
    if s is None:
        s = settings_of(data, room.variant)
        SETTINGS.put(key, s)
    assert isinstance(s, RoomSettings)
    return s


SETTINGS_JSON = Kept(256)


def settings_json(s: RoomSettings) -> dict[str, Any]:
    """``s.to_json()``, kept (a copy each time: the caller may change it)."""
    made = SETTINGS_JSON.get(s)
    if made is None:
        made = s.to_json()
        SETTINGS_JSON.put(s, made)
    assert isinstance(made, dict)
    return dict(made)


class NeedsLock(BaseException):
    """The action asked the database for something (a finished game stored, the series'
    end): it is played under the row's lock instead. A BaseException, so that no
    ``except Exception`` in between can swallow it."""


@contextlib.contextmanager
def no_queries() -> Iterator[list[bool]]:
    """Run an action with the database closed to it: a query raises NeedsLock before it
    is sent. Yields a list that holds True once a query was refused."""
    tripped: list[bool] = []

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        tripped.append(True)
        raise NeedsLock

    with connection.execute_wrapper(refuse):
        yield tripped


__all__ = ["NeedsLock", "no_queries", "room_read", "room_settings", "room_write", "settings_json"]
