"""The stream tier's ASGI application: a game's events as SSE (``Last-Event-ID`` wins over
``?after=``: ``EventSource`` reconnects to the same URL with it) or long-poll, and the account
stream. A plain ASGI callable: Django's ASGI handler gives every request a thread for as long as
it lasts. A ``Host`` not in ``ALLOWED_HOSTS`` is refused first, as Django refuses it; each stream
then counts as an open (``limits``) before anything is read for it, and is admitted by the caps.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from typing import Any, TypeVar
from urllib.parse import parse_qs

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header
from prometheus_client import CONTENT_TYPE_LATEST

from config.observability import logs
from config.observability.metrics import STREAMS_OPEN, exposition
from config.vocabulary.errors import ApiError
from config.vocabulary.problems import PROBLEM_JSON, problem_body
from config.vocabulary.refusals import Refusal
from config.web.client_address import address_behind_proxies, address_bucket, trusted_proxies
from config.web.internal import admitted_as
from games.streams import cors, limits, reads, routes
from games.streams.hub import (
    KEEPALIVE,
    GameListener,
    Hub,
    Overflow,
    PlayerListener,
    drained,
    join,
    next_rows,
    watching_game,
    watching_player,
)
from players.stream_tickets import stream_ticket_redeem

log = logging.getLogger(__name__)
N = TypeVar("N", int, float)
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

MAX_WAIT_SECONDS = 30.0
# Prometheus scrapes each stream-tier host here (the proxy sends /metrics to the WSGI tier).
METRICS_PATH = "/metrics"
RETRY = b"retry: 2000\n\n"


class Request:
    def __init__(self, scope: Scope) -> None:
        self.method: str = scope["method"]
        self.path: str = scope["path"]
        query_string: bytes = scope.get("query_string", b"")
        self.query = parse_qs(query_string.decode("latin-1"), keep_blank_values=True)
        self.headers = {
            name.decode("latin-1").lower(): value.decode("latin-1")
            for name, value in scope.get("headers", [])
        }
        self.language = self._language()
        peer = scope.get("client") or ("", 0)
        self.address = address_behind_proxies(
            str(peer[0]), self.headers.get("x-forwarded-for"), trusted_proxies()
        )
        host = request_host(scope, self.headers)
        self.host_allowed = host_allowed(host)
        # A problem's ``type`` is a URL on the host asked for, but never on one that is not
        # the service's: then it is relative (RFC 9457 allows it), and names no host at all.
        self.origin = f"{scope.get('scheme', 'http')}://{host}" if self.host_allowed else ""

    def param(self, name: str) -> str | None:
        values = self.query.get(name)
        return values[-1].strip() if values else None

    def number(
        self, name: str, read: type[N], default: N, low: N, high: N, raw: str | None = None
    ) -> N:
        raw = self.param(name) if raw is None else raw.strip()
        if raw is None or raw == "":
            return default
        try:
            value = read(raw)
        except ValueError:
            raise Refusal.INVALID_QUERY.error(field=name) from None
        if not math.isfinite(value) or not low <= value <= high:
            raise Refusal.INVALID_QUERY.error(field=name)
        return value

    def cookie(self, name: str) -> str | None:
        jar: SimpleCookie = SimpleCookie()
        with contextlib.suppress(Exception):
            jar.load(self.headers.get("cookie", ""))
        morsel = jar.get(name)
        return morsel.value if morsel is not None else None

    def _language(self) -> str:
        """``?lang=``, else ``Accept-Language``, else the default: as the API's middleware."""
        asked = [(self.param("lang") or "", 2.0)]
        asked += parse_accept_lang_header(self.headers.get("accept-language", ""))
        for code, _quality in asked:
            code = code.lower().replace("_", "-")
            if code and code != "*":
                with contextlib.suppress(LookupError):
                    return translation.get_supported_language_variant(code)
        return str(settings.LANGUAGE_CODE)


def request_host(scope: Scope, headers: dict[str, str]) -> str:
    """The host the request came to, as Django's ``get_host`` reads it (before its check)."""
    host = headers.get("host")
    if not host:
        name, port = scope.get("server") or ("localhost", None)
        default = {"http": 80, "https": 443}.get(scope.get("scheme", "http"))
        host = name if port in (None, default) else f"{name}:{port}"
    return host


def host_allowed(host: str) -> bool:
    """Django's own rule (``HttpRequest.get_host``): the host, its port aside, matches one of
    ``ALLOWED_HOSTS``; with ``DEBUG`` and none set, the localhost names."""
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _port = split_domain_port(host)
    return bool(domain) and validate_host(domain, allowed)


