"""Helpers to play Dés 10 000 games through HTTP in tests (their games: tests/factories.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.rules.ten_thousand import MAX_ROUNDS, keep_options, score_keep
from tests.doubles import ScriptedDice
from tests.factories import Client, game_url


def move(
    client: Client, game_id: str, move_type: str, keep: Sequence[int] = (), **extra: Any
) -> Any:
    """One accepted move; returns ``{"events": [...], "game": {...}}``."""
    return client.ok(
        "post",
        game_url(game_id, "moves/"),
        {"type": move_type, "keep": list(keep), **extra},
        status=201,
    )


def play_scripted_turn(
    client: Client,
    game_id: str,
    dice: ScriptedDice,
    steps: Sequence[tuple[Sequence[int], Sequence[int]]],
) -> list[dict[str, Any]]:
    """Play a whole turn with chosen dice.

    ``steps`` is ``[(roll, keep), ...]``: each roll is thrown by the previous command (the first by
    a plain roll), then ``keep`` is set aside with the next roll, or with the bank for the last
    step. Returns the response bodies, the first roll's included.
    """
    dice.push(*(roll for roll, _ in steps))
    bodies = [move(client, game_id, "roll")]
    for number, (_, keep) in enumerate(steps):
        move_type = "bank" if number == len(steps) - 1 else "roll"
        bodies.append(move(client, game_id, move_type, keep))
    return bodies


def all_events(client: Client, game_id: str, page: int = 100) -> list[dict[str, Any]]:
    """The whole log, read page by page with ``?after=``."""
    events: list[dict[str, Any]] = []
    while True:
        url = game_url(game_id, "events/") + f"?after={len(events)}&limit={page}"
        body = client.ok("get", url)
        events.extend(body["events"])
        if len(body["events"]) < page:
            assert body["version"] == len(events)
            return events


def choose_keep(roll: Sequence[int], scoring: Sequence[int], fewest: bool) -> list[int]:
    """A keep that scores: every scoring die if they score together (or the best option), or
    with ``fewest`` the smallest scoring set-aside (which leaves the most dice to roll)."""
    options = keep_options(roll)
    assert options, roll
    if not fewest and score_keep(roll[i] for i in scoring) is not None:
        return sorted(scoring)
    faces = min(options, key=lambda o: (len(o[0]), -o[1]))[0] if fewest else options[0][0]
    left = list(faces)
    indices = []
    for index, face in enumerate(roll):
        if face in left:
            left.remove(face)
            indices.append(index)
    assert score_keep(roll[i] for i in indices) is not None
    return indices


def play_until_finished(
    client: Client, game: dict[str, Any], bank_at: int = 300, max_moves: int = 1000
) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Play every seat from ``client`` with a simple policy until the game ends.

    Returns the final game and the presented state seen after each move, by version.
    """
    seen: dict[int, dict[str, Any]] = {game["version"]: game["state"]}
    for number in range(max_moves):
        state = game["state"]
        if game["status"] == "finished":
            return game, seen
        roll = state["roll"]
        if not roll:
            body = move(client, game["id"], "roll", expected_version=game["version"])
        else:
            assert state["must_set_aside"]
            assert state["can_bank"]
            keep = choose_keep(roll, state["scoring_indices"], fewest=number % 3 == 0)
            assert set(keep) <= set(state["scoring_indices"])
            points = score_keep(roll[i] for i in keep)
            assert points is not None
            assert points <= state["best_keep_points"]
            move_type = "bank" if state["turn_points"] + points >= bank_at else "roll"
            body = move(client, game["id"], move_type, keep, expected_version=game["version"])
            aside = body["events"][0]
            assert aside["type"] == "dice_set_aside"
            assert aside["data"]["indices"] == sorted(keep)
            assert aside["data"]["points"] == points
        game = body["game"]
        seen[game["version"]] = game["state"]
    raise AssertionError(f"game not finished after {max_moves} moves")


def check_event_log(events: list[dict[str, Any]], seats: int, target: int) -> list[int]:
    """Re-derive the game from its log alone, independently of the engine; returns the totals."""
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[0]["type"] == "game_started"
    assert events[0]["data"] == {
        "type": "game_started",
        "seats": seats,
        "options": {"target": target},
        "max_rounds": MAX_ROUNDS,
    }
    totals = [0] * seats
    turn = 0
    seat = 0
    in_play = 6
    trigger: int | None = None
    turns_after_trigger = 0
    for event in events[1:]:
        data = event["data"]
        event_type = event["type"]
        assert data["type"] == event_type
        if event_type in ("dice_rolled", "dice_set_aside", "hot_dice", "round_lost", "turn_banked"):
            assert data["seat"] == seat, event
        if event_type == "dice_rolled":
            assert len(data["dice"]) == in_play
        elif event_type == "dice_set_aside":
            assert data["points"] == score_keep(data["dice"])
            turn += data["points"]
            in_play -= len(data["dice"])
        elif event_type == "hot_dice":
            assert in_play == 0
            assert data["turn_points"] == turn
            in_play = 6
        elif event_type in ("round_lost", "turn_banked"):
            if event_type == "round_lost":
                assert data["lost_points"] == turn
            else:
                assert data["points"] == turn > 0
                totals[seat] += turn
                assert data["total"] == totals[seat]
            if trigger is not None:
                turns_after_trigger += 1
            turn, in_play, seat = 0, 6, (seat + 1) % seats
        elif event_type == "last_round_started":
            assert trigger is None
            assert totals[data["seat"]] >= target
            assert all(t < target for s, t in enumerate(totals) if s != data["seat"])
            trigger = data["seat"]
        elif event_type == "game_finished":
            assert event is events[-1]
            assert trigger is not None
            assert seat == trigger
            assert turns_after_trigger == seats - 1
            assert data["totals"] == totals
            assert data["places"] == [1 + sum(o > t for o in totals) for t in totals]
        else:
            raise AssertionError(f"unexpected event {event}")
    return totals
