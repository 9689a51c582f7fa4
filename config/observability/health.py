"""Health: ``/health/live`` (the process alone), ``/health/ready`` (the database and Redis, kept
``HEALTH_CACHE_SECONDS`` per process: a load balancer polls it) and ``/health/deep`` (also the
workers, for the operators: slow, and a web process can serve while a worker restarts).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

from config.web.internal import internal_only


def live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # a health check reports failures, it does not raise them
        return f"error: {exc.__class__.__name__}"


def _redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    try:
        from config.storage.redis_client import redis_client

        redis_client().ping()
        return "ok"
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"


def _workers() -> str:
    try:
        from config.celery_app import app

        replies = app.control.ping(timeout=0.5)
        return f"ok: {len(replies)}" if replies else "error: no worker answered"
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"


class _Cached:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.checks: dict[str, str] | None = None
        self.at = 0.0

    def get(self) -> dict[str, str]:
        with self.lock:
            now = time.monotonic()
            if self.checks is None or now - self.at >= float(settings.HEALTH_CACHE_SECONDS):
                self.checks = {"database": _database(), "redis": _redis()}
                self.at = now
            return dict(self.checks)


_cached = _Cached()


def _answer(checks: dict[str, Any]) -> JsonResponse:
    healthy = all(v in ("ok", "not configured") or v.startswith("ok:") for v in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks}, status=200 if healthy else 503
    )


def ready(request: HttpRequest) -> JsonResponse:
    return _answer(_cached.get())


@internal_only
def deep(request: HttpRequest) -> JsonResponse:
    return _answer({"database": _database(), "redis": _redis(), "workers": _workers()})
