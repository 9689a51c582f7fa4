"""One subscription per process to the live bus (``games.followups.live``): Redis pub/sub, or the
``LiveNote`` table polled (no Redis). Both are ready only once notes published from then on are
sure to arrive: a stream registers with the hub before it reads the database, so nothing committed
in between is missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings

from games.followups import live
from games.streams import reads

log = logging.getLogger(__name__)
Deliver = Callable[[str, dict[str, Any]], None]
POLL_SECONDS = 0.2
RECONNECT_SECONDS = 1.0


class Subscriber:
    _task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        raise NotImplementedError

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class RedisSubscriber(Subscriber):
    def __init__(self, deliver: Deliver, on_reconnect: Callable[[], None]) -> None:
        self.deliver = deliver
        # After a lost connection, notes published meanwhile are gone: the hub re-reads.
        self.on_reconnect = on_reconnect
        self._ready = asyncio.Event()
        self._topics = {live.channel(topic).encode(): topic for topic in live.TOPICS}

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="live-bus")
        await self._ready.wait()

    async def _run(self) -> None:
        import redis.asyncio as aioredis

        first = True
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL)
            pubsub = client.pubsub()
            try:
                await pubsub.subscribe(*self._topics)
                confirmed = 0
                while confirmed < len(self._topics):
                    message = await pubsub.get_message(timeout=5.0)
                    if message is not None and message["type"] == "subscribe":
                        confirmed += 1
                if not first:
                    self.on_reconnect()
                first = False
                self._ready.set()
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        self._dispatch(message["channel"], message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live bus: Redis subscription lost; reconnecting", exc_info=True)
                await asyncio.sleep(RECONNECT_SECONDS)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                    await client.aclose()

    def _dispatch(self, channel: bytes, data: bytes) -> None:
        topic = self._topics.get(channel)
        if topic is None:
            return
        try:
            payload = json.loads(data)
        except ValueError:
            log.warning("live bus: a note that is not JSON on %r", channel)
            return
        self.deliver(topic, payload)


class TableSubscriber(Subscriber):
    """The embedded bus: every ``POLL_SECONDS``, the notes stored since the last look."""

    def __init__(self, deliver: Deliver, on_reconnect: Callable[[], None]) -> None:
        self.deliver = deliver
        self._last = 0

    async def start(self) -> None:
        self._last = await reads.run(reads.last_note_id)
        self._task = asyncio.create_task(self._run(), name="live-bus")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                notes = await reads.run(reads.notes_after, self._last)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live bus: could not read notes", exc_info=True)
                continue
            for note_id, topic, payload in notes:
                self._last = note_id
                self.deliver(topic, payload)


def subscriber(deliver: Deliver, on_reconnect: Callable[[], None]) -> Subscriber:
    if settings.LIVE_BUS == "redis":
        return RedisSubscriber(deliver, on_reconnect)
    return TableSubscriber(deliver, on_reconnect)
