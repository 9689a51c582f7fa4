"""Event delivery to clients that wait: long-poll, Server-Sent Events, and the player stream.

These are async Django views served by the ASGI server. An open stream holds no database
connection (each read borrows one from the pool) and no worker of the server; Django's ASGI
handler does keep one idle OS thread per open request (about 100 KiB), so 1000 streams are 1000
threads: count them against a container's pids limit.

Each stream subscribes to the Redis channel first and then reads the database, so an event
committed between the two is read, never lost; events are sent by seq and only past the last seq
sent, so none is sent twice. Without Redis they poll the database instead.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from config.metrics import STREAMS_OPEN
from games import live
from games.models import Game, GameEvent
from games.presenters import event_messages

T = TypeVar("T")
KEEPALIVE_SECONDS = 15.0
MAX_WAIT_SECONDS = 30.0
POLL_SECONDS = 0.25
MAX_EVENTS = 500


def error(status: int, code: str, detail: str, field: str | None = None) -> JsonResponse:
    """The API's one error shape, for views outside DRF."""
    return JsonResponse({"code": code, "detail": detail, "field": field}, status=status)


def _event_row(event: GameEvent, kind: str) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "type": event.type,
        "data": event.data,
        "actor": event.actor.username if event.actor else None,
        "automatic": event.automatic,
        "created_at": event.created_at.isoformat().replace("+00:00", "Z"),
        "messages": event_messages(kind, event.type),
    }


def borrowing_connection(read: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run a database read in the shared thread pool and give its connection back at once (to
    the pool on PostgreSQL): an open stream holds no connection between reads."""

    def run(*args: Any) -> T:
        try:
            return read(*args)
        finally:
            connection.close()

    return sync_to_async(run, thread_sensitive=False)


@borrowing_connection
def _events_after(game_id: object, kind: str, after: int, limit: int) -> list[dict[str, Any]]:
    rows = GameEvent.objects.filter(game_id=game_id, seq__gt=after).select_related("actor")
    return [_event_row(event, kind) for event in rows.order_by("seq")[:limit]]


@borrowing_connection
def _game_header(game_id: object) -> Game | None:
    return Game.objects.filter(pk=game_id).only("pk", "kind", "version").first()


async def events_after(game: Game, after: int, limit: int = MAX_EVENTS) -> list[dict[str, Any]]:
    return await _events_after(game.pk, game.kind, after, limit)


class Notifications:
    """Wakes a waiting client when its channel is published to (or every POLL_SECONDS without
    Redis). Use as an async context manager; subscribe happens on entry."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.pubsub: Any = None
        self.client: Any = None

    async def __aenter__(self) -> Notifications:
        if settings.REDIS_URL:
            import redis.asyncio as aioredis

            self.client = aioredis.Redis.from_url(settings.REDIS_URL)
            self.pubsub = self.client.pubsub()
            await self.pubsub.subscribe(self.channel)
            await self.pubsub.get_message(timeout=1.0)  # the subscribe confirmation
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.pubsub is not None:
            await self.pubsub.aclose()
            await self.client.aclose()

    async def wait(self, seconds: float) -> dict[str, Any] | None:
        """The next note, or None after ``seconds`` (without Redis: after a short poll pause)."""
        if self.pubsub is None:
            await asyncio.sleep(min(seconds, POLL_SECONDS))
            return {}
        message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=seconds)
        if message is None:
            return None
        return dict(json.loads(message["data"]))


def _int_param(request: HttpRequest, name: str, default: float, low: float, high: float) -> float:
    raw = request.GET.get(name)
    if raw in (None, ""):
        return default
    value = float(raw)  # ValueError is the caller's 400
    if not low <= value <= high:
        raise ValueError(name)
    return value


async def game_events(request: HttpRequest, game_id: object) -> HttpResponse:
    """``GET /games/{id}/events/``: JSON page (with ``wait`` to long-poll), or an SSE stream when
    the client asks for ``text/event-stream``."""
    try:
        after = int(
            _int_param(request, "after", float(request.headers.get("Last-Event-ID") or 0), 0, 1e9)
        )
        wait = _int_param(request, "wait", 0, 0, MAX_WAIT_SECONDS)
        limit = int(_int_param(request, "limit", MAX_EVENTS, 1, MAX_EVENTS))
    except ValueError:
        return error(400, "invalid_query", _("This query parameter is not valid."))
    if "text/event-stream" not in request.headers.get("Accept", "") and not wait:
        # A plain page: the DRF view (its auth, throttles and documented schema).
        from games.api.views import GameEventsView

        return await sync_to_async(GameEventsView.as_view())(request, game_id=game_id)  # type: ignore[no-any-return]
    game = await _game_header(game_id)
    if game is None:
        return error(404, "not_found", _("No such game."))
    if "text/event-stream" in request.headers.get("Accept", ""):
        return _sse(game, after)
    events = await events_after(game, after, limit)
    if not events:
        deadline = time.monotonic() + wait
        async with Notifications(live.game_channel(game.pk)) as notes:
            events = await events_after(game, after, limit)  # anything before we subscribed
            while not events and (left := deadline - time.monotonic()) > 0:
                await notes.wait(left)
                events = await events_after(game, after, limit)
    current = await _game_header(game.pk)
    return JsonResponse({"version": current.version if current else None, "events": events})


