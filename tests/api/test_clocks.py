"""Clocks and the stand-in (issue 11, part 2), over HTTP: a casual game's per-move clock chosen at
creation from a list, 0 refused everywhere; a timed-out turn played by a stand-in that never does
better than the player would; two timed-out turns in a row forfeit a rated game; marking boxes
(``select``) never restarts the clock and a turn marks at most so many."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone
from pytest_django import Settings

from games.models import Game
from games.rules import yatzy
from games.rules.ten_thousand_scoring import keep_options
from games.timers import automation
from players.models import Player, RatingChange
from tests.doubles import ScriptedDice
from tests.factories import Client, MakeClient, game_url, grant, new_game

pytestmark = pytest.mark.django_db
GAMES = "/api/v1/games/"


def player(client: Client) -> Player:
    return Player.objects.get(username=client.username)


def fire(game_id: str) -> bool:
    """The game's timer, as the timers process fires it once due."""
    game = Game.objects.get(pk=game_id)
    assert game.deadline_at is not None
    return automation.game_fire_timer(game_id=game_id, version=game.version, now=game.deadline_at)


def create(client: Client, **fields: Any) -> Any:
    return client.post(GAMES, {"kind": "yatzy", "seats": [{"type": "me"}], **fields}, format="json")


def test_a_casual_game_chooses_its_clock_from_the_list(
    make_client: MakeClient, settings: Settings
) -> None:
    ann = make_client()
    for seconds in (0, 45, -5):
        response = create(ann, turn_clock_seconds=seconds)
        assert response.status_code == 400, seconds
        assert response.json()["code"] == "invalid_turn_clock"
        assert response.json()["params"]["allowed"] == list(settings.TURN_CLOCK_CHOICES)
    assert not Game.objects.exists()
    game = create(ann, turn_clock_seconds=30).json()
    ann.ok("post", game_url(game["id"], "start/"))
    row = Game.objects.get(pk=game["id"])
    assert row.turn_clock_seconds == 30
    assert row.deadline_at is not None and row.last_move_at is not None
    assert row.deadline_at - row.last_move_at == timedelta(seconds=30)
    plain = create(ann).json()  # no clock: none
    ann.ok("post", game_url(plain["id"], "start/"))
    assert Game.objects.get(pk=plain["id"]).deadline_at is None


def test_a_tournament_refuses_a_clock_of_zero(make_client: MakeClient) -> None:
    staff = make_client()
    Player.objects.filter(username=staff.username).update(is_staff=True)
    grant(Player.objects.get(username=staff.username), "tournaments.add_tournament")
    body = {
        "name": "No clock", "kind": "yatzy", "format": "round_robin",
        "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(), "turn_clock_seconds": 0,
    }  # fmt: skip
    response = staff.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid_turn_clock"


def test_an_idle_seat_in_a_rated_yatzy_game_scores_its_worst_box_then_forfeits(
    make_client: MakeClient, dice: ScriptedDice
) -> None:
    ann, bob = make_client(), make_client()
    game = new_game(
        player(ann), "yatzy", ["me", "open"], joiners=[player(bob)], rated=True,
        turn_clock_seconds=60,
    )  # fmt: skip
    game_id = str(game.pk)
    # Ann is away. Her clock runs out: the stand-in rolls once and scores the box worth least.
    dice.push((6, 6, 6, 6, 5))
    assert fire(game_id)
    events = ann.ok("get", game_url(game_id, "events/"))["events"]
    assert [e["type"] for e in events[-3:]] == ["dice_rolled", "box_scored", "turn_timed_out"]
    scored = events[-2]["data"]
    worst = min(yatzy.score_options((6, 6, 6, 6, 5), {}).values())
    assert (scored["box"], scored["points"]) == ("ones", worst) and worst == 0
    assert all(e["automatic"] for e in events[-3:])
    assert events[-1]["messages"][0]["code"] == "turn_timed_out"
    state = bob.ok("get", game_url(game_id))["state"]
    assert state["timeouts"] == [1, 0] and state["turn_seat"] == 1
    # Bob plays his turn himself; Ann's next turn times out too: a rated game, she forfeits.
    bob.ok("post", game_url(game_id, "moves/"), {"type": "roll"}, status=201)
    bob.ok("post", game_url(game_id, "moves/"), {"type": "score", "box": "chance"}, status=201)
    assert fire(game_id)
    answer = bob.ok("get", game_url(game_id))
    assert answer["status"] == "finished"
    assert [seat["place"] for seat in answer["seats"]] == [2, 1]
    last = bob.ok("get", game_url(game_id, "events/"))["events"]
    assert last[-2]["data"] == {"type": "seat_left", "seat": 0, "reason": "timed_out"}
    changes = {c.player_id: c for c in RatingChange.objects.filter(game_id=game_id)}
    assert changes[player(ann).pk].rating_after < changes[player(ann).pk].rating_before


def test_an_unrated_game_never_forfeits_for_the_clock(make_client: MakeClient) -> None:
    ann, bob = make_client(), make_client()
    game = new_game(
        player(ann), "ten_thousand", ["me", "open"], joiners=[player(bob)], turn_clock_seconds=60
    )
    game_id = str(game.pk)
    for _ in range(3):  # both away: each turn is lost, nobody leaves
        assert fire(game_id)
        assert fire(game_id)
    state = ann.ok("get", game_url(game_id))["state"]
    assert state["out"] == [] and state["timeouts"] == [3, 3] and state["totals"] == [0, 0]


