"""What the PostgreSQL race tests share: a call run in a thread of its own (its own database
connection, closed when it ends), whose answer or exception the test reads once it has finished,
and a wait until some session of the test database is blocked on a lock."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

import pytest
from django.db import connection

T = TypeVar("T")


class Racer(Generic[T]):
    """``call`` in a thread: ``start()`` it, make it wait on something, then ``finish()``."""

    def __init__(self, call: Callable[[], T]) -> None:
        self._call = call
        self._answer: list[T] = []
        self._error: list[BaseException] = []
        self._thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            self._answer.append(self._call())
        except BaseException as exc:  # kept for finish(), not lost in the thread (a deadlock, say)
            self._error.append(exc)
        finally:
            connection.close()

    def start(self) -> None:
        self._thread.start()

    def finish(self, timeout: float = 60) -> T:
        """The call's answer once it has ended; its exception raised here, in the test."""
        self._thread.join(timeout=timeout)
        assert not self._thread.is_alive(), "the racing call never ended"
        if self._error:
            raise self._error[0]
        return self._answer[0]


def sessions_waiting_on_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        row = cursor.fetchone()
        assert row is not None
        return int(row[0])


def until_one_waits_on_a_lock(what: str, polls: int = 400) -> None:
    """Return once a session is blocked on a lock (the racer reached it), looking every 50 ms;
    ``polls`` looks (20 s) are a time-out, so that a racer that never gets there fails the test
    saying ``what``, not a bound on how soon it gets there."""
    for _poll in range(polls):
        if sessions_waiting_on_a_lock():
            return
        time.sleep(0.05)
    pytest.fail(f"never waited: {what}")
