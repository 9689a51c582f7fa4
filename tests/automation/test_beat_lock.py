"""Beat exactly once (config.beat_lock): two schedulers against the real Redis, one lease.

The schedulers are Celery's own, with one entry due every 50 ms; what they would send is recorded
instead of published. The lease is short (0.6 s) so that its expiry is quick to wait for.
tests/serving/test_two_stacks.py runs two ``celery beat`` processes with it.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import Celery

from config.beat_lock import BeatLease, SingleBeatScheduler

pytestmark = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"
)

LEASE = 0.6


class Recording(SingleBeatScheduler):
    """Records each task it would send, with the moment (monotonic) it would send it."""

    def __init__(self, *args: Any, sent: list[float], **kwargs: Any) -> None:
        self.sent = sent
        super().__init__(*args, **kwargs)

    def apply_async(self, entry: Any, producer: Any = None, advance: bool = True, **_: Any) -> Any:
        self.sent.append(time.monotonic())


@pytest.fixture
def redis() -> Iterator[Any]:
    import redis as redis_py

    client = redis_py.Redis.from_url(os.environ["REDIS_URL"])
    yield client
    client.close()


@pytest.fixture
def key(redis: Any) -> Iterator[str]:
    name = f"test-beat:{uuid.uuid4().hex}"
    yield name
    redis.delete(name)


@pytest.fixture
def app() -> Celery:
    app = Celery("beat-lock-test", set_as_current=False, broker="memory://")
    app.conf.beat_schedule = {"ping": {"task": "tests.ping", "schedule": 0.05}}
    return app


def scheduler(app: Celery, redis: Any, key: str, tmp_path: Path, name: str) -> Recording:
    lease = BeatLease(client=redis, key=key, seconds=LEASE, token=name)
    return Recording(
        app=app, schedule_filename=str(tmp_path / f"beat-{name}"), lease=lease, sent=[]
    )


def record_looks(beat: Recording, redis: Any, key: str) -> list[tuple[int, bool, float]]:
    """Each time ``beat`` asks Redis for the lease: the key's time to live just before (ms; -2
    when there is no key), whether it got it, and when (monotonic)."""
    looks: list[tuple[int, bool, float]] = []
    ask = beat.lease._hold

    def asking(*args: Any, **kwargs: Any) -> Any:
        before = int(redis.pttl(key))
        got = ask(*args, **kwargs)
        looks.append((before, bool(got), time.monotonic()))
        return got

    beat.lease._hold = asking
    return looks


def run(schedulers: list[Recording], seconds: float) -> None:
    """Tick each in turn, as their processes' loops would, for ``seconds``."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        for each in schedulers:
            each.tick()
        time.sleep(0.02)


def test_of_two_schedulers_only_the_holder_sends(
    app: Celery, redis: Any, key: str, tmp_path: Path
) -> None:
    one, other = (scheduler(app, redis, key, tmp_path, name) for name in ("one", "other"))
    try:
        run([one, other], seconds=3 * LEASE)
        # Three lifetimes of the lease later the first holder still holds it (so it renewed it,
        # each time before it expired), it alone sent, and the other never did: how many it sent
        # meanwhile depends on the machine's pace, not on the lease.
        assert one.sent
        assert other.sent == []
        assert redis.get(key) == b"one"
        assert one.tick() <= one.lease.every  # never sleeps past its next renewal
    finally:
        one.close()
        other.close()


def test_another_takes_over_once_the_dead_holders_lease_expires(
    app: Celery, redis: Any, key: str, tmp_path: Path
) -> None:
    one, other = (scheduler(app, redis, key, tmp_path, name) for name in ("one", "other"))
    try:
        run([one, other], seconds=LEASE / 2)
        assert one.sent
        assert one.lease._confirmed_at is not None
        last_renewed = one.lease._confirmed_at
        looks = record_looks(other, redis, key)
        # "one" dies: it neither ticks nor gives the lease back.
        run([other], seconds=2 * LEASE)
        assert other.sent, "no beat took over"
        # Not before the lease, renewed at the latest at ``last_renewed``, had expired.
        assert other.sent[0] >= last_renewed + LEASE
        # While the dead holder's key lived every look failed; the first look after it expired
        # took the lease, and the sending began from there.
        taken = next(i for i, (_, got, _) in enumerate(looks) if got)
        assert all(ttl > 0 for ttl, _, _ in looks[:taken]), looks  # the dead holder's key lived
        # The look that took it found no key (or one in its last milliseconds, gone by the ask).
        assert looks[taken][0] == -2 or looks[taken][0] <= 5, looks
        first_free = looks[taken]
        assert other.sent[0] >= first_free[2]
        assert redis.get(key) == b"other"
    finally:
        other.close()


def test_a_beat_that_stops_gives_the_lease_back_at_once(
    app: Celery, redis: Any, key: str, tmp_path: Path
) -> None:
    one, other = (scheduler(app, redis, key, tmp_path, name) for name in ("one", "other"))
    try:
        run([one, other], seconds=0.2)
        one.close()
        assert redis.get(key) is None
        looks = record_looks(other, redis, key)
        run([other], seconds=other.lease.every + 0.2)
        assert other.sent
        # Given back, not left to expire: the other's very first look takes it.
        assert looks and looks[0][:2] == (-2, True), looks
    finally:
        other.close()


def test_a_holder_whose_lease_was_taken_stops_sending(
    app: Celery, redis: Any, key: str, tmp_path: Path
) -> None:
    one = scheduler(app, redis, key, tmp_path, "one")
    try:
        run([one], seconds=0.2)
        assert one.sent
        # As if "one" had stalled past its lease and another beat had taken it meanwhile.
        redis.set(key, "another", px=int(LEASE * 1000))
        run([one], seconds=one.lease.every + 0.05)  # its next renewal finds the key taken
        count = len(one.sent)
        run([one], seconds=LEASE / 2)
        assert len(one.sent) == count
        assert not one.lease.held
        assert redis.get(key) == b"another"  # and it does not give back what is not its own
        one.close()
        assert redis.get(key) == b"another"
    finally:
        one.close()
