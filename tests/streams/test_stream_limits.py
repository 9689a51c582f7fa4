"""Stream tickets (players.stream_tickets) and what one client may hold of the stream tier
(games.streams.limits): opens a minute, streams open at once per address and per account, and a
lifetime after which a stream ends and its client resumes. On the embedded bus (limits in memory)
and, with REDIS_URL, on Redis (limits in Redis, shared by every process)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from pytest_django import Settings
from rest_framework.test import APIClient

from games.streams import reads
from games.streams.app import StreamApp
from tests.factories import account, move, stream_ticket, token
from tests.streams import asgi
from tests.streams.test_streams import BUSES, game_path, running_app, started_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest_asyncio.fixture(params=BUSES)
async def app(request: pytest.FixtureRequest, settings: Settings) -> AsyncIterator[StreamApp]:
    async for stream_app in running_app(request.param, settings):
        yield stream_app


STREAM = "/api/v1/stream/"


# --- tickets ---------------------------------------------------------------------------------


async def test_a_ticket_is_made_with_the_token_in_a_header_and_opens_one_stream(
    app: StreamApp,
) -> None:
    ann = await sync_to_async(account)("ann")
    raw_token = await sync_to_async(token)(ann)

    def ticket_through_the_api() -> dict[str, Any]:
        client = APIClient()
        assert client.post("/api/v1/stream/tickets/").status_code == 401
        client.credentials(HTTP_AUTHORIZATION=f"Token {raw_token}")
        response = client.post("/api/v1/stream/tickets/")
        assert response.status_code == 201
        return dict(response.json())

    body = await sync_to_async(ticket_through_the_api)()
    assert body["expires_in"] == 60
    assert raw_token not in body["ticket"]
    opened = await asgi.get(app, STREAM, {"ticket": body["ticket"]})
    assert opened.status == 200
    assert (await opened.chunk()).startswith(b"retry:")
    # Spent: a second stream with it (a replay from a log, or EventSource's own retry) is refused.
    again = await asgi.get(app, STREAM, {"ticket": body["ticket"]})
    assert again.status == 401
    refusal = await again.json()
    assert (refusal["code"], refusal["field"]) == ("invalid_ticket", "ticket")
    await opened.close()


async def test_a_ticket_races_itself_once(app: StreamApp) -> None:
    ann = await sync_to_async(account)("ann")
    ticket = await sync_to_async(stream_ticket)(ann)
    opened = await asyncio.gather(*(asgi.get(app, STREAM, {"ticket": ticket}) for _ in range(5)))
    assert sorted(response.status for response in opened) == [200, 401, 401, 401, 401]
    for response in opened:
        if response.status == 200:
            await response.close()


async def test_an_expired_or_unknown_ticket_opens_nothing(
    app: StreamApp, settings: Settings
) -> None:
    settings.STREAM_TICKET_SECONDS = 1
    ann = await sync_to_async(account)("ann")
    ticket = await sync_to_async(stream_ticket)(ann)
    await asyncio.sleep(1.3)
    for raw in (ticket, "made-up"):
        response = await asgi.get(app, STREAM, {"ticket": raw})
        assert response.status == 401
        assert (await response.json())["code"] == "invalid_ticket"


async def test_a_token_in_the_url_is_refused_even_a_good_one(app: StreamApp) -> None:
    ann = await sync_to_async(account)("ann")
    response = await asgi.get(app, STREAM, {"token": await sync_to_async(token)(ann)})
    assert response.status == 400
    body = await response.json()
    assert (body["code"], body["field"]) == ("token_in_url", "token")
    # The header is not a URL: a bot keeps using it.
    header = {"Authorization": f"Token {await sync_to_async(token)(ann)}"}
    response = await asgi.get(app, STREAM, headers=header)
    assert response.status == 200
    await response.close()


# --- limits ----------------------------------------------------------------------------------


async def test_streams_open_at_once_are_capped_per_address(
    app: StreamApp, settings: Settings
) -> None:
    settings.STREAMS_PER_ADDRESS = 2
    game, _ann = await sync_to_async(started_game)()
    first = [await asgi.get(app, game_path(game), client="203.0.113.7") for _ in range(2)]
    refused = await asgi.get(app, game_path(game), client="203.0.113.7")
    assert refused.status == 429
    body = await refused.json()
    assert body["code"] == "too_many_streams"
    assert body["params"] == {"per": "address", "limit": 2}
    # Another address is not this one; a long-poll counts as a stream while it waits.
    other = await asgi.get(app, game_path(game), client="203.0.113.8")
    assert other.status == 200
    # A closed stream gives its place back.
    await first[0].close()
    again = await asgi.get(app, game_path(game), client="203.0.113.7")
    assert again.status == 200
    for response in (first[1], other, again):
        await response.close()


async def test_a_rotating_forwarded_for_header_does_not_lift_the_cap(
    app: StreamApp, settings: Settings
) -> None:
    settings.STREAMS_PER_ADDRESS = 1
    settings.TRUSTED_PROXIES = 1
    game, _ann = await sync_to_async(started_game)()

    def through_the_proxy(spoofed: str) -> dict[str, str]:
        return {"X-Forwarded-For": f"{spoofed}, 203.0.113.7"}

    held = await asgi.get(app, game_path(game), headers=through_the_proxy("1.1.1.1"))
    assert held.status == 200
    refused = await asgi.get(app, game_path(game), headers=through_the_proxy("2.2.2.2"))
    assert refused.status == 429
    await held.close()


async def test_account_streams_are_capped_per_account_from_any_address(
    app: StreamApp, settings: Settings
) -> None:
    settings.STREAMS_PER_ACCOUNT = 1
    ann = await sync_to_async(account)("ann")
    held = await asgi.get(app, STREAM, {"ticket": await sync_to_async(stream_ticket)(ann)})
    assert held.status == 200
    refused = await asgi.get(
        app, STREAM, {"ticket": await sync_to_async(stream_ticket)(ann)}, client="198.51.100.1"
    )
    assert refused.status == 429
    assert (await refused.json())["params"] == {"per": "account", "limit": 1}
    await held.close()


async def test_opening_streams_is_throttled_per_address(app: StreamApp, settings: Settings) -> None:
    settings.STREAM_OPENS_PER_MINUTE = 3
    game, _ann = await sync_to_async(started_game)()
    polls = [await asgi.get(app, game_path(game, "events"), {"wait": "0"}) for _ in range(3)]
    assert [poll.status for poll in polls] == [200, 200, 200]
    refused = await asgi.get(app, game_path(game, "events"), {"wait": "0"})
    assert refused.status == 429
    body = await refused.json()
    assert body["code"] == "throttled"
    assert 0 < int(refused.headers["retry-after"]) <= 60
    assert body["retry_after"] == int(refused.headers["retry-after"])


async def test_a_stream_ends_with_its_lifetime_and_resumes_where_it_was(
    app: StreamApp, settings: Settings
) -> None:
    settings.STREAM_MAX_SECONDS = 0.5
    game, ann = await sync_to_async(started_game)("me")
    started = time.monotonic()
    first = await asgi.get(app, game_path(game))
    seen = await first.events(1)
    assert [event["seq"] for event in seen] == [1]
    # It ends by itself (a read waits 2 s at most), and not before its lifetime: a behaviour,
    # not a speed (the stream would otherwise stay open for ever).
    while not first.ended:
        await first.chunk(timeout=2)
    assert time.monotonic() - started >= 0.5
    await sync_to_async(move)(game, ann, type="roll")
    # EventSource reconnects with the last id it saw: only what it missed comes.
    resumed = await asgi.get(app, game_path(game), headers={"Last-Event-ID": seen[-1]["_id"]})
    assert [event["seq"] for event in await resumed.events(1)] == [2]
    await resumed.nothing_more(0.1)
    await resumed.close()


async def test_bad_tokens_count_as_opens_before_any_is_read(
    app: StreamApp, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An open is counted against its address before the account stream reads its token: a
    flood of bad tokens is throttled like any other opens, and past the rate reads nothing."""
    settings.STREAM_OPENS_PER_MINUTE = 3
    looked_up: list[str] = []
    original = reads.account_for_token

    def counting(raw: str) -> int | None:
        looked_up.append(raw)
        return original(raw)

    monkeypatch.setattr(reads, "account_for_token", counting)
    bad = {"Authorization": "Token dice_not-a-token"}
    tried = [await asgi.get(app, STREAM, headers=bad, client="203.0.113.9") for _ in range(3)]
    assert [response.status for response in tried] == [401, 401, 401]
    assert len(looked_up) == 3
    flood = await asgi.get(app, STREAM, headers=bad, client="203.0.113.9")
    assert flood.status == 429
    assert (await flood.json())["code"] == "throttled"
    assert len(looked_up) == 3  # refused before its token was read
    # Another address is not throttled by this one's flood.
    other = await asgi.get(app, STREAM, headers=bad, client="203.0.113.10")
    assert other.status == 401


