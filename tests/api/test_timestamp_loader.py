"""Timestamps read by psycopg's C loader (config.storage.postgresql), on PostgreSQL: the values
Django's own loader gives, ``datetime.timezone.utc`` and all, through the ORM, raw SQL and a
server-side cursor."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection, transaction
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg.pq import Format

from config.storage.postgresql.base import c_timestamp_loader
from players.models import Player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

MOMENT = "2024-02-29 23:59:58.123456+03"
EXPECTED = datetime.datetime(2024, 2, 29, 20, 59, 58, 123456, tzinfo=datetime.UTC)


def test_the_connection_reads_timestamps_with_the_c_loader() -> None:
    connection.ensure_connection()
    loader = connection.connection.adapters.get_loader(1184, Format.TEXT)
    assert loader is not None
    assert not issubclass(loader, BaseTzLoader)
    assert loader is c_timestamp_loader()


def test_a_timestamp_is_read_as_django_reads_it_in_utc() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::timestamptz, NULL::timestamptz", [MOMENT])
        value, null = cursor.fetchone()
    assert value == EXPECTED
    assert value.tzinfo is datetime.UTC  # Django's loader sets this very object
    assert null is None


def test_the_orm_and_a_server_side_cursor_read_the_same_values() -> None:
    joined = datetime.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=datetime.UTC)
    Player.objects.create(username="timely", date_joined=joined)
    assert Player.objects.get(username="timely").date_joined == joined
    with transaction.atomic():  # a named cursor lives in a transaction
        streamed = list(
            Player.objects.filter(username="timely")
            .values_list("date_joined", flat=True)
            .iterator(chunk_size=1)
        )
    assert streamed == [joined]
    assert streamed[0].tzinfo is datetime.UTC
    with transaction.atomic(), connection.chunked_cursor() as cursor:
        assert cursor.cursor.name  # a server-side cursor (DECLARE ... CURSOR)
        cursor.execute("SELECT %s::timestamptz", [MOMENT])
        assert cursor.fetchone() == (EXPECTED,)
