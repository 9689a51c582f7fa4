"""Helpers to play yatzy games through HTTP in tests (their games: tests/factories.py)."""

from __future__ import annotations

from typing import Any

from games.rules import yatzy
from tests.factories import Client, game_url


def play_turn(client: Client, game: dict[str, Any], turn: int) -> dict[str, Any]:
    """Play one turn for the seat to move: roll, hold the commonest face, score the best box."""
    url = game_url(game["id"], "moves/")
    body = client.ok("post", url, {"type": "roll", "expected_version": game["version"]}, status=201)
    for _ in range(turn % 3):  # vary the number of rolls: 1, 2 or 3
        state = body["game"]["state"]
        dice = state["dice"]
        face = max(set(dice), key=dice.count)
        hold = [i for i, d in enumerate(dice) if d == face]
        body = client.ok("post", url, {"type": "roll", "hold": hold}, status=201)
    state = body["game"]["state"]
    legal = state["legal_boxes"]
    assert legal, state
    best = max(legal, key=lambda option: option["points"])
    body = client.ok("post", url, {"type": "score", "box": best["box"]}, status=201)
    game_after: dict[str, Any] = body["game"]
    return game_after


def expected_totals_from_events(events: list[dict[str, Any]], seats: int) -> list[int]:
    """Totals computed from the log alone, independently of the engine's sheet totals."""
    upper = [0] * seats
    lower = [0] * seats
    bonus = [0] * seats
    for event in events:
        if event["type"] != "box_scored":
            continue
        data = event["data"]
        seat = data["seat"]
        if data["box"] in yatzy.UPPER_BOXES:
            upper[seat] += data["points"]
        else:
            lower[seat] += data["points"]
        bonus[seat] += data["yatzy_bonus"]
    return [upper[s] + (35 if upper[s] >= 63 else 0) + lower[s] + bonus[s] for s in range(seats)]
