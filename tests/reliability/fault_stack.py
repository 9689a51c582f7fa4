"""A whole stack (tests/serving/stacks.py: `make serve` and the Procfile's worker, timers and
beat) on a private PostgreSQL (private_postgres), and clients that play through it by HTTP and
keep every answer: its status, code, ``Retry-After``, body and how long it took. For the fault
tests, which break a part under the stack and look at what the clients saw.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.private_postgres import PrivateServer, missing, private_server
from tests.serving.stacks import ROOT, Stack, free_base_ports

#: Why a fault test cannot run here, or None.
CANNOT_RUN = (
    missing()
    or (None if os.environ.get("REDIS_URL") else "needs Redis: set REDIS_URL")
    or (None if shutil.which("nginx") else "needs nginx (apt-get install nginx)")
)
GAMES = "/api/v1/games/"


@dataclass
class Answer:
    """One request and what came back (status 0: the connection dropped, no answer)."""

    method: str
    path: str
    status: int
    body: Any
    text: str
    headers: dict[str, str]
    started: float
    ended: float

    @property
    def retry_after(self) -> str | None:
        return self.headers.get("retry-after")

    @property
    def seconds(self) -> float:
        return self.ended - self.started

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None


class Client:
    """An account's requests to one stack's proxy; every answer is kept in ``answers``."""

    def __init__(self, port: int, answers: list[Answer], token: str = "") -> None:
        self.port = port
        self.token = token
        self.answers = answers
        self._lock = threading.Lock()

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Answer:
        sent = {"Content-Type": "application/json", **(headers or {})}
        if self.token:
            sent["Authorization"] = f"Token {self.token}"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        started = time.monotonic()
        try:
            conn.request(method, path, json.dumps(body) if body is not None else None, sent)
            response = conn.getresponse()
            raw = response.read()
            status = response.status
            received = {name.lower(): value for name, value in response.getheaders()}
        except (ConnectionError, http.client.HTTPException):
            raw, status, received = b"", 0, {}
        finally:
            conn.close()
        text = raw.decode(errors="replace")
        parsed: Any = None
        with contextlib.suppress(ValueError):
            parsed = json.loads(text) if text else None
        answer = Answer(method, path, status, parsed, text, received, started, time.monotonic())
        with self._lock:
            self.answers.append(answer)
        return answer

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        """A request that must succeed, asked again while the service says it is unavailable."""
        for _try in range(60):
            answer = self.call(method, path, body)
            if answer.status < 300:
                return answer.body
            if answer.status != 503:
                break
            time.sleep(float(answer.retry_after or 1))
        raise AssertionError((method, path, answer.status, answer.text[:500]))


def register(port: int, answers: list[Answer], name: str) -> Client:
    client = Client(port, answers)
    account = {"username": name, "password": "correct-horse-battery-staple"}
    body = client.ok("POST", "/api/v1/accounts/register/", account)
    client.token = body["token"]
    return client


def start_computer_game(client: Client) -> str:
    """A yatzy game of the client against the computer, started, whose rolled turns the
    auto-confirm scores."""
    game = client.ok(
        "POST",
        GAMES,
        {
            "kind": "yatzy",
            "seats": [{"type": "me"}, {"type": "computer", "level": "casual"}],
            "options": {"auto_confirm_seconds": 0.5},
        },
    )
    client.ok("POST", f"{GAMES}{game['id']}/start/", {})
    return str(game["id"])


def play_to_the_end(client: Client, game_id: str, polls: int = 3000) -> dict[str, Any]:
    """Roll whenever it is the client's turn (never scoring: the auto-confirm does), wait on a
    short long-poll otherwise; a refusal (409: the game moved meanwhile) reloads the game, a 503
    waits its Retry-After. ``polls`` is a time-out for a game that hangs, not a pace."""
    url = f"{GAMES}{game_id}/"
    game: dict[str, Any] | None = None
    for _poll in range(polls):
        if game is None:
            answer = client.call("GET", url)
            if answer.status != 200:
                time.sleep(float(answer.retry_after or 1) if answer.status == 503 else 0.2)
                continue
            game = answer.body
        assert game is not None
        if game["status"] == "finished":
            return game
        state = game["state"]
        if state["turn_seat"] == 0 and state["can_roll"]:
            roll = {"type": "roll", "expected_version": game["version"]}
            answer = client.call("POST", f"{url}moves/", roll)
            game = answer.body["game"] if answer.status < 300 else None
        else:
            client.call("GET", f"{url}events/?after={game['version']}&wait=2")
            game = None
        if answer.status == 503:
            time.sleep(float(answer.retry_after or 1))
    raise AssertionError(f"game {game_id} never finished: {game}")


def stack_env(database_url: str, **extra: str) -> dict[str, str]:
    """The stack's settings: this run's own timers, lease and Prometheus folder; no throttle
    (every client is on one address)."""
    run = uuid.uuid4().hex[:8]
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "fault-test-secret-key-0123456789-abcdefghijklmnopqrstuv",
        "DEBUG": "false",
        "LOG_FORMAT": "json",
        "THROTTLE_ANON": "1000000/s",
        "THROTTLE_USER": "1000000/s",
        "THROTTLE_AUTH": "1000000/s",
        "STREAM_OPENS_PER_MINUTE": "1000000",
        "STREAMS_PER_ADDRESS": "1000",
        "STREAMS_PER_ACCOUNT": "100",
        "WEB_CONCURRENCY": "2",
        "STREAM_WORKERS": "1",
        "DB_POOL_MAX": "4",
        "COMPUTER_MOVE_DELAY": "0",
        "TIMERS_KEY": f"test-faults:{run}:timers",
        "BEAT_LEASE_KEY": f"test-faults:{run}:beat",
        **extra,
    }


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@contextlib.contextmanager
def stack_on_private_server(folder: Path) -> Iterator[tuple[Stack, PrivateServer]]:
    """A private server with the schema migrated, and one whole stack on it."""
    if CANNOT_RUN:
        pytest.skip(CANNOT_RUN)
    from config.celery_app import app
    from config.storage.redis_client import redis_client

    app.control.purge()  # messages left by other tests name games of another database
    with private_server() as server:
        server.create_database("dice")
        env = stack_env(server.url("dice"))
        migrated = manage(env, "migrate", "--noinput")
        assert migrated.returncode == 0, migrated.stderr[-3000:]
        port = free_base_ports(1, first=8800, last=8899)[0]
        stack = Stack("faults", port, env, folder)
        try:
            stack.start()
            stack.wait_ready()
            yield stack, server
        finally:
            stack.stop()
            redis_client().delete(env["TIMERS_KEY"], f"{env['TIMERS_KEY']}:version")
            redis_client().delete(env["BEAT_LEASE_KEY"])
