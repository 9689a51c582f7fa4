"""CORS on the stream tier, by the WSGI tier's settings: an allowed origin's page may open the
streams (EventSource, a long-poll with fetch), its preflight is answered; others get nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from pytest_django import Settings

from games.streams.app import StreamApp
from tests.factories import stream_ticket
from tests.streams import asgi
from tests.streams.test_streams import game_path, running_app, started_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
ALLOWED = "https://play.example.org"


@pytest_asyncio.fixture
async def app(settings: Settings) -> AsyncIterator[StreamApp]:
    settings.CORS_ALLOWED_ORIGINS = [ALLOWED]
    async for stream_app in running_app("database", settings):
        yield stream_app


async def test_an_allowed_origin_reads_the_streams(app: StreamApp) -> None:
    game, ann = await sync_to_async(started_game)()
    sse = await asgi.get(app, game_path(game), headers={"Origin": ALLOWED})
    assert sse.status == 200
    assert sse.headers["access-control-allow-origin"] == ALLOWED
    # the API's list (CORS_EXPOSE_HEADERS): one page reads both tiers alike
    exposed = {name.strip() for name in sse.headers["access-control-expose-headers"].split(",")}
    assert {"ETag", "X-Request-ID", "Retry-After", "RateLimit", "RateLimit-Policy"} <= exposed
    assert "Origin" in sse.headers["vary"]
    await sse.close()

    page = await asgi.get(app, game_path(game, "events"), {"wait": "0.1", "after": game.version},
                          {"Origin": ALLOWED})  # fmt: skip
    assert page.status == 200
    assert page.headers["access-control-allow-origin"] == ALLOWED
    await page.read_all()

    ticket = await sync_to_async(stream_ticket)(ann)
    mine = await asgi.get(app, "/api/v1/stream/", {"ticket": ticket}, {"Origin": ALLOWED})
    assert mine.headers["access-control-allow-origin"] == ALLOWED
    await mine.close()


async def test_refusals_carry_the_headers_too(app: StreamApp) -> None:
    missing = "/api/v1/games/00000000-0000-4000-8000-000000000000/stream/"
    response = await asgi.get(app, missing, headers={"Origin": ALLOWED})
    assert response.status == 404
    assert response.headers["access-control-allow-origin"] == ALLOWED


async def test_the_preflight_is_answered(app: StreamApp) -> None:
    game, _ann = await sync_to_async(started_game)()
    asked = {
        "Origin": ALLOWED,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization, last-event-id",
    }
    response = await asgi.get(app, game_path(game), headers=asked, method="OPTIONS")
    assert response.status == 200
    headers = response.headers
    assert headers["access-control-allow-origin"] == ALLOWED
    assert "GET" in headers["access-control-allow-methods"]
    allowed = headers["access-control-allow-headers"]
    assert "authorization" in allowed and "last-event-id" in allowed
    assert int(headers["access-control-max-age"]) > 0
    assert await response.read_all() == b""


async def test_another_origin_gets_no_cors_headers(app: StreamApp) -> None:
    game, _ann = await sync_to_async(started_game)()
    other = {"Origin": "https://evil.example", "Access-Control-Request-Method": "GET"}
    preflight = await asgi.get(app, game_path(game), headers=other, method="OPTIONS")
    assert preflight.status == 200
    assert not any(name.startswith("access-control-") for name in preflight.headers)
    sse = await asgi.get(app, game_path(game), headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in sse.headers
    await sse.close()
