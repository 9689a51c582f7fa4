"""Every bad Dés 10 000 move gets a 4xx with its own stable code and leaves the log as it was."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, GameEvent
from tests.api.ten_thousand_play import move, play_scripted_turn
from tests.doubles import ScriptedDice
from tests.factories import GAMES, MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db

FARKLE = (2, 3, 4, 4, 6, 6)


@pytest.fixture
def table(make_client: MakeClient, dice: ScriptedDice) -> dict[str, Any]:
    """A started two-seat game to 5000: alice (seat 0, to play), bob (seat 1), an outsider."""
    alice, bob, carol = make_client("alice"), make_client("bob"), make_client("carol")
    game = api_game(alice, "ten_thousand", ["me", "open"], options={"target": 5000}, joiners=[bob])
    return {"alice": alice, "bob": bob, "carol": carol, "id": game["id"], "dice": dice}


def refused(
    client: APIClient, game_id: str, payload: Any, status: int, code: str
) -> dict[str, Any]:
    before = GameEvent.objects.filter(game_id=game_id).count()
    game = Game.objects.get(pk=game_id)
    response = client.post(game_url(game_id, "moves/"), payload, format="json")
    body = response.json()
    assert response.status_code == status, body
    assert body["code"] == code, body
    assert isinstance(body["detail"], str)
    assert body["detail"]
    assert "field" in body
    after = Game.objects.get(pk=game_id)
    assert GameEvent.objects.filter(game_id=game_id).count() == before
    assert (after.state, after.version, after.status) == (game.state, game.version, game.status)
    refusal: dict[str, Any] = body
    return refusal


def roll(table: dict[str, Any], *rolls: Any, client: str = "alice", keep: Any = ()) -> Any:
    table["dice"].push(*rolls)
    return move(table[client], table["id"], "roll", keep)


def test_a_die_that_does_not_count(table: dict[str, Any]) -> None:
    roll(table, (1, 2, 3, 4, 6, 6))
    alice, gid = table["alice"], table["id"]
    for keep in ([0, 1], [1], [4, 5], [0, 1, 2, 3, 4, 5]):
        for move_type in ("roll", "bank"):
            body = refused(alice, gid, {"type": move_type, "keep": keep}, 409, "keep_not_scoring")
            assert body["field"] == "keep"
    # The 1 alone counts: the same roll is still waiting and takes it.
    assert move(alice, gid, "bank", [0])["events"][0]["data"]["points"] == 100


def test_four_alike_and_a_pair_are_not_three_pairs(table: dict[str, Any]) -> None:
    roll(table, (2, 2, 2, 2, 3, 3))
    refused(
        table["alice"], table["id"], {"type": "bank", "keep": [0, 1, 2, 3, 4, 5]}, 409,
        "keep_not_scoring",
    )  # fmt: skip
    refused(table["alice"], table["id"], {"type": "bank", "keep": [0, 1]}, 409, "keep_not_scoring")
    assert move(table["alice"], table["id"], "bank", [0, 1, 2, 3])["game"]["state"]["totals"] == [
        400,
        0,
    ]


@pytest.mark.parametrize("move_type", ["roll", "bank"])
def test_no_die_set_aside(table: dict[str, Any], move_type: str) -> None:
    roll(table, (1, 5, 3, 3, 6, 2))
    for payload in ({"type": move_type}, {"type": move_type, "keep": []}):
        body = refused(table["alice"], table["id"], payload, 409, "keep_required")
        assert body["field"] == "keep"


def test_keep_on_the_first_roll_of_a_turn(table: dict[str, Any]) -> None:
    for move_type in ("roll", "bank"):
        body = refused(
            table["alice"], table["id"], {"type": move_type, "keep": [0]}, 409, "nothing_to_keep"
        )
        assert body["field"] == "keep"
    # Positions that no roll of a turn could have are still "nothing to keep" before a roll.
    refused(table["alice"], table["id"], {"type": "roll", "keep": [9]}, 409, "nothing_to_keep")


def test_bank_with_no_points(table: dict[str, Any]) -> None:
    for payload in ({"type": "bank"}, {"type": "bank", "keep": []}):
        body = refused(table["alice"], table["id"], payload, 409, "nothing_to_bank")
        assert body["field"] is None


def test_index_not_in_the_current_roll(table: dict[str, Any]) -> None:
    """Out-of-range positions are a malformed command (400), like yatzy's hold [5]."""
    roll(table, (1, 5, 3, 3, 6, 2))
    for keep in ([6], [0, 6], [99]):
        body = refused(
            table["alice"], table["id"], {"type": "roll", "keep": keep}, 400,
            "invalid_dice_indices",
        )  # fmt: skip
        assert body["field"] == "keep"
    roll(table, (5, 5, 2, 5, 3), keep=[0])  # five dice now: position 5 has gone
    body = refused(
        table["alice"], table["id"], {"type": "bank", "keep": [5]}, 400, "invalid_dice_indices"
    )
    assert body["field"] == "keep"


