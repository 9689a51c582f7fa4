"""Every shortcut the hot paths take through Django's internals, each with the plain ORM path
beside it (``ORM_SHORTCUTS=false`` takes those): building SQL costs the ORM about a millisecond of
CPU per statement, more than PostgreSQL takes to run it.

What they rely on is private to Django: ``tests/reliability/test_orm_shortcuts.py`` fails on any
Django release but ``CHECKED_WITH`` (check them, then raise it) and proves each shortcut gives what
its plain path gives.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, QuerySet, prefetch_related_objects
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=Model)

#: The Django release (major, minor) these shortcuts were last checked against.
CHECKED_WITH = (5, 2)


def shortcuts_on() -> bool:
    return bool(settings.ORM_SHORTCUTS)


@dataclass
class _Compiled:
    sql: str
    compiler: Any
    converters: Any
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]


class PreparedSelect(Generic[M]):
    """A ``select_related`` queryset compiled once per connection, then run with a new value each
    time, its rows made instances by the ORM's own code. ``build(value)``: the queryset for one
    value of ``field``; ``sample``: a valid value, to compile it with."""

    def __init__(
        self, build: Callable[[Any], QuerySet[M]], field: Field[Any, Any], sample: Any
    ) -> None:
        self.build = build
        self.field = field
        self.sample = sample
        # Per connection (each thread has its own): a compiler is bound to its connection.
        self._compiled: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Compiled] = (
            weakref.WeakKeyDictionary()
        )

    def prepare(self, value: Any, connection: BaseDatabaseWrapper) -> Any:
        """``value`` as the ORM sends it (ValidationError, ValueError: not a valid value)."""
        return self.field.get_db_prep_value(
            self.field.get_prep_value(value), connection, prepared=True
        )

    def _compile(self, queryset: QuerySet[M], connection: BaseDatabaseWrapper) -> _Compiled:
        # A private attribute of Django's QuerySet, which its stub does not declare.
        if queryset._prefetch_related_lookups or queryset.query.annotations:  # type: ignore[attr-defined]
            raise ValueError("PreparedSelect takes plain select_related querysets")
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        if list(params) != [self.prepare(self.sample, connection)]:
            raise ValueError(f"the value must be the query's only parameter: {params!r}")
        select, klass_info = compiler.select, compiler.klass_info
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Compiled(
            sql=sql,
            compiler=compiler,
            converters=compiler.get_converters([column[0] for column in select]),
            init_list=[column[0].target.attname for column in select[start:end]],
            start=start,
            end=end,
            # Django 5.2's signature; django-stubs 6 describe Django 6's, which adds fetch_mode.
            populators=get_related_populators(klass_info, select, queryset.db),  # type: ignore[call-arg]
        )

    def __call__(self, value: Any, using: str = "default") -> list[M]:
        if not shortcuts_on():
            return list(self.build(value).using(using))
        connection = connections[using]
        param = self.prepare(value, connection)
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = self._compile(self.build(self.sample), connection)
            self._compiled[connection] = compiled
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [param])
            rows: Any = cursor.fetchall()
        if compiled.converters:
            rows = compiled.compiler.apply_converters(rows, compiled.converters)
        model = compiled.compiler.klass_info["model"]
        found = []
        for row in rows:
            obj = model.from_db(using, compiled.init_list, row[compiled.start : compiled.end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            found.append(obj)
        return found


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
def _insert_sql(model: type[Model], names: tuple[str, ...], rows: int) -> str:
    table = connection.ops.quote_name(model._meta.db_table)
    fields = _fields(model, names)
    columns = ", ".join(_quoted(field) for field in fields)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return f"INSERT INTO {table} ({columns}) VALUES " + ", ".join([row] * rows)


@cache
def _update_sql(model: type[Model], names: tuple[str, ...]) -> str:
    table = connection.ops.quote_name(model._meta.db_table)
    sets = ", ".join(f"{_quoted(field)} = %s" for field in _fields(model, names))
    return f"UPDATE {table} SET {sets} WHERE {_quoted(model._meta.pk)} = %s"


def _default() -> BaseDatabaseWrapper:
    """This thread's connection itself: each attribute read through ``django.db.connection``
    looks the connection up again (some 3 µs), and a field's conversion reads several."""
    return connections[DEFAULT_DB_ALIAS]


def rows_insert(model: type[M], names: Sequence[str], rows: Sequence[M]) -> None:
    """``bulk_create(rows)`` of the columns ``names``, built once per shape, keys not read back."""
    if not rows:
        return
    if not shortcuts_on():
        model._default_manager.bulk_create(rows)
        return
    key = tuple(names)
    fields = _fields(model, key)
    db = _default()
    params = [
        field.get_db_prep_save(getattr(row, field.attname), db) for row in rows for field in fields
    ]
    with db.cursor() as cursor:
        cursor.execute(_insert_sql(model, key, len(rows)), params)
    for row in rows:
        row._state.adding = False


def fields_update(instance: Model, names: Sequence[str]) -> None:
    """``instance.save(update_fields=names)``, built once per shape (no signals)."""
    if not shortcuts_on():
        instance.save(update_fields=names)
        return
    model = type(instance)
    key = tuple(names)
    db = _default()
    params = [
        field.get_db_prep_save(getattr(instance, field.attname), db)
        for field in _fields(model, key)
    ]
    params.append(model._meta.pk.get_db_prep_save(instance.pk, db))
    with db.cursor() as cursor:
        cursor.execute(_update_sql(model, key), params)


def prefetched(instance: Model, name: str, objects: list[Any]) -> None:
    """Make ``objects`` (in the manager's order) what ``instance.<name>.all()`` gives, as
    ``prefetch_related`` would, without its query."""
    if not shortcuts_on():
        cache_ = getattr(instance, "_prefetched_objects_cache", {})
        cache_.pop(name, None)
        prefetch_related_objects([instance], name)
        return
    cache_ = instance.__dict__.setdefault("_prefetched_objects_cache", {})
    cache_.pop(name, None)
    # The manager's own queryset, so that ``instance.<name>.filter(...)`` still means this one.
    queryset = getattr(instance, name).get_queryset()
    queryset._result_cache = objects
    cache_[name] = queryset
