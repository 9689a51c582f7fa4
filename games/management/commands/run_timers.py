"""The timers process: fires the games' deadlines (games.timers.runner). Procfile: ``timers``."""

from __future__ import annotations

import logging
import signal
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config.observability.worker_metrics import serve_metrics
from games.kinds import KINDS
from games.timers.runner import TimerRunner
from games.timers.wheel import timers_wheel

log = logging.getLogger("games.timers.runner")


class Command(BaseCommand):
    help = "Fire the games' timers (auto-confirm, the turn clock) when they are due."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--threads", type=int, default=None, help="timers fired at once (TIMERS_THREADS)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.GAMES_TIMERS == "celery":
            raise CommandError(
                "GAMES_TIMERS=celery: the timers are Celery tasks, served by "
                "`celery -A config worker --queues timers`"
            )
        threads = options["threads"] or settings.GAMES_TIMERS_THREADS
        runner = TimerRunner(
            wheel=timers_wheel(), threads=threads, max_sleep=settings.GAMES_TIMERS_MAX_SLEEP
        )
        serve_metrics(queues=False, what="timers")
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: runner.stop())
        # An automatic move may read a computer's tables (an auto-confirm's box): load them now,
        # not at the first timer (which would wait seconds for them).
        started = time.perf_counter()
        for kind in KINDS.values():
            if kind.tables is not None:
                kind.tables()
        log.info(
            "timers: %s wheel, %d threads, tables loaded in %.1f s; ready.",
            settings.GAMES_TIMERS,
            threads,
            time.perf_counter() - started,
        )
        runner.run()
        log.info("timers: stopped after %d moves", runner.fired)
