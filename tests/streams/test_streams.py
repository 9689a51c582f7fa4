"""The stream tier (games.streams): SSE, long-poll and the account stream, on both live buses.

Each test runs on the embedded bus (the ``LiveNote`` table, as ``make run`` has it) and, when
REDIS_URL is set (CI), on Redis pub/sub. Moves are made through the services or the API as any
client's would be, in another thread, and committed before their notes go out.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from games.models import Game
from games.rules.yatzy import BOXES
from games.streams import reads
from games.streams.app import StreamApp
from games.timers import automation
from players.models import Player
from tests.factories import (
    account,
    move,
    new_game,
    new_tournament,
    organiser,
    stream_ticket,
    token,
)
from tests.streams import asgi

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
BUSES = ["database", pytest.param("redis", marks=pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"))]  # fmt: skip


async def running_app(bus: str, settings: Settings) -> AsyncIterator[StreamApp]:
    """A stream app on ``bus``, its hub started; shut down, and its connections closed, after."""
    settings.LIVE_BUS = bus
    stream_app = StreamApp()
    await stream_app.hub()
    yield stream_app
    await stream_app.shutdown()
    await sync_to_async(close_connections)()


@pytest_asyncio.fixture(params=BUSES)
async def app(request: pytest.FixtureRequest, settings: Settings) -> AsyncIterator[StreamApp]:
    async for stream_app in running_app(request.param, settings):
        yield stream_app


def close_connections() -> None:
    """The reads' pooled connections too: the test database is dropped at the end."""
    from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper

    for connection in connections.all():
        # Only PostgreSQL's connections pool here (settings: DATABASES' "pool" option).
        if isinstance(connection, PostgresWrapper) and connection.pool is not None:
            connection.close_pool()
    connections.close_all()


def game_path(game: Game, what: str = "stream") -> str:
    return f"/api/v1/games/{game.pk}/{what}/"


def started_game(*seats: str, **options: Any) -> tuple[Game, Player]:
    """A started yatzy game of Ann's (with a computer unless ``seats`` say otherwise), and Ann."""
    ann = account("ann")
    return new_game(ann, "yatzy", seats or ("me", "computer"), **options), ann


async def test_long_poll_returns_at_once_on_a_new_event_and_empty_after_wait(
    app: StreamApp,
) -> None:
    game, ann = await sync_to_async(started_game)()
    path = game_path(game, "events")
    empty = await asgi.get(app, path, {"after": game.version, "wait": "0.5"})
    assert empty.status == 200
    assert await empty.json() == {"version": 1, "events": []}

    poll = asyncio.create_task(asgi.get(app, path, {"after": game.version, "wait": "20"}))
    await asyncio.sleep(0.3)
    assert not poll.done()
    await sync_to_async(move)(game, ann, type="roll")
    response = await asyncio.wait_for(poll, timeout=2)
    body = await response.json()
    assert [event["type"] for event in body["events"]] == ["dice_rolled"]
    assert body["version"] == 2


async def test_sse_delivers_moves_computer_moves_and_auto_confirm_and_resumes(
    app: StreamApp,
) -> None:
    game, ann = await sync_to_async(started_game)(auto_confirm_seconds=0.5)
    response = await asgi.get(
        app, game_path(game, "events"), headers={"Accept": "text/event-stream"}
    )
    assert response.headers["content-type"] == "text/event-stream"
    (started,) = await response.events(1)
    assert started["seq"] == 1 and started["_id"] == "1"

    # Another client (the player, through the API) moves; each move reaches the stream.
    player = Client(headers={"Authorization": f"Token {await sync_to_async(token)(ann)}"})
    for hold in ([], [0], [0]):
        moved = await sync_to_async(player.post)(
            game_path(game, "moves"),
            {"type": "roll", "hold": hold},
            content_type="application/json",
        )
        assert moved.status_code == 201, moved.json()
        (roll,) = await response.events(1)
        assert roll["seq"] == moved.json()["events"][0]["seq"]

    # The auto-confirm, at its deadline (half a second after the last roll) on the timer's clock.
    fresh = await Game.objects.aget(pk=game.pk)
    assert fresh.deadline_at is not None
    assert await sync_to_async(automation.game_fire_timer)(
        game_id=game.pk, version=fresh.version, now=fresh.deadline_at
    )
    (confirmed,) = await response.events(1)
    assert confirmed["type"] == "box_scored" and confirmed["automatic"]

    # The computer's first move.
    fresh = await Game.objects.aget(pk=game.pk)
    assert await sync_to_async(automation.game_play_computer)(
        game_id=game.pk, version=fresh.version
    )
    (computer,) = await response.events(1)
    assert computer["type"] == "dice_rolled" and computer["automatic"]
    await response.close()

    # Reconnect after seq 3: no gap, no duplicate.
    again = await asgi.get(
        app, game_path(game), headers={"Accept": "text/event-stream", "Last-Event-ID": "3"}
    )
    assert [e["seq"] for e in await again.events(3)] == [4, 5, 6]
    await again.nothing_more(0.5)
    await again.close()


