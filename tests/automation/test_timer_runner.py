"""The timers process (games.timers.runner), driven with an injected clock: no sleeps.

The database wheel (the embedded default) runs everywhere; the Redis wheel needs REDIS_URL, and
its test of two runners claiming at once needs PostgreSQL as well (runners on threads, each with
its own connection, must see committed games). tests/automation/test_worker.py runs the
``run_timers`` process itself.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from games import services
from games.models import Game, GameEvent
from games.timers import automation
from games.timers.runner import TimerRunner
from games.timers.wheel import DatabaseWheel, RedisWheel, timer_schedule
from players.models import Player
from tests.doubles import Clock
from tests.factories import account, deadline, new_game, rolled_out

needs_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: REDIS_URL")


@pytest.fixture
def redis_key(settings: Settings) -> Iterator[str]:
    """A sorted set of this test's own, deleted afterwards, and the Redis wheel switched on."""
    from config.storage.redis_client import redis_client

    key = f"test-timers:{uuid.uuid4().hex}"
    settings.GAMES_TIMERS = "redis"
    settings.GAMES_TIMERS_KEY = key
    yield key
    redis_client().delete(key, f"{key}:version")


def scores(game: Game) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game=game, type="box_scored"))


# --------------------------------------------------------------------------------------------------
# the database wheel (embedded default)


def test_a_timer_fires_its_move_once_when_due_and_not_before(ann: Player) -> None:
    game = rolled_out(new_game(ann), ann)
    assert game.deadline_at is not None
    due = game.deadline_at.timestamp()
    clock = Clock(due - 0.05)
    runner = TimerRunner(wheel=DatabaseWheel(), clock=clock, max_sleep=0.2)

    pause = runner.run_once()
    assert scores(game) == []
    assert pause == pytest.approx(0.05, abs=1e-6)  # it wakes when the timer is due, not later

    clock.now = due
    runner.run_once()
    scored = scores(game)
    assert len(scored) == 1 and scored[0].automatic and scored[0].actor is None
    assert scored[0].seq == game.version + 1

    clock.now = due + 5
    assert runner.run_once() == 0.2  # nothing left: it looks again at its longest sleep
    assert len(scores(game)) == 1
    assert runner.fired == 1


def test_a_timer_the_player_beat_does_nothing(ann: Player) -> None:
    game = rolled_out(new_game(ann), ann)
    assert game.deadline_at is not None
    version, due = game.version, game.deadline_at.timestamp()
    services.game_move(game_id=game.pk, command={"type": "score", "box": "chance"}, actor=ann)
    runner = TimerRunner(wheel=DatabaseWheel(), clock=Clock(due + 1))
    runner.run_once()
    assert runner.fire((str(game.pk), version)) is False  # a stale timer delivered anyway
    assert [event.automatic for event in scores(game)] == [False]


