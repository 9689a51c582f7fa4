"""Whole yatzy games through HTTP, from creation to result."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, GameEvent
from games.selectors import game_replay_matches_snapshot
from tests.api.yatzy_play import expected_totals_from_events, play_turn
from tests.doubles import ScriptedDice
from tests.factories import GAMES, Client, MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db


def all_events(client: Client, game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.ok("get", game_url(game_id, "events/"))["events"]
    return events


def test_two_seat_game_from_creation_to_result(make_client: MakeClient, dice: ScriptedDice) -> None:
    alice, bob = make_client("alice"), make_client("bob")
    game = api_game(alice, seats=["me", "open"], start=False)
    assert game["status"] == "open"
    assert game["state"] is None
    assert [seat["open"] for seat in game["seats"]] == [False, True]

    game = bob.ok("post", game_url(game["id"], "join/"))
    assert game["seats"][1]["player"]["username"] == "bob"
    assert game["your_seats"] == [1]
    game = alice.ok("post", game_url(game["id"], "start/"))
    assert game["status"] == "active"
    assert game["version"] == 1
    assert game["state"]["turn_seat"] == 0
    assert game["state"]["rolls_left"] == 3

    players = [alice, bob]
    for turn in range(26):
        seat = game["state"]["turn_seat"]
        assert seat == turn % 2
        game = play_turn(players[seat], game, turn)

    assert game["status"] == "finished"
    events = all_events(alice, game["id"])
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["type"] == "game_finished"
    totals = [sheet["total"] for sheet in game["state"]["sheets"]]
    assert totals == expected_totals_from_events(events, 2)
    assert game["state"]["result"]["totals"] == totals
    for sheet in game["state"]["sheets"]:
        assert all(box["points"] is not None for box in sheet["boxes"])
        assert sheet["total"] == (
            sheet["upper_sum"] + sheet["upper_bonus"] + sheet["lower_sum"] + sheet["yatzy_bonus"]
        )
    places = game["state"]["result"]["places"]
    if totals[0] == totals[1]:
        assert places == [1, 1]
        assert game["state"]["result"]["draw"]
    else:
        winner = 0 if totals[0] > totals[1] else 1
        assert places[winner] == 1
        assert places[1 - winner] == 2
    assert [seat["final_total"] for seat in game["seats"]] == totals
    assert [seat["place"] for seat in game["seats"]] == places
    assert game_replay_matches_snapshot(Game.objects.get(pk=game["id"]))


def test_three_seat_hotseat_game_played_from_one_client(
    make_client: MakeClient, dice: ScriptedDice
) -> None:
    host = make_client("host")
    seats = [{"type": "hotseat", "name": name} for name in ("Ann", "Ben", "Cat")]
    game = host.ok("post", GAMES, {"kind": "yatzy", "seats": seats}, status=201)
    assert [seat["name"] for seat in game["seats"]] == ["Ann", "Ben", "Cat"]
    assert game["your_seats"] == [0, 1, 2]
    game = host.ok("post", game_url(game["id"], "start/"))
    for turn in range(39):
        assert game["state"]["turn_seat"] == turn % 3
        assert game["state"]["round"] == turn // 3 + 1
        game = play_turn(host, game, turn)
    assert game["status"] == "finished"
    events = all_events(host, game["id"])
    totals = [sheet["total"] for sheet in game["state"]["sheets"]]
    assert totals == expected_totals_from_events(events, 3)
    best = max(totals)
    assert [p == 1 for p in game["state"]["result"]["places"]] == [t == best for t in totals]
    assert game_replay_matches_snapshot(Game.objects.get(pk=game["id"]))


def test_scripted_game_reaches_known_totals(make_client: MakeClient, dice: ScriptedDice) -> None:
    """A one-seat game with chosen dice: every box, the upper bonus and a joker Yatzy bonus."""
    solo = make_client()
    game = api_game(solo)
    plan = [
        ((6, 6, 6, 6, 6), "yatzy", 50),
        ((6, 6, 6, 6, 6), "sixes", 30),  # joker step 1: only sixes, +100
        ((5, 5, 5, 5, 2), "fives", 20),
        ((4, 4, 4, 1, 2), "fours", 12),
        ((3, 3, 3, 1, 2), "threes", 9),
        ((2, 2, 2, 1, 3), "twos", 6),
        ((1, 1, 1, 2, 3), "ones", 3),  # upper 80: bonus 35
        ((2, 2, 2, 5, 5), "full_house", 25),
        ((1, 2, 3, 4, 6), "small_straight", 30),
        ((2, 3, 4, 5, 6), "large_straight", 40),
        ((6, 6, 6, 6, 2), "four_of_a_kind", 26),
        ((5, 5, 5, 1, 2), "three_of_a_kind", 18),
        ((1, 1, 3, 4, 6), "chance", 15),
    ]
    url = game_url(game["id"], "moves/")
    for roll, box, points in plan:
        dice.push(roll)
        solo.ok("post", url, {"type": "roll"}, status=201)
        body = solo.ok("post", url, {"type": "score", "box": box}, status=201)
        assert body["events"][0]["data"]["points"] == points
    sheet = body["game"]["state"]["sheets"][0]
    assert (sheet["upper_sum"], sheet["upper_bonus"], sheet["yatzy_bonus"]) == (80, 35, 100)
    assert sheet["lower_sum"] == 50 + 25 + 30 + 40 + 26 + 18 + 15
    assert sheet["total"] == 80 + 35 + 204 + 100
    assert body["game"]["state"]["result"] == {
        "places": [1],
        "totals": [419],
        "winners": [0],
        "draw": False,
    }


def test_detail_carries_what_a_client_draws(make_client: MakeClient, dice: ScriptedDice) -> None:
    alice = make_client()
    game = api_game(alice)
    dice.push((1, 1, 3, 4, 6), (2, 5))
    url = game_url(game["id"], "moves/")
    state = alice.ok("post", url, {"type": "roll"}, status=201)["game"]["state"]
    assert state["dice"] == [1, 1, 3, 4, 6]
    assert state["rolls_left"] == 2
    boxes = {option["box"]: option["points"] for option in state["legal_boxes"]}
    assert boxes["ones"] == 2
    assert boxes["chance"] == 15
    assert boxes["full_house"] == 0
    assert len(boxes) == 13
    assert not state["must_sacrifice"]
    assert {option["label"] for option in state["legal_boxes"]} >= {"Ones", "Chance"}
    state = alice.ok("post", url, {"type": "roll", "hold": [0, 1, 2]}, status=201)["game"]["state"]
    assert state["dice"] == [1, 1, 3, 2, 5]
    assert state["held"] == [0, 1, 2]
    detail = alice.ok("get", game_url(game["id"]))
    assert detail["state"] == state
    assert detail["version"] == 3


def test_must_sacrifice_flag_and_message(make_client: MakeClient, dice: ScriptedDice) -> None:
    alice = make_client()
    game = api_game(alice)
    url = game_url(game["id"], "moves/")
    # Fill ones, threes, fours, sixes and chance, then roll 1 1 3 4 6: nothing free scores.
    for roll, box in [
        ((1, 2, 2, 2, 2), "ones"),
        ((3, 2, 2, 2, 2), "threes"),
        ((4, 2, 2, 2, 5), "fours"),
        ((6, 2, 2, 2, 5), "sixes"),
        ((6, 2, 2, 2, 5), "chance"),
    ]:
        dice.push(roll)
        alice.ok("post", url, {"type": "roll"}, status=201)
        alice.ok("post", url, {"type": "score", "box": box}, status=201)
    dice.push((1, 1, 3, 4, 6))
    state = alice.ok("post", url, {"type": "roll"}, status=201)["game"]["state"]
    assert state["must_sacrifice"] is True
    assert state["message"]["code"] == "must_sacrifice"
    assert all(option["points"] == 0 for option in state["legal_boxes"])


def test_events_after_and_replay_at(make_client: MakeClient, dice: ScriptedDice) -> None:
    alice = make_client()
    game = api_game(alice)
    url = game_url(game["id"], "moves/")
    dice.push((1, 2, 3, 4, 5), (6,), (6,))
    alice.ok("post", url, {"type": "roll"}, status=201)
    alice.ok("post", url, {"type": "roll", "hold": [0, 1, 2, 3]}, status=201)
    alice.ok("post", url, {"type": "score", "box": "large_straight"}, status=201)
    page = alice.ok("get", game_url(game["id"], "events/") + "?after=2")
    assert [e["seq"] for e in page["events"]] == [3, 4]
    assert page["version"] == 4
    assert page["events"][0]["data"]["dice"] == [1, 2, 3, 4, 6]
    assert alice.ok("get", game_url(game["id"], "events/") + "?after=4")["events"] == []
    at2 = alice.ok("get", game_url(game["id"], "replay/") + "?at=2")
    assert at2["state"]["dice"] == [1, 2, 3, 4, 5]
    assert at2["state"]["rolls_left"] == 2
    at0 = alice.ok("get", game_url(game["id"], "replay/") + "?at=0")
    assert at0["state"] is None
    latest = alice.ok("get", game_url(game["id"], "replay/"))
    assert latest["state"] == alice.ok("get", game_url(game["id"]))["state"]
    bad = alice.get(game_url(game["id"], "replay/") + "?at=99")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid_seq"
    assert GameEvent.objects.filter(game_id=game["id"]).count() == 4


def test_list_filters_kind_status_and_mine(make_client: MakeClient, anon: APIClient) -> None:
    alice, bob = make_client(), make_client()
    mine = api_game(alice)
    theirs = api_game(bob, seats=["me", "open"], start=False)

    def ids(client: Client, query: str) -> set[str]:
        return {g["id"] for g in client.ok("get", GAMES + query)["results"]}

    assert ids(alice, "?mine=true") == {mine["id"]}
    assert ids(alice, "?mine=false") >= {theirs["id"]}
    assert ids(alice, "?status=open") == {theirs["id"]}
    assert ids(alice, "?status=active&kind=yatzy") == {mine["id"]}
    assert ids(alice, "?kind=ten_thousand") == set()
    assert ids(alice, f"?player={bob.username}") == {theirs["id"]}
    response = anon.get(GAMES + "?status=nonsense")
    assert response.status_code == 400
    assert response.json()["field"] == "status"
    assert anon.get(GAMES).status_code == 200
