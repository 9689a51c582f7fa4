"""A gunicorn worker SIGKILLed while it serves a write (issue 25).

Injected, deterministically: the test holds the row the write must wait for from its own
connection to the stack's private PostgreSQL (the game's row, ``FOR UPDATE``, for a move; the
account's ``Idempotency-Key`` row, inserted and not committed, for a create), so the request
blocks there; pg_stat_activity's ``client_port`` names the connection the waiting backend serves,
and /proc the gunicorn worker that holds it; the test SIGKILLs that worker, then lets the row go.

Checked: the client sees the connection drop or nginx's 502; the write happened not at all (the
game's version and log are as before and replay to its snapshot; the key was not kept); a retry
with the same ``expected_version`` (or ``Idempotency-Key``) plays it, once; had it committed, the
same retry would say so (``stale_version``; the first answer replayed, shown here by a move whose
answer the client never read); and gunicorn's arbiter started a new worker, which serves.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.reliability.fault_stack import (
    GAMES,
    Answer,
    manage,
    register,
    stack_on_private_server,
)
from tests.serving.stacks import Stack, family

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

POLLS = 200  # of a tenth of a second: a time-out, not a pace


def socket_inodes(port: int) -> set[str]:
    """The inodes of this machine's TCP sockets whose local port is ``port``."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    found.add(fields[9])
    return found


def holder_of(port: int, pids: list[int]) -> int:
    """Which of ``pids`` holds the socket of local ``port``."""
    wanted = {f"socket:[{inode}]" for inode in socket_inodes(port)}
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in wanted:
                        return pid
    raise AssertionError(f"no process of {pids} holds local port {port}")


def waiting_backend(db: psycopg.Connection[Any]) -> tuple[int, int]:
    """The backend waiting on a lock, and its client's port, once there is one."""
    for _poll in range(POLLS):
        row = db.execute(
            "SELECT pid, client_port FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        ).fetchone()
        if row is not None:
            return int(row[0]), int(row[1])
        time.sleep(0.1)
    raise AssertionError("the request never blocked on the held row")


def until_gone(db: psycopg.Connection[Any], backend: int) -> None:
    """The dead worker's backend ends when it finds its client gone, its transaction undone."""
    for _poll in range(POLLS):
        if not db.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [backend]).fetchone():
            return
        time.sleep(0.1)
    raise AssertionError(f"backend {backend} outlived its client")


def booted(stack: Stack) -> int:
    return stack.processes["web"].text().count("Booting worker with pid")


@contextlib.contextmanager
def killed_while_waiting(
    stack: Stack, db: Databases, hold: str, args: list[Any], request: Any
) -> Iterator[list[Answer]]:
    """Run ``request`` (a call) in a thread while ``hold`` keeps its row; kill the worker serving
    it once it waits; let the row go; yield the answer the client saw."""
    workers_before = booted(stack)
    db.holder.execute(hold, args)  # in a transaction of the test's own, until the rollback
    seen: list[Answer] = []
    thread = threading.Thread(target=lambda: seen.append(request()))
    thread.start()
    backend, port = waiting_backend(db.watch)
    worker = holder_of(port, family(stack.processes["web"].popen.pid))
    os.kill(worker, signal.SIGKILL)
    thread.join(timeout=60)
    db.holder.rollback()
    until_gone(db.watch, backend)
    yield seen
    # The arbiter replaces the worker: one more boot, and the tier answers.
    for _poll in range(POLLS):
        if booted(stack) > workers_before:
            break
        time.sleep(0.1)
    assert booted(stack) == workers_before + 1, stack.logs()
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)


class Databases:
    """The test's two connections to the private server: ``holder`` holds rows in transactions
    of its own; ``watch`` reads in autocommit (pg_stat_activity is a snapshot per transaction)."""

    def __init__(self, url: str) -> None:
        self.holder = psycopg.connect(url)
        self.watch = psycopg.connect(url, autocommit=True)

    def one(self, query: str, *args: Any) -> Any:
        row = self.watch.execute(query, args).fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        self.holder.close()
        self.watch.close()


