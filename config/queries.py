"""Querysets compiled to SQL once, then run with a new value each time.

Compiling a ``select_related`` queryset (joins, select list, ordering, row locking) costs Django's
ORM about a millisecond of CPU, more than PostgreSQL takes to answer it. The hot reads of every
request (a token and its account; a game, its seats and their accounts) are compiled once per
database connection and reused: same SQL, same rows-to-instances code as the ORM's own
(``ModelIterable``: converters, ``Model.from_db``, the ``select_related`` populators).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, QuerySet
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=Model)


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
    """``build(value)``: the queryset for one value of ``field`` (its only parameter), e.g.
    ``lambda key: AuthToken.objects.select_related("user").filter(token_key=key)``. ``sample``: a
    valid value, to compile it with. Calling it gives the queryset's rows as model instances."""

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
