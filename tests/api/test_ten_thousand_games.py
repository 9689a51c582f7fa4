"""Whole Dés 10 000 games through HTTP, from creation to result (RULES.md, Game 2)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from games.selectors import game_replay_matches_snapshot
from tests.api.ten_thousand_play import (
    all_events,
    check_event_log,
    move,
    play_scripted_turn,
    play_until_finished,
)
from tests.doubles import ScriptedDice
from tests.factories import GAMES, MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db

FARKLE = (2, 3, 4, 4, 6, 6)
RISK = {1: 4 / 6, 2: 16 / 36, 3: 60 / 216, 4: 204 / 1296, 5: 600 / 7776, 6: 15 / 648}

# A scripted turn: its (roll, dice set aside) steps (tests/api/ten_thousand_play.py).
Turn = list[tuple[tuple[int, ...], list[int]]]
# Whole turns that bank a known amount (the last step's keep goes with the bank).
EIGHT_THOUSAND = [((1, 1, 1, 1, 1, 1), [0, 1, 2, 3, 4, 5])]  # six 1s, hot dice, banked
FOUR_THOUSAND = [((1, 1, 1, 1, 1, 2), [0, 1, 2, 3, 4])]
ONE_THOUSAND = [((1, 1, 1, 2, 3, 4), [0, 1, 2])]
FIVE_HUNDRED = [((5, 5, 5, 2, 3, 4), [0, 1, 2])]
FOUR_FIFTY = [((4, 4, 4, 5, 2, 3), [0, 1, 2, 3])]
FIFTY = [((5, 2, 3, 4, 6, 6), [0])]


def types(body: dict[str, Any]) -> list[str]:
    return [event["type"] for event in body["events"]]


def finished_cleanly(game: dict[str, Any]) -> None:
    """What every finished game shows, and its snapshot equals the fold of its log."""
    assert game["status"] == "finished"
    assert game["finished_at"]
    assert game["turn_seat"] is None
    state = game["state"]
    assert state["turn_seat"] is None
    assert state["can_bank"] is False
    assert state["can_roll"] is False
    assert state["messages"] == []
    assert state["result"]["totals"] == state["totals"]
    assert [seat["final_total"] for seat in game["seats"]] == state["totals"]
    assert [seat["place"] for seat in game["seats"]] == state["result"]["places"]
    assert game_replay_matches_snapshot(Game.objects.get(pk=game["id"]))


def test_two_seat_game_with_hot_dice_lost_rounds_and_a_last_round_from_seat_one(
    make_client: MakeClient, dice: ScriptedDice
) -> None:
    alice, bob = make_client("alice"), make_client("bob")
    game = alice.ok(
        "post",
        GAMES,
        {
            "kind": "ten_thousand",
            "options": {"target": 5000},
            "seats": [{"type": "me"}, {"type": "open"}],
        },
        status=201,
    )
    assert game["status"] == "open"
    assert game["options"] == {"target": 5000}
    assert game["state"] is None
    bob.ok("post", game_url(game["id"], "join/"))
    game = alice.ok("post", game_url(game["id"], "start/"))
    gid = game["id"]
    assert game["version"] == 1
    assert game["state"]["target"] == 5000
    assert game["state"]["turn_seat"] == 0
    assert game["your_seats"] == [0]

    # Alice: 1 1 1 5 5 5, all six set aside (1500): hot dice, six dice come back.
    dice.push((1, 1, 1, 5, 5, 5), (1, 2, 3, 4, 6, 6))
    body = move(alice, gid, "roll")
    assert types(body) == ["dice_rolled"]
    body = move(alice, gid, "roll", [0, 1, 2, 3, 4, 5])
    assert types(body) == ["dice_set_aside", "hot_dice", "dice_rolled"]
    assert body["events"][0]["data"]["points"] == 1500
    assert body["events"][1]["data"] == {"type": "hot_dice", "seat": 0, "turn_points": 1500}
    assert len(body["events"][2]["data"]["dice"]) == 6
    state = body["game"]["state"]
    assert state["hot_dice"] is True
    assert {"code": "hot_dice", "text": "Hot dice!"} in state["messages"]
    assert state["dice_in_play"] == 6
    assert state["roll"] == [1, 2, 3, 4, 6, 6]
    assert state["turn_points"] == 1500
    assert state["kept"] == [{"dice": [1, 1, 1, 5, 5, 5], "points": 1500}]
    body = move(alice, gid, "bank", [0])
    assert types(body) == ["dice_set_aside", "turn_banked"]
    assert body["events"][1]["data"] == {
        "type": "turn_banked",
        "seat": 0,
        "points": 1600,
        "total": 1600,
    }
    state = body["game"]["state"]
    assert state["totals"] == [1600, 0]
    assert state["turn_seat"] == 1
    assert state["hot_dice"] is False
    assert state["messages"] == []
    assert state["turn_points"] == 0
    assert state["kept"] == []

    # Bob: 150 set aside, then the four dice left score nothing: the 150 are lost.
    dice.push((1, 5, 3, 3, 6, 2), (2, 3, 4, 6))
    move(bob, gid, "roll")
    body = move(bob, gid, "roll", [0, 1])
    assert types(body) == ["dice_set_aside", "dice_rolled", "round_lost"]
    assert body["events"][2]["data"] == {"type": "round_lost", "seat": 1, "lost_points": 150}
    state = body["game"]["state"]
    assert state["totals"] == [1600, 0]
    assert state["turn_seat"] == 0
    assert state["turn_points"] == 0
    assert state["roll"] == []
    assert state["dice_in_play"] == 6

    # Alice: a lost round on the first roll (nothing to lose); her total is unchanged.
    dice.push(FARKLE)
    body = move(alice, gid, "roll")
    assert types(body) == ["dice_rolled", "round_lost"]
    assert body["events"][1]["data"]["lost_points"] == 0
    assert body["game"]["state"]["totals"] == [1600, 0]

    # Bob: six 1s banked at once (8000, hot dice by a bank): he reaches the target.
    dice.push((1, 1, 1, 1, 1, 1))
    move(bob, gid, "roll")
    body = move(bob, gid, "bank", [5, 4, 3, 2, 1, 0])
    assert types(body) == ["dice_set_aside", "hot_dice", "turn_banked", "last_round_started"]
    assert body["events"][0]["data"]["indices"] == [0, 1, 2, 3, 4, 5]
    assert body["events"][2]["data"]["total"] == 8000
    assert body["events"][3]["data"] == {"type": "last_round_started", "seat": 1}
    game = body["game"]
    assert game["status"] == "active"
    state = game["state"]
    assert state["last_round"] is True
    assert state["last_round_trigger"] == 1
    assert state["messages"] == [{"code": "last_round", "text": "Last round!"}]
    assert state["turn_seat"] == 0
    assert state["result"] is None

    # Alice's one more turn: 3 3 3 then 5, banked. The turn comes back to Bob: game over.
    dice.push((3, 3, 3, 2, 4, 6), (5, 2, 2))
    move(alice, gid, "roll")
    body = move(alice, gid, "roll", [0, 1, 2])
    assert body["game"]["state"]["last_round"] is True
    assert body["game"]["state"]["kept"] == [{"dice": [3, 3, 3], "points": 300}]
    body = move(alice, gid, "bank", [0])
    assert types(body) == ["dice_set_aside", "turn_banked", "game_finished"]
    assert body["events"][2]["data"] == {
        "type": "game_finished",
        "totals": [1950, 8000],
        "places": [2, 1],
    }
    game = body["game"]
    state = game["state"]
    assert state["last_round"] is True
    assert state["last_round_trigger"] == 1
    assert state["result"] == {
        "places": [2, 1],
        "totals": [1950, 8000],
        "winners": [1],
        "draw": False,
    }
    finished_cleanly(game)

    events = all_events(alice, gid)
    assert check_event_log(events, 2, 5000) == [1950, 8000]
    assert [e["type"] for e in events].count("round_lost") == 2
    assert [e["type"] for e in events].count("hot_dice") == 2
    assert [e["actor"] for e in events if e["type"] == "turn_banked"] == ["alice", "bob", "alice"]
    assert alice.ok("get", game_url(gid)) == game

    # The replay answers at every point of the log, even between two events of one move.
    replays = [
        alice.ok("get", game_url(gid, "replay/") + f"?at={at}") for at in range(len(events) + 1)
    ]
    assert replays[0]["state"] is None
    assert replays[-1]["state"] == game["state"]
    assert all(r["state"]["target"] == 5000 for r in replays[1:])
    bank_at = next(e["seq"] for e in events if e["type"] == "turn_banked")
    assert replays[bank_at]["state"]["totals"] == [1600, 0]
    assert replays[bank_at - 1]["state"]["turn_points"] == 1600  # set aside, not yet banked
    assert replays[bank_at - 2]["state"]["roll"] == [1, 2, 3, 4, 6, 6]
    assert replays[bank_at - 2]["state"]["hot_dice"] is True
    assert bob.ok("get", game_url(gid))["your_seats"] == [1]


def test_equal_totals_share_first_place(make_client: MakeClient, dice: ScriptedDice) -> None:
    alice, bob = make_client(), make_client()
    game = api_game(alice, "ten_thousand", ["me", "open"], options={"target": 5000}, joiners=[bob])
    play_scripted_turn(alice, game["id"], dice, EIGHT_THOUSAND)
    body = play_scripted_turn(bob, game["id"], dice, EIGHT_THOUSAND)[-1]
    assert types(body)[-2:] == ["turn_banked", "game_finished"]
    game = body["game"]
    assert game["state"]["last_round_trigger"] == 0
    assert game["state"]["result"] == {
        "places": [1, 1],
        "totals": [8000, 8000],
        "winners": [0, 1],
        "draw": True,
    }
    finished_cleanly(game)
    assert check_event_log(all_events(alice, game["id"]), 2, 5000) == [8000, 8000]


def test_three_way_result_shares_places(make_client: MakeClient, dice: ScriptedDice) -> None:
    """1 + the number of strictly higher totals: 8000, 500, 8000 -> places 1, 3, 1."""
    host = make_client()
    seats = [{"type": "hotseat", "name": n} for n in ("Ann", "Ben", "Cat")]
    game = api_game(host, "ten_thousand", seats, options={"target": 5000})
    play_scripted_turn(host, game["id"], dice, EIGHT_THOUSAND)
    play_scripted_turn(host, game["id"], dice, FIVE_HUNDRED)
    game = play_scripted_turn(host, game["id"], dice, EIGHT_THOUSAND)[-1]["game"]
    assert game["state"]["result"] == {
        "places": [1, 3, 1],
        "totals": [8000, 500, 8000],
        "winners": [0, 2],
        "draw": True,
    }
    finished_cleanly(game)


def test_passing_the_target_during_the_last_round_changes_nothing(
    make_client: MakeClient, dice: ScriptedDice
) -> None:
    """Seat 1 triggers; seat 2 passes it and wins; the game still ends back at seat 1."""
    host = make_client()
    seats = [{"type": "hotseat", "name": n} for n in ("Ann", "Ben", "Cat")]
    game = api_game(host, "ten_thousand", seats, options={"target": 5000})
    gid = game["id"]
    play_scripted_turn(host, gid, dice, FIFTY)
    body = play_scripted_turn(host, gid, dice, EIGHT_THOUSAND)[-1]
    assert types(body)[-1] == "last_round_started"
    turn = [*EIGHT_THOUSAND, ((1, 1, 1, 1, 2, 3), [0, 1, 2, 3])]  # 8000, hot dice, then 2000
    body = play_scripted_turn(host, gid, dice, turn)[-1]
    assert "last_round_started" not in types(body)
    assert body["game"]["state"]["last_round_trigger"] == 1
    assert body["game"]["state"]["turn_seat"] == 0
    assert body["game"]["status"] == "active"
    dice.push(FARKLE)
    body = move(host, gid, "roll")
    assert types(body) == ["dice_rolled", "round_lost", "game_finished"]
    game = body["game"]
    assert game["state"]["result"]["places"] == [3, 2, 1]
    assert game["state"]["result"]["totals"] == [50, 8000, 10000]
    finished_cleanly(game)
    assert check_event_log(all_events(host, gid), 3, 5000) == [50, 8000, 10000]


@pytest.mark.parametrize(
    ("target", "turns"),
    [
        (5000, [FOUR_THOUSAND, FIVE_HUNDRED, FOUR_FIFTY]),
        (10000, [EIGHT_THOUSAND, ONE_THOUSAND, FIVE_HUNDRED, FOUR_FIFTY]),
        (
            15000,
            [EIGHT_THOUSAND, FOUR_THOUSAND, ONE_THOUSAND, ONE_THOUSAND, FIVE_HUNDRED, FOUR_FIFTY],
        ),
    ],
)
def test_a_game_ends_exactly_when_its_target_is_reached(
    make_client: MakeClient, dice: ScriptedDice, target: int, turns: list[Turn]
) -> None:
    """A one-seat game banks up to target - 50 (still playing), then 50 more: finished."""
    solo = make_client()
    game = api_game(
        solo, "ten_thousand", [{"type": "hotseat", "name": "Solo"}], options={"target": target}
    )
    assert game["options"] == {"target": target}
    assert game["state"]["target"] == target
    for turn in turns:
        game = play_scripted_turn(solo, game["id"], dice, turn)[-1]["game"]
        assert game["status"] == "active"
        assert game["state"]["last_round"] is False
    assert game["state"]["totals"] == [target - 50]
    body = play_scripted_turn(solo, game["id"], dice, FIFTY)[-1]
    assert types(body) == ["dice_set_aside", "turn_banked", "last_round_started", "game_finished"]
    game = body["game"]
    assert game["state"]["target"] == target
    assert game["state"]["totals"] == [target]
    assert game["state"]["last_round_trigger"] == 0
    assert game["state"]["result"] == {
        "places": [1],
        "totals": [target],
        "winners": [0],
        "draw": False,
    }
    finished_cleanly(game)
    assert check_event_log(all_events(solo, game["id"]), 1, target) == [target]


def test_default_target_is_ten_thousand(make_client: MakeClient) -> None:
    alice = make_client()
    game = alice.ok("post", GAMES, {"kind": "ten_thousand", "seats": [{"type": "me"}]}, status=201)
    assert game["options"] == {"target": 10000}
    game = alice.ok("post", game_url(game["id"], "start/"))
    assert game["state"]["target"] == 10000


def test_three_seat_hotseat_game_with_random_dice(
    make_client: MakeClient, dice: ScriptedDice
) -> None:
    host = make_client("host")
    seats = [{"type": "hotseat", "name": name} for name in ("Ann", "Ben", "Cat")]
    game = api_game(host, "ten_thousand", seats, options={"target": 5000})
    assert game["your_seats"] == [0, 1, 2]
    assert [seat["name"] for seat in game["seats"]] == ["Ann", "Ben", "Cat"]

    game, seen = play_until_finished(host, game)

    gid = game["id"]
    finished_cleanly(game)
    events = all_events(host, gid, page=37)
    kinds = [e["type"] for e in events]
    assert kinds.count("game_finished") == 1
    assert kinds.count("last_round_started") == 1
    assert "round_lost" in kinds  # the seeded dice do lose rounds
    totals = check_event_log(events, 3, 5000)
    banked = [0, 0, 0]
    for event in events:
        if event["type"] == "turn_banked":
            banked[event["data"]["seat"]] += event["data"]["points"]
    state = game["state"]
    assert state["totals"] == totals == banked
    assert max(totals) >= 5000
    places = state["result"]["places"]
    for a in range(3):
        for b in range(3):
            assert (places[a] < places[b]) == (totals[a] > totals[b])
    assert state["result"]["winners"] == [s for s in range(3) if totals[s] == max(totals)]

    replay = host.ok("get", game_url(gid, "replay/"))
    assert replay["at"] == replay["version"] == game["version"] == len(events)
    assert replay["state"] == host.ok("get", game_url(gid))["state"] == state
    for version in sorted(seen)[:: max(1, len(seen) // 12)]:
        at = host.ok("get", game_url(gid, "replay/") + f"?at={version}")
        assert at["state"] == seen[version], version


def test_state_block_through_a_turn(make_client: MakeClient, dice: ScriptedDice) -> None:
    solo = make_client()
    game = api_game(solo, "ten_thousand", [{"type": "me"}], options={"target": 5000})
    gid = game["id"]
    state = game["state"]
    assert state["roll"] == []
    assert state["scoring_indices"] == []
    assert state["best_keep_points"] == 0
    assert state["kept"] == []
    assert state["turn_points"] == 0
    assert state["dice_in_play"] == 6
    assert state["must_set_aside"] is False
    assert state["can_roll"] is True
    assert state["can_bank"] is False
    assert state["farkle_risk"] == pytest.approx(0.02315, abs=1e-5)
    assert state["farkle_risk"] == pytest.approx(15 / 648)
    risks = state["farkle_risk_by_dice"]
    assert sorted(risks) == ["1", "2", "3", "4", "5", "6"]
    for n, risk in RISK.items():
        assert risks[str(n)] == pytest.approx(risk)
    assert [round(100 * risks[str(n)], 3) for n in range(1, 7)] == [
        66.667, 44.444, 27.778, 15.741, 7.716, 2.315
    ]  # fmt: skip
    assert state["hot_dice"] is False
    assert state["last_round"] is False
    assert state["last_round_trigger"] is None
    assert state["messages"] == []
    assert state["result"] is None
    assert state["totals"] == [0]

    dice.push((1, 5, 3, 3, 6, 2), (5, 5, 2, 5, 3), (1, 1), (2, 2, 3, 3, 6, 6))
    state = move(solo, gid, "roll")["game"]["state"]
    assert state["roll"] == [1, 5, 3, 3, 6, 2]
    assert state["scoring_indices"] == [0, 1]
    assert state["best_keep_points"] == 150
    assert state["must_set_aside"] is True
    assert state["can_bank"] is True
    assert state["farkle_risk"] is None  # depends on the keep: see farkle_risk_by_dice
    assert state["turn_points"] == 0

    # Keep only the 1 (keeping fewer is allowed): five dice are thrown.
    body = move(solo, gid, "roll", [0])
    assert body["events"][0]["data"] == {
        "type": "dice_set_aside", "seat": 0, "indices": [0], "dice": [1], "points": 100
    }  # fmt: skip
    state = body["game"]["state"]
    assert state["roll"] == [5, 5, 2, 5, 3]
    assert state["scoring_indices"] == [0, 1, 3]
    assert state["best_keep_points"] == 500
    assert state["kept"] == [{"dice": [1], "points": 100}]
    assert state["turn_points"] == 100
    assert state["dice_in_play"] == 5

    # Three 5s of one roll are 500; the two dice left come up 1 1.
    state = move(solo, gid, "roll", [3, 0, 1])["game"]["state"]
    assert state["kept"] == [{"dice": [1], "points": 100}, {"dice": [5, 5, 5], "points": 500}]
    assert state["turn_points"] == 600
    assert state["dice_in_play"] == 2
    assert state["roll"] == [1, 1]
    assert state["hot_dice"] is False

    # Both 1s: all six dice are set aside, hot dice, six fresh dice (three pairs).
    body = move(solo, gid, "roll", [0, 1])
    assert types(body) == ["dice_set_aside", "hot_dice", "dice_rolled"]
    state = body["game"]["state"]
    assert state["hot_dice"] is True
    assert state["messages"] == [{"code": "hot_dice", "text": "Hot dice!"}]
    assert state["dice_in_play"] == 6
    assert state["roll"] == [2, 2, 3, 3, 6, 6]
    assert state["scoring_indices"] == [0, 1, 2, 3, 4, 5]
    assert state["best_keep_points"] == 750
    assert [group["points"] for group in state["kept"]] == [100, 500, 200]
    assert state["turn_points"] == 800
    assert state["can_bank"] is True

    body = move(solo, gid, "bank", [0, 1, 2, 3, 4, 5])
    assert types(body) == ["dice_set_aside", "hot_dice", "turn_banked"]
    state = body["game"]["state"]
    assert state["totals"] == [1550]
    assert state["kept"] == []
    assert state["hot_dice"] is False
    assert state["messages"] == []
    assert state["farkle_risk"] == pytest.approx(15 / 648)
    assert solo.ok("get", game_url(gid))["state"] == state


def test_dice_of_two_rolls_never_combine(make_client: MakeClient, dice: ScriptedDice) -> None:
    """Two 5s from one roll and a third from the next are 100 + 50, not three of a kind."""
    solo = make_client()
    game = api_game(solo, "ten_thousand", [{"type": "me"}], options={"target": 5000})
    bodies = play_scripted_turn(
        solo, game["id"], dice, [((5, 5, 2, 3, 4, 6), [0, 1]), ((5, 2, 3, 4), [0])]
    )
    assert bodies[1]["game"]["state"]["kept"] == [{"dice": [5, 5], "points": 100}]
    assert bodies[1]["game"]["state"]["roll"] == [5, 2, 3, 4]
    assert bodies[2]["events"][0]["data"]["points"] == 50
    assert bodies[2]["events"][1]["data"]["points"] == 150
    assert bodies[2]["game"]["state"]["totals"] == [150]


@pytest.mark.parametrize(
    ("roll", "keep", "points"),
    [
        ((1, 5, 3, 3, 6, 2), [0, 1], 150),
        ((1, 5, 3, 3, 6, 2), [0], 100),
        ((3, 3, 3, 2, 4, 6), [0, 1, 2], 300),
        ((1, 1, 1, 5, 2, 2), [0, 1, 2, 3], 1050),
        ((2, 2, 3, 3, 6, 6), [0, 1, 2, 3, 4, 5], 750),
        ((1, 2, 3, 4, 5, 6), [0, 1, 2, 3, 4, 5], 1500),
        ((1, 2, 3, 4, 5, 6), [0, 4], 150),
        ((4, 4, 4, 4, 2, 6), [0, 1, 2, 3], 800),
        ((1, 1, 1, 1, 5, 5), [0, 1, 2, 3, 4, 5], 2100),
        ((2, 2, 2, 2, 3, 3), [0, 1, 2, 3], 400),
        ((5, 5, 5, 5, 5, 3), [0, 1, 2, 3, 4], 2000),
        ((2, 2, 2, 2, 2, 2), [0, 1, 2, 3, 4, 5], 1600),
    ],
)
def test_worked_examples_banked_through_http(
    make_client: MakeClient,
    dice: ScriptedDice,
    roll: tuple[int, ...],
    keep: list[int],
    points: int,
) -> None:
    solo = make_client()
    game = api_game(solo, "ten_thousand", [{"type": "me"}], options={"target": 10000})
    body = play_scripted_turn(solo, game["id"], dice, [(roll, keep)])[-1]
    assert body["events"][0]["data"]["points"] == points
    banked = next(e for e in body["events"] if e["type"] == "turn_banked")
    assert banked["data"]["points"] == points
    assert body["game"]["state"]["totals"] == [points]
