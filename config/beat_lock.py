"""Beat exactly once, however many beat processes run (a machine replaced, a deploy overlapping):
every machine may run a beat, and only the holder of a lease in Redis sends the periodic tasks.

The lease is one key (``BEAT_LEASE_KEY``) holding the holder's token for ``BEAT_LEASE_SECONDS``,
renewed every third of that before anything is sent; a beat without it looks again as often and
takes it once the holder's key expires. A holder that cannot renew stops sending at once. It trusts
its lease for a third of its length, timed from before it asked: only a stall of two thirds of the
lease could overlap the next holder, and every periodic task is safe to run twice.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from typing import Any

from celery.beat import PersistentScheduler
from django.conf import settings

from config.storage.redis_client import redis_client

log = logging.getLogger(__name__)

# KEYS: the lease; ARGV: our token, its length in ms. 1 if we hold it now, else 0.
_HOLD = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
"""

# KEYS: the lease; ARGV: our token. Gives it back only if it is still ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class BeatLease:
    """The lease ``key`` for ``seconds``, on ``client`` (a redis-py client)."""

    def __init__(
        self,
        *,
        client: Any,
        key: str,
        seconds: float,
        token: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.key = key
        self.seconds = seconds
        self.token = token or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.clock = clock
        #: How often the holder renews, and a beat without it looks again.
        self.every = seconds / 3
        self._confirmed_at: float | None = None
        self._hold = client.register_script(_HOLD)
        self._release = client.register_script(_RELEASE)

    @property
    def held(self) -> bool:
        return self._confirmed_at is not None

    def hold(self) -> bool:
        """Whether this process holds the lease now, renewed once a third of it has passed."""
        now = self.clock()
        if self._confirmed_at is not None and now - self._confirmed_at < self.every:
            return True
        was_held = self.held
        try:
            ours = bool(self._hold(keys=[self.key], args=[self.token, int(self.seconds * 1000)]))
        except Exception:
            log.warning(
                "beat: could not reach the lease %s; sending nothing", self.key, exc_info=True
            )
            ours = False
        self._confirmed_at = now if ours else None
        if ours and not was_held:
            log.info(
                "beat: holds the lease %s (%s); sending the periodic tasks", self.key, self.token
            )
        elif was_held and not ours:
            log.warning("beat: lost the lease %s (%s); sending nothing", self.key, self.token)
        return ours

    def release(self) -> None:
        if self._confirmed_at is None:
            return
        self._confirmed_at = None
        try:
            self._release(keys=[self.key], args=[self.token])
        except Exception:
            log.warning("beat: could not give back the lease %s; it expires", self.key)


class SingleBeatScheduler(PersistentScheduler):
    """Celery's scheduler, sending only while this process holds the lease."""

    def __init__(self, *args: Any, lease: BeatLease | None = None, **kwargs: Any) -> None:
        self.lease = lease or BeatLease(
            client=redis_client(), key=settings.BEAT_LEASE_KEY, seconds=settings.BEAT_LEASE_SECONDS
        )
        super().__init__(*args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        if not self.lease.hold():
            return self.lease.every
        # Never sleep past the next renewal: the lease must not lapse while we hold it.
        return float(min(super().tick(*args, **kwargs), self.lease.every))

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.lease.release()