def test_the_ten_thousand_stand_in_banks_the_least_of_the_roll(
    make_client: MakeClient, dice: ScriptedDice
) -> None:
    ann, bob = make_client(), make_client()
    game = new_game(
        player(ann), "ten_thousand", ["me", "open"], joiners=[player(bob)], rated=True,
        turn_clock_seconds=60,
    )  # fmt: skip
    game_id = str(game.pk)
    dice.push((1, 1, 1, 5, 2, 3))
    ann.ok("post", game_url(game_id, "moves/"), {"type": "roll"}, status=201)
    assert fire(game_id)  # she rolled 1 1 1 5: the stand-in sets aside the 5 alone and banks
    state = bob.ok("get", game_url(game_id))["state"]
    least = min(points for _faces, points in keep_options((1, 1, 1, 5, 2, 3)))
    assert state["totals"] == [least, 0] and least == 50


def test_a_select_loop_cannot_hold_a_turn_past_its_clock(make_client: MakeClient) -> None:
    ann, bob = make_client(), make_client()
    game = new_game(
        player(ann), "yatzy", ["me", "open"], joiners=[player(bob)], turn_clock_seconds=60,
        auto_confirm_seconds=0,
    )  # fmt: skip
    game_id = str(game.pk)
    moves = game_url(game_id, "moves/")
    ann.ok("post", moves, {"type": "roll"}, status=201)
    deadline = Game.objects.get(pk=game_id).deadline_at
    boxes = ["chance", "sixes", None]
    for number in range(yatzy.MAX_SELECTS_PER_TURN):
        ann.ok("post", moves, {"type": "select", "box": boxes[number % 3]}, status=201)
        assert Game.objects.get(pk=game_id).deadline_at == deadline  # no time bought
    response = ann.post(moves, {"type": "select", "box": "chance"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "too_many_selects"
    state = ann.ok("get", game_url(game_id))["state"]
    assert state["selects_left"] == 0
    # The clock runs out as it would have without a single mark: the stand-in scores the mark.
    assert fire(game_id)
    scored = ann.ok("get", game_url(game_id, "events/"))["events"]
    box = [e["data"]["box"] for e in scored if e["type"] == "box_scored"]
    assert box == [boxes[(yatzy.MAX_SELECTS_PER_TURN - 1) % 3]]
    assert Game.objects.get(pk=game_id).turn_seat == 1


def test_a_roll_restarts_the_clock(make_client: MakeClient) -> None:
    ann = make_client()
    game = new_game(player(ann), "yatzy", ["me"], turn_clock_seconds=60)
    before = Game.objects.get(pk=game.pk).deadline_at
    ann.ok("post", game_url(str(game.pk), "moves/"), {"type": "roll"}, status=201)
    after = Game.objects.get(pk=game.pk)
    assert before is not None
    assert after.deadline_at is not None and after.last_move_at is not None
    assert after.deadline_at > before
    assert after.deadline_at - after.last_move_at == timedelta(seconds=60)


def test_another_seat_resigning_buys_the_seat_to_play_no_time(make_client: MakeClient) -> None:
    ann, bob, cara = make_client(), make_client(), make_client()
    people = [player(client) for client in (ann, bob, cara)]
    game = new_game(
        people[0], "yatzy", ["me", "open", "open"], joiners=people[1:], turn_clock_seconds=60
    )
    deadline = Game.objects.get(pk=game.pk).deadline_at
    cara.ok("post", game_url(str(game.pk), "resign/"), status=201)
    assert Game.objects.get(pk=game.pk).deadline_at == deadline


def test_the_game_answer_says_when_the_server_plays_for_the_seat(make_client: MakeClient) -> None:
    """``deadline_at`` in the game answer (and the move's answer) is the game's timer: the turn
    clock's end, then the auto-confirm once the last roll is used, and none once it is over."""
    ann = make_client()
    game = new_game(player(ann), "yatzy", ["me"], turn_clock_seconds=60, auto_confirm_seconds=3)
    game_id = str(game.pk)
    moves = game_url(game_id, "moves/")

    def shown(answer: dict[str, Any]) -> Any:
        text = answer["deadline_at"]
        return None if text is None else datetime.fromisoformat(text)

    row = Game.objects.get(pk=game_id)
    assert shown(ann.ok("get", game_url(game_id))) == row.deadline_at
    assert row.deadline_at is not None and row.last_move_at is not None
    assert row.deadline_at - row.last_move_at == timedelta(seconds=60)
    for _ in range(3):
        answer = ann.ok("post", moves, {"type": "roll"}, status=201)["game"]
    row = Game.objects.get(pk=game_id)
    # The last roll used: the auto-confirm (3 s) comes before the clock's 60 s.
    assert row.deadline_at is not None and row.last_move_at is not None
    assert row.deadline_at - row.last_move_at == timedelta(seconds=3)
    assert shown(answer) == row.deadline_at == shown(ann.ok("get", game_url(game_id)))
    listed = ann.ok("get", GAMES)["results"]
    assert [shown(g) for g in listed if g["id"] == game_id] == [row.deadline_at]
    ann.ok("post", game_url(game_id, "resign/"), status=201)
    assert ann.ok("get", game_url(game_id))["deadline_at"] is None
