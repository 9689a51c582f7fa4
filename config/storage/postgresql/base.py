"""Django's PostgreSQL backend (``ENGINE = "config.storage.postgresql"``) with two costs taken out
of every request:

- Its pool checks a connection before it lends it without a round trip. psycopg_pool's own check,
  which Django installs with ``CONN_HEALTH_CHECKS``, sends an empty query: a round trip to the
  database, and its CPU, for every request. An idle connection has nothing to read, so a readable
  socket means the server spoke first: it is closing the connection (a restart,
  ``pg_terminate_backend``) or sent a notice. Only then is the empty query sent, which raises if
  the server has gone, and the pool replaces the connection: one whose server went away is still
  never lent.
- Timestamps are read by psycopg's C loader. Django registers a Python subclass of psycopg's
  Python loader, to set its own time zone on each value: some 8 µs a value and 14 µs a result,
  about 0.07 ms of a move's CPU. With ``USE_TZ`` and the session in UTC (which Django sets
  on every connection), the C loader gives the same values, ``datetime.timezone.utc`` included.
"""

from __future__ import annotations

import datetime
import select
from functools import cache
from typing import Any

import psycopg
from django.conf import settings
from django.db.backends.postgresql import base
from psycopg.adapt import AdaptersMap
from psycopg.pq import Format
from psycopg_pool import ConnectionPool

_TIMESTAMPTZ = psycopg.postgres.types["timestamptz"].oid


def connection_alive(conn: psycopg.Connection[Any]) -> None:
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    if readable:
        ConnectionPool.check_connection(conn)


def c_timestamp_loader() -> type | None:
    """psycopg's own timestamptz loader where it is the C one (psycopg[binary] or [c])."""
    loader: type = psycopg.adapters.get_loader(_TIMESTAMPTZ, Format.TEXT)  # type: ignore[assignment]
    return loader if psycopg.pq.__impl__ in ("c", "binary") else None


@cache
def _with_c_timestamps(template: AdaptersMap, loader: type) -> AdaptersMap:
    adapters = AdaptersMap(template)
    adapters.register_loader(_TIMESTAMPTZ, loader)
    return adapters


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> ConnectionPool[Any] | None:
        pool: ConnectionPool[Any] | None = super().pool
        # Django makes the pool with check=None when CONN_HEALTH_CHECKS is off, and takes no
        # check of its own: this one goes in before the pool opens (at its first loan).
        if pool is not None and pool._check is None:
            pool._check = connection_alive
        return pool

    #: Whether this connection's timestamps are read by the C loader (decided at each connect).
    c_timestamps = False

    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        loader = c_timestamp_loader()
        self.c_timestamps = False
        if loader is not None and settings.USE_TZ and self.timezone is datetime.UTC:
            params["context"] = _with_c_timestamps(params["context"], loader)
            self.c_timestamps = True
        return params

    def create_cursor(self, name: str | None = None) -> Any:
        if not self.c_timestamps:
            return super().create_cursor(name)
        # Django's, without its look at the loader's ``timezone`` (an attribute of its own loader,
        # read to register that loader again on a cursor whose connection disagrees: ours agrees).
        if name is None:
            return self.connection.cursor()
        withhold = self.connection.autocommit
        if self.settings_dict["OPTIONS"].get("server_side_binding") is not True:
            return base.ServerSideCursor(  # type: ignore[call-arg]  # psycopg's Cursor arguments
                self.connection, name=name, scrollable=False, withhold=withhold
            )
        return self.connection.cursor(name, scrollable=False, withhold=withhold)
