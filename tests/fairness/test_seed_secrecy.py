"""The server seed is never readable before the game ends, though it is drawn when the game is
made: not in any API answer (the open game, the game, the lists, the moves, the events, replays,
hints, previews), the admin's pages, or the streams; once the game is over it is in the game
answer, the finished event and the admin."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as DjangoClient

from games.kinds import kind_for
from games.models import Game, GameEvent
from games.streams.app import StreamApp
from players.models import Player
from tests.factories import (
    Client,
    account,
    api_client,
    api_game,
    game_url,
    new_game,
    stream_ticket,
    token,
)
from tests.streams import asgi
from tests.streams.test_streams import app  # noqa: F401  (the stream tier on each live bus)

LEVEL = {"yatzy": "casual", "ten_thousand": "classic"}


def next_move(game_id: str) -> tuple[Game, dict[str, Any]]:
    game = Game.objects.get(pk=game_id)
    kind = kind_for(game.kind)
    assert game.state is not None
    state = kind.engine.state_from_wire(game.state)
    return game, kind.computer(state, LEVEL[game.kind])


def admin_pages(admin: DjangoClient, game_id: str) -> list[str]:
    pages = [
        f"/admin/games/game/{game_id}/change/",
        "/admin/games/game/",
        f"/admin/games/gameevent/?game__id__exact={game_id}",
    ]
    pages += [
        f"/admin/games/gameevent/{pk}/change/"
        for pk in GameEvent.objects.filter(game_id=game_id).values_list("pk", flat=True)
    ]
    texts = []
    for page in pages:
        response = admin.get(page)
        assert response.status_code == 200, page
        texts.append(response.content.decode())
    return texts


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["yatzy", "ten_thousand"])
def test_no_answer_and_no_admin_page_shows_the_seed_before_the_end(kind: str) -> None:
    ann, bob = api_client("ann"), api_client("bob")
    admin = DjangoClient()
    admin.force_login(Player.objects.create_superuser("root", "r@example.com", "root-pass-1"))
    seen: list[str] = []

    def read(client: Client, method: str, url: str, data: Any = None, status: int = 200) -> Any:
        body = client.ok(method, url, data, status=status)
        seen.append(json.dumps(body))
        return body

    options = {"target": 5000} if kind == "ten_thousand" else {}
    game = api_game(ann, kind, ["me", "open"], options=options, start=False)
    gid = game["id"]
    seen.append(json.dumps(game))
    seed = Game.objects.get(pk=gid).server_seed  # drawn with the game: its hash is shown open
    assert len(seed) == 64 and game["fairness"]["server_seed_hash"]
    read(Client(), "get", game_url(gid))
    read(bob, "get", "/api/v1/games/?status=open")
    seen.extend(admin_pages(admin, gid))  # the open game's page is a form
    read(bob, "post", game_url(gid, "join/"), {"client_seed": "bob"})
    read(ann, "post", game_url(gid, "start/"))
    assert Game.objects.get(pk=gid).server_seed == seed
    by_seat = {0: ann, 1: bob}

    def look(client: Client, moves: int) -> None:
        game = read(client, "get", game_url(gid))
        read(client, "get", game_url(gid, f"events/?after={max(0, game['version'] - 4)}"))
        read(client, "get", game_url(gid, "hint/"))
        if kind == "ten_thousand" and game["state"]["roll"]:
            read(client, "get", game_url(gid, "preview/?keep=0"))
        if moves % 10 == 0:
            read(client, "get", "/api/v1/games/?mine=true")
            read(client, "get", game_url(gid, "events/?after=0"))
            read(client, "get", game_url(gid, f"replay/?at={game['version']}"))
            read(Client(), "get", game_url(gid))  # an onlooker
            seen.append(admin.get(f"/admin/games/game/{gid}/change/").content.decode())
        if moves % 40 == 0:
            seen.extend(admin_pages(admin, gid))

    moves = 0
    while True:
        current, command = next_move(gid)
        assert current.turn_seat is not None
        mover = by_seat[current.turn_seat]
        look(mover, moves)
        answer = mover.ok("post", game_url(gid, "moves/"), command, status=201)
        moves += 1
        if answer["game"]["status"] == "finished":
            break
        seen.append(json.dumps(answer))
    assert moves > 20
    assert not [text for text in seen if seed in text]

    # Once it is over: in the answer, the finished event and the admin.
    assert answer["game"]["fairness"]["server_seed"] == seed
    assert answer["events"][-1]["data"]["server_seed"] == seed
    assert seed in ann.get(game_url(gid)).content.decode()
    assert seed in admin.get(f"/admin/games/game/{gid}/change/").content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_stream_carries_the_seed_before_the_end(app: StreamApp) -> None:  # noqa: F811
    def started() -> tuple[Game, str, str]:
        ann = account("ann")
        game = new_game(ann, "yatzy", ["me"], auto_confirm_seconds=0)
        return game, token(ann), stream_ticket(ann)

    game, ann_token, ticket = await sync_to_async(started)()
    gid = str(game.pk)
    seed = game.server_seed
    assert len(seed) == 64
    stream = await asgi.get(app, f"/api/v1/games/{gid}/stream/")
    mine = await asgi.get(app, "/api/v1/stream/", {"ticket": ticket})
    play: Callable[[], tuple[Game, dict[str, Any]]] = lambda: next_move(gid)  # noqa: E731
    player = DjangoClient(headers={"Authorization": f"Token {ann_token}"})
    received: list[dict[str, Any]] = list(await stream.events(1))
    while True:
        _current, command = await sync_to_async(play)()
        moved = await sync_to_async(player.post)(
            game_url(gid, "moves/"), command, content_type="application/json"
        )
        assert moved.status_code == 201
        received += await stream.events(len(moved.json()["events"]))
        if moved.json()["game"]["status"] == "finished":
            break
    notes = await mine.events(3, timeout=2)  # your_turn, ... game_finished
    await stream.close()
    await mine.close()
    before_end, finished = received[:-1], received[-1]
    assert len(before_end) > 20
    assert not [event for event in before_end + notes if seed in json.dumps(event)]
    assert finished["type"] == "game_finished" and finished["data"]["server_seed"] == seed
