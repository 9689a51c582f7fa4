"""Clients that play through a stack while its parts fail, as a careful client does: every request
that fails (no answer, a 5xx) is tried again; a move names the version it was based on
(``expected_version``), so a move retried after an answer that was lost is refused as stale,
never played twice; an event stream that breaks reconnects with ``Last-Event-ID``.

Each client counts what went wrong on its way, for the tests to report."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from typing import Any

from tests.serving.stacks import Stack

#: Between two tries of a request that failed.
RETRY_PAUSE = 0.3


class Client:
    """Requests of one account to one stack, each tried until it gets an answer below 500."""

    def __init__(self, stack: Stack, token: str) -> None:
        self.stack = stack
        self.token = token
        self.failures = 0  # requests that got no answer or a 5xx, each tried again

    def call(self, method: str, path: str, body: Any = None, timeout: float = 30) -> Any:
        """The answer's status and body, once it is below 500 (600 tries: the time-out)."""
        for _try in range(600):
            try:
                status, answer = self.stack.request(method, path, body, self.token, timeout)
            except (OSError, http.client.HTTPException, ValueError):
                status, answer = 0, None
            if 0 < status < 500:
                return status, answer
            self.failures += 1
            time.sleep(RETRY_PAUSE)
        raise AssertionError(f"{method} {path}: no answer below 500 in 600 tries")

    def ok(self, method: str, path: str, body: Any = None, timeout: float = 30) -> Any:
        status, answer = self.call(method, path, body, timeout)
        assert status < 300, (method, path, status, answer)
        return answer


class YatzyPlayer(Client):
    """Seat 0 of a yatzy game against the computer, which it never scores: it rolls three times
    and waits, and the auto-confirm scores each of its turns."""

    def play(self, game_id: str) -> None:
        # A game is 15 turns of each seat; a wait with no turn's end returns after its 10 s:
        # this many rounds is a time-out for a game that hangs, not a bound on its pace.
        for _round in range(2000):
            game = self.ok("GET", f"/api/v1/games/{game_id}/")
            if game["status"] == "finished":
                return
            state = game["state"]
            if state["turn_seat"] == 0 and state["can_roll"]:
                move = {"type": "roll", "expected_version": game["version"]}
                status, _answer = self.call("POST", f"/api/v1/games/{game_id}/moves/", move)
                # 409: the version moved on (a roll whose answer was lost had been played).
                assert status < 300 or status == 409, status
                continue
            path = f"/api/v1/games/{game_id}/events/?after={game['version']}&wait=10"
            self.ok("GET", path, timeout=30)
        raise AssertionError(f"game {game_id} never finished")


class EventStream(threading.Thread):
    """A game's SSE stream (``stream/``), read until the event ``until`` is set to has come;
    every break (an error, the stream ended) reconnects with ``Last-Event-ID``."""

    def __init__(self, stack: Stack, game_id: str) -> None:
        super().__init__(daemon=True)
        self.stack = stack
        self.game_id = game_id
        self.seqs: list[int] = []  # the ids of the events received, in their order
        self.connections = 0
        self.until: int | None = None
        self.done = threading.Event()
        self._conn: http.client.HTTPConnection | None = None

    def drop(self) -> None:
        """Break the connection, as a network does: the reader reconnects, with Last-Event-ID."""
        conn = self._conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)

    def finished(self) -> bool:
        return self.until is not None and bool(self.seqs) and self.seqs[-1] >= self.until

    def run(self) -> None:
        while not self.finished():
            self.connections += 1
            try:
                self._read()
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(RETRY_PAUSE)
        self.done.set()

    def _read(self) -> None:
        # A stream quiet this long is taken for broken: the tier sends a keep-alive well before.
        conn = self._conn = http.client.HTTPConnection("127.0.0.1", self.stack.port, timeout=30)
        headers = {"Accept": "text/event-stream"}
        if self.seqs:
            headers["Last-Event-ID"] = str(self.seqs[-1])
        try:
            conn.request("GET", f"/api/v1/games/{self.game_id}/stream/", headers=headers)
            response = conn.getresponse()
            if response.status != 200:
                response.read()
                time.sleep(RETRY_PAUSE)
                return
            for raw in response:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    self.seqs.append(int(line[4:]))
                elif line.startswith("data: "):
                    json.loads(line[6:])  # a whole event, or the stream is broken
                # Checked at every line, keep-alives too: ``until`` may come after the last event.
                if self.finished():
                    return
        finally:
            conn.close()
