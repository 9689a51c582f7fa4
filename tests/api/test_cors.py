"""CORS on the API (django-cors-headers): origins from CORS_ALLOWED_ORIGINS (none by default);
the headers a client needs (Idempotency-Key, If-Match ...) may be sent, ETag, X-Request-ID,
RateLimit ... read."""

from __future__ import annotations

import pytest
from django.test import override_settings
from pytest_django import Settings
from rest_framework.test import APIClient

from config.settings import env_list
from tests.factories import MakeClient

pytestmark = pytest.mark.django_db

ALLOWED = "https://play.example.org"
GAMES = "/api/v1/games/"
# What a page reads: its request's id, versions, language, budget and when to retry, a replay.
EXPOSED = {
    "X-Request-ID",
    "ETag",
    "Content-Language",
    "RateLimit",
    "RateLimit-Policy",
    "Retry-After",
    "Idempotent-Replayed",
}


def test_no_origin_is_allowed_by_default(anon: APIClient, settings: Settings) -> None:
    assert settings.CORS_ALLOWED_ORIGINS == []
    response = anon.get(GAMES, HTTP_ORIGIN=ALLOWED)
    assert "Access-Control-Allow-Origin" not in response


def test_origins_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", f"{ALLOWED}, http://localhost:5173 ,")
    assert env_list("CORS_ALLOWED_ORIGINS", "") == [ALLOWED, "http://localhost:5173"]


@override_settings(CORS_ALLOWED_ORIGINS=[ALLOWED])
def test_an_allowed_origins_preflight_and_answer(make_client: MakeClient) -> None:
    ann = make_client()
    preflight = ann.options(
        GAMES,
        HTTP_ORIGIN=ALLOWED,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, idempotency-key",
    )
    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == ALLOWED
    allowed = preflight["Access-Control-Allow-Headers"]
    for header in ("authorization", "idempotency-key", "if-match", "last-event-id"):
        assert header in allowed
    assert "POST" in preflight["Access-Control-Allow-Methods"]
    assert "RateLimit" not in preflight  # answered before any view: no throttle counts it

    answer = ann.get(GAMES, HTTP_ORIGIN=ALLOWED)
    assert answer["Access-Control-Allow-Origin"] == ALLOWED
    exposed = {name.strip() for name in answer["Access-Control-Expose-Headers"].split(",")}
    assert exposed >= EXPOSED
    # each of them one the API sends (ETag on a game, Retry-After on a 429, Idempotent-Replayed
    # on a replay)
    sent = {"X-Request-ID", "Content-Language", "RateLimit", "RateLimit-Policy"}
    assert sent <= set(answer.headers)
    assert "Access-Control-Allow-Credentials" not in answer
    # refusals too (a page must read the problem)
    refused = ann.get(f"{GAMES}not-a-uuid/", HTTP_ORIGIN=ALLOWED)
    assert refused.status_code == 404
    assert refused["Access-Control-Allow-Origin"] == ALLOWED
    assert "RateLimit" in refused["Access-Control-Expose-Headers"]


@override_settings(CORS_ALLOWED_ORIGINS=[ALLOWED])
def test_another_origin_and_other_paths_get_nothing(anon: APIClient) -> None:
    assert "Access-Control-Allow-Origin" not in anon.get(GAMES, HTTP_ORIGIN="https://evil.example")
    assert "Access-Control-Allow-Origin" not in anon.get("/health/live", HTTP_ORIGIN=ALLOWED)