def _sse(game: Game, after: int) -> StreamingHttpResponse:
    async def stream() -> AsyncIterator[str]:
        STREAMS_OPEN.inc()
        try:
            last = after
            async with Notifications(live.game_channel(game.pk)) as notes:
                yield "retry: 2000\n\n"
                quiet_since = time.monotonic()
                while True:
                    for event in await events_after(game, last):
                        last = event["seq"]
                        quiet_since = time.monotonic()
                        yield f"id: {last}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"
                    await notes.wait(KEEPALIVE_SECONDS)
                    if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                        quiet_since = time.monotonic()
                        yield ": keep-alive\n\n"
        finally:
            STREAMS_OPEN.dec()

    return _stream_response(stream())


def _stream_response(body: AsyncIterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # no proxy buffering of the stream
    return response


@borrowing_connection
def _authenticate(request: HttpRequest) -> Any:
    """Token (header, or ``?token=`` for EventSource, which cannot set headers) or session."""
    from knox.auth import TokenAuthentication
    from rest_framework.exceptions import AuthenticationFailed

    header = request.headers.get("Authorization", "")
    raw = header.split(" ", 1)[1] if header.startswith("Token ") else request.GET.get("token")
    if raw:
        try:
            user, _token = TokenAuthentication().authenticate_credentials(raw.encode())
        except AuthenticationFailed:
            return None
        return user
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


async def player_stream(request: HttpRequest) -> HttpResponse:
    """``GET /stream/``: one SSE connection per account: your turn, game started and finished,
    tournament round started."""
    user = await _authenticate(request)
    if user is None:
        return error(401, "not_authenticated", _("Authentication credentials were not provided."))

    async def stream() -> AsyncIterator[str]:
        STREAMS_OPEN.inc()
        try:
            async with Notifications(live.player_channel(user.pk)) as notes:
                yield "retry: 2000\n\n"
                seen: set[tuple[str, int]] = set()
                quiet_since = last_scan = time.monotonic()
                for note in await live_turns(user):
                    seen.add((note["game"], note["version"]))
                    yield f"event: {note['type']}\ndata: {json.dumps(note)}\n\n"
                while True:
                    note = await notes.wait(KEEPALIVE_SECONDS)
                    fresh = [note] if note else []
                    if notes.pubsub is None and time.monotonic() - last_scan >= 2.0:
                        # No Redis: look for new turns in the database every two seconds.
                        last_scan = time.monotonic()
                        fresh = await live_turns(user)
                    for item in fresh:
                        if (item["game"], item["version"]) in seen:
                            continue
                        seen.add((item["game"], item["version"]))
                        quiet_since = time.monotonic()
                        yield f"event: {item['type']}\ndata: {json.dumps(item)}\n\n"
                    if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                        quiet_since = time.monotonic()
                        yield ": keep-alive\n\n"
        finally:
            STREAMS_OPEN.dec()

    return _stream_response(stream())


@borrowing_connection
def live_turns(user: Any) -> list[dict[str, Any]]:
    """On connect: the games where it is this account's turn now, so a bot that reconnects knows
    where to play without any missed note."""
    from django.db.models import Q

    from games.models import GameStatus, SeatKind

    notes = []
    mine = Q(seats__player=user) | Q(created_by=user, seats__kind=SeatKind.HOTSEAT)
    games = Game.objects.filter(mine, status=GameStatus.ACTIVE).distinct()
    for game in games.prefetch_related("seats"):
        note = live.player_notes(game, game.version, finished=False).get(user.pk)
        if note and note["type"] == "your_turn":
            notes.append(note)
    return notes


async def game_stream(request: HttpRequest, game_id: object) -> HttpResponse:
    """``GET /games/{id}/stream/``: the SSE stream of ``events/``, for clients that cannot choose
    their Accept header."""
    request.META["HTTP_ACCEPT"] = "text/event-stream"
    return await game_events(request, game_id)


# drf-spectacular documents a URL by its DRF view class: ``events/`` is served here (long-poll and
# SSE need an async view) and documented, and answered for plain pages, by GameEventsView.
def _document_as_drf_view() -> None:
    from games.api.views import GameEventsView

    game_events.cls = GameEventsView  # type: ignore[attr-defined]
    game_events.initkwargs = {}  # type: ignore[attr-defined]


_document_as_drf_view()
