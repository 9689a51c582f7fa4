"""Rate limits (config.web.throttling): one counter per request, in one cache round trip.

Run with REDIS_URL (CI) the counters are in Redis; without it, in the in-process cache.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.test import APIClient

from config.web import throttling
from tests.doubles import Clock, throttle_rates
from tests.factories import MakeClient

pytestmark = pytest.mark.django_db

ME = "/api/v1/accounts/me/"
GAMES = "/api/v1/games/"


def test_anonymous_requests_are_limited_by_address(anon: APIClient) -> None:
    with throttle_rates(anon="3/min"):
        statuses = [anon.get(GAMES).status_code for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        response = anon.get(GAMES)
    body = response.json()
    assert body["code"] == "throttled"
    assert 0 < body["retry_after"] <= 60
    assert 0 < int(response["Retry-After"]) <= 60
    assert set(body) == {"type", "title", "status", "code", "detail", "field", "retry_after"}
    assert body["status"] == 429


def test_players_have_their_own_limit(make_client: MakeClient, anon: APIClient) -> None:
    ann, bob = make_client(), make_client()
    with throttle_rates(user="2/min", anon="1/min"):
        assert [ann.get(ME).status_code for _ in range(3)] == [200, 200, 429]
        # Bob's counter is his own; the anonymous limit does not apply to accounts.
        assert [bob.get(ME).status_code for _ in range(2)] == [200, 200]
        assert anon.get(GAMES).status_code == 200


def test_one_counter_per_request(make_client: MakeClient) -> None:
    """An authenticated request counts against its account only (DRF's two throttles each kept a
    history per request)."""
    ann = make_client()
    seen: list[str] = []
    original = throttling.hit

    def spy(key: str, seconds: int, cache: Any = None, **carrying: Any) -> tuple[int, float]:
        seen.append(key)
        return original(key, seconds, cache, **carrying)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(throttling, "hit", spy)
        ann.get(ME)
    assert len(seen) == 1
    assert seen[0].startswith("rate:user:")


def test_a_window_closes() -> None:
    cache = caches["default"]
    key = "rate:test:window"
    if isinstance(cache, RedisCache):
        # A real expiry: a window of one second.
        import time

        assert throttling.hit(key, 1)[0] == 1
        assert throttling.hit(key, 1)[0] == 2
        time.sleep(1.1)
        count, left = throttling.hit(key, 1)
        assert count == 1 and 0 < left <= 1
        return
    clock = Clock(1000.0)
    assert throttling.hit(key, 60, clock=clock) == (1, 60.0)
    clock.now += 20
    assert throttling.hit(key, 60, clock=clock) == (2, 40.0)
    cache.delete(key)  # what expiry does
    clock.now += 41
    assert throttling.hit(key, 60, clock=clock) == (1, 60.0)


@pytest.mark.skipif(
    not isinstance(caches["default"], RedisCache), reason="needs Redis: set REDIS_URL"
)
def test_one_redis_round_trip_per_request(make_client: MakeClient) -> None:
    import redis.connection

    ann = make_client()
    ann.get(ME)  # the throttle's script reaches a Redis that has not seen it (EVALSHA, LOAD)
    sent = [0]
    # redis-py leaves the method unannotated.
    original: Callable[[Any, Any, bool], None] = (
        redis.connection.AbstractConnection.send_packed_command
    )

    def counting(self: Any, command: Any, check_health: bool = True) -> None:
        sent[0] += 1
        original(self, command, check_health)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(redis.connection.AbstractConnection, "send_packed_command", counting)
        answer = ann.get(ME)
    assert answer.status_code == 200
    # The answer's budget (config.web.rate_limit) is read from that same round trip.
    assert answer["RateLimit"].startswith('"user";r=')
    assert sent[0] == 1