class StreamApp:
    def __init__(self) -> None:
        self._hub: Hub | None = None
        self._limits: limits.Limits | None = None

    def limits(self) -> limits.Limits:
        if self._limits is None:
            self._limits = limits.Limits()
        return self._limits

    async def hub(self) -> Hub:
        if self._hub is None:
            self._hub = Hub()
        await self._hub.start()
        return self._hub

    async def shutdown(self) -> None:
        if self._hub is not None:
            await self._hub.stop()
            self._hub = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            request = Request(scope)
            if not request.host_allowed:
                with translation.override(request.language):
                    await refuse(send, request, Refusal.DISALLOWED_HOST.error())
                return
            if request.path == METRICS_PATH:
                # For the operators only, as the WSGI tier's (config.web.internal).
                if admitted_as(request.headers.get("authorization", ""), request.address):
                    await metrics_page(send)
                else:
                    await refuse(send, request, Refusal.INTERNAL_ONLY.error())
                return
            # The stream's log lines carry the proxy's (or the client's) X-Request-ID.
            request_id = logs.request_id_from(request.headers.get("x-request-id"))
            with logs.bound(request_id=request_id), translation.override(request.language):
                await self._http(request, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.hub()
                except Exception as exc:
                    log.exception("stream tier: could not subscribe to the live bus")
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, request: Request, receive: Receive, send: Send) -> None:
        game = routes.GAME_PATH.match(request.path)
        if game is None and not routes.PLAYER_STREAM.match(request.path):
            await refuse(send, request, Refusal.NOT_FOUND.error())
            return
        if cors.is_preflight(request.method, request.headers):
            await preflight(send, request)
            return
        if request.method != "GET":
            words = Refusal.METHOD_NOT_ALLOWED.message.format(method=request.method)
            await refuse(send, request, Refusal.METHOD_NOT_ALLOWED.error(detail=words))
            return
        bucket = address_bucket(request.address)
        try:
            # Counted before anything is read for it: a bad token's open is an open too.
            await self.limits().count_open(bucket)
            player_id = await authenticate(request) if game is None else None
            admission = await self.limits().admit(limits.Holder(bucket, player_id))
        except ApiError as refused:
            await refuse(send, request, refused)
            return
        try:
            if player_id is not None:
                await self._player_stream(request, receive, send, player_id)
            elif game is not None:
                await self._game(request, receive, send, game["game"], game["what"])
        except ApiError as refused:  # a bad query, or a read before the answer began (an outage)
            await refuse(send, request, refused)
        finally:
            await self.limits().release(admission)

    async def _game(
        self, request: Request, receive: Receive, send: Send, game_id: str, what: str
    ) -> None:
        last_event_id = request.headers.get("last-event-id")
        after = request.number("after", int, 0, 0, 2**31)
        if last_event_id is not None and last_event_id.strip():
            after = request.number("Last-Event-ID", int, 0, 0, 2**31, raw=last_event_id)
        as_stream = what == "stream" or routes.wants_event_stream(request.headers)
        wait = 0.0 if as_stream else request.number("wait", float, 0.0, 0.0, MAX_WAIT_SECONDS)
        limit = request.number("limit", int, reads.MAX_EVENTS, 1, reads.MAX_EVENTS)
        header = await reads.run(reads.game_header, game_id)
        if header is None:
            await refuse(send, request, Refusal.GAME_NOT_FOUND.error())
            return
        language = request.language
        listener = GameListener(after, streaming=as_stream)
        with watching_game(await self.hub(), game_id, header.kind, listener) as feed:
            rows = await join(feed, listener, header.version)
            if as_stream:

                async def pump() -> None:
                    await send_chunk(send, RETRY + b"".join(row.frame(language) for row in rows))
                    while True:
                        fresh = await next_rows(feed, listener)
                        if fresh:
                            await send_chunk(send, b"".join(row.frame(language) for row in fresh))
                        elif listener.keepalive_due:
                            await send_chunk(send, KEEPALIVE)
                        listener.keepalive_due = False

                await stream(send, receive, request, pump)
                return
            if not rows and wait:
                with contextlib.suppress(TimeoutError, Overflow):
                    async with asyncio.timeout(wait):
                        rows = await next_rows(feed, listener)
        version = max([header.version] + [row.seq for row in rows])
        events = [row.as_dict(language) for row in rows[:limit]]
        await respond(send, request, 200, {"version": version, "events": events})

    async def _player_stream(
        self, request: Request, receive: Receive, send: Send, player_id: int
    ) -> None:
        listener = PlayerListener()
        with watching_player(await self.hub(), player_id, listener):
            opening = listener.opening(await reads.run(reads.your_turns, player_id))

            async def pump() -> None:
                await send_chunk(send, RETRY + b"".join(opening))
                while True:
                    if listener.overflowed:
                        raise Overflow()
                    frames: list[bytes] = await drained(listener.queue)
                    await send_chunk(send, b"".join(frames))
                    if listener.closed and listener.queue.empty():
                        return  # the account is closed: its note is sent, the stream ends

            await stream(send, receive, request, pump)


