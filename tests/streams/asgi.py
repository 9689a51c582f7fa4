"""A minimal ASGI client for the stream tier: one request, its body read chunk by chunk as the
application sends it (a streamed response never ends by itself), and a disconnect on close."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlencode

TIMEOUT = 5.0


class Response:
    def __init__(
        self,
        start: dict[str, Any],
        from_app: asyncio.Queue[dict[str, Any]],
        to_app: asyncio.Queue[dict[str, Any]],
        task: asyncio.Task[None],
    ) -> None:
        self.status: int = start["status"]
        self.headers = {k.decode(): v.decode() for k, v in start["headers"]}
        self._from_app = from_app
        self._to_app = to_app
        self._task = task
        self._buffer = b""
        self.ended = False

    async def chunk(self, timeout: float = TIMEOUT) -> bytes:
        message = await asyncio.wait_for(self._from_app.get(), timeout)
        if not message.get("more_body", False):
            self.ended = True
        return bytes(message.get("body", b""))

    async def read_all(self) -> bytes:
        body = b""
        while not self.ended:
            body += await self.chunk()
        return body

    async def json(self) -> Any:
        return json.loads(await self.read_all())

    async def events(self, count: int, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
        """The next ``count`` SSE events (``data`` parsed, ``id`` and ``event`` added as ``_id``
        and ``_event``); comments and ``retry:`` lines are skipped."""
        found: list[dict[str, Any]] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(found) < count:
            while b"\n\n" in self._buffer and len(found) < count:
                frame, self._buffer = self._buffer.split(b"\n\n", 1)
                fields: dict[str, str] = {}
                for line in frame.decode().split("\n"):
                    name, _, value = line.partition(": ")
                    if name in ("id", "event", "data"):
                        fields[name] = value
                if "data" in fields:
                    event = json.loads(fields["data"])
                    event["_id"] = fields.get("id")
                    event["_event"] = fields.get("event")
                    found.append(event)
            if len(found) < count:
                if self.ended:
                    raise AssertionError(f"stream ended after {len(found)} of {count} events")
                self._buffer += await self.chunk(max(0.01, deadline - loop.time()))
        return found

    async def nothing_more(self, seconds: float) -> None:
        """No event arrives within ``seconds`` (keep-alive comments aside)."""
        try:
            extra = await self.events(1, timeout=seconds)
        except TimeoutError:
            return
        raise AssertionError(f"unexpected event {extra}")

    async def close(self) -> None:
        await self._to_app.put({"type": "http.disconnect"})
        await asyncio.wait_for(self._task, TIMEOUT)


async def get(
    app: Any,
    path: str,
    query: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    client: str = "127.0.0.1",
) -> Response:
    to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    await to_app.put({"type": "http.request", "body": b"", "more_body": False})
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": urlencode(query or {}).encode(),
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
        "client": (client, 50000),
        "server": ("testserver", 80),
    }
    task = asyncio.create_task(app(scope, to_app.get, from_app.put))
    start = await asyncio.wait_for(from_app.get(), TIMEOUT)
    return Response(start, from_app, to_app, task)
