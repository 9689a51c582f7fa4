"""Liveness and readiness: ``/health/live`` answers from the process alone (the baseline of the
HTTP benchmark), ``/health/`` checks the database, Redis and a worker."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse


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
        import redis

        redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1).ping()
        return "ok"
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"


def _worker() -> str:
    try:
        from config.celery_app import app

        replies = app.control.ping(timeout=0.5)
        return "ok" if replies else "no worker answered"
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"


def ready(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "redis": _redis()}
    if request.GET.get("worker", "1") != "0":
        checks["worker"] = _worker()
    healthy = checks["database"] == "ok" and not checks["redis"].startswith("error")
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks}, status=200 if healthy else 503
    )
