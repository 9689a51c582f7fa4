"""What the tests inject in place of the server's dice, clock and worker: each through a seam the
product code offers (``settings.GAMES_DICE_ROLLER``, a ``clock`` or ``now`` argument, the
Celery broker), never by patching a module's globals."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from django.conf import settings


class ScriptedDice:
    """The server's dice in tests: queued rolls first, then a seeded generator."""

    def __init__(self, seed: int = 7) -> None:
        self.queue: list[tuple[int, ...]] = []
        self.random = random.Random(seed)

    def push(self, *rolls: Iterable[int]) -> None:
        self.queue.extend(tuple(roll) for roll in rolls)

    def __call__(self, n: int) -> tuple[int, ...]:
        if self.queue:
            roll = self.queue.pop(0)
            assert len(roll) == n, (roll, n)
            return roll
        return tuple(self.random.randint(1, 6) for _ in range(n))


class Clock:
    """Epoch seconds, set by the test: a timers runner's ``clock``, a throttle's ``clock``."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    @property
    def moment(self) -> datetime:
        """The same instant as an aware datetime, for the services' ``now`` arguments."""
        return datetime.fromtimestamp(self.now, tz=UTC)


class QueuedTasks:
    """The Celery worker, in this process: runs the tasks that moves queued on the broker (memory
    or Redis, as the settings name), one at a time in the order queued, from the queues a
    deployment's worker serves, as a ``--pool=solo`` worker would; a countdown is not waited for
    (time here is the test's clock)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        # Every app's tasks module, as a worker imports them at start (autodiscover_tasks): a
        # test run alone may not have imported the one a queued message names.
        app.loader.import_default_modules()
        # The queues this process sends to (CELERY_QUEUE names them per run sharing a broker).
        self.queues = (settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_TIMERS_QUEUE)
        self.lose()  # messages left by other tests name games that no longer exist

    def _take(self, conn: Any) -> Any:
        for name in self.queues:
            with conn.SimpleQueue(name) as queue:
                try:
                    return queue.get(block=False)
                except queue.Empty:
                    continue
        return None

    def run(self, limit: int = 10_000) -> int:
        """Run what is queued, and what those tasks queue in turn, until the queues are empty
        (or ``limit`` tasks have run); returns how many ran."""
        ran = 0
        with self.app.connection_for_read() as conn:
            while ran < limit and (message := self._take(conn)) is not None:
                message.ack()
                args, kwargs, _embed = message.decode()
                # With the message's headers, as a worker hands them to the task's request.
                self.app.tasks[message.headers["task"]].apply(
                    args, kwargs, throw=True, headers=message.headers
                )
                ran += 1
        return ran

    def lose(self) -> list[tuple[str, list[Any]]]:
        """Drop whatever is queued, as a worker killed with the tasks it had taken would; returns
        them (task name, arguments), to be delivered again if a test wants."""
        lost = []
        with self.app.connection_for_read() as conn:
            while (message := self._take(conn)) is not None:
                message.ack()
                lost.append((message.headers["task"], message.decode()[0]))
        return lost


@contextlib.contextmanager
def throttle_rates(**changed: str) -> Iterator[None]:
    """Throttle rates of the test (``auth="3/min"``...): DRF binds them to its throttle class when
    it is imported, so overriding the settings alone would change nothing."""
    from rest_framework.throttling import SimpleRateThrottle

    original = SimpleRateThrottle.THROTTLE_RATES
    SimpleRateThrottle.THROTTLE_RATES = {**original, **changed}
    try:
        yield
    finally:
        SimpleRateThrottle.THROTTLE_RATES = original