@pytest.mark.parametrize(
    "keep",
    [[-1], [0, 0], ["a"], "0,1", [0.5], [True], {"0": 1}, None, 0, [[0]]],
    ids=repr,
)
def test_malformed_keep(table: dict[str, Any], keep: Any) -> None:
    roll(table, (1, 5, 3, 3, 6, 2))
    for move_type in ("roll", "bank"):
        body = refused(
            table["alice"],
            table["id"],
            {"type": move_type, "keep": keep},
            400,
            "invalid_dice_indices",
        )
        assert body["field"] == "keep"


def test_malformed_keep_is_refused_before_a_roll_too(table: dict[str, Any]) -> None:
    refused(
        table["alice"], table["id"], {"type": "roll", "keep": "all"}, 400, "invalid_dice_indices"
    )


def test_dice_from_an_earlier_roll(table: dict[str, Any]) -> None:
    """A client still showing an older roll sends its version: refused as stale."""
    first = roll(table, (1, 5, 3, 3, 6, 2))["game"]["version"]
    second = roll(table, (2, 2, 2, 6, 3), keep=[0])["game"]["version"]
    assert second > first
    # [1] is the 5 of the first roll; in the current roll it is a 2, which does not count.
    body = refused(
        table["alice"], table["id"], {"type": "bank", "keep": [1], "expected_version": first},
        409, "stale_version",
    )  # fmt: skip
    assert body["field"] == "expected_version"
    refused(table["alice"], table["id"], {"type": "bank", "keep": [1]}, 409, "keep_not_scoring")
    refused(
        table["alice"], table["id"], {"type": "roll", "expected_version": -1}, 400, "invalid_input"
    )
    body = move(table["alice"], table["id"], "bank", [0, 1, 2], expected_version=second)
    assert body["events"][0]["data"]["points"] == 200
    assert body["game"]["state"]["totals"] == [300, 0]


def test_the_seat_that_lost_a_round_cannot_roll_on(table: dict[str, Any]) -> None:
    roll(table, (1, 5, 3, 3, 6, 2))
    body = roll(table, (2, 3, 4, 6), keep=[0, 1])
    assert body["events"][-1]["type"] == "round_lost"
    for payload in ({"type": "roll"}, {"type": "bank"}, {"type": "roll", "keep": [0]}):
        refused(table["alice"], table["id"], payload, 409, "not_your_turn")
    roll(table, FARKLE, client="bob")
    assert move(table["alice"], table["id"], "roll")["game"]["state"]["turn_seat"] == 0


def test_out_of_turn(table: dict[str, Any]) -> None:
    refused(table["bob"], table["id"], {"type": "roll"}, 409, "not_your_turn")
    roll(table, (1, 5, 3, 3, 6, 2))
    refused(table["bob"], table["id"], {"type": "bank", "keep": [0]}, 409, "not_your_turn")
    refused(table["carol"], table["id"], {"type": "roll"}, 403, "not_a_seat_holder")
    body = refused(
        table["alice"], table["id"], {"type": "bank", "keep": [0], "seat": 1}, 409, "not_your_turn"
    )
    assert body["field"] == "seat"


