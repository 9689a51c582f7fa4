"""Prometheus metrics (``GET /metrics``; the workers and the timers process on ``METRICS_PORT``).

PROMETHEUS_MULTIPROC_DIR, shared by the processes of one machine, has any of them export the sum
of all. It must be set before a process starts: the metrics below choose where they keep their
values when this module is imported.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from django.http import HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Metric,
    generate_latest,
    multiprocess,
)
from prometheus_client.registry import Collector

MOVES = Counter("dice_moves_total", "Moves recorded", ["kind", "automatic"])
MOVES_REFUSED = Counter("dice_moves_refused_total", "Moves refused", ["code"])
MOVE_SECONDS = Histogram(
    "dice_move_seconds",
    "Time of the move path (lock to commit)",
    ["kind"],
    buckets=(0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2),
)
TIMER_LAG_SECONDS = Histogram(
    "dice_timer_lag_seconds",
    "How late an automatic move ran after its deadline",
    buckets=(0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5, 10),
)
STREAMS_OPEN = Gauge("dice_streams_open", "Open event streams", multiprocess_mode="livesum")

# By route: the URL's name, never its path (config.web.request_context).
HTTP_REQUESTS = Counter(
    "dice_http_requests_total", "HTTP requests answered", ["route", "method", "status"]
)
HTTP_SECONDS = Histogram(
    "dice_http_request_seconds",
    "Time to answer an HTTP request, in the application",
    ["route"],
    buckets=(0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5),
)
TASK_SECONDS = Histogram(
    "dice_task_seconds",
    "Time a Celery task ran",
    ["task"],
    buckets=(0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30),
)
TASKS = Counter("dice_tasks_total", "Celery tasks run, by how they ended", ["task", "state"])
TASK_FAILURES = Counter("dice_task_failures_total", "Celery tasks that raised", ["task"])


class _ThisProcess(Collector):
    """This process's own metrics (without a multiprocess directory)."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def export_registry(*, queues: bool = True) -> CollectorRegistry:
    """Every process's metrics of this machine (multiprocess), else its own; and the queues'."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    if queues:
        from config.observability.queue_depth import QueueDepthCollector

        registry.register(QueueDepthCollector())
    return registry


def exposition(*, queues: bool = True) -> bytes:
    return generate_latest(export_registry(queues=queues))


def metrics(request: HttpRequest) -> HttpResponse:
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
