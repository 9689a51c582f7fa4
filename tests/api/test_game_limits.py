"""The limits of a game's length through the API (security round two, 2): a Dés 10 000 game ends
at the end of its last round allowed, and any game at the move that brings its log to its kind's
``max_events``; the game is finished with places by the totals as they stand (the leader first,
equal totals sharing a place), rated and announced like any finished game, and says why."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from games import kinds
from games.kinds import registry
from games.models import Game, GameEvent
from games.rules import ten_thousand, yatzy
from games.selectors import game_replay_matches_snapshot
from tests.api.ten_thousand_play import move, play_scripted_turn
from tests.doubles import ScriptedDice
from tests.factories import MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db

FIVE_HUNDRED = [((5, 5, 5, 2, 3, 4), [0, 1, 2])]
FIFTY = [((5, 2, 3, 4, 6, 6), [0])]
HOTSEAT = {"type": "hotseat", "name": "Cleo"}


def types(body: dict[str, Any]) -> list[str]:
    return [event["type"] for event in body["events"]]


def with_max_events(monkeypatch: pytest.MonkeyPatch, kind: str, limit: int) -> None:
    """The kind's limit of events per game, lowered for the test (kinds are frozen)."""
    lowered = dataclasses.replace(kinds.kind_for(kind), max_events=limit)
    monkeypatch.setitem(registry._BY_CODE, kind, lowered)


def test_a_ten_thousand_game_ends_at_its_last_round_the_leader_first(
    make_client: MakeClient, dice: ScriptedDice, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ten_thousand, "MAX_ROUNDS", 2)
    ann = make_client("ann")
    game = api_game(ann, "ten_thousand", ["me", HOTSEAT], options={"target": 5000})
    gid = game["id"]
    assert (game["state"]["round"], game["state"]["max_rounds"]) == (1, 2)
    assert game["state"]["limit_reached"] is False
    play_scripted_turn(ann, gid, dice, FIVE_HUNDRED)
    last = play_scripted_turn(ann, gid, dice, FIFTY)[-1]
    state = last["game"]["state"]
    assert state["round"] == 2
    assert [m["code"] for m in state["messages"]] == ["round_limit"]
    play_scripted_turn(ann, gid, dice, FIFTY)  # 550 against 50
    last = play_scripted_turn(ann, gid, dice, FIVE_HUNDRED)[-1]  # 550 against 550: a draw

    assert types(last) == ["dice_set_aside", "turn_banked", "limit_reached", "game_finished"]
    reached = last["events"][2]
    assert reached["data"] == {"type": "limit_reached", "limit": "rounds", "count": 2}
    assert reached["messages"][0]["code"] == "limit_reached"
    finished = last["game"]
    assert finished["status"] == "finished"
    assert finished["state"]["limit_reached"] is True
    assert finished["state"]["round"] == 2 and finished["state"]["messages"] == []
    assert finished["state"]["result"] == {
        "places": [1, 1], "totals": [550, 550], "winners": [0, 1], "draw": True,
    }  # fmt: skip
    assert [seat["place"] for seat in finished["seats"]] == [1, 1]
    assert game_replay_matches_snapshot(Game.objects.get(pk=gid))
    refused = ann.post(game_url(gid, "moves/"), {"type": "roll"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "game_finished"


def test_the_event_says_why_in_the_players_language(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_max_events(monkeypatch, "yatzy", 2)
    ann = make_client("ann")
    gid = api_game(ann, "yatzy", ["me"])["id"]
    ann.ok("post", game_url(gid, "moves/"), {"type": "roll"}, status=201)
    body = ann.ok("get", game_url(gid, "events/"), HTTP_ACCEPT_LANGUAGE="fr")
    reached = next(e for e in body["events"] if e["type"] == "limit_reached")
    english = "The game has reached its length limit: the highest total wins."
    assert reached["messages"][0]["text"] not in ("", english)


def test_the_move_that_reaches_the_events_per_game_is_played_then_the_game_ends(
    make_client: MakeClient, dice: ScriptedDice, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_max_events(monkeypatch, "yatzy", 8)
    ann = make_client("ann")
    gid = api_game(ann, "yatzy", ["me", HOTSEAT])["id"]  # game_started: 1 event
    dice.push((6, 6, 6, 6, 6), (1, 2, 3, 4, 6), (2, 2, 2, 3, 3))
    url = game_url(gid, "moves/")
    ann.ok("post", url, {"type": "roll"}, status=201)
    ann.ok("post", url, {"type": "score", "box": "yatzy"}, status=201)  # 50
    ann.ok("post", url, {"type": "roll"}, status=201)
    ann.ok("post", url, {"type": "score", "box": "chance"}, status=201)  # 16
    ann.ok("post", url, {"type": "roll"}, status=201)
    ann.ok("post", url, {"type": "select", "box": "full_house"}, status=201)  # 7 events
    body = ann.ok("post", url, {"type": "score", "box": "full_house"}, status=201)

    assert types(body) == ["box_scored", "limit_reached", "game_finished"]
    assert body["events"][1]["data"] == {"type": "limit_reached", "limit": "events", "count": 8}
    result = body["game"]["state"]["result"]
    assert result["totals"] == [75, 16] and result["places"] == [1, 2]
    assert body["game"]["status"] == "finished" and body["game"]["state"]["limit_reached"]
    assert GameEvent.objects.filter(game_id=gid).count() == 10
    assert game_replay_matches_snapshot(Game.objects.get(pk=gid))


def test_points_at_risk_are_not_banked_when_the_events_run_out(
    make_client: MakeClient, dice: ScriptedDice, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_max_events(monkeypatch, "ten_thousand", 5)
    ann = make_client("ann")
    gid = api_game(ann, "ten_thousand", ["me", HOTSEAT], options={"target": 5000})["id"]
    play_scripted_turn(ann, gid, dice, FIFTY)  # 4 events: 50 banked
    dice.push((1, 1, 1, 2, 3, 4))
    body = move(ann, gid, "roll")  # Cleo's roll: 1000 waiting to be set aside
    assert types(body) == ["dice_rolled", "limit_reached", "game_finished"]
    assert body["game"]["state"]["result"]["totals"] == [50, 0]
    assert body["game"]["state"]["result"]["places"] == [1, 2]


def test_no_yatzy_game_can_reach_its_events_and_the_pages_say_the_limits() -> None:
    """The longest Yatzy game there can be: every seat's 13 turns of three rolls, every mark a
    turn may make, its box and a timed-out turn; the start, the end, every seat leaving but the
    last, the staff's decision."""
    longest = yatzy.MAX_SEATS * yatzy.ROUNDS * (
        yatzy.ROLLS_PER_TURN + yatzy.MAX_SELECTS_PER_TURN + 2
    ) + (2 + yatzy.MAX_SEATS + 1)
    assert longest == 1959 < kinds.kind_for("yatzy").max_events
    root = Path(__file__).resolve().parents[2]
    rules = (root / "games" / "rules" / "README.md").read_text()
    api_guide = (root / "docs" / "api.md").read_text()
    limits = {code: f"{kinds.kind_for(code).max_events:,}" for code in kinds.KINDS}
    assert limits == {"yatzy": "2,500", "ten_thousand": "20,000"}
    for page in (rules, api_guide):
        assert "2,500 for Yatzy" in page or "Yatzy 2,500" in page
        assert "20,000 for Dés 10 000" in page or "Dés 10 000 20,000" in page
    assert "the longest game there can be has 1,959" in rules