def test_a_failed_fire_is_tried_again_a_second_later(
    ann: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = rolled_out(new_game(ann), ann)
    assert game.deadline_at is not None
    due = game.deadline_at.timestamp()
    clock = Clock(due)
    runner = TimerRunner(wheel=DatabaseWheel(), clock=clock, max_sleep=5)
    real = automation.game_fire_timer

    def down(**kwargs: Any) -> bool:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(automation, "game_fire_timer", down)
    runner.run_once()
    monkeypatch.setattr(automation, "game_fire_timer", real)
    assert runner.run_once() == pytest.approx(1.0)  # not again at once: in a second
    assert scores(game) == []
    clock.now = due + 1
    runner.run_once()
    assert len(scores(game)) == 1


# --------------------------------------------------------------------------------------------------
# the Redis wheel


@needs_redis
def test_redis_a_timer_fires_once_when_due_and_not_before(
    ann: Player, redis_key: str, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = rolled_out(new_game(ann), ann)
    wheel = RedisWheel(key=redis_key)
    assert game.deadline_at is not None
    due = game.deadline_at.timestamp()
    assert wheel.next_due() == pytest.approx(due, abs=1e-6)
    clock = Clock(due - 0.001)
    runner = TimerRunner(wheel=wheel, clock=clock)
    assert runner.run_once() == pytest.approx(0.001, abs=1e-6)
    assert scores(game) == []
    clock.now = due
    runner.run_once()
    assert [event.automatic for event in scores(game)] == [True]
    assert wheel.next_due() is None
    assert wheel.claim(now=due + 10, limit=10) == []


@needs_redis
def test_redis_a_move_that_leaves_no_deadline_removes_the_timer(
    ann: Player, redis_key: str, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = rolled_out(new_game(ann), ann)
        assert game.deadline_at is not None
        due = game.deadline_at.timestamp()
        services.game_move(game_id=game.pk, command={"type": "score", "box": "chance"}, actor=ann)
    wheel = RedisWheel(key=redis_key)
    assert wheel.next_due() is None  # the runner has nothing to do for a timer the player beat
    assert wheel.claim(now=due + 10, limit=10) == []


@needs_redis
def test_redis_the_newest_version_wins_whatever_order_the_hooks_run_in(redis_key: str) -> None:
    wheel = RedisWheel(key=redis_key)
    game = str(uuid.uuid4())
    assert wheel.schedule(game_id=game, version=7, due=200.0)
    # The hook of version 6 runs late (another web process): it changes nothing.
    assert not wheel.schedule(game_id=game, version=6, due=100.0)
    assert not wheel.schedule(game_id=game, version=6, due=None)
    assert wheel.next_due() == 200.0
    assert wheel.claim(now=199.9, limit=10) == []  # a deadline is a floor
    assert wheel.claim(now=200.0, limit=10) == [(game, 7)]
    assert wheel.claim(now=300.0, limit=10) == []  # handed out once


@needs_redis
def test_redis_a_stale_timer_does_nothing(
    ann: Player, redis_key: str, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = rolled_out(new_game(ann), ann)
    wheel = RedisWheel(key=redis_key)
    assert game.deadline_at is not None
    due = game.deadline_at.timestamp()
    # A timer for a version the game has left (set by hand: the move path replaces its own).
    other = rolled_out(new_game(ann), ann)
    wheel.schedule(game_id=str(other.pk), version=other.version + 5, due=due)
    runner = TimerRunner(wheel=wheel, clock=Clock(due))
    runner.run_once()
    assert runner.fired == 1  # the live timer only
    assert len(scores(game)) == 1 and scores(other) == []


@needs_redis
def test_redis_the_sweep_still_catches_a_lost_timer(
    ann: Player,
    redis_key: str,
    settings: Settings,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    settings.GAMES_SWEEP_GRACE_SECONDS = 1.0
    with django_capture_on_commit_callbacks(execute=True):
        game = rolled_out(new_game(ann), ann)
    wheel = RedisWheel(key=redis_key)
    wheel.client.delete(redis_key)  # lost: a flushed Redis, a runner killed after its claim
    assert game.deadline_at is not None
    due = game.deadline_at
    TimerRunner(wheel=wheel, clock=Clock(due.timestamp() + 5)).run_once()
    assert scores(game) == []
    assert automation.sweep(now=due + timedelta(seconds=0.5)) == 0  # within its grace
    assert automation.sweep(now=due + timedelta(seconds=1.5)) == 1
    assert [event.automatic for event in scores(game)] == [True]


@needs_redis
def test_redis_a_timer_that_cannot_be_set_is_left_to_the_sweep(
    redis_key: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Gone:
        def pipeline(self, **kwargs: Any) -> Any:
            raise ConnectionError("Redis went away")

    monkeypatch.setattr("config.storage.redis_client.redis_client", Gone)
    # After the commit, so it must not raise: the move is played; the sweep will score it.
    timer_schedule(game_id=uuid.uuid4(), version=3, deadline_at=None)
    assert "could not set the timer" in caplog.text


@pytest.mark.postgres
@needs_redis
@pytest.mark.django_db(transaction=True)
def test_redis_two_runners_fire_each_timer_once(redis_key: str) -> None:
    players = [account(f"p{i}") for i in range(4)]
    games = [rolled_out(new_game(players[i % 4]), players[i % 4]) for i in range(24)]
    wheel_a, wheel_b = RedisWheel(key=redis_key), RedisWheel(key=redis_key)
    assert len(wheel_a.client.zrange(redis_key, 0, -1)) == len(games)
    claimed: dict[str, list[str]] = {"a": [], "b": []}

    def recording(wheel: RedisWheel, name: str) -> RedisWheel:
        claim = wheel.claim

        def claim_and_record(*, now: float, limit: int) -> list[tuple[str, int]]:
            got = claim(now=now, limit=limit)
            claimed[name] += [game_id for game_id, _ in got]
            return got

        wheel.claim = claim_and_record  # type: ignore[method-assign]
        return wheel

    # Both runners' clock is past every deadline; each fires on two threads of its own.
    clock = Clock(max(deadline(g).timestamp() for g in games) + 0.01)
    runners = [
        TimerRunner(wheel=recording(wheel, name), threads=2, clock=clock)
        for wheel, name in ((wheel_a, "a"), (wheel_b, "b"))
    ]
    threads = [threading.Thread(target=runner.run) for runner in runners]
    for thread in threads:
        thread.start()
    try:
        for _poll in range(300):  # a time-out (30 s), not a bound
            if GameEvent.objects.filter(game__in=games, type="box_scored").count() >= len(games):
                break
            time.sleep(0.1)
    finally:
        for runner in runners:
            runner.stop()
        for thread in threads:
            thread.join(timeout=30)
    # A stopped runner returns once its threads have fired all they claimed: every fire is in.
    assert not any(thread.is_alive() for thread in threads)

    ids = {str(g.pk) for g in games}
    assert set(claimed["a"]) | set(claimed["b"]) == ids
    assert len(claimed["a"]) + len(claimed["b"]) == len(games)  # no timer handed out twice
    assert runners[0].fired + runners[1].fired == len(games)
    for game in games:
        assert [event.automatic for event in scores(game)] == [True]
