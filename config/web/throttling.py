"""Request rate limits for one cache round trip per request.

DRF's rate throttles read, unpickle and write back each client's list of recent request times,
twice per request. Here a limit is a counter over a fixed window opened by the first request
(``INCR`` and ``EXPIRE ... NX``, one Lua script): up to twice the rate across two windows, enough
against floods. One limit applies: the view's ``throttle_scope``, else ``user``, else ``anon``;
by account once authenticated, else by address bucket. Writes the request's authentication has
to make (players.tokens) ride along with :func:`carry`.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from config.web.client_address import client_bucket
from config.web.rate_limit import Budget, note


class RateThrottle(SimpleRateThrottle):
    cache_format = "rate:%(scope)s:%(ident)s"

    def __init__(self) -> None:
        # DRF's reads a class-level scope's rate here; this one picks its scope per request.
        self.retry_after: float | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        user = request.user
        authenticated = bool(user and user.is_authenticated)
        scope = getattr(view, "throttle_scope", None) or ("user" if authenticated else "anon")
        self.scope = scope
        rate = self.get_rate()
        if rate is None:
            _write(caches["default"], _carried(request._request))
            return True
        # parse_rate gives (None, None) only for a None rate; the stubs' one return type cannot
        # say that a str gives two ints.
        limit, seconds = cast(tuple[int, int], self.parse_rate(rate))
        ident = user.pk if authenticated else client_bucket(request.META)
        key = self.cache_format % {"scope": scope, "ident": ident}
        count, left = hit(key, seconds, carried=_carried(request._request))
        budget = Budget.counted(scope, limit, seconds, count, left)
        note(request._request, budget)
        if count <= limit:
            return True
        self.retry_after = budget.reset  # never 0: that would send no Retry-After
        return False

    def wait(self) -> float | None:
        return self.retry_after


def rate(scope: str) -> tuple[int | None, int]:
    """The limit and window (seconds) of a scope of DEFAULT_THROTTLE_RATES; (None, 0): none."""
    throttle = RateThrottle()
    throttle.scope = scope
    text = throttle.get_rate()
    if text is None:
        return None, 0
    limit, seconds = cast(tuple[int, int], throttle.parse_rate(text))
    return limit, seconds


@dataclass(frozen=True)
class Carried:
    """A cache write sent with the request's throttle count."""

    key: str
    value: int
    seconds: int


_CARRIED = "_carried_cache_writes"


def carry(request: HttpRequest, key: str, value: int, seconds: int) -> None:
    """Have the request's throttle count write ``key`` in its own round trip."""
    carried: list[Carried] = request.__dict__.setdefault(_CARRIED, [])
    carried.append(Carried(key, value, max(int(seconds), 1)))


def _carried(request: HttpRequest) -> list[Carried]:
    carried: list[Carried] = request.__dict__.pop(_CARRIED, [])
    return carried


def _write(cache: BaseCache, carried: list[Carried]) -> None:
    for write in carried:
        cache.set(write.key, write.value, timeout=write.seconds)


def hit(
    key: str,
    seconds: int,
    cache: BaseCache | None = None,
    clock: Callable[[], float] = time.time,
    carried: Sequence[Carried] = (),
) -> tuple[int, float]:
    """Count one request against ``key`` in its window of ``seconds``: the count so far, and the
    seconds left in the window. ``clock`` times the windows of a cache other than Redis."""
    cache = caches["default"] if cache is None else cache
    if isinstance(cache, RedisCache):
        return _hit_redis(cache, key, seconds, carried)
    _write(cache, list(carried))
    return _hit_cache(cache, key, seconds, clock)


_scripts: weakref.WeakKeyDictionary[RedisCache, Any] = weakref.WeakKeyDictionary()


# One command: INCR; EXPIRE NX (Redis 7: the window is not stretched by later requests); PTTL;
# then the carried writes (KEYS[2..], each with its value and seconds in ARGV).
_HIT = """
local count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
local left = redis.call('PTTL', KEYS[1])
for i = 2, #KEYS do
    redis.call('SET', KEYS[i], ARGV[2 * i - 2], 'EX', ARGV[2 * i - 1])
end
return {count, left}
"""


def _hit_redis(
    cache: RedisCache, key: str, seconds: int, carried: Sequence[Carried] = ()
) -> tuple[int, float]:
    name = cache.make_and_validate_key(key)
    script = _scripts.get(cache)
    if script is None:
        # Django's Redis cache builds a client at every call; one per cache is enough. Every
        # write of Django's Redis cache goes to its first server, as these do.
        client = cache._cache.get_client(name, write=True)
        script = _scripts[cache] = client.register_script(_HIT)
    keys = [name, *(cache.make_and_validate_key(write.key) for write in carried)]
    args: list[int] = [seconds]
    for write in carried:
        args += [write.value, write.seconds]
    count, left_ms = script(keys=keys, args=args)
    return int(count), left_ms / 1000 if left_ms >= 0 else float(seconds)


def _hit_cache(
    cache: BaseCache, key: str, seconds: int, clock: Callable[[], float]
) -> tuple[int, float]:
    """Any other cache (the in-process one): add and incr, and the window's opening time."""
    now = clock()
    opened_key = f"{key}:opened"
    if cache.add(key, 1, seconds):
        cache.set(opened_key, now, seconds)
        return 1, float(seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # the window closed between add and incr: this request opens the next
        cache.set(key, 1, seconds)
        cache.set(opened_key, now, seconds)
        return 1, float(seconds)
    opened = cache.get(opened_key, now)
    return int(count), max(opened + seconds - now, 0.0)
