"""The stream tier answers only for ``ALLOWED_HOSTS``, as Django does on the WSGI tier: any other
``Host`` is refused (400 ``disallowed_host``) before anything else, and no answer of either tier
names a host it does not serve (a problem's ``type`` is then relative)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from pytest_django import Settings
from rest_framework.test import APIClient

from games.streams.app import StreamApp
from tests.streams import asgi
from tests.streams.test_streams import game_path, running_app, started_game

pytestmark = [pytest.mark.django_db(transaction=True)]

DISALLOWED = {
    "type": "/api/v1/errors/disallowed_host/",
    "title": "This server does not answer for that host name.",
    "status": 400,
    "code": "disallowed_host",
    "detail": "This server does not answer for that host name.",
    "field": "Host",
}


@pytest_asyncio.fixture
async def app(settings: Settings) -> AsyncIterator[StreamApp]:
    settings.ALLOWED_HOSTS = ["dice.example.org", ".play.example.org"]
    async for stream_app in running_app("database", settings):
        yield stream_app


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "host", ["evil.example", "dice.example.org.evil.example", "evil.example:443", "", "[::1"]
)
async def test_a_host_outside_allowed_hosts_is_refused_and_named_nowhere(
    app: StreamApp, settings: Settings, host: str
) -> None:
    settings.STREAM_OPENS_PER_MINUTE = 1
    game, _ann = await sync_to_async(started_game)()
    for path in (game_path(game), "/api/v1/stream/", "/metrics"):
        # No Host header at all (""): the server's own name, testserver, is not allowed either.
        response = await asgi.get(app, path, headers={"Host": host} if host else None)
        assert response.status == 400, path
        assert response.headers["content-type"] == "application/problem+json"
        body = await response.read_all()
        assert b"evil" not in body
        assert json.loads(body) == DISALLOWED
    # Refused before it counted as an open: the allowed host's first open is still free.
    allowed = await asgi.get(app, game_path(game, "events"), headers={"Host": "dice.example.org"})
    assert allowed.status == 200


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "host", ["dice.example.org", "DICE.example.org:8000", "a.play.example.org"]
)
async def test_an_allowed_host_is_served_and_named_in_its_problems(
    app: StreamApp, host: str
) -> None:
    game, _ann = await sync_to_async(started_game)()
    served = await asgi.get(app, game_path(game, "events"), headers={"Host": host})
    assert served.status == 200
    refused = await asgi.get(app, "/api/v1/stream/", headers={"Host": host})
    assert refused.status == 401
    assert (await refused.json())["type"] == f"http://{host}/api/v1/errors/not_authenticated/"


def test_the_wsgi_tier_refuses_the_same_hosts_with_the_same_problem(settings: Settings) -> None:
    settings.ALLOWED_HOSTS = ["dice.example.org"]
    response = APIClient().get("/api/v1/games/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json() == DISALLOWED
    assert APIClient().get("/api/v1/games/", HTTP_HOST="dice.example.org").status_code == 200
