"""Django's PostgreSQL backend, its pool checking a connection before it lends it without a round
trip (``ENGINE = "config.storage.postgresql"``).

psycopg_pool's own check, which Django installs with ``CONN_HEALTH_CHECKS``, sends an empty query:
a round trip to the database, and its CPU, for every request. An idle connection has nothing to
read, so a readable socket means the server spoke first: it is closing the connection (a restart,
``pg_terminate_backend``) or sent a notice. Only then is the empty query sent, which raises if the
server has gone, and the pool replaces the connection: one whose server went away is still never
lent.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


def connection_alive(conn: psycopg.Connection[Any]) -> None:
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    if readable:
        ConnectionPool.check_connection(conn)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> ConnectionPool[Any] | None:
        pool: ConnectionPool[Any] | None = super().pool
        # Django makes the pool with check=None when CONN_HEALTH_CHECKS is off, and takes no
        # check of its own: this one goes in before the pool opens (at its first loan).
        if pool is not None and pool._check is None:
            pool._check = connection_alive
        return pool
