"""The plain-dict answers (games.api.render) are one answer whichever way they are reached.

Their schema is their ``TypedDict`` (mypy holds the functions to it; ``test_schema_types`` holds
the real answers to the schema derived from it). These tests render games of each kind in each
status, with player, open, hot-seat and computer seats, seen by their creator, by another account
and anonymously, in several languages: after a move (the rules state in hand) and read back, in a
list and alone, the answer is the same.
"""

from __future__ import annotations

import datetime
import json
import zoneinfo
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from games import selectors
from games.api.render import event_body, game_body, summary_body
from games.kinds import kind_for
from games.models import Game, GameStatus
from games.presenters.common import iso_datetime
from games.timers import automation
from players.models import Player
from tests.factories import MakeClient, account, game_url, move, new_game

pytestmark = pytest.mark.django_db


def as_json(data: Any) -> Any:
    """What a client receives: through the API's renderer and back."""
    return json.loads(JSONRenderer().render(data))


def read_game(game: Game, viewer: Any) -> Any:
    return as_json(game_body(selectors.game_get(game.pk), None, viewer))


def read_events(game: Game) -> Any:
    events = selectors.game_events(game).select_related("actor")
    return as_json([event_body(event, game.kind) for event in events])


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
def test_a_game_is_one_answer_with_its_state_or_without(
    games: list[Game], people: dict[str, Any], viewer: str, lang: str
) -> None:
    who = people[viewer]
    with translation.override(lang):
        for game in games:
            expected = as_json(game_body(game, None, who))
            assert as_json(summary_body(game, who)) == {
                key: value for key, value in expected.items() if key != "state"
            }
            assert (expected["state"] is None) == (game.state is None)
            if game.state is not None:
                # With the rules state in hand (after a move), the same answer.
                state = kind_for(game.kind).engine.state_from_wire(game.state)
                assert as_json(game_body(game, state, who)) == expected


def test_the_list_shows_each_game_as_it_reads_alone(
    games: list[Game], make_client: MakeClient
) -> None:
    listed = make_client().ok("get", "/api/v1/games/")["results"]
    assert len(listed) == len(games)
    for summary in listed:
        alone = make_client().ok("get", game_url(summary["id"]))
        assert summary == {key: value for key, value in alone.items() if key != "state"}
        assert summary["your_seats"] == []  # another account's


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_event_bodies_carry_their_kinds_messages(games: list[Game], lang: str) -> None:
    with translation.override(lang):
        for game in games:
            for event in read_events(game):
                messages = kind_for(game.kind).presenter.event_messages(event["type"])
                assert event["messages"] == messages
    kinds = {event["type"] for game in games for event in read_events(game)}
    assert {"game_started", "dice_rolled", "box_scored", "game_finished"} <= kinds


def test_the_move_answer_is_the_game_read_back(make_client: MakeClient) -> None:
    """Through the API: the answer to a move (rendered from what the move holds), then the game
    read back, rendered from the database."""
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
    assert body["game"] == read_game(row, account)
    assert body["events"] == read_events(row)[-len(body["events"]) :]
    assert ann.ok("get", game_url(game["id"])) == body["game"]
    other = Player.objects.get(username=bob.username)
    assert bob.ok("get", game_url(game["id"])) == read_game(row, other)
    assert body["game"]["your_seats"] == [0] and read_game(row, other)["your_seats"] == [1]
    page = ann.ok("get", game_url(game["id"], "events/"))
    assert page == {"version": row.version, "events": read_events(row)}
    assert row.status == GameStatus.ACTIVE


@pytest.mark.parametrize(
    "moment",
    [
        datetime.datetime(2026, 12, 5, 21, 59, 58, 123456, tzinfo=datetime.UTC),
        datetime.datetime(2026, 12, 5, 21, 59, 58, tzinfo=datetime.UTC),
        datetime.datetime(2024, 2, 29, 23, 0, 1, 5, tzinfo=zoneinfo.ZoneInfo("Europe/Kyiv")),
        datetime.datetime(
            1999,
            12,
            31,
            23,
            59,
            59,
            tzinfo=datetime.timezone(-datetime.timedelta(hours=9, minutes=30)),
        ),
        datetime.datetime(2026, 6, 1, 12, 0, 0, 999999),  # naive: read as UTC, as DRF does
    ],
)
def test_a_moment_is_written_as_drfs_datetime_field_writes_it(moment: datetime.datetime) -> None:
    assert iso_datetime(moment) == serializers.DateTimeField().to_representation(moment)
