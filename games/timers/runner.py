"""The timers process (``manage.py run_timers``): claims the games' due timers from their wheel
(``games.timers.wheel``, which says where they are kept and why) and fires each on time, calling
``automation.game_fire_timer`` in this process on a few threads, with no broker hop in between.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import close_old_connections, connection

from config.observability import logs
from games.timers import automation
from games.timers.wheel import RETRY_SECONDS, Due, Wheel, moment_of

log = logging.getLogger(__name__)

Clock = Callable[[], float]


def _fresh_connection() -> None:
    """Return this thread's connection (to the pool on PostgreSQL) and drop a broken one, as
    Celery does around each task; not inside a transaction (a test driving the runner in one)."""
    if not connection.in_atomic_block:
        close_old_connections()


class TimerRunner:
    """Claims due timers from ``wheel`` and fires them, on ``threads`` threads (0: in the calling
    thread, as the tests drive it), never before their due time on ``clock``."""

    def __init__(
        self,
        *,
        wheel: Wheel,
        threads: int = 0,
        max_sleep: float = 0.2,
        clock: Clock = time.time,
    ) -> None:
        self.wheel = wheel
        self.threads = threads
        self.max_sleep = max_sleep
        self.clock = clock
        self.stopping = threading.Event()
        self.fired = 0
        self._busy = 0
        self._idle = threading.Condition()
        self._pool = ThreadPoolExecutor(threads, "timer") if threads else None

    def fire(self, due: Due) -> bool:
        """Play the timer's move if it is still due at its version; False if it was stale."""
        game_id, version = due
        started = time.perf_counter()
        with logs.bound(request_id=logs.new_request_id(), game_id=game_id, task="timer"):
            _fresh_connection()
            try:
                moved = automation.game_fire_timer(
                    game_id=game_id, version=version, now=moment_of(self.clock())
                )
            except Exception:
                log.exception("timer of game %s v%s failed; again in %.0f s", *due, RETRY_SECONDS)
                self.wheel.retry(game_id=game_id, version=version, at=self.clock() + RETRY_SECONDS)
                return False
            finally:
                _fresh_connection()
            with self._idle:
                self.fired += moved
            # One line per fire, for bench/auto_confirm_lag.py (LOG_LEVEL=DEBUG).
            ms = 1000 * (time.perf_counter() - started)
            log.debug("timer fired: game=%s version=%s moved=%s ms=%.1f", *due, moved, ms)
            return moved

    def _fire_and_free(self, due: Due) -> None:
        try:
            self.fire(due)
        finally:
            with self._idle:
                self._busy -= 1
                self._idle.notify()

    def run_once(self) -> float:
        """Claim and fire (or hand to the threads) whatever is due now; return how long to wait
        before the next look: 0 if more may be due, else until the earliest timer, capped."""
        if self._pool is None:
            claimed = self.wheel.claim(now=self.clock(), limit=100)
            for due in claimed:
                self.fire(due)
            if claimed:
                return 0.0
        else:
            with self._idle:
                free = self.threads - self._busy
                if free == 0:
                    # Due timers stay in the wheel (another runner may take them) meanwhile.
                    self._idle.wait(timeout=self.max_sleep)
                    return 0.0
            claimed = self.wheel.claim(now=self.clock(), limit=free)
            for due in claimed:
                with self._idle:
                    self._busy += 1
                self._pool.submit(self._fire_and_free, due)
            if len(claimed) == free:
                return 0.0
        earliest = self.wheel.next_due()
        if earliest is None:
            return self.max_sleep
        return min(max(earliest - self.clock(), 0.0), self.max_sleep)

    def run(self) -> None:
        """Until ``stop``: the loop of the timers process."""
        while not self.stopping.is_set():
            try:
                pause = self.run_once()
            except Exception:
                # Redis or the database away: the timers wait in the wheel, the sweep covers.
                log.exception("timers: could not read the wheel; again in 1 s")
                _fresh_connection()
                pause = 1.0
            if pause > 0:
                self.stopping.wait(pause)
        if self._pool is not None:
            self._pool.shutdown(wait=True)

    def stop(self) -> None:
        self.stopping.set()
