"""Every bad move gets a 4xx with its own stable code and leaves the log exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, GameEvent
from tests.doubles import ScriptedDice
from tests.factories import GAMES, Client, MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_client: MakeClient, dice: ScriptedDice) -> dict[str, Any]:
    """A started two-seat game: alice (seat 0, to play) and bob (seat 1), plus an outsider."""
    alice, bob, carol = make_client("alice"), make_client("bob"), make_client("carol")
    game = api_game(alice, seats=["me", "open"], joiners=[bob])
    return {"alice": alice, "bob": bob, "carol": carol, "id": game["id"], "dice": dice}


def refused(client: APIClient, game_id: str, move: Any, status: int, code: str) -> dict[str, Any]:
    before = GameEvent.objects.filter(game_id=game_id).count()
    snapshot = Game.objects.get(pk=game_id).state
    response = client.post(game_url(game_id, "moves/"), move, format="json")
    body = response.json()
    assert response.status_code == status, body
    assert body["code"] == code, body
    assert isinstance(body["detail"], str)
    assert body["detail"]
    assert "field" in body
    assert GameEvent.objects.filter(game_id=game_id).count() == before
    assert Game.objects.get(pk=game_id).state == snapshot
    refusal: dict[str, Any] = body
    return refusal


def roll(table: dict[str, Any], client: str = "alice", **move: Any) -> dict[str, Any]:
    rolled: dict[str, Any] = table[client].ok(
        "post", game_url(table["id"], "moves/"), {"type": "roll", **move}, status=201
    )
    return rolled


def test_score_before_first_roll(table: dict[str, Any]) -> None:
    refused(table["alice"], table["id"], {"type": "score", "box": "chance"}, 409, "roll_first")


def test_fourth_roll(table: dict[str, Any]) -> None:
    roll(table)
    roll(table, hold=[0])
    roll(table, hold=[0])
    refused(table["alice"], table["id"], {"type": "roll", "hold": [0]}, 409, "no_rolls_left")


@pytest.mark.parametrize(
    "hold",
    [[5], [-1], [0, 0], ["a"], "0,1", [0.5], [True], {"0": 1}, [0, 1, 2, 3, 3]],
    ids=repr,
)
def test_malformed_hold(table: dict[str, Any], hold: Any) -> None:
    roll(table)
    body = refused(
        table["alice"], table["id"], {"type": "roll", "hold": hold}, 400, "invalid_dice_indices"
    )
    assert body["field"] == "hold"


def test_a_hold_of_more_positions_than_dice_is_refused_by_its_length(
    table: dict[str, Any],
) -> None:
    roll(table)
    body = refused(
        table["alice"],
        table["id"],
        {"type": "roll", "hold": [0, 1, 2, 3, 4, 5]},
        400,
        "too_many_dice",
    )
    assert (body["field"], body["params"]) == ("hold", {"max": 5})


def test_hold_on_first_roll(table: dict[str, Any]) -> None:
    refused(
        table["alice"], table["id"], {"type": "roll", "hold": [0]}, 409, "hold_before_first_roll"
    )


def test_used_box(table: dict[str, Any]) -> None:
    table["dice"].push((1, 2, 3, 4, 5), (1, 1, 1, 1, 1))
    roll(table)
    table["alice"].ok(
        "post", game_url(table["id"], "moves/"), {"type": "score", "box": "chance"}, status=201
    )
    roll(table, client="bob")
    table["bob"].ok(
        "post", game_url(table["id"], "moves/"), {"type": "score", "box": "ones"}, status=201
    )
    roll(table)
    refused(table["alice"], table["id"], {"type": "score", "box": "chance"}, 409, "box_used")


def test_box_barred_by_the_joker_order(table: dict[str, Any]) -> None:
    table["dice"].push((4, 4, 4, 4, 4), (1, 2, 3, 4, 6), (4, 4, 4, 4, 4))
    roll(table)
    table["alice"].ok(
        "post", game_url(table["id"], "moves/"), {"type": "score", "box": "yatzy"}, status=201
    )
    roll(table, client="bob")
    table["bob"].ok(
        "post", game_url(table["id"], "moves/"), {"type": "score", "box": "chance"}, status=201
    )
    state = roll(table)["game"]["state"]
    assert [option["box"] for option in state["legal_boxes"]] == ["fours"]
    assert state["yatzy_bonus"] == 100
    body = refused(
        table["alice"], table["id"], {"type": "score", "box": "large_straight"}, 409,
        "box_not_allowed",
    )  # fmt: skip
    assert body["field"] == "box"


def test_unknown_box_and_move_type(table: dict[str, Any]) -> None:
    roll(table)
    body = refused(
        table["alice"], table["id"], {"type": "score", "box": "bogus"}, 400, "unknown_box"
    )
    assert body["field"] == "box"
    body = refused(table["alice"], table["id"], {"type": "bank"}, 400, "unknown_move")
    assert body["field"] == "type"
    refused(table["alice"], table["id"], {"hold": []}, 400, "invalid_input")
    refused(table["alice"], table["id"], ["roll"], 400, "invalid_input")


def test_out_of_turn(table: dict[str, Any]) -> None:
    refused(table["bob"], table["id"], {"type": "roll"}, 409, "not_your_turn")


def test_for_a_seat_you_do_not_control(table: dict[str, Any]) -> None:
    refused(table["carol"], table["id"], {"type": "roll"}, 403, "not_a_seat_holder")
    refused(table["alice"], table["id"], {"type": "roll", "seat": 1}, 409, "not_your_turn")


def test_anonymous_move(table: dict[str, Any], anon: APIClient) -> None:
    before = GameEvent.objects.count()
    response = anon.post(game_url(table["id"], "moves/"), {"type": "roll"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert GameEvent.objects.count() == before


def test_invalid_token(table: dict[str, Any], anon: APIClient) -> None:
    anon.credentials(HTTP_AUTHORIZATION="Token dice_not-a-real-token")
    response = anon.post(game_url(table["id"], "moves/"), {"type": "roll"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_game_not_started(make_client: MakeClient) -> None:
    alice = make_client()
    game = api_game(alice, seats=["me", "open"], start=False)
    refused(alice, game["id"], {"type": "roll"}, 409, "game_not_started")


def test_game_finished(make_client: MakeClient, dice: ScriptedDice) -> None:
    alice = make_client()
    game = api_game(alice)
    from games.rules.yatzy import BOXES

    for box in BOXES:
        alice.ok("post", game_url(game["id"], "moves/"), {"type": "roll"}, status=201)
        alice.ok("post", game_url(game["id"], "moves/"), {"type": "score", "box": box}, status=201)
    refused(alice, game["id"], {"type": "roll"}, 409, "game_finished")


def test_stale_expected_version(table: dict[str, Any]) -> None:
    roll(table)  # version 2
    body = refused(
        table["alice"], table["id"], {"type": "score", "box": "chance", "expected_version": 1},
        409, "stale_version",
    )  # fmt: skip
    assert body["field"] == "expected_version"
    refused(
        table["alice"], table["id"], {"type": "roll", "expected_version": -1}, 400, "invalid_input"
    )
    table["alice"].ok(
        "post",
        game_url(table["id"], "moves/"),
        {"type": "score", "box": "chance", "expected_version": 2},
        status=201,
    )


def test_unknown_game(make_client: MakeClient) -> None:
    alice = make_client()
    response = alice.post(
        GAMES + "00000000-0000-0000-0000-000000000000/moves/", {"type": "roll"}, format="json"
    )
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_lobby_refusals(make_client: MakeClient) -> None:
    alice, bob, carol = make_client(), make_client(), make_client()
    game = api_game(alice, seats=["me", "open"], start=False)
    url = game_url(game["id"])

    def code(client: Client, suffix: str, status: int) -> str:
        response = client.post(url + suffix, {}, format="json")
        assert response.status_code == status, response.json()
        refusal: str = response.json()["code"]
        return refusal

    assert code(alice, "start/", 409) == "seats_not_filled"
    assert code(alice, "join/", 409) == "already_seated"
    assert code(bob, "start/", 403) == "not_creator"
    bob.ok("post", url + "join/")
    assert code(carol, "join/", 409) == "no_open_seat"
    alice.ok("post", url + "start/")
    assert code(carol, "join/", 409) == "game_not_open"
    assert code(alice, "start/", 409) == "game_not_open"


@pytest.mark.parametrize(
    ("payload", "code", "field"),
    [
        ({"kind": "chess", "seats": [{"type": "me"}]}, "invalid_input", "kind"),
        ({"kind": "yatzy", "seats": []}, "invalid_input", "seats"),
        ({"kind": "yatzy", "seats": [{"type": "me"}] * 7}, "invalid_seat_count", "seats"),
        (
            {"kind": "yatzy", "seats": [{"type": "me"}, {"type": "me"}]},
            "duplicate_me_seat",
            "seats",
        ),
        ({"kind": "yatzy", "seats": [{"type": "hotseat"}]}, "invalid_input", "seats.0.name"),
        (
            {"kind": "yatzy", "seats": [{"type": "me"}], "options": {"auto_confirm_seconds": -1}},
            "invalid_option",
            "options.auto_confirm_seconds",
        ),
        (
            {"kind": "yatzy", "seats": [{"type": "me"}], "options": {"colour": "red"}},
            "invalid_option",
            "options.colour",
        ),
    ],
)
def test_create_refusals(
    make_client: MakeClient, payload: dict[str, Any], code: str, field: str
) -> None:
    alice = make_client()
    response = alice.post(GAMES, payload, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code
    assert response.json()["field"] == field
    assert Game.objects.count() == 0