def test_a_worker_killed_during_a_move_or_a_create_loses_nothing_and_doubles_nothing(
    tmp_path: Path,
) -> None:
    with stack_on_private_server(tmp_path) as (stack, server):
        answers: list[Answer] = []
        ann = register(stack.port, answers, "ann")
        game = ann.ok("POST", GAMES, {"kind": "yatzy", "seats": [{"type": "me"}]})
        url = f"{GAMES}{game['id']}/"
        version = ann.ok("POST", f"{url}start/", {})["version"]
        roll = {"type": "roll", "expected_version": version}
        db = Databases(server.url("dice"))
        try:
            # A move, killed while it waits for the game's row.
            hold = "SELECT 1 FROM games_game WHERE id = %s FOR UPDATE"
            move = lambda: ann.call("POST", f"{url}moves/", roll)  # noqa: E731
            with killed_while_waiting(stack, db, hold, [game["id"]], move) as seen:
                assert [a.status for a in seen] in ([0], [502]), seen
            # Not committed, not even in part: the game is where it was, its log whole.
            assert ann.ok("GET", url)["version"] == version
            checked = manage(stack.env, "verify_log", "--game", game["id"])
            assert checked.returncode == 0, checked.stdout + checked.stderr
            # The same retry says which: played now, once.
            retried = ann.call("POST", f"{url}moves/", roll)
            assert retried.status == 201, retried.text
            assert retried.body["game"]["version"] == version + 1

            # A move that committed but whose answer the client never read (sent to gunicorn
            # itself: the proxy may drop a request whose client left first): the same retry says
            # so, stale_version, and the game has it once.
            moved = version + 1
            lost = {"type": "roll", "expected_version": moved}
            unread(stack.port + 1, ann.token, f"{url}moves/", lost)
            for _poll in range(POLLS):
                if ann.ok("GET", url)["version"] > moved:
                    break
                time.sleep(0.1)
            again = ann.call("POST", f"{url}moves/", lost)
            assert (again.status, again.code) == (409, "stale_version"), again.text
            assert ann.ok("GET", url)["version"] == moved + 1
            checked = manage(stack.env, "verify_log", "--game", game["id"])
            assert checked.returncode == 0, checked.stdout + checked.stderr

            # A create with an Idempotency-Key, killed while it waits for the key's row.
            key = str(uuid.uuid4())
            scope = f"player:{ann.ok('GET', '/api/v1/accounts/me/')['id']}"
            hold = (
                "INSERT INTO players_idempotencykey"
                " (scope, key, fingerprint, status, body, created_at, expires_at)"
                " VALUES (%s, %s, 'held by the test', 0, '', now(), now() + interval '1 hour')"
            )
            solo = {"kind": "yatzy", "seats": [{"type": "me"}]}
            keyed = {"Idempotency-Key": key}
            create = lambda: ann.call("POST", GAMES, solo, keyed)  # noqa: E731
            games_before = db.one("SELECT count(*) FROM games_game")
            with killed_while_waiting(stack, db, hold, [scope, key], create) as seen:
                assert [a.status for a in seen] in ([0], [502]), seen
            # Nothing kept, not the key either: the retry runs, once, then is answered again.
            assert db.one("SELECT count(*) FROM games_game") == games_before
            assert db.one("SELECT count(*) FROM players_idempotencykey WHERE key = %s", key) == 0
            first = ann.call("POST", GAMES, solo, keyed)
            assert first.status == 201, first.text
            assert "idempotent-replayed" not in first.headers
            replayed = ann.call("POST", GAMES, solo, keyed)
            assert (replayed.status, replayed.body) == (201, first.body)
            assert replayed.headers.get("idempotent-replayed") == "true"
            assert db.one("SELECT count(*) FROM games_game") == games_before + 1
        finally:
            db.close()
        print(
            json.dumps(
                {
                    "injected": "SIGKILL of the gunicorn worker serving a write, twice",
                    "answers_to_the_killed": [a.status for a in answers if a.status in (0, 502)],
                    "workers_booted": booted(stack),
                }
            )
        )


def unread(port: int, token: str, path: str, body: Any) -> None:
    """Send a request and go away without reading its answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json", "Authorization": f"Token {token}"}
    conn.request("POST", path, json.dumps(body), headers)
    conn.close()
