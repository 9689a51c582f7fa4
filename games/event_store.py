"""The two writes of every move, as SQL built once: append its events, save the game's snapshot.

Django's ORM builds an INSERT (``bulk_create``) or an UPDATE (``save(update_fields=...)``) anew
at each call, about a millisecond of CPU each: more than the database takes to run them. These
statements are the same at every move, so they are built once per shape. Every value goes
through its model field's own ``get_db_prep_save`` (JSON, datetimes, UUIDs), as the ORM would
send it, so the same code serves PostgreSQL and SQLite. Both run inside the move's transaction,
on the locked game row (``games.services``); nothing else writes these columns concurrently.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model

from games.models import Game, GameEvent

#: The columns of an event row the move path writes (the id is the database's).
EVENT_FIELDS = ("game", "seq", "type", "data", "actor", "automatic", "created_at")


@cache
def _fields(model: type[Model], names: tuple[str, ...]) -> tuple[Field[Any, Any], ...]:
    fields = []
    for name in names:
        field = model._meta.get_field(name)
        # A column of the model's own table (a Field), never the other side of a relation.
        assert isinstance(field, Field), name
        fields.append(field)
    return tuple(fields)


def _quoted(field: Field[Any, Any]) -> str:
    assert field.column is not None  # every field of the table's own columns has one
    return connection.ops.quote_name(field.column)


@cache
def _insert_sql(rows: int) -> str:
    table = connection.ops.quote_name(GameEvent._meta.db_table)
    fields = _fields(GameEvent, EVENT_FIELDS)
    columns = ", ".join(_quoted(field) for field in fields)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return f"INSERT INTO {table} ({columns}) VALUES " + ", ".join([row] * rows)


@cache
def _update_sql(names: tuple[str, ...]) -> str:
    table = connection.ops.quote_name(Game._meta.db_table)
    sets = ", ".join(f"{_quoted(field)} = %s" for field in _fields(Game, names))
    return f"UPDATE {table} SET {sets} WHERE {connection.ops.quote_name('id')} = %s"


def events_append(records: Sequence[GameEvent]) -> None:
    """Insert the event rows in one statement (``created_at`` must be set)."""
    if not records:
        return
    fields = _fields(GameEvent, EVENT_FIELDS)
    params = [
        field.get_db_prep_save(getattr(record, field.attname), connection)
        for record in records
        for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(len(records)), params)
    for record in records:
        record._state.adding = False  # stored: GameEvent.save refuses to write it again


def snapshot_save(game: Game, names: Sequence[str]) -> None:
    """Write these fields of the game row, as ``game.save(update_fields=names)`` would."""
    key = tuple(names)
    params = [
        field.get_db_prep_save(getattr(game, field.attname), connection)
        for field in _fields(Game, key)
    ]
    params.append(Game._meta.pk.get_db_prep_save(game.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(key), params)
