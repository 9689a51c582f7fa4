"""Prometheus metrics: moves, their latency, timer lag, open streams. ``GET /metrics``.

Several processes (web workers, Celery) each count their own; set PROMETHEUS_MULTIPROC_DIR to a
shared empty directory to have ``/metrics`` add them up (prometheus_client's multiprocess mode).
"""

from __future__ import annotations

import os

from django.http import HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

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


def metrics(request: HttpRequest) -> HttpResponse:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest()
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