@pytest.mark.parametrize(
    ("held_by", "refused_from", "free_from"),
    [
        # One /64: one bucket, whatever the rest of the address.
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:9", "2001:db8:1:3::1"),
        # An IPv4-mapped address is the IPv4 address it maps.
        ("203.0.113.7", "::ffff:203.0.113.7", "203.0.113.8"),
    ],
)
async def test_streams_are_capped_per_ipv6_network_and_ipv4_address(
    app: StreamApp, settings: Settings, held_by: str, refused_from: str, free_from: str
) -> None:
    settings.STREAMS_PER_ADDRESS = 1
    game, _ann = await sync_to_async(started_game)()
    held = await asgi.get(app, game_path(game), client=held_by)
    assert held.status == 200
    refused = await asgi.get(app, game_path(game), client=refused_from)
    assert refused.status == 429
    assert (await refused.json())["params"] == {"per": "address", "limit": 1}
    free = await asgi.get(app, game_path(game), client=free_from)
    assert free.status == 200
    for response in (held, free):
        await response.close()


async def test_opens_are_counted_per_ipv6_network(app: StreamApp, settings: Settings) -> None:
    settings.STREAM_OPENS_PER_MINUTE = 2
    game, _ann = await sync_to_async(started_game)()
    path = game_path(game, "events")
    # Every address of the /64 a new one: the opens still add up.
    statuses = [
        (await asgi.get(app, path, {"wait": "0"}, client=f"2001:db8:5:6::{i:x}")).status
        for i in range(1, 4)
    ]
    assert statuses == [200, 200, 429]
    assert (await asgi.get(app, path, {"wait": "0"}, client="2001:db8:5:7::1")).status == 200
