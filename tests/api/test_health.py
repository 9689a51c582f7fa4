"""Health and metrics: readiness cheap and truthful, the deep check and /metrics for the operators
only (config.observability.health, config.web.internal)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import Settings

from config.observability import health

pytestmark = pytest.mark.django_db

OUTSIDE = "203.0.113.5"


@pytest.fixture(autouse=True)
def _fresh_readiness() -> None:
    health._cached.checks = None


def test_liveness_needs_nothing() -> None:
    with CaptureQueriesContext(connection) as queries:
        response = Client().get("/health/live", REMOTE_ADDR=OUTSIDE)
    assert response.status_code == 200
    assert len(queries) == 0


@pytest.mark.parametrize("path", ["/health/ready", "/health/"])
def test_readiness_checks_once_per_interval(path: str, settings: Settings) -> None:
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        first = client.get(path, REMOTE_ADDR=OUTSIDE)
        for _ in range(20):
            assert client.get(path, REMOTE_ADDR=OUTSIDE).status_code == 200
    assert first.json()["status"] == "ok"
    assert first.json()["checks"]["database"] == "ok"
    assert first.json()["checks"]["redis"] in {"ok", "not configured"}
    assert "workers" not in first.json()["checks"]  # no broadcast to the workers per probe
    assert len(queries) == 1
    settings.HEALTH_CACHE_SECONDS = 0
    with CaptureQueriesContext(connection) as queries:
        client.get(path)
    assert len(queries) == 1


def test_readiness_is_ok_only_when_every_check_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "_redis", lambda: "error: ConnectionError")
    response = Client().get("/health/ready")
    assert response.status_code == 503
    assert response.json()["status"] == "error"


@pytest.mark.parametrize("path", ["/metrics", "/health/deep"])
def test_operators_pages_are_refused_from_outside(path: str, settings: Settings) -> None:
    response = Client().get(path, REMOTE_ADDR=OUTSIDE)
    assert response.status_code == 403
    assert response.json()["code"] == "internal_only"
    # Behind the proxy, the proxy's loopback hop is not the client.
    settings.TRUSTED_PROXIES = 1
    response = Client().get(path, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=OUTSIDE)
    assert response.status_code == 403


def test_metrics_from_this_machine_or_with_the_token(settings: Settings) -> None:
    assert Client().get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
    settings.INTERNAL_TOKEN = "s3cret-internal-token"
    # With a token set, only the token opens it, wherever the request comes from.
    assert Client().get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 403
    wrong = Client(headers={"Authorization": "Bearer nope"})
    assert wrong.get("/metrics", REMOTE_ADDR=OUTSIDE).status_code == 403
    right = Client(headers={"Authorization": "Bearer s3cret-internal-token"})
    response = right.get("/metrics", REMOTE_ADDR=OUTSIDE)
    assert response.status_code == 200
    assert b"dice_moves_total" in response.content


def test_the_deep_check_says_error_when_no_worker_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    from config.celery_app import app

    monkeypatch.setattr(app.control, "ping", lambda timeout: [])
    response = Client().get("/health/deep", REMOTE_ADDR="127.0.0.1")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["workers"] == "error: no worker answered"
    monkeypatch.setattr(app.control, "ping", lambda timeout: [{"w1": {"ok": "pong"}}])
    response = Client().get("/health/deep", REMOTE_ADDR="127.0.0.1")
    assert response.status_code == 200
    assert response.json()["checks"]["workers"] == "ok: 1"
