"""The games' timers (a kind's auto-confirm, the turn clock): where they are kept, and how a
committed move sets its game's timer. ``games.timers.runner`` fires them.

Not Celery ETA tasks (``GAMES_TIMERS=celery`` keeps that path, for comparison): each timer was a
broker message held in a worker until due, and one the player had beaten (most) paid the whole trip
to find out it was stale: p99 1.6-1.9 s late with 100 games playing. Here:

- Redis (``GAMES_TIMERS=redis``, the default with ``REDIS_URL``): a sorted set (game id, deadline)
  and a hash of the version each was set for. A game has at most one deadline, so every committed
  move replaces (or removes) its game's timer; a Lua script does it, keeping the newest version,
  since two moves' after-commit hooks may run out of order. The runner sleeps until the earliest
  score (capped by ``GAMES_TIMERS_MAX_SLEEP``) and claims what is due with another script, atomic:
  several runners fire each timer once.
- A deadline is a floor: ``game_fire_timer`` checks it again against the runner's clock; a late or
  repeated fire is refused by the move path's ``expected_version``. Lost timers are the beat
  sweep's (``automation.sweep``); a fire that raised is put back ``RETRY_SECONDS`` later.
- Without Redis (``GAMES_TIMERS=database``, SQLite): the active games' ``deadline_at`` are the
  timers, read by the same loop. It is no claim: the embedded deployment runs one runner.
"""

from __future__ import annotations

import logging
from contextlib import nullcontext
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, Protocol

from django.conf import settings

from config.storage.redis_client import CommandBatch, redis_batch, redis_client

log = logging.getLogger(__name__)

#: A timer as claimed: (game id, the version it was set for).
Due = tuple[str, int]

#: How long after a failed fire (the database away, a bug) the timer is tried again.
RETRY_SECONDS = 1.0

# KEYS: the set, the versions; ARGV: game id, version, deadline or "" (none). Older versions lose.
_SCHEDULE = """
local current = tonumber(redis.call('HGET', KEYS[2], ARGV[1]))
if current and current >= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return 1
"""

