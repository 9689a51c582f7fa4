"""Work waiting (the Celery queues, the games' timers), read when Prometheus scrapes and by the
admin's dashboard: never on a request's path.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from django.conf import settings
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)
METRIC_NAMES = ("dice_queue_depth", "dice_timers_pending", "dice_timers_overdue")


def queue_names() -> list[str]:
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    return sorted({settings.CELERY_TASK_DEFAULT_QUEUE, *routed})


def queue_depths() -> dict[str, int]:
    """Messages waiting in each Celery queue; empty when the broker cannot say."""
    broker: str = settings.CELERY_BROKER_URL
    names = queue_names()
    if broker.startswith(("redis://", "rediss://")):
        import redis

        client = redis.Redis.from_url(broker, socket_timeout=1, socket_connect_timeout=1)
        with client.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.llen(name)
            return dict(zip(names, (int(n) for n in pipe.execute()), strict=True))
    if broker.startswith("filesystem://"):
        folder = Path(str(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_out"]))
        files = [path.name for path in folder.glob("*.msg")] if folder.is_dir() else []
        return {name: sum(f.endswith(f".{name}.msg") for f in files) for name in names}
    return {}


def timers_pending(now: float | None = None) -> tuple[int, int]:
    """(timers set, timers past due and not yet fired)."""
    now = time.time() if now is None else now
    if settings.GAMES_TIMERS == "redis":
        from config.storage.redis_client import redis_client

        with redis_client().pipeline(transaction=False) as pipe:
            pipe.zcard(settings.GAMES_TIMERS_KEY)
            pipe.zcount(settings.GAMES_TIMERS_KEY, "-inf", now)
            pending, overdue = pipe.execute()
        return int(pending), int(overdue)
    from games.models import Game, GameStatus
    from games.timers.wheel import moment_of

    active = Game.objects.filter(status=GameStatus.ACTIVE, deadline_at__isnull=False)
    return active.count(), active.filter(deadline_at__lte=moment_of(now)).count()


class QueueDepthCollector(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield from _safely(self._queues)
        yield from _safely(self._timers)

    def _queues(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "dice_queue_depth", "Messages waiting in a Celery queue", labels=["queue"]
        )
        for name, depth in queue_depths().items():
            family.add_metric([name], depth)
        return [family]

    def _timers(self) -> Iterable[GaugeMetricFamily]:
        pending, overdue = timers_pending()
        return [
            GaugeMetricFamily("dice_timers_pending", "Game timers set", value=pending),
            GaugeMetricFamily(
                "dice_timers_overdue", "Game timers past due, not yet fired", value=overdue
            ),
        ]


def _safely(read: Callable[[], Iterable[GaugeMetricFamily]]) -> Iterator[GaugeMetricFamily]:
    # A scrape reports what it can.
    try:
        yield from read()
    except Exception as exc:
        log.warning("metrics: could not read %s: %s", read.__name__, exc)
