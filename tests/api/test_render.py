"""The plain-dict answers (games.api.render) are exactly what the documented serializers give.

The serializers are the schema's documentation; the views answer with games.api.render, which is
cheaper. These tests render the same rows both ways, for games of each kind in each status, with
player, open, hot-seat and computer seats, seen by their creator, by another account and
anonymously, in several languages: the two can never drift apart unnoticed.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation
from rest_framework.renderers import JSONRenderer

from games import selectors
from games.api import serializers as s
from games.api.render import event_body, game_body
from games.kinds import kind_for
from games.models import Game, GameStatus
from games.timers import automation
from players.models import Player
from tests.factories import MakeClient, account, game_url, move, new_game

pytestmark = pytest.mark.django_db


def as_json(data: Any) -> Any:
    """What a client receives: through the API's renderer and back."""
    return json.loads(JSONRenderer().render(data))


def serializer_game(game: Game, viewer: Any) -> Any:
    return as_json(s.GameSerializer(game, context={"request": SimpleNamespace(user=viewer)}).data)


def serializer_events(game: Game) -> Any:
    events = selectors.game_events(game).select_related("actor")
    return as_json(s.GameEventSerializer(events, many=True, context={"kind": game.kind}).data)


@pytest.fixture
def people() -> dict[str, Any]:
    ann, bob = account("ann", display_name="Ann"), account("bob")
    return {"creator": ann, "other": bob, "anonymous": AnonymousUser()}


@pytest.fixture
def games(people: dict[str, Any]) -> list[Game]:
    ann, bob = people["creator"], people["other"]
    made = []

    # yatzy, open: a seat for Ann, one open, a hot seat, a computer.
    made.append(
        new_game(
            ann,
            "yatzy",
            [
                {"type": "me"},
                {"type": "open"},
                {"type": "hotseat", "name": "Bea"},
                {"type": "computer", "level": "casual"},
            ],
            start=False,
        )
    )

    # yatzy, active: Bob joined, Ann's hot seat; a few moves, one box scored.
    game = new_game(
        ann,
        "yatzy",
        [{"type": "me"}, {"type": "open"}, {"type": "hotseat", "name": "Bea"}],
        joiners=[bob],
        auto_confirm_seconds=0,
    )
    move(game, ann, type="roll")
    move(game, ann, type="roll", hold=[0, 1])
    state = Game.objects.get(pk=game.pk).state
    assert state is not None
    legal = kind_for("yatzy").engine.state_from_wire(state).legal_boxes()  # type: ignore[attr-defined]
    move(game, ann, type="score", box=next(iter(legal)))
    move(game, bob, type="roll")
    made.append(game)

    # yatzy, finished: a computer seat plays the whole game for Ann.
    game = new_game(ann, "yatzy", [{"type": "computer", "level": "casual"}])
    automation.run_until_idle(game.pk)
    made.append(game)

    # ten_thousand, open (the "Humans + 1 AI" setup).
    made.append(
        new_game(
            ann,
            "ten_thousand",
            [{"type": "me"}, {"type": "open"}, {"type": "computer"}],
            start=False,
        )
    )

    # ten_thousand, active with a roll pending, against the computer.
    game = new_game(ann, "ten_thousand", [{"type": "me"}, {"type": "computer", "level": "classic"}])
    move(game, ann, type="roll")
    made.append(game)

    # ten_thousand, finished: the computer alone, to 5000.
    game = new_game(ann, "ten_thousand", [{"type": "computer", "level": "classic"}], target=5000)
    automation.run_until_idle(game.pk)
    made.append(game)

    fresh = [selectors.game_get(game.pk) for game in made]
    statuses = {(game.kind, game.status) for game in fresh}
    assert len(statuses) == 6, statuses
    return fresh


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
@pytest.mark.parametrize("viewer", ["creator", "other", "anonymous"])
def test_game_body_is_the_serializers(
    games: list[Game], people: dict[str, Any], viewer: str, lang: str
) -> None:
    who = people[viewer]
    with translation.override(lang):
        for game in games:
            expected = serializer_game(game, who)
            assert as_json(game_body(game, None, who)) == expected, (game.kind, game.status)
            if game.state is not None:
                # With the rules state in hand (after a move), the same answer.
                state = kind_for(game.kind).engine.state_from_wire(game.state)
                assert as_json(game_body(game, state, who)) == expected


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_event_bodies_are_the_serializers(games: list[Game], lang: str) -> None:
    with translation.override(lang):
        for game in games:
            events = list(selectors.game_events(game).select_related("actor"))
            rendered = as_json([event_body(event, game.kind) for event in events])
            assert rendered == serializer_events(game)
    kinds = {event["type"] for game in games for event in serializer_events(game)}
    assert {"game_started", "dice_rolled", "box_scored", "game_finished"} <= kinds


def test_the_move_answer_is_the_serializers(make_client: MakeClient) -> None:
    """Through the API: the answer to a move, then the game read back, rendered by the
    serializers from the database."""
    ann, bob = make_client(), make_client()
    game = ann.ok(
        "post",
        "/api/v1/games/",
        {"kind": "yatzy", "seats": [{"type": "me"}, {"type": "open"}]},
        status=201,
    )
    bob.ok("post", game_url(game["id"], "join/"), {})
    ann.ok("post", game_url(game["id"], "start/"))
    body = ann.ok("post", game_url(game["id"], "moves/"), {"type": "roll"}, status=201)

    row = selectors.game_get(game["id"])
    account = Player.objects.get(username=ann.username)
    assert body["game"] == serializer_game(row, account)
    assert body["events"] == serializer_events(row)[-len(body["events"]) :]
    assert ann.ok("get", game_url(game["id"])) == body["game"]
    other = Player.objects.get(username=bob.username)
    assert bob.ok("get", game_url(game["id"])) == serializer_game(row, other)
    page = ann.ok("get", game_url(game["id"], "events/"))
    assert page == {"version": row.version, "events": serializer_events(row)}
    assert row.status == GameStatus.ACTIVE