def test_anonymous_move(table: dict[str, Any], anon: APIClient) -> None:
    before = GameEvent.objects.count()
    response = anon.post(game_url(table["id"], "moves/"), {"type": "roll"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert GameEvent.objects.count() == before


def test_unknown_move_type(table: dict[str, Any]) -> None:
    for payload in ({"type": "score", "box": "chance"}, {"type": "hold"}, {"type": "ROLL"}):
        body = refused(table["alice"], table["id"], payload, 400, "unknown_move")
        assert body["field"] == "type"
    refused(table["alice"], table["id"], {"keep": []}, 400, "invalid_input")
    refused(table["alice"], table["id"], ["roll"], 400, "invalid_input")


def test_game_not_started(make_client: MakeClient) -> None:
    alice = make_client()
    game = alice.ok(
        "post",
        GAMES,
        {"kind": "ten_thousand", "seats": [{"type": "me"}, {"type": "open"}]},
        status=201,
    )
    refused(alice, game["id"], {"type": "roll"}, 409, "game_not_started")


def test_game_finished(table: dict[str, Any]) -> None:
    six_ones = [((1, 1, 1, 1, 1, 1), [0, 1, 2, 3, 4, 5])]
    play_scripted_turn(table["alice"], table["id"], table["dice"], six_ones)
    body = play_scripted_turn(table["bob"], table["id"], table["dice"], six_ones)
    assert body[-1]["game"]["status"] == "finished"
    for client in ("alice", "bob"):
        for payload in ({"type": "roll"}, {"type": "bank"}, {"type": "bank", "keep": [0]}):
            refused(table[client], table["id"], payload, 409, "game_finished")


@pytest.mark.parametrize(
    ("payload", "code", "field"),
    [
        ({"options": {"target": 12345}}, "invalid_option", "options.target"),
        ({"options": {"target": 0}}, "invalid_option", "options.target"),
        ({"options": {"target": "5000"}}, "invalid_option", "options.target"),
        ({"options": {"target": 5000.0}}, "invalid_option", "options.target"),
        ({"options": {"target": True}}, "invalid_option", "options.target"),
        ({"options": {"target": None}}, "invalid_option", "options.target"),
        ({"options": {"target": 5000, "colour": "red"}}, "invalid_option", "options.colour"),
        ({"options": 5000}, "invalid_input", "options"),
        (
            {"seats": [{"type": "hotseat", "name": f"P{i}"} for i in range(8)]},
            "invalid_seat_count",
            "seats",
        ),
        ({"seats": []}, "invalid_input", "seats"),
        ({"seats": [{"type": "me"}, {"type": "me"}]}, "duplicate_me_seat", "seats"),
        ({"seats": [{"type": "hotseat"}]}, "invalid_input", "seats.0.name"),
    ],
    ids=repr,
)
def test_create_refusals(
    make_client: MakeClient, payload: dict[str, Any], code: str, field: str
) -> None:
    alice = make_client()
    response = alice.post(
        GAMES, {"kind": "ten_thousand", "seats": [{"type": "me"}], **payload}, format="json"
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code
    assert response.json()["field"] == field
    assert Game.objects.count() == 0


@pytest.mark.parametrize("target", [5000, 10000, 15000])
def test_every_target_and_six_humans_plus_one_computer_are_accepted(
    make_client: MakeClient, target: int
) -> None:
    alice = make_client()
    seats = [{"type": "me"}] + [{"type": "hotseat", "name": f"P{i}"} for i in range(5)]
    game = api_game(
        alice, "ten_thousand", [*seats, {"type": "computer"}], options={"target": target}
    )
    assert game["state"]["target"] == target
    assert len(game["state"]["totals"]) == 7
    assert game["seats"][6]["kind"] == "computer"


def test_seven_humans_are_refused(make_client: MakeClient) -> None:
    alice = make_client()
    seats = [{"type": "me"}] + [{"type": "hotseat", "name": f"P{i}"} for i in range(6)]
    response = alice.post(GAMES, {"kind": "ten_thousand", "seats": seats}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_seat_count"
