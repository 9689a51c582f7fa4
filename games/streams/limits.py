"""What one client may hold of the stream tier: how often it opens streams, how many it keeps
open (per address, and per account when it signs in), and for how long each.

Every stream has a lifetime (``STREAM_MAX_SECONDS``): the tier ends it then, and the client
reconnects (``EventSource`` does so by itself, resuming with ``Last-Event-ID``). That bound is
also what makes the count of open streams safe across processes and machines: each open stream is
an entry of a Redis sorted set scored with the time it must end by, so the entries of a process
that died without closing them lapse on their own by that time, and no count can drift.

``admit`` is one Lua script (one round trip): count the open (a fixed-window counter per address),
drop lapsed entries, check each cap, add the stream's entries. Without Redis (``make run``: one
process) the same rules are kept in memory.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from config.errors import ApiError
from config.refusals import Refusal

_ADMIT = """
local now, ends, member = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local opens_limit, window = tonumber(ARGV[4]), tonumber(ARGV[5])
local opens = redis.call('INCR', KEYS[1])
if opens == 1 then redis.call('EXPIRE', KEYS[1], window) end
if opens > opens_limit then return {1, redis.call('PTTL', KEYS[1])} end
for i = 2, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[4 + i]) then return {2, i - 1} end
end
for i = 2, #KEYS do
  redis.call('ZADD', KEYS[i], ends, member)
  redis.call('EXPIRE', KEYS[i], math.ceil(ends - now) + 60)
end
return {0, 0}
"""


@dataclass(frozen=True)
class Holder:
    """Who opens a stream: its address, and its account if it signed in."""

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


def _opens_rate() -> tuple[int, int]:
    return int(settings.STREAM_OPENS_PER_MINUTE), 60


class Limits:
    """The tier's limits, kept in Redis when there is one (every process and machine)."""

    def __init__(self) -> None:
        self._memory = _MemoryLimits() if not settings.REDIS_URL else None
        self._script: Any = None

    async def admit(self, holder: Holder) -> Admission:
        """A place for one more stream of this holder, or the refusal to send it."""
        admission = Admission(holder)
        now = time.time()
        if self._memory is not None:
            verdict = self._memory.admit(holder, admission.member, now)
        else:
            verdict = await asyncio.to_thread(self._admit_redis, holder, admission.member, now)
        _raise_for(verdict, holder)
        return admission

    async def release(self, admission: Admission) -> None:
        if self._memory is not None:
            self._memory.release(admission)
            return
        await asyncio.to_thread(self._release_redis, admission)

    def _prefix(self) -> str:
        return f"{settings.LIVE_CHANNEL_PREFIX}:streams:"

    def _admit_redis(self, holder: Holder, member: str, now: float) -> tuple[int, int]:
        from config.redis_client import redis_client

        if self._script is None:
            self._script = redis_client().register_script(_ADMIT)
        limit, window = _opens_rate()
        keys = [f"{self._prefix()}opens:{holder.address}"]
        caps = []
        for key, cap in holder.sets():
            keys.append(self._prefix() + key)
            caps.append(cap)
        args = [now, now + lifetime(), member, limit, window, *caps]
        status, value = self._script(keys=keys, args=args)
        return int(status), int(value)

    def _release_redis(self, admission: Admission) -> None:
        from config.redis_client import redis_client

        pipeline = redis_client().pipeline(transaction=False)
        for key, _cap in admission.holder.sets():
            pipeline.zrem(self._prefix() + key, admission.member)
        pipeline.execute()


class _MemoryLimits:
    """The same rules in one process (the event loop's thread only: no lock needed)."""

    def __init__(self) -> None:
        self.opens: dict[str, tuple[float, int]] = {}
        self.open: defaultdict[str, dict[str, float]] = defaultdict(dict)

    def admit(self, holder: Holder, member: str, now: float) -> tuple[int, int]:
        limit, window = _opens_rate()
        opened, count = self.opens.get(holder.address, (now, 0))
        if now >= opened + window:
            opened, count = now, 0
        self.opens[holder.address] = (opened, count + 1)
        if count + 1 > limit:
            return 1, int((opened + window - now) * 1000)
        keys = holder.sets()
        for index, (key, cap) in enumerate(keys, start=1):
            streams = self.open[key]
            for lapsed in [m for m, ends in streams.items() if ends <= now]:
                del streams[lapsed]
            if len(streams) >= cap:
                return 2, index
        for key, _cap in keys:
            self.open[key][member] = now + lifetime()
        return 0, 0

    def release(self, admission: Admission) -> None:
        for key, _cap in admission.holder.sets():
            self.open[key].pop(admission.member, None)
            if not self.open[key]:
                del self.open[key]


def _raise_for(verdict: tuple[int, int], holder: Holder) -> None:
    status, value = verdict
    if status == 0:
        return
    if status == 1:
        error: ApiError = Refusal.THROTTLED.error()
        error.wait = max(value / 1000, 0.001)
        raise error
    per = "address" if value == 1 else "account"
    cap = holder.sets()[value - 1][1]
    raise Refusal.TOO_MANY_STREAMS.error(params={"per": per, "limit": cap})