async def authenticate(request: Request) -> int:
    """The account of the player stream: a stream ticket (``?ticket=``, for ``EventSource``,
    which cannot set headers), a token in the ``Authorization`` header, else the Django session
    cookie. A token in the URL is refused: URLs are logged."""
    if request.param("token"):
        raise Refusal.TOKEN_IN_URL.error()
    ticket = request.param("ticket")
    if ticket:
        player_id = await asyncio.to_thread(stream_ticket_redeem, ticket)
        # A ticket outlives a ban by up to its 60 seconds: the account must still be active.
        if player_id is None or not await reads.run(reads.account_active, player_id):
            raise Refusal.INVALID_TICKET.error()
        return player_id
    header = request.headers.get("authorization", "")
    found: int | None = None
    if header.startswith("Token "):
        found = await reads.run(reads.account_for_token, header.split(" ", 1)[1].strip())
    elif session_key := request.cookie(settings.SESSION_COOKIE_NAME):
        found = await reads.run(reads.account_for_session, session_key)
    if found is None:
        raise Refusal.NOT_AUTHENTICATED.error()
    return found


async def stream(send: Send, receive: Receive, request: Request, pump: Callable[[], Any]) -> None:
    """Run an SSE body until the client goes away (or falls too far behind)."""
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"text/event-stream"),
                (b"cache-control", b"no-cache"),
                (b"x-accel-buffering", b"no"),  # a proxy must pass each event on at once
                (b"content-language", request.language.encode()),
                (b"vary", b"Accept-Language, Origin"),
                *cors.answer_headers(request.headers),
            ],
        }
    )
    STREAMS_OPEN.inc()
    body = asyncio.ensure_future(pump())
    gone = asyncio.ensure_future(disconnected(receive))
    try:
        # At the end of its lifetime the stream ends; the client reconnects where it was.
        await asyncio.wait(
            {body, gone}, timeout=limits.lifetime(), return_when=asyncio.FIRST_COMPLETED
        )
        failure = body.exception() if body.done() and not body.cancelled() else None
        # A refusal mid-stream (a gap's read with the database out of reach, logged where it was
        # refused) ends the stream like a slow client's: it reconnects with Last-Event-ID.
        if failure is not None and not isinstance(failure, Overflow | OSError | ApiError):
            log.error("stream failed", exc_info=failure)
    finally:
        STREAMS_OPEN.dec()
        for task in (body, gone):
            task.cancel()
        with contextlib.suppress(Exception):
            await send({"type": "http.response.body", "body": b"", "more_body": False})


async def metrics_page(send: Send) -> None:
    """This tier's metrics (its processes' sum in multiprocess mode), read off the event loop."""
    body = await asyncio.to_thread(exposition, queues=False)
    await answer(send, 200, [(b"content-type", CONTENT_TYPE_LATEST.encode())], body)


async def answer(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def send_chunk(send: Send, chunk: bytes) -> None:
    if chunk:
        await send({"type": "http.response.body", "body": chunk, "more_body": True})


async def respond(
    send: Send,
    request: Request,
    status: int,
    body: dict[str, Any],
    content_type: str = "application/json",
    extra: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    payload = json.dumps(body, separators=(",", ":")).encode()
    headers = [
        (b"content-type", content_type.encode()),
        (b"content-length", str(len(payload)).encode()),
        (b"content-language", request.language.encode()),
        (b"vary", b"Accept-Language, Origin"),
        *cors.answer_headers(request.headers),
        *extra,
    ]
    if "retry_after" in body:  # a throttled refusal, as the API's handler sends it
        headers.append((b"retry-after", str(body["retry_after"]).encode()))
    await answer(send, status, headers, payload)


async def preflight(send: Send, request: Request) -> None:
    """A CORS preflight: the streams take GET, with the API's request headers."""
    headers = [(b"content-length", b"0"), (b"vary", b"Origin")]
    await answer(send, 200, [*headers, *cors.preflight_headers(request.headers)], b"")


async def refuse(
    send: Send, request: Request, exc: ApiError, extra: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    """A refusal of the one vocabulary (config.vocabulary.refusals) in the API's one error shape,
    an RFC 9457 problem: the same codes, words and body as the WSGI tier's."""
    body = problem_body(exc, request.origin)
    await respond(send, request, exc.status_code, body, PROBLEM_JSON, extra)
