"""Malformed or oversized requests get the API's error shape and a 4xx, never a 500 or an HTML
page (each was found by a review: a 5,000-digit If-Match, a deeply nested JSON body, a body past
the size limit)."""

from __future__ import annotations

import json

import pytest
from pytest_django import Settings

from config.web.parsers import depth
from tests.factories import Client, MakeClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def game_url(make_client: MakeClient) -> tuple[Client, str]:
    ann = make_client()
    game = ann.post("/api/v1/games/", {"kind": "yatzy", "seats": [{"type": "me"}]}).json()
    ann.post(f"/api/v1/games/{game['id']}/start/")
    return ann, f"/api/v1/games/{game['id']}"


def test_an_endless_if_match_is_refused_as_malformed(game_url: tuple[Client, str]) -> None:
    ann, url = game_url
    ann.raise_request_exception = False
    for header in ("1" * 5000, '"v' + "1" * 5000 + '"'):
        response = ann.post(f"{url}/moves/", {"type": "roll"}, HTTP_IF_MATCH=header)
        assert response.status_code == 400
        assert response.json()["code"] == "invalid_if_match"
    assert ann.get(f"{url}/").json()["version"] == 1  # nothing moved


def test_a_deeply_nested_body_is_refused_as_malformed(game_url: tuple[Client, str]) -> None:
    ann, url = game_url
    ann.raise_request_exception = False
    for nesting in (100_000, 40):
        body = "[" * nesting + "]" * nesting
        response = ann.post(f"{url}/moves/", body, content_type="application/json")
        assert response.status_code == 400, nesting
        assert response.json()["code"] == "json_too_deep"
    # A move nests two levels: far inside the bound.
    assert ann.post(f"{url}/moves/", {"type": "roll"}).status_code == 201


def test_a_body_past_the_limit_is_refused_before_it_is_read(
    game_url: tuple[Client, str], settings: Settings
) -> None:
    ann, url = game_url
    settings.MAX_REQUEST_BODY_BYTES = 1000
    body = json.dumps({"type": "roll", "padding": "a" * 2000})
    response = ann.post(f"{url}/moves/", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/problem+json"
    assert response.json() == {
        "type": "http://testserver/api/v1/errors/request_too_large/",
        "title": "The request body is too large.",
        "status": 413,
        "code": "request_too_large",
        "detail": "The request body is too large.",
        "field": None,
        "params": {"limit": 1000},
    }
    # Any URL, before authentication: the registration too.
    anon = ann.__class__()
    response = anon.post("/api/v1/accounts/register/", body, content_type="application/json")
    assert response.status_code == 413
    assert ann.get(f"{url}/").json()["version"] == 1


def test_the_depth_of_json() -> None:
    assert depth(3) == 0
    assert depth({"type": "roll", "hold": [0, 1]}) == 2
    assert depth([[[]]]) == 3
    assert depth({"a": [{"b": {}}]}) == 4