async def test_last_event_id_wins_over_after_on_reconnect(app: StreamApp) -> None:
    """A browser's EventSource reconnects to the same URL (``?after=0``) with Last-Event-ID."""
    game, ann = await sync_to_async(started_game)("me", "hotseat")
    for _ in range(3):
        await sync_to_async(move)(game, ann, type="roll")
    headers = {"Accept": "text/event-stream", "Last-Event-ID": "3"}
    response = await asgi.get(app, game_path(game, "events"), {"after": 0}, headers=headers)
    assert [e["seq"] for e in await response.events(1)] == [4]
    await response.nothing_more(0.5)
    await response.close()


async def test_every_stream_of_a_game_gets_each_event_once_read_once(
    app: StreamApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty spectators, in two languages: each event once and in order on each stream, and the
    log read once per stream as it joins, then never: each note carries its move's events."""
    game, ann = await sync_to_async(started_game)("me", "hotseat")
    reading = reads.events_after
    calls: list[int] = []

    def counted(*args: Any) -> Any:
        calls.append(args[2])
        return reading(*args)

    monkeypatch.setattr(reads, "events_after", counted)
    streams = [
        await asgi.get(app, game_path(game), headers={"Accept-Language": "fr" if i % 2 else "uk"})
        for i in range(20)
    ]
    for response in streams:
        await response.events(1)
    joined = len(calls)
    assert joined == 20
    for _ in range(3):
        await sync_to_async(move)(game, ann, type="roll")
        for response in streams:
            (event,) = await response.events(1)
            assert event["type"] == "dice_rolled"
    assert len(calls) == joined
    assert streams[0].headers["content-language"] == "uk"
    assert streams[1].headers["content-language"] == "fr"
    for response in streams:
        await response.nothing_more(0.05)
        await response.close()


@pytest.mark.postgres  # SQLite's in-memory test database locks a table read during a write
async def test_streams_that_join_while_moves_go_on_miss_nothing_and_repeat_nothing(
    app: StreamApp,
) -> None:
    game, ann = await sync_to_async(started_game)("me", "hotseat")
    moves = 24

    def play() -> None:
        try:
            for turn in range(moves // 4):
                for _ in range(3):
                    move(game, ann, type="roll")
                box = ["chance", "ones", "twos", "threes", "fours", "fives"][turn]
                move(game, ann, type="score", box=box)
        finally:
            # A thread of the executor's own: its connection, back to the pool that the app's
            # fixture closes, would otherwise outlive the test database.
            connections.close_all()

    mover = asyncio.create_task(sync_to_async(play, thread_sensitive=False)())
    streams = []
    while not mover.done():
        streams.append(await asgi.get(app, game_path(game)))
        await asyncio.sleep(0.02)
    await mover
    last = 1 + moves
    for response in streams:
        seqs = [e["seq"] for e in await response.events(last, timeout=10)]
        assert seqs == list(range(1, last + 1))
        await response.nothing_more(0.05)
        await response.close()


async def test_the_player_stream_says_whose_turn_it_is(app: StreamApp) -> None:
    game, ann = await sync_to_async(started_game)()
    refused = await asgi.get(app, "/api/v1/stream/")
    assert refused.status == 401
    assert (await refused.json())["code"] == "not_authenticated"
    response = await asgi.get(
        app, "/api/v1/stream/", {"ticket": await sync_to_async(stream_ticket)(ann)}
    )
    # The table bus may still be carrying the start's notes when the stream opens: then it hears
    # game_started too, before or after the turn it is told of on opening.
    notes = [note for note in await until(response, "your_turn") if note["type"] != "game_started"]
    assert len(notes) == 1
    turn = notes[0]
    turn.pop("_id"), turn.pop("_event")
    assert turn == {
        "game": str(game.pk),
        "kind": "yatzy",
        "version": 1,
        "type": "your_turn",
        "seat": 0,
        "deadline": None,
    }
    await response.close()


async def test_the_player_stream_follows_a_whole_game_of_two_accounts(app: StreamApp) -> None:
    """Both accounts hear the start, each turn that is theirs, and the end; the one who joined
    as well as the creator."""
    ann, bob = await sync_to_async(account)("ann"), await sync_to_async(account)("bob")
    streams = {
        name: await asgi.get(
            app,
            "/api/v1/stream/",
            headers={"Authorization": f"Token {await sync_to_async(token)(who)}"},
        )
        for name, who in (("ann", ann), ("bob", bob))
    }

    game = await sync_to_async(new_game)(ann, "yatzy", ["me", "open"], joiners=[bob])
    (ann_started, ann_turn) = await streams["ann"].events(2)
    assert (ann_started["type"], ann_turn["type"]) == ("game_started", "your_turn")
    (bob_started,) = await streams["bob"].events(1)
    assert bob_started == {**bob_started, "type": "game_started", "seat": 1, "game": str(game.pk)}

    await sync_to_async(move)(game, ann, type="roll")
    await sync_to_async(move)(game, ann, type="score", box="chance")
    (bob_turn,) = await streams["bob"].events(1)
    assert (bob_turn["type"], bob_turn["seat"], bob_turn["version"]) == ("your_turn", 1, 3)

    def play_out() -> None:
        boxes = [box for box in BOXES if box != "chance"]
        move(game, bob, type="roll")
        move(game, bob, type="score", box="chance")
        for box in boxes:
            for player in (ann, bob):
                move(game, player, type="roll")
                move(game, player, type="score", box=box)

    await sync_to_async(play_out)()
    for name, seat in (("ann", 0), ("bob", 1)):
        notes = await until(streams[name], "game_finished")
        turns = [n for n in notes if n["type"] == "your_turn"]
        assert len(turns) == len(notes) - 1 >= 12
        assert all(n["seat"] == seat and n["game"] == str(game.pk) for n in turns)
        assert sorted(n["version"] for n in turns) == [n["version"] for n in turns]
        assert notes[-1]["seat"] == seat
        await streams[name].nothing_more(0.3)
        await streams[name].close()


async def until(response: asgi.Response, event_type: str) -> list[dict[str, Any]]:
    """Events up to and including the first of type ``event_type``."""
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["type"] != event_type:
        seen += await response.events(1)
    return seen


async def test_the_player_stream_hears_a_tournament_round_start(app: StreamApp) -> None:
    from games.tournaments.services import tournament_register, tournament_start

    def tournament() -> tuple[Player, int]:
        ann = account("ann")
        cup = new_tournament(
            organiser(), name="Cup", starts_at=timezone.now() + timedelta(minutes=5),
            computers=["casual"], turn_clock_seconds=60,
        )  # fmt: skip
        tournament_register(tournament_id=cup.pk, player=ann)
        return ann, cup.pk

    ann, cup_id = await sync_to_async(tournament)()
    response = await asgi.get(
        app, "/api/v1/stream/", {"ticket": await sync_to_async(stream_ticket)(ann)}
    )
    await response.nothing_more(0.3)
    started = await sync_to_async(tournament_start)(
        tournament_id=cup_id, now=timezone.now() + timedelta(minutes=6)
    )
    assert started
    notes = await until(response, "tournament_round_started")
    assert notes[-1]["tournament"] == cup_id
    await response.close()


@pytest.mark.parametrize(
    ("query", "headers", "field"),
    [
        ({"after": "x"}, {}, "after"),
        ({"wait": "inf"}, {}, "wait"),
        ({"wait": "31"}, {}, "wait"),
        ({"limit": "0", "wait": "1"}, {}, "limit"),
        ({}, {"Accept": "text/event-stream", "Last-Event-ID": "inf"}, "Last-Event-ID"),
    ],
)
async def test_bad_queries_get_the_api_error_shape(
    app: StreamApp, query: dict[str, str], headers: dict[str, str], field: str
) -> None:
    game, _ann = await sync_to_async(started_game)()
    response = await asgi.get(app, game_path(game, "events"), {"wait": "1", **query}, headers)
    assert response.status == 400
    assert response.headers["content-type"] == "application/problem+json"
    assert await response.json() == {
        "type": "http://testserver/api/v1/errors/invalid_query/",
        "title": "This query parameter is not valid.",
        "status": 400,
        "code": "invalid_query",
        "detail": "This query parameter is not valid.",
        "field": field,
    }


async def test_unknown_games_and_paths_and_methods(app: StreamApp) -> None:
    missing = "/api/v1/games/00000000-0000-4000-8000-000000000000/stream/"
    assert (await asgi.get(app, missing)).status == 404
    assert (await asgi.get(app, "/api/v1/games/")).status == 404
    game, _ann = await sync_to_async(started_game)()
    assert (await asgi.get(app, game_path(game), method="POST")).status == 405


async def test_a_note_without_its_events_or_after_a_lost_one_reads_the_log(
    app: StreamApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Notes are hints: one that carries no events, or follows a lost note, sends the feed to
    the log, and the stream still gets every event once, in order."""
    from games.followups import live

    game, ann = await sync_to_async(started_game)("me", "hotseat")
    response = await asgi.get(app, game_path(game))
    await response.events(1)
    original = live.game_note
    dropped: list[int] = []

    def lossy(game_id: object, version: int, events: Any = ()) -> Any:
        if version == 3:  # this note is lost on the way
            dropped.append(version)
            return live.PLAYERS, {"player": 0, "note": {"type": "nothing"}}
        return original(game_id, version, () if version == 2 else events)

    monkeypatch.setattr(live, "game_note", lossy)
    for _ in range(3):
        await sync_to_async(move)(game, ann, type="roll")
    assert dropped == [3]
    assert [e["seq"] for e in await response.events(3)] == [2, 3, 4]
    await response.nothing_more(0.3)
    await response.close()


async def test_the_player_stream_takes_a_logged_in_session(
    app: StreamApp, settings: Settings
) -> None:
    """The browsable API's and the admin's session cookie opens the account stream; a session
    that is not (or no longer) logged in does not."""
    game, ann = await sync_to_async(started_game)()
    browser = Client()
    await sync_to_async(browser.force_login)(ann)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    response = await asgi.get(app, "/api/v1/stream/", headers={"Cookie": cookie})
    notes = await until(response, "your_turn")
    assert notes[-1]["game"] == str(game.pk)
    await response.close()

    await sync_to_async(browser.logout)()
    refused = await asgi.get(app, "/api/v1/stream/", headers={"Cookie": cookie})
    assert refused.status == 401
    unknown = await asgi.get(app, "/api/v1/stream/", headers={"Cookie": "sessionid=nonsense"})
    assert (await unknown.json())["code"] == "not_authenticated"


@pytest_asyncio.fixture(params=BUSES)
async def quick_keepalive_app(
    request: pytest.FixtureRequest, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[StreamApp]:
    """The stream app with keep-alives due after 0.2 s of silence instead of 15 s."""
    from games.streams import hub

    monkeypatch.setattr(hub, "KEEPALIVE_SECONDS", 0.2)
    async for stream_app in running_app(request.param, settings):
        yield stream_app


async def test_idle_streams_are_kept_alive_and_long_polls_are_not_disturbed(
    quick_keepalive_app: StreamApp,
) -> None:
    app = quick_keepalive_app
    game, ann = await sync_to_async(started_game)("me")
    sse = await asgi.get(app, game_path(game))
    account_stream = await asgi.get(
        app, "/api/v1/stream/", {"ticket": await sync_to_async(stream_ticket)(ann)}
    )
    assert (await sse.chunk()).startswith(b"retry:")
    assert (await account_stream.chunk()).startswith(b"retry:")
    # Silence: within 1.5 x 0.2 s (and well inside the bound here), a comment line, nothing else.
    assert await sse.chunk(timeout=2) == b": keep-alive\n\n"
    # The account stream may first hear the start's notes (the table bus polls).
    chunk = await account_stream.chunk(timeout=2)
    while chunk != b": keep-alive\n\n":
        assert b"event: " in chunk
        chunk = await account_stream.chunk(timeout=2)
    # A long-poll waits its whole time and answers plain JSON: keep-alives are for streams only.
    polled = await asgi.get(app, game_path(game, "events"), {"after": 1, "wait": 0.7})
    assert await polled.json() == {"version": 1, "events": []}
    # A move still gets through on a stream that has been kept alive.
    await sync_to_async(move)(game, ann, type="roll")
    assert [event["type"] for event in await sse.events(1)] == ["dice_rolled"]
    await sse.close()
    await account_stream.close()


async def test_a_ban_ends_the_account_stream_and_refuses_its_unspent_tickets(
    app: StreamApp,
) -> None:
    from games.moderation.actions import player_ban

    ann = await sync_to_async(account)("ann")
    response = await asgi.get(
        app, "/api/v1/stream/", {"ticket": await sync_to_async(stream_ticket)(ann)}
    )
    spare = await sync_to_async(stream_ticket)(ann)  # made before the ban, not yet spent
    await response.nothing_more(0.3)
    await sync_to_async(player_ban)(player_id=ann.pk)
    note = (await until(response, "account_closed"))[-1]
    assert note["_event"] == "account_closed"
    await response.read_all()  # the stream ends by itself: read_all returns at its last chunk
    assert response.ended
    refused = await asgi.get(app, "/api/v1/stream/", {"ticket": spare})
    assert refused.status == 401
    assert (await refused.json())["code"] == "invalid_ticket"
