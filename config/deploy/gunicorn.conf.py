"""gunicorn for the WSGI tier: sync workers (a request's database waits are short, and the slow
clients are the proxy's to absorb), each with one database connection.
"""

import gc
import multiprocessing
import os
from importlib import import_module
from typing import Any

bind = os.environ.get("API_BIND", "127.0.0.1:8001")
workers = int(os.environ.get("WEB_CONCURRENCY", str(2 * multiprocessing.cpu_count())))
# Without Redis the throttles and the sign-in guard count in each process's own memory: N workers
# would let a client make N times every limit's attempts. (`make serve` runs this check too.)
if workers > 1 and not os.environ.get("REDIS_URL"):
    raise SystemExit(
        f"WEB_CONCURRENCY={workers} gunicorn workers without REDIS_URL would each keep their own "
        "throttle and sign-in guard counts: set REDIS_URL, or WEB_CONCURRENCY=1."
    )
worker_class = "sync"
timeout = 30
graceful_timeout = 20
# The proxy in front keeps connections; a sync worker answers one request per connection.
keepalive = 0
accesslog = None
# Per process: several tiers (or test servers) on one machine do not share one.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", f"/tmp/dice-gunicorn-{bind}.ctl")
# Trust X-Forwarded-* only from the proxy on this machine (or FORWARDED_ALLOW_IPS).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# gunicorn's defaults, said here: nginx refuses past 8 KiB first.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

# gunicorn's own lines in the application's JSON shape under LOG_FORMAT=json.
_debug = os.environ.get("DEBUG", "true").strip().lower() in {"1", "true", "yes", "on"}
if os.environ.get("LOG_FORMAT", "text" if _debug else "json") == "json":
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": ["levelname", "name", "message"],
                "rename_fields": {"levelname": "level", "name": "logger"},
                "timestamp": "time",
                "defaults": {"request_id": None},
            }
        },
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": "json"},
            "error_console": {"class": "logging.StreamHandler", "formatter": "json"},
        },
        "loggers": {
            "gunicorn.error": {"level": "INFO", "handlers": ["error_console"], "propagate": False},
            "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
        },
        "root": {"level": "INFO", "handlers": ["console"]},
    }

    def _access_log_enabled(self: Any) -> bool:
        return bool(self.cfg.accesslog)

    # No access line per request, which a logging configuration turns on (ACCESS_LOG says it).
    logger_class = type(
        "Logger",
        (import_module("gunicorn.glogging").Logger,),
        {"_compute_access_log_enabled": _access_log_enabled},
    )


def post_worker_init(worker: object) -> None:
    """Frozen out of the garbage collector's reach, the application's modules are no longer
    walked by each full collection (some 65 ms of a worker's CPU every few hundred moves)."""
    gc.collect()
    gc.freeze()


def child_exit(server: object, worker: object) -> None:
    """A worker gone: its live gauges leave the sum."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined]
