"""Two web tiers (`make serve`, nginx + gunicorn + the stream tier) on two ports, sharing only
PostgreSQL and Redis: a move made through one reaches the SSE clients of the other, each event
once and in order, and the account stream of the other hears the turn.

Needs PostgreSQL, Redis and nginx (CI installs it; skipped where any is missing).
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.factories import account, new_game, token
from tests.serving.stacks import Process

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"),
    pytest.mark.skipif(shutil.which("nginx") is None, reason="needs nginx (apt-get install nginx)"),
]


def free_base_port() -> int:
    """A port P with P, P+1 and P+2 free (the proxy, gunicorn, the stream tier)."""
    for base in range(18_300, 19_000, 10):
        try:
            for port in (base, base + 1, base + 2):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no free ports")


class Tier:
    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.log = log
        db = connection.settings_dict
        env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "SECRET_KEY": "two-tiers-test-secret-key-0123456789-abcdefghijklmnop",
            "THROTTLE_ANON": "1000000/s",
            "THROTTLE_USER": "1000000/s",
            "WEB_CONCURRENCY": "2",
        }
        self.process = Process("web", ["make", "serve", f"PORT={port}"], env, log)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if not self.process.alive():
                raise AssertionError(f"make serve exited:\n{log.read_text()[-3000:]}")
            try:
                if self.ready():
                    return
            except (OSError, ValueError):
                pass
            time.sleep(0.3)
        self.stop()
        raise AssertionError(f"make serve did not answer:\n{log.read_text()[-3000:]}")

    def ready(self) -> bool:
        """Both tiers behind the proxy answer: gunicorn's health, and the stream tier (whose
        refusal of a stream without a token is its own 401; nginx says 502 until it listens)."""
        if self.request("GET", "/health/live")[0] != 200:
            return False
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", "/api/v1/stream/", headers={"Accept": "text/event-stream"})
        status = conn.getresponse().status
        conn.close()
        return status == 401

    def request(self, method: str, path: str, body: Any = None, token: str = "") -> Any:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response.status, json.loads(data) if data else None

    def stop(self) -> None:
        """supervisor ends the tiers it started, each in a group of its own; any that outlive it
        are killed by pid."""
        self.process.stop()


class SseClient:
    """Reads an SSE stream in a thread; each event's data lands on ``events``."""

    def __init__(self, port: int, path: str, headers: dict[str, str]) -> None:
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", **headers})
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.read()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        data = ""
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("data: "):
                    data = line[6:]
                elif line == "" and data:
                    self.events.put(json.loads(data))
                    data = ""
        except (OSError, ValueError, AttributeError):  # closed by the test
            return

    def take(self, count: int, seconds: float = 10) -> list[dict[str, Any]]:
        deadline = time.monotonic() + seconds
        found: list[dict[str, Any]] = []
        while len(found) < count:
            try:
                found.append(self.events.get(timeout=max(0.01, deadline - time.monotonic())))
            except queue.Empty:
                raise AssertionError(f"{len(found)} of {count} events arrived") from None
        return found

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def tiers(transactional_db: None, tmp_path: Path) -> Iterator[tuple[Tier, Tier]]:
    started: list[Tier] = []
    try:
        for name in ("a", "b"):
            started.append(Tier(free_base_port(), tmp_path / f"tier-{name}.log"))
        yield started[0], started[1]
    finally:
        for tier in started:
            tier.stop()


def test_a_move_through_one_tier_reaches_the_streams_of_the_other(tiers: tuple[Tier, Tier]) -> None:
    one, other = tiers
    ann, bob = account("ann"), account("bob")
    ann_token, bob_token = token(ann), token(bob)
    game = new_game(ann, "yatzy", ["me", "open"], joiners=[bob], start=False)

    watchers = [
        SseClient(other.port, f"/api/v1/games/{game.pk}/events/?after=0", {}),
        SseClient(other.port, f"/api/v1/games/{game.pk}/stream/", {}),
        SseClient(one.port, f"/api/v1/games/{game.pk}/stream/", {}),
    ]
    bob_stream = SseClient(other.port, "/api/v1/stream/", {"Authorization": f"Token {bob_token}"})
    try:
        assert one.request("POST", f"/api/v1/games/{game.pk}/start/", {}, ann_token)[0] == 200
        (started,) = bob_stream.take(1)
        assert (started["type"], started["seat"]) == ("game_started", 1)
        moves = [{"type": "roll"}, {"type": "roll", "hold": [0]}, {"type": "roll"}]
        moves.append({"type": "score", "box": "chance"})
        for command in moves:
            status, body = one.request(
                "POST", f"/api/v1/games/{game.pk}/moves/", command, ann_token
            )
            assert status == 201, body
        for watcher in watchers:
            assert [event["seq"] for event in watcher.take(5)] == [1, 2, 3, 4, 5]
            with pytest.raises(AssertionError):
                watcher.take(1, seconds=0.5)  # nothing repeated
        (turn,) = bob_stream.take(1)
        assert (turn["type"], turn["seat"], turn["version"]) == ("your_turn", 1, 5)

        # And back: bob moves through the other tier; ann's view through the first tier sees it.
        status, body = other.request("POST", f"/api/v1/games/{game.pk}/moves/", moves[0], bob_token)
        assert status == 201, body
        for watcher in watchers:
            assert [event["seq"] for event in watcher.take(1)] == [6]
    finally:
        for client in [*watchers, bob_stream]:
            client.close()