# KEYS: the set, the versions; ARGV: now, how many at most. Returns game, version, game, ...
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local claimed = {}
for _, game in ipairs(due) do
  redis.call('ZREM', KEYS[1], game)
  local version = redis.call('HGET', KEYS[2], game)
  redis.call('HDEL', KEYS[2], game)
  if version then
    claimed[#claimed + 1] = game
    claimed[#claimed + 1] = version
  end
end
return claimed
"""


def _schedule_args(game_id: str, version: int, due: float | None) -> list[Any]:
    return [game_id, version, "" if due is None else repr(due)]


def moment_of(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


class Wheel(Protocol):
    def next_due(self) -> float | None:
        """The earliest time a timer may be claimed (epoch seconds), None if there is none."""

    def claim(self, *, now: float, limit: int) -> list[Due]:
        """Take up to ``limit`` timers due at ``now``; each is handed out once."""

    def retry(self, *, game_id: str, version: int, at: float) -> None:
        """Put back a claimed timer whose fire failed, due again at ``at``."""


class RedisWheel:
    """The sorted set of deadlines (see the module's docstring)."""

    def __init__(self, *, client: Any = None, key: str | None = None) -> None:
        self.client = client if client is not None else redis_client()
        self.key = key or settings.GAMES_TIMERS_KEY
        self.keys = [self.key, f"{self.key}:version"]
        self._schedule = self.client.register_script(_SCHEDULE)
        self._claim = self.client.register_script(_CLAIM)

    def schedule(self, *, game_id: str, version: int, due: float | None) -> bool:
        """Set the game's timer for ``version`` (None: the game has no deadline at ``version``);
        False if the game's timer is already for a newer version."""
        return bool(self._schedule(keys=self.keys, args=_schedule_args(game_id, version, due)))

    def schedule_in(
        self, batch: CommandBatch, *, game_id: str, version: int, due: float | None
    ) -> None:
        """``schedule`` as one command of ``batch``. EVAL, not EVALSHA: in a pipeline redis-py
        would first ask whether the script is loaded, a round trip of its own."""
        args = _schedule_args(game_id, version, due)
        message = f"could not set the timer of game {game_id} v{version}"
        batch.add(message, "EVAL", _SCHEDULE, 2, *self.keys, *args)

    def next_due(self) -> float | None:
        first = self.client.zrange(self.key, 0, 0, withscores=True)
        return float(first[0][1]) if first else None

    def claim(self, *, now: float, limit: int) -> list[Due]:
        flat = self._claim(keys=self.keys, args=[repr(now), limit])
        return [(flat[i].decode(), int(flat[i + 1])) for i in range(0, len(flat), 2)]

    def retry(self, *, game_id: str, version: int, at: float) -> None:
        self.schedule(game_id=game_id, version=version, due=at)


class DatabaseWheel:
    """The embedded default: each active game's ``deadline_at`` is its timer. Remembers what it
    has handed out, so a game whose fire failed is tried again only ``RETRY_SECONDS`` later."""

    def __init__(self) -> None:
        self._handed: dict[Due, float] = {}  # -> when it may be handed out again

    def _pending(self) -> Any:
        from games.models import Game, GameStatus

        return Game.objects.filter(status=GameStatus.ACTIVE, deadline_at__isnull=False).order_by(
            "deadline_at"
        )

    def next_due(self) -> float | None:
        # One row past those handed out is enough: it bounds every row after it.
        rows = self._pending().values_list("pk", "version", "deadline_at")
        earliest: float | None = None
        for pk, version, deadline in rows[: len(self._handed) + 1]:
            at = max(deadline.timestamp(), self._handed.get((str(pk), version), 0.0))
            earliest = at if earliest is None else min(earliest, at)
        return earliest

    def claim(self, *, now: float, limit: int) -> list[Due]:
        rows = self._pending().filter(deadline_at__lte=moment_of(now)).values_list("pk", "version")
        due = [(str(pk), version) for pk, version in rows[: limit + len(self._handed)]]
        # A game that has moved on is no longer due: forget it.
        self._handed = {key: at for key, at in self._handed.items() if key in set(due)}
        claimed = [key for key in due if self._handed.get(key, 0.0) <= now][:limit]
        for key in claimed:
            self._handed[key] = now + RETRY_SECONDS
        return claimed

    def retry(self, *, game_id: str, version: int, at: float) -> None:
        self._handed[(game_id, version)] = at


@lru_cache(maxsize=4)
def _redis_wheel(key: str) -> RedisWheel:
    return RedisWheel(key=key)


def timers_wheel() -> RedisWheel | DatabaseWheel:
    """The wheel the settings name, for the runner."""
    if settings.GAMES_TIMERS == "redis":
        return RedisWheel()
    if settings.GAMES_TIMERS == "database":
        return DatabaseWheel()
    raise ValueError(f"GAMES_TIMERS={settings.GAMES_TIMERS!r} has no timers process")


def timer_schedule(
    *,
    game_id: object,
    version: int,
    deadline_at: datetime | None,
    batch: CommandBatch | None = None,
) -> None:
    """After a move commits: the game's timer is now ``deadline_at`` (None: none) for ``version``,
    set with ``batch`` (else in a round trip of its own). Never raises: a timer that could not be
    set is the sweep's, a second after it was due."""
    mode = settings.GAMES_TIMERS
    try:
        if mode == "redis":
            due = None if deadline_at is None else deadline_at.timestamp()
            wheel = _redis_wheel(settings.GAMES_TIMERS_KEY)
            with nullcontext(batch) if batch is not None else redis_batch() as sending:
                wheel.schedule_in(sending, game_id=str(game_id), version=version, due=due)
        # "database": the committed game row is the timer; "celery": followups.jobs queues it.
    except Exception:
        log.warning("could not set the timer of game %s v%s", game_id, version, exc_info=True)
