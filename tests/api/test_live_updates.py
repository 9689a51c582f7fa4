"""Clients that wait: ETag/304, If-Match, long-poll, SSE (resumable), the player stream.

With REDIS_URL set (CI) the waits are woken by Redis pub/sub; without it, by database polling.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient
from knox.models import AuthToken

from games import automation, services
from games.models import Game
from players.models import Player
from tests.api.yatzy_play import GAMES, game_url

pytestmark = pytest.mark.django_db(transaction=True)


def test_detail_etag_and_304(make_client) -> None:
    ann = make_client()
    game = ann.ok("post", GAMES, {"kind": "yatzy", "seats": [{"type": "me"}]}, status=201)
    url = game_url(game["id"])
    first = ann.get(url)
    etag = first["ETag"]
    assert etag.startswith('W/"v0')
    assert ann.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    ann.ok("post", game_url(game["id"], "start/"))
    changed = ann.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_if_match_is_the_expected_version(make_client) -> None:
    ann = make_client()
    game = ann.ok("post", GAMES, {"kind": "yatzy", "seats": [{"type": "me"}]}, status=201)
    ann.ok("post", game_url(game["id"], "start/"))
    url = game_url(game["id"], "moves/")
    etag = ann.get(game_url(game["id"]))["ETag"]
    moved = ann.post(url, {"type": "roll"}, format="json", HTTP_IF_MATCH=etag)
    assert moved.status_code == 201
    stale = ann.post(url, {"type": "roll", "hold": [0]}, format="json", HTTP_IF_MATCH=etag)
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale_version"
    plain = ann.post(url, {"type": "roll", "hold": [0]}, format="json", HTTP_IF_MATCH='"2"')
    assert plain.status_code == 201


@pytest_asyncio.fixture
async def async_db() -> AsyncIterator[None]:
    """The async tests' own queries run in asgiref's thread for sync code: close its connection
    at the end, or the test database cannot be dropped."""
    yield
    await sync_to_async(connections.close_all)()


def started_game(**options: Any) -> tuple[Game, Player]:
    ann = Player.objects.create_user("ann", password="ann-password-1")
    seats = [services.SeatSpec(type="me"), services.SeatSpec(type="computer")]
    game = services.game_create(creator=ann, kind="yatzy", seats=seats, options=options)
    services.game_start(game_id=game.pk, player=ann)
    return Game.objects.get(pk=game.pk), ann


def new_token(player: Player) -> str:
    _instance, raw = AuthToken.objects.create(user=player)
    return raw


async def next_events(lines: AsyncIterator[bytes], count: int) -> list[dict[str, Any]]:
    """Read SSE frames until ``count`` events have arrived (comments and retry lines skipped)."""
    events: list[dict[str, Any]] = []
    buffer = b""
    async for chunk in lines:
        buffer += chunk
        while b"\n\n" in buffer:
            frame, buffer = buffer.split(b"\n\n", 1)
            data = [line[6:] for line in frame.split(b"\n") if line.startswith(b"data: ")]
            if data:
                events.append(json.loads(data[0]))
                if len(events) == count:
                    return events
    return events


@pytest.mark.asyncio
async def test_long_poll_returns_at_once_on_a_new_event_and_empty_after_wait(async_db) -> None:
    game, ann = await sync_to_async(started_game)()
    client = AsyncClient()
    url = game_url(str(game.pk), "events/")
    empty = await client.get(url, {"after": game.version, "wait": "0.5"})
    assert empty.status_code == 200
    assert empty.json()["events"] == []

    poll = asyncio.create_task(client.get(url, {"after": game.version, "wait": "20"}))
    await asyncio.sleep(0.3)
    assert not poll.done()
    await sync_to_async(services.game_move)(game_id=game.pk, command={"type": "roll"}, actor=ann)
    response = await asyncio.wait_for(poll, timeout=2)
    assert [event["type"] for event in response.json()["events"]] == ["dice_rolled"]


@pytest.mark.asyncio
async def test_sse_delivers_moves_computer_moves_and_auto_confirm_and_resumes(async_db) -> None:
    game, ann = await sync_to_async(started_game)(auto_confirm_seconds=0.5)
    client = AsyncClient()
    url = game_url(str(game.pk), "events/")
    response = await client.get(url, headers={"Accept": "text/event-stream"})
    assert response["Content-Type"] == "text/event-stream"
    stream = response.streaming_content.__aiter__()
    (started,) = await asyncio.wait_for(next_events(stream, 1), timeout=2)
    assert started["seq"] == 1

    # Another client (the player, through the API) moves; each move reaches the stream.
    player = AsyncClient()
    token = await sync_to_async(new_token)(ann)
    for hold in ([], [0], [0]):
        moved = await player.post(
            game_url(str(game.pk), "moves/"),
            {"type": "roll", "hold": hold},
            content_type="application/json",
            headers={"Authorization": f"Token {token}"},
        )
        assert moved.status_code == 201, moved.json()
        (roll,) = await asyncio.wait_for(next_events(stream, 1), timeout=1)
        assert roll["seq"] == moved.json()["events"][0]["seq"]

    # The auto-confirm (the deadline is half a second after the last roll).
    await asyncio.sleep(0.6)
    fresh = await Game.objects.aget(pk=game.pk)
    assert await sync_to_async(automation.game_timeout)(game_id=game.pk, version=fresh.version)
    (confirmed,) = await asyncio.wait_for(next_events(stream, 1), timeout=1)
    assert confirmed["type"] == "box_scored" and confirmed["automatic"]

    # The computer's first move.
    fresh = await Game.objects.aget(pk=game.pk)
    assert await sync_to_async(automation.game_play_computer)(
        game_id=game.pk, version=fresh.version
    )
    (computer,) = await asyncio.wait_for(next_events(stream, 1), timeout=1)
    assert computer["type"] == "dice_rolled" and computer["automatic"]
    await stream.aclose()

    # Reconnect after seq 3: no gap, no duplicate.
    again = await client.get(url, headers={"Accept": "text/event-stream", "Last-Event-ID": "3"})
    resumed = await asyncio.wait_for(next_events(again.streaming_content.__aiter__(), 3), 2)
    assert [e["seq"] for e in resumed] == [4, 5, 6]


@pytest.mark.asyncio
async def test_the_player_stream_says_whose_turn_it_is(async_db) -> None:
    game, ann = await sync_to_async(started_game)()
    token = await sync_to_async(new_token)(ann)
    client = AsyncClient()
    refused = await client.get("/api/v1/stream/")
    assert refused.status_code == 401
    response = await client.get("/api/v1/stream/", {"token": token})
    stream = response.streaming_content.__aiter__()
    (turn,) = await asyncio.wait_for(next_events(stream, 1), timeout=3)
    assert turn == {
        "game": str(game.pk),
        "kind": "yatzy",
        "version": 1,
        "type": "your_turn",
        "seat": 0,
        "deadline": None,
    }
    await stream.aclose()


def test_every_middleware_is_async_capable(settings) -> None:
    """A sync-only middleware would make every open stream hold a thread under ASGI."""
    from django.utils.module_loading import import_string

    for path in settings.MIDDLEWARE:
        assert getattr(import_string(path), "async_capable", False), path
