"""A client that follows an SSE stream through faults, as a well-behaved one does: when the stream
drops, or the answer is not a stream (the stream tier away: the proxy's 502), it waits the
server's ``retry:`` and asks again, with ``Last-Event-ID`` once it has read an ``id:``. It never
gives up (a browser's ``EventSource`` does, on any answer but a 200 stream: the web client opens
a new one). Everything it sees is kept, with the time it saw it, for the test to read.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

#: Before the server has said otherwise (a browser waits a few seconds).
DEFAULT_RETRY_SECONDS = 2.0
#: A stream silent this long is taken for dead (the server sends a keep-alive every 15 s).
READ_TIMEOUT_SECONDS = 40.0


@dataclass(frozen=True)
class Frame:
    event: str
    data: dict[str, Any]
    id: str | None
    at: float  # time.monotonic() when it was read


@dataclass(frozen=True)
class Attempt:
    at: float
    status: int | None  # None: no answer (refused, reset)
    last_event_id: str | None


@dataclass
class Follower:
    port: int
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    frames: list[Frame] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    drops: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.retry = DEFAULT_RETRY_SECONDS
        self.last_id: str | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name=self.path)

    def start(self) -> Follower:
        self._thread.start()
        return self

    def close(self) -> None:
        self._stopping.set()
        with self._lock, contextlib.suppress(OSError):
            if self._sock is not None:
                self._sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=10)

    def connected_since(self, moment: float) -> bool:
        """Whether a stream was opened at or after ``moment`` (monotonic)."""
        return any(a.at >= moment and a.status == 200 for a in self.attempts)

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._follow_once()
            if not self._stopping.is_set():
                self.drops.append(time.monotonic())
                self._stopping.wait(self.retry)

    def _follow_once(self) -> None:
        headers = {"Accept": "text/event-stream", **self.headers}
        sent = self.last_id
        if sent is not None:
            headers["Last-Event-ID"] = sent
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=READ_TIMEOUT_SECONDS)
        status: int | None = None
        try:
            conn.connect()
            with self._lock:
                self._sock = conn.sock
            if self._stopping.is_set():
                return
            conn.request("GET", self.path, headers=headers)
            response = conn.getresponse()
            status = response.status
            self.attempts.append(Attempt(time.monotonic(), status, sent))
            if status == 200:
                self._read(response)
            else:
                response.read()
        except (OSError, http.client.HTTPException):
            if status is None:
                self.attempts.append(Attempt(time.monotonic(), None, sent))
        finally:
            with self._lock:
                self._sock = None
            conn.close()

    def _read(self, response: http.client.HTTPResponse) -> None:
        """Until the stream ends: each frame as the SSE rules read it."""
        event, data, frame_id = "message", "", None
        for raw in response:
            line = raw.decode().rstrip("\r\n")
            if line == "":
                if frame_id is not None:
                    self.last_id = frame_id
                if data:
                    parsed = json.loads(data)
                    self.frames.append(Frame(event, parsed, frame_id, time.monotonic()))
                event, data, frame_id = "message", "", None
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event = value
            elif name == "data":
                data = f"{data}\n{value}" if data else value
            elif name == "id":
                frame_id = value
            elif name == "retry" and value.isdigit():
                self.retry = int(value) / 1000
