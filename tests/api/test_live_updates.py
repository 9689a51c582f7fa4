"""Conditional requests: ETag/304 and If-Match. The streams and long-poll are the stream tier's
(tests/streams)."""

from __future__ import annotations

import pytest
from pytest_django import Settings

from tests.factories import MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db(transaction=True)


def test_detail_etag_and_304(make_client: MakeClient) -> None:
    ann = make_client()
    game = api_game(ann, start=False)
    url = game_url(game["id"])
    first = ann.get(url)
    etag = first["ETag"]
    assert etag.startswith('"v0')  # strong: one representation byte for byte
    assert ann.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    ann.ok("post", game_url(game["id"], "start/"))
    changed = ann.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_if_match_is_the_expected_version(make_client: MakeClient) -> None:
    ann = make_client()
    game = api_game(ann)
    url = game_url(game["id"], "moves/")
    etag = ann.get(game_url(game["id"]))["ETag"]
    moved = ann.post(url, {"type": "roll"}, format="json", HTTP_IF_MATCH=etag)
    assert moved.status_code == 201
    stale = ann.post(url, {"type": "roll", "hold": [0]}, format="json", HTTP_IF_MATCH=etag)
    assert stale.status_code == 412  # a failed precondition (was 409 stale_version)
    assert stale.json()["code"] == "precondition_failed"
    plain = ann.post(url, {"type": "roll", "hold": [0]}, format="json", HTTP_IF_MATCH='"2"')
    assert plain.status_code == 201


def test_every_middleware_is_async_capable(settings: Settings) -> None:
    """A sync-only middleware would make every open stream hold a thread under ASGI."""
    from django.utils.module_loading import import_string

    for path in settings.MIDDLEWARE:
        assert getattr(import_string(path), "async_capable", False), path
