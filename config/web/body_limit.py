"""The request body limit under ``make run`` (no nginx), by the bytes that arrive: an ASGI wrapper.

Django's ASGI handler reads a body whole before any middleware runs, so a chunked body would be
read to its end before it is refused. This counts the bytes as the application reads them; past
``MAX_REQUEST_BODY_BYTES`` it answers 413 with ``Connection: close`` and tells the application
the client went away (``http.disconnect``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.utils import translation

from config.vocabulary.refusals import Refusal
from games.streams.app import Request, refuse

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

CLOSE = ((b"connection", b"close"),)


def declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # not a number: the server refuses it, or reads no body
    return None


def limit_body(app: App) -> App:
    async def limited(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        limit = int(settings.MAX_REQUEST_BODY_BYTES)
        declared = declared_length(scope)
        if declared is not None and declared > limit:
            await too_large(scope, send, limit)
            return
        received = 0
        refused = False
        answering = False  # the application has begun its answer: too late for a 413

        async def counted() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    refused = True
                    if not answering:
                        await too_large(scope, send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def sent(message: Message) -> None:
            nonlocal answering
            if refused and not answering:
                return  # the 413 is the answer: the application's goes nowhere
            answering = True
            await send(message)

        await app(scope, counted, sent)

    return limited


async def too_large(scope: Scope, send: Send, limit: int) -> None:
    # Answered as the stream tier answers a problem: Django has no request yet.
    request = Request(scope)
    with translation.override(request.language):
        refusal = Refusal.REQUEST_TOO_LARGE.error(params={"limit": limit})
        await refuse(send, request, refusal, CLOSE)
