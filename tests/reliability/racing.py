"""The race harness's scaffolding (tests/reliability/test_write_races.py): the service as
deployed (`make serve` on the test database), two calls fired at the same instant from two
threads, each with connections of its own, and a row held so that both queue on it.

A call is a request through the proxy (its own HTTP connection, a gunicorn worker and that
worker's database connection) or, for the writers that are not requests (a timer, a computer's
move, beat starting a tournament, a moderator's ban), the service itself in a thread with its own
database connection. Either way it ends in an ``Answer``: 2xx, or a refusal with its code.

Held rows make the race as tight as it can be: the test's own connection takes the row both calls
lock, fires them, waits until both are blocked behind it, and lets go; the first in the queue then
commits while the second waits, which is when a lost update shows (the second acting on what it
read before it waited). Free tries let the two meet as they come.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from django.db import connection

from config.vocabulary.errors import ApiError
from tests.serving.stacks import Process, free_base_ports


@dataclass(frozen=True)
class Answer:
    """What a call came to: its HTTP status, and the refusal's code (None for a 2xx)."""

    status: int
    code: str | None
    body: Any = None
    replayed: bool = False

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def outcome(self) -> str:
        """``ok``, or the refusal's code: what the races' expected outcomes are written in."""
        return "ok" if self.ok else f"{self.code}"


Call = Callable[[], Answer]


class Served:
    """`make serve` on the test database: nginx in front of gunicorn (4 sync workers, so both
    requests of a race run at once) and the stream tier."""

    def __init__(self, folder: Path) -> None:
        db = connection.settings_dict
        self.port = free_base_ports(1, first=8500, last=8600)[0]
        env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "SECRET_KEY": "write-races-test-secret-key-0123456789-abcdefghijklmnop",
            "DEBUG": "false",
            "THROTTLE_ANON": "1000000/s",
            "THROTTLE_USER": "1000000/s",
            "THROTTLE_AUTH": "1000000/min",
            "WEB_CONCURRENCY": "4",
            # A claim may be made at once: the races put it against the idle seat's own move.
            "CLAIM_GRACE_SECONDS": "0",
            # This server's tasks go nowhere: no worker plays them (the races play what they
            # need themselves), and none is left for another test's worker.
            "CELERY_QUEUE": f"write-races-{os.getpid()}",
        }
        self.process = Process(
            "serve", ["make", "serve", f"PORT={self.port}"], env, folder / "serve.log"
        )
        for _poll in range(600):  # 3 minutes: make serve may first bring the virtualenv up to date
            if not self.process.alive():
                raise AssertionError(f"make serve exited:\n{self.process.text()[-3000:]}")
            with contextlib.suppress(OSError, ValueError):
                if self.request("GET", "/health/live").status == 200:
                    return
            time.sleep(0.3)
        self.process.stop()
        raise AssertionError(f"make serve never answered:\n{self.process.text()[-3000:]}")

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str = "",
        headers: dict[str, str] | None = None,
    ) -> Answer:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Content-Type": "application/json", **(headers or {})}
        if token:
            sent["Authorization"] = f"Token {token}"
        try:
            conn.request(method, path, json.dumps(body) if body is not None else None, sent)
            response = conn.getresponse()
            raw = response.read()
            replayed = response.getheader("Idempotent-Replayed") == "true"
        finally:
            conn.close()
        data = json.loads(raw) if raw else None
        ok = 200 <= response.status < 300
        code = None if ok or not isinstance(data, dict) else data.get("code")
        return Answer(response.status, code, data, replayed)

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str = "",
        headers: dict[str, str] | None = None,
    ) -> Call:
        return lambda: self.request(method, f"/api/v1/{path}", body, token=token, headers=headers)

    def stop(self) -> None:
        self.process.stop()


def service(run: Callable[[], object]) -> Call:
    """A writer that is not a request, called in the racing thread (its own connection): ok, or
    the refusal it raised (a service that answers False, a stale timer say, is ``stale``)."""

    def call() -> Answer:
        try:
            result = run()
        except ApiError as refusal:
            return Answer(refusal.entry.status, refusal.entry.code)
        if result is False:
            return Answer(409, "stale")
        return Answer(200, None, result)

    return call


@dataclass(frozen=True)
class Hold:
    """Statements the test's own connection runs, in a transaction it keeps open while the two
    calls queue behind it (a row locked, a key inserted), then rolls back."""

    statements: Sequence[tuple[str, Sequence[Any]]]


def row(table: str, pk: object, lock: str = "FOR UPDATE") -> Hold:
    return Hold([(f"SELECT 1 FROM {table} WHERE id = %s {lock}", [pk])])


def _conninfo() -> str:
    db = connection.settings_dict
    return f"host={db['HOST']} port={db['PORT']} user={db['USER']} dbname={db['NAME']}"


def _waiting(cursor: psycopg.Cursor[Any]) -> int:
    cursor.execute(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE wait_event_type = 'Lock' AND datname = current_database()"
    )
    found = cursor.fetchone()
    assert found is not None
    return int(found[0])


@contextlib.contextmanager
def holding(hold: Hold | None) -> Iterator[Callable[[Sequence[threading.Thread]], None]]:
    """Yields ``release(threads)``: with a hold, once both calls wait behind it (or have ended,
    refused before they reached it), it lets them go."""
    if hold is None:
        yield lambda threads: None
        return
    with (
        psycopg.connect(_conninfo(), autocommit=False) as held,
        psycopg.connect(_conninfo(), autocommit=True) as watcher,
    ):
        with held.cursor() as cursor:
            for sql, params in hold.statements:
                cursor.execute(sql, params)

        def release(threads: Sequence[threading.Thread]) -> None:
            queued = 0
            with watcher.cursor() as cursor:
                for _poll in range(400):  # 20 s: a time-out, not a bound on the calls' pace
                    running = sum(thread.is_alive() for thread in threads)
                    waiting = _waiting(cursor)
                    queued = max(queued, waiting)
                    if running == 0 or waiting >= running:
                        break
                    time.sleep(0.05)
                else:
                    raise AssertionError("the racing calls never queued behind the held row")
            held.rollback()
            # A call that queued could not end before the rollback: none seen, none did, and
            # the hold is not on the row the two contend for.
            assert queued, "no racing call waited for the held row"

        yield release


def race(first: Call, second: Call, hold: Hold | None = None) -> tuple[Answer, Answer]:
    """``first`` and ``second`` fired at the same instant, each in its own thread."""
    answers: list[Answer | None] = [None, None]
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def run(index: int, call: Call) -> None:
        try:
            start.wait(timeout=30)
            answers[index] = call()
        except BaseException as exc:  # read below, in the test, not lost in the thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate((first, second))]
    with holding(hold) as release:
        for thread in threads:
            thread.start()
        release(threads)
        for thread in threads:
            thread.join(timeout=90)
    assert not any(thread.is_alive() for thread in threads), "a racing call never ended"
    if errors:
        raise errors[0]
    one, two = answers
    assert one is not None and two is not None
    return one, two
