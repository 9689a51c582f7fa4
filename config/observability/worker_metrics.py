"""The workers' and the timers process's metrics, each on its ``METRICS_PORT``. A worker's pool
processes reach its exporter only through PROMETHEUS_MULTIPROC_DIR.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import signals

log = logging.getLogger(__name__)


def serve_metrics(*, queues: bool, what: str) -> int | None:
    """Export this process's metrics on METRICS_PORT, if set; the port, or None."""
    raw = os.environ.get("METRICS_PORT", "").strip()
    if not raw:
        return None
    from prometheus_client import start_http_server

    from config.observability.metrics import export_registry

    port = int(raw)
    start_http_server(port, addr=os.environ.get("METRICS_ADDR", "0.0.0.0"),
                      registry=export_registry(queues=queues))  # fmt: skip
    log.info("%s: metrics on port %d", what, port)
    return port


@signals.worker_init.connect
def _worker_exports(**_: Any) -> None:
    if os.environ.get("METRICS_PORT") and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        log.warning(
            "worker: METRICS_PORT without PROMETHEUS_MULTIPROC_DIR exports no task's figures"
        )
    # The queues are read by the web tier's /metrics: one exporter of them is enough.
    serve_metrics(queues=False, what="worker")


@signals.worker_process_shutdown.connect
def _pool_process_gone(pid: int | None = None, **_: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())
