"""A player of the fault tests: one account's yatzy games against the computer, by HTTP through a
machine's proxy, as a bot plays them: its moves to the API, a long-poll on the stream tier to wait
for the computer. A long-poll that fails (the stream tier away) is asked again a moment later,
with the version it had: the player goes on through the fault.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable
from typing import Any

from games.models import GameStatus

#: A turn is a few seconds; a poll that sees no turn end returns after its wait. This many polls
#: is a time-out for a game that hangs, not a bound on how fast one plays.
POLLS_PER_TURN = 60
POLL_WAIT_SECONDS = 10
#: After a long-poll the stream tier did not answer.
REPOLL_SECONDS = 0.5


def request(port: int, method: str, path: str, body: Any = None, token: str = "") -> Any:
    """``(status, JSON body or None)``; the status is 0 when nothing answered."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=POLL_WAIT_SECONDS + 30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        status, data = response.status, response.read()
    except (OSError, http.client.HTTPException):
        return 0, None
    finally:
        conn.close()
    try:
        return status, json.loads(data) if data else None
    except ValueError:  # the proxy's own page
        return status, None


def wait_until(check: Callable[[], bool], polls: int = 600, every: float = 0.1) -> bool:
    """Until ``check()`` holds, or after ``polls`` looks (a time-out by their count, not by the
    clock): whether it held."""
    for _poll in range(polls):
        if check():
            return True
        time.sleep(every)
    return False


def turn_over(event: dict[str, Any]) -> bool:
    """The computer's turn scored, or the game over."""
    return bool(
        event["type"] == "game_finished"
        or (event["type"] == "box_scored" and event["data"].get("seat") == 1)
    )


class Player:
    """One account at ``port``; seat 0 of its games, the computer seat 1."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.token = token
        self.failed_polls = 0

    def call(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = request(self.port, method, path, body, self.token)
        assert 200 <= status < 300, (method, path, status, answer)
        return answer

    def new_game(
        self, *, auto_confirm_seconds: float, turn_clock_seconds: int | None = None
    ) -> Any:
        """A game against the computer, not started."""
        body = {
            "kind": "yatzy",
            "seats": [{"type": "me"}, {"type": "computer", "level": "casual"}],
            "options": {"auto_confirm_seconds": auto_confirm_seconds},
            "turn_clock_seconds": turn_clock_seconds,
        }
        return self.call("POST", "/api/v1/games/", body)

    def start(self, game_id: str) -> Any:
        return self.call("POST", f"/api/v1/games/{game_id}/start/", {})

    def move(self, game_id: str, command: dict[str, Any]) -> Any:
        return self.call("POST", f"/api/v1/games/{game_id}/moves/", command)["game"]

    def game(self, game_id: str) -> Any:
        return self.call("GET", f"/api/v1/games/{game_id}/")

    def my_turn(self, game: dict[str, Any]) -> bool:
        return bool(game["state"]["turn_seat"] == 0 and game["state"]["can_roll"])

    def wait_for_my_turn(self, game: dict[str, Any]) -> Any:
        """Long-polls until the computer has scored its turn (or the game is over); the game."""
        game_id, version = game["id"], game["version"]
        for _poll in range(POLLS_PER_TURN):
            path = f"/api/v1/games/{game_id}/events/?after={version}&wait={POLL_WAIT_SECONDS}"
            status, page = request(self.port, "GET", path, token=self.token)
            if status != 200 or page is None:
                self.failed_polls += 1
                time.sleep(REPOLL_SECONDS)
                continue
            version = page["version"]
            if any(turn_over(event) for event in page["events"]):
                game = self.game(game_id)
                if game["status"] == GameStatus.FINISHED or self.my_turn(game):
                    return game
        raise AssertionError(f"game {game_id} stopped at version {version}")
