"""What one client may hold of the stream tier: opens a minute per address, streams open per
address and per account, and each stream's lifetime (``STREAM_MAX_SECONDS``: then the client
reconnects, with ``Last-Event-ID``).

The lifetime keeps the count of open streams safe across processes: each open stream is an entry
of a Redis sorted set scored with the time it must end by, so a dead process's entries lapse on
their own. An open is counted against its address's bucket (``address_bucket``) before anything is
read for it, so a flood of bad tokens is throttled like any other; each step is one Lua script.
Without Redis (``make run``: one process) the same rules are kept in memory.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from config.vocabulary.errors import ApiError
from config.vocabulary.refusals import Refusal

_OPEN = """
local opens = redis.call('INCR', KEYS[1])
if opens == 1 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1])) end
return {opens, redis.call('PTTL', KEYS[1])}
"""

_ADMIT = """
local now, ends, member = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[3 + i]) then return i end
end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], ends, member)
  redis.call('EXPIRE', KEYS[i], math.ceil(ends - now) + 60)
end
return 0
"""


@dataclass(frozen=True)
class Holder:
    """Who opens a stream: its address's bucket, and its account if it signed in."""

    address: str
    account: int | None = None

    def sets(self) -> list[tuple[str, int]]:
        """Each set of open streams this one counts in, with its cap."""
        keys = [(f"address:{self.address}", int(settings.STREAMS_PER_ADDRESS))]
        if self.account is not None:
            keys.append((f"account:{self.account}", int(settings.STREAMS_PER_ACCOUNT)))
        return keys


@dataclass
class Admission:
    """An open stream's place, given back when it closes."""

    holder: Holder
    member: str = field(default_factory=lambda: uuid.uuid4().hex)


def lifetime() -> float:
    return float(settings.STREAM_MAX_SECONDS)


class Limits:
    """The tier's limits, kept in Redis when there is one (every process and machine)."""

    def __init__(self) -> None:
        self._memory = _MemoryLimits() if not settings.REDIS_URL else None
        self._scripts: dict[str, Any] = {}

    async def count_open(self, address: str) -> None:
        """Count one open against ``address`` (a bucket), whatever becomes of it; the refusal
        (429, with its wait) past ``STREAM_OPENS_PER_MINUTE``."""
        limit, window = int(settings.STREAM_OPENS_PER_MINUTE), 60
        if self._memory is not None:
            opens, left_ms = self._memory.count_open(address, window, time.time())
        else:
            opens, left_ms = await asyncio.to_thread(self._count_open_redis, address, window)
        if opens > limit:
            error: ApiError = Refusal.THROTTLED.error()
            error.wait = max(left_ms / 1000, 0.001)
            raise error

    async def admit(self, holder: Holder) -> Admission:
        """A place for one more stream of this holder, or the refusal to send it."""
        admission = Admission(holder)
        now = time.time()
        if self._memory is not None:
            full = self._memory.admit(holder, admission.member, now)
        else:
            full = await asyncio.to_thread(self._admit_redis, holder, admission.member, now)
        if full:
            per = "address" if full == 1 else "account"
            cap = holder.sets()[full - 1][1]
            raise Refusal.TOO_MANY_STREAMS.error(params={"per": per, "limit": cap})
        return admission

    async def release(self, admission: Admission) -> None:
        if self._memory is not None:
            self._memory.release(admission)
            return
        await asyncio.to_thread(self._release_redis, admission)

    def _prefix(self) -> str:
        return f"{settings.LIVE_CHANNEL_PREFIX}:streams:"

    def _script(self, source: str) -> Any:
        from config.storage.redis_client import redis_client

        if source not in self._scripts:
            self._scripts[source] = redis_client().register_script(source)
        return self._scripts[source]

    def _count_open_redis(self, address: str, window: int) -> tuple[int, int]:
        keys = [f"{self._prefix()}opens:{address}"]
        opens, left_ms = self._script(_OPEN)(keys=keys, args=[window])
        return int(opens), int(left_ms)

    def _admit_redis(self, holder: Holder, member: str, now: float) -> int:
        keys, caps = [], []
        for key, cap in holder.sets():
            keys.append(self._prefix() + key)
            caps.append(cap)
        return int(self._script(_ADMIT)(keys=keys, args=[now, now + lifetime(), member, *caps]))

    def _release_redis(self, admission: Admission) -> None:
        from config.storage.redis_client import redis_client

        pipeline = redis_client().pipeline(transaction=False)
        for key, _cap in admission.holder.sets():
            pipeline.zrem(self._prefix() + key, admission.member)
        pipeline.execute()


class _MemoryLimits:
    """The same rules in one process (the event loop's thread only: no lock needed)."""

    def __init__(self) -> None:
        self.opens: dict[str, tuple[float, int]] = {}
        self.open: defaultdict[str, dict[str, float]] = defaultdict(dict)

    def count_open(self, address: str, window: int, now: float) -> tuple[int, int]:
        """The opens of ``address`` in its window, this one included, and the window's
        milliseconds left."""
        opened, count = self.opens.get(address, (now, 0))
        if now >= opened + window:
            opened, count = now, 0
        self.opens[address] = (opened, count + 1)
        return count + 1, int((opened + window - now) * 1000)

    def admit(self, holder: Holder, member: str, now: float) -> int:
        """0, or the 1-based index of the holder's set that is full."""
        keys = holder.sets()
        for index, (key, cap) in enumerate(keys, start=1):
            streams = self.open[key]
            for lapsed in [m for m, ends in streams.items() if ends <= now]:
                del streams[lapsed]
            if len(streams) >= cap:
                return index
        for key, _cap in keys:
            self.open[key][member] = now + lifetime()
        return 0

    def release(self, admission: Admission) -> None:
        for key, _cap in admission.holder.sets():
            self.open[key].pop(admission.member, None)
            if not self.open[key]:
                del self.open[key]
