"""``make run``'s one process (``config.asgi`` under uvicorn, no nginx in front) counts a request
body's bytes as they arrive (config.web.body_limit): a chunked body, which has no Content-Length to
refuse it by, is answered 413 ``request_too_large`` once it passes ``MAX_REQUEST_BODY_BYTES``,
without its end being waited for or its rest read. Django's handler alone read it whole first.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_django import Settings

from config.web.body_limit import limit_body
from tests.serving.stacks import Process, procfile

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 1000
REGISTER = "/api/v1/accounts/register/"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def run_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """``make run``'s web process, by the Procfile's own command line, on a free port. Without
    the lifespan: the stream hub it starts reads the live bus's table, and this database is left
    empty (nothing here reaches it)."""
    folder = tmp_path_factory.mktemp("run")
    port = free_port()
    command = procfile()["web"].replace("${HOST:-127.0.0.1}", "127.0.0.1")
    command = command.replace("${PORT:-8000}", str(port)).replace("${WEB_WORKERS:-1}", "1")
    assert "uvicorn config.asgi:application" in command and "$" not in command
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "DATABASE_URL", "PROMETHEUS_MULTIPROC_DIR"}
    }
    env.update(
        DEBUG="true",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        CELERY_BROKER_URL="memory://",
        MAX_REQUEST_BODY_BYTES=str(LIMIT),
        PATH=f"{Path(sys.executable).parent}:{env.get('PATH', '')}",
    )
    server = Process("web", [*command.split(), "--lifespan", "off"], env, folder / "web.log")
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.alive(), server.text()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, server.text()
                time.sleep(0.2)
        yield port
    finally:
        server.stop()


def chunked_head(path: str = REGISTER) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    raw = b""
    while b"\r\n\r\n" not in raw:
        got = sock.recv(65536)
        assert got, f"closed before an answer: {raw!r}"
        raw += got
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    while len(body) < int(headers.get("content-length", "0")):
        got = sock.recv(65536)
        assert got, "closed in the answer's body"
        body += got
    return int(lines[0].split()[1]), headers, body


def test_a_chunked_body_past_the_limit_is_refused_before_its_end(run_server: int) -> None:
    with socket.create_connection(("127.0.0.1", run_server), timeout=10) as sock:
        sock.sendall(chunked_head())
        # Three chunks of 512 bytes pass the limit of 1000; the body's last chunk is never sent:
        # an answer now is one given without waiting for the rest.
        for _ in range(3):
            sock.sendall(chunk(b"a" * 512))
        status, headers, body = read_answer(sock)
        assert status == 413
        assert headers["content-type"] == "application/problem+json"
        assert headers["connection"] == "close"
        assert json.loads(body) == {
            "type": "http://127.0.0.1/api/v1/errors/request_too_large/",
            "title": "The request body is too large.",
            "status": 413,
            "code": "request_too_large",
            "detail": "The request body is too large.",
            "field": None,
            "params": {"limit": LIMIT},
        }
        # The server reads nothing more of it: it closes the connection.
        assert closed_by_the_server(sock)


def closed_by_the_server(sock: socket.socket) -> bool:
    sock.settimeout(5)
    try:
        for _ in range(200):
            sock.sendall(chunk(b"a" * 4096))
            if sock.recv(1) == b"":
                return True
    except TimeoutError:
        return False  # still open, reading (or ignoring) what comes
    except ConnectionError:
        return True  # reset
    return False


def test_a_chunked_body_within_the_limit_reaches_django(run_server: int) -> None:
    with socket.create_connection(("127.0.0.1", run_server), timeout=10) as sock:
        sock.sendall(chunked_head() + chunk(b'{"username": ') + chunk(b'"ann"}') + chunk(b""))
        status, _headers, body = read_answer(sock)
    # Django's answer, not the limit's (DRF reads a body without a Content-Length as empty).
    assert (status, json.loads(body)["code"]) == (400, "invalid_input")


# --- the wrapper, driven directly ----------------------------------------------------------


class Recorder:
    """An application that reads its whole body, then answers 200 with what it read."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            self.messages.append(message)
            if message["type"] == "http.disconnect" or not message.get("more_body"):
                break
        if self.messages[-1]["type"] == "http.disconnect":
            await send({"type": "http.response.start", "status": 499, "headers": []})
            return
        body = b"".join(m.get("body", b"") for m in self.messages)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})


def drive(app: Any, chunks: list[bytes], headers: list[tuple[bytes, bytes]] | None = None) -> Any:
    pulled: list[int] = []
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        pulled.append(len(pulled))
        index = len(pulled) - 1
        if index >= len(chunks):
            raise AssertionError("read past the body's end")
        return {"type": "http.request", "body": chunks[index], "more_body": index < len(chunks) - 1}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": REGISTER,
        "scheme": "http",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), *(headers or [])],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))
    return len(pulled), sent


def test_the_wrapper_stops_reading_at_the_chunk_past_the_limit(settings: Settings) -> None:
    settings.MAX_REQUEST_BODY_BYTES = LIMIT
    inner = Recorder()
    pulled, sent = drive(limit_body(inner), [b"a" * 400] * 10)
    assert pulled == 3  # 1200 bytes: the third chunk passed the limit; seven never read
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["params"] == {"limit": LIMIT}
    # The application was told the client went away, and its own answer went nowhere.
    assert inner.messages[-1] == {"type": "http.disconnect"}
    assert len(sent) == 2


def test_the_wrapper_refuses_a_declared_length_past_the_limit_unread(settings: Settings) -> None:
    settings.MAX_REQUEST_BODY_BYTES = LIMIT
    inner = Recorder()
    pulled, sent = drive(limit_body(inner), [b"a" * 10], [(b"content-length", b"5000")])
    assert (pulled, sent[0]["status"], inner.messages) == (0, 413, [])


def test_the_wrapper_passes_a_body_within_the_limit_unchanged(settings: Settings) -> None:
    settings.MAX_REQUEST_BODY_BYTES = LIMIT
    inner = Recorder()
    chunks = [b"a" * 400, b"b" * 400, b"c" * 200]  # exactly the limit
    pulled, sent = drive(limit_body(inner), chunks)
    assert pulled == 3
    assert [m["type"] for m in inner.messages] == ["http.request"] * 3
    assert (sent[0]["status"], sent[1]["body"]) == (200, b"".join(chunks))
