"""The pool's check of a connection it lends (config.storage.postgresql), on PostgreSQL: a healthy
idle connection is lent without a round trip, one whose server went away is never lent."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from config.storage.postgresql.base import connection_alive

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def conninfo() -> str:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    params.pop("server_side_binding", None)
    return psycopg.conninfo.make_conninfo(**params)


@pytest.fixture
def admin(conninfo: str) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        yield conn


def last_query(admin: psycopg.Connection[tuple[object, ...]], pid: int) -> object:
    row = admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    assert row is not None
    return row[0]


def terminated(admin: psycopg.Connection[tuple[object, ...]], pid: int) -> None:
    admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    for _ in range(100):  # the backend's goodbye reaches the socket a moment later
        if admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone() is None:
            return
        time.sleep(0.02)
    pytest.fail(f"backend {pid} outlived pg_terminate_backend")


def test_a_healthy_connection_is_checked_without_a_query(
    conninfo: str, admin: psycopg.Connection[tuple[object, ...]]
) -> None:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SELECT 'the last query'")
        connection_alive(conn)
        assert last_query(admin, conn.info.backend_pid) == "SELECT 'the last query'"
        # psycopg_pool's own check sends an empty query, which the server records as the last.
        ConnectionPool.check_connection(conn)
        assert last_query(admin, conn.info.backend_pid) == ""


def test_a_connection_whose_server_went_away_fails_the_check(
    conninfo: str, admin: psycopg.Connection[tuple[object, ...]]
) -> None:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        terminated(admin, conn.info.backend_pid)
        with pytest.raises(psycopg.OperationalError):
            connection_alive(conn)


def test_the_pool_replaces_a_connection_whose_server_went_away(
    conninfo: str, admin: psycopg.Connection[tuple[object, ...]]
) -> None:
    pool: ConnectionPool[psycopg.Connection[tuple[object, ...]]] = ConnectionPool(
        conninfo, min_size=1, max_size=1, check=connection_alive, kwargs={"autocommit": True}
    )
    with pool:
        with pool.connection() as conn:
            first = conn.info.backend_pid
        terminated(admin, first)
        with pool.connection() as conn:
            assert conn.info.backend_pid != first
            assert conn.execute("SELECT 1").fetchone() == (1,)
