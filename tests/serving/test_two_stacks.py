"""Two machines' worth of processes on one PostgreSQL and one Redis (docs/operations.md, "More
than one machine"): two web tiers (`make serve`), two Celery workers, two timers processes and
two beats (config/deploy/Procfile's commands; tests/serving/stacks.py starts them).

Fifty yatzy games against the computer, each with the auto-confirm, are played by HTTP through
both web tiers, every other request to each. The player rolls three times and never scores: every
one of its turns is scored by the auto-confirm, fired by one of the two timers processes, and the
computer's turns are played by the two workers. Midway the beat holding the lease is killed (no
clean stop), and the other takes it over; a tournament scheduled meanwhile is started by it.

Checks: every game finishes and replays to its snapshot; the player's every turn was scored once,
by the auto-confirm (so no timer fired twice, and none was lost); both timers processes fired some;
each beat sent tasks only while it held the lease, and never both at once; the tournament started
once (one first round, one game in it).

Needs PostgreSQL, Redis and nginx (CI installs it; skipped where any is missing).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game, GameEvent, GameStatus
from games.rules.yatzy import BOXES
from games.tournaments.models import Tournament, TournamentGame, TournamentRound
from tests.automation.checks import assert_whole_log
from tests.factories import account, new_tournament, token
from tests.serving.stacks import Stack, free_base_ports

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"),
    pytest.mark.skipif(shutil.which("nginx") is None, reason="needs nginx (apt-get install nginx)"),
]

GAMES = 50
PLAYERS = 10  # five games each: MAX_COMPUTER_GAMES_PER_ACCOUNT's default
ROUNDS = len(BOXES)  # one turn of each seat per box
LEASE_SECONDS = 3
FIRED = re.compile(r"timer fired: game=(?P<game>[0-9a-f-]+) version=(?P<version>\d+) moved=True")


@pytest.fixture
def stacks(transactional_db: None, tmp_path: Path) -> Iterator[tuple[Stack, Stack]]:
    from config.celery_app import app
    from config.storage.redis_client import redis_client

    app.control.purge()  # messages left by other tests name games that no longer exist
    db = connection.settings_dict
    run = uuid.uuid4().hex[:8]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "SECRET_KEY": "two-stacks-test-secret-key-0123456789-abcdefghijklmnop",
        "DEBUG": "false",
        "LOG_FORMAT": "json",  # the beats' lines are read below
        "THROTTLE_ANON": "1000000/s",
        "THROTTLE_USER": "1000000/s",
        # Every long-poll of the test comes from one address.
        "STREAM_OPENS_PER_MINUTE": "1000000",
        "STREAMS_PER_ADDRESS": "1000",
        "STREAMS_PER_ACCOUNT": "100",
        "WEB_CONCURRENCY": "2",
        "STREAM_WORKERS": "1",
        "DB_POOL_MAX": "4",  # two machines' processes stay well inside max_connections
        "COMPUTER_MOVE_DELAY": "0",
        # This run's own timers and lease: nothing left by another run is fired or held.
        "TIMERS_KEY": f"test-stacks:{run}:timers",
        "BEAT_LEASE_KEY": f"test-stacks:{run}:beat",
        "BEAT_LEASE_SECONDS": str(LEASE_SECONDS),
        "TOURNAMENT_TICK_SECONDS": "1",
    }
    # The timers processes log each fire (at DEBUG): which of the two fired what.
    extra = {"timers": {"LOG_LEVEL": "DEBUG"}}
    started: list[Stack] = []
    try:
        for name, port in zip(("a", "b"), free_base_ports(2), strict=True):
            stack = Stack(name, port, env, tmp_path, extra_env=extra)
            started.append(stack)
            # One after the other: `make serve` may first bring the virtualenv up to date.
            stack.start()
            stack.wait_ready()
        yield started[0], started[1]
    finally:
        for stack in started:
            stack.stop()
        redis_client().delete(env["TIMERS_KEY"], f"{env['TIMERS_KEY']}:version")
        redis_client().delete(env["BEAT_LEASE_KEY"])


class Player:
    """One account's games, every request to the next web tier in turn."""

    def __init__(self, tiers: tuple[Stack, Stack], token: str, first: int) -> None:
        self.tiers = tiers
        self.token = token
        self.turn = itertools.count(first)

    def call(self, method: str, path: str, body: Any = None, timeout: float = 30) -> Any:
        tier = self.tiers[next(self.turn) % 2]
        status, answer = tier.request(method, path, body, self.token, timeout=timeout)
        assert status < 300, (tier.name, method, path, status, answer)
        return answer

    def play(self) -> str:
        """A game against the computer, to its end: roll three times, let the auto-confirm score."""
        game = self.call(
            "POST",
            "/api/v1/games/",
            {
                "kind": "yatzy",
                "seats": [{"type": "me"}, {"type": "computer", "level": "casual"}],
                "options": {"auto_confirm_seconds": 0.5},
            },
        )
        game_id = game["id"]
        game = self.call("POST", f"/api/v1/games/{game_id}/start/", {})
        # A game is 26 turns; a poll that sees no turn end returns after its 20 s wait: this many
        # polls is a time-out for a game that hangs, not a bound on how fast one plays.
        polls_left = 300
        while game["status"] != GameStatus.FINISHED:
            state = game["state"]
            if state["turn_seat"] == 0 and state["can_roll"]:
                move = self.call("POST", f"/api/v1/games/{game_id}/moves/", {"type": "roll"})
                game = move["game"]
                continue
            # Long-polls on the stream tier until the computer has scored its turn (after the
            # auto-confirm scored ours): then it is our turn again, or the game is over.
            version = game["version"]
            while True:
                polls_left -= 1
                if polls_left < 0:
                    pytest.fail(f"game {game_id} never finished: {game}")
                path = f"/api/v1/games/{game_id}/events/?after={version}&wait=20"
                page = self.call("GET", path, timeout=40)
                version = page["version"]
                if any(turn_over(event) for event in page["events"]):
                    break
            game = self.call("GET", f"/api/v1/games/{game_id}/")
        return str(game_id)


def turn_over(event: dict[str, Any]) -> bool:
    """The computer's turn scored, or the game over."""
    return bool(
        event["type"] == "game_finished"
        or (event["type"] == "box_scored" and event["data"].get("seat") == 1)
    )


def holder(stacks: Sequence[Stack]) -> Stack | None:
    """The first of ``stacks`` whose beat has taken the lease."""
    for stack in stacks:
        if "holds the lease" in stack.processes["beat"].text():
            return stack
    return None


def wait_for_holder(stacks: Sequence[Stack], seconds: float) -> Stack:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = holder(stacks)
        if found is not None:
            return found
        time.sleep(0.2)
    raise AssertionError("no beat took the lease\n" + "\n".join(s.logs() for s in stacks))


def sent_before_holding(text: str) -> bool:
    """Whether beat's log shows a task sent before the beat took the lease."""
    sent = text.find("Sending due task")
    return sent != -1 and sent < text.find("holds the lease")


def times_of(text: str, message: str) -> list[str]:
    """The times (ISO, UTC: they sort as strings) of beat's JSON lines that say ``message``."""
    lines = (json.loads(line) for line in text.splitlines() if line.startswith("{"))
    return [line["time"] for line in lines if message in line.get("message", "")]


def test_two_stacks_play_fifty_games_with_every_timer_fired_once(
    stacks: tuple[Stack, Stack],
) -> None:
    players = [account(f"player{i}") for i in range(PLAYERS)]
    tokens = [token(player) for player in players]

    first = wait_for_holder(stacks, seconds=30)
    standby = stacks[1] if first is stacks[0] else stacks[0]
    with ThreadPoolExecutor(GAMES) as pool:
        playing = [
            pool.submit(Player(stacks, tokens[i % PLAYERS], first=i).play) for i in range(GAMES)
        ]
        # The holder's machine dies midway: its lease expires and the other beat takes over.
        time.sleep(5)
        first.processes["beat"].kill()
        second = wait_for_holder((standby,), seconds=LEASE_SECONDS + 10)
        # A tournament due once the first beat is gone: the second opens and starts it.
        cup = new_tournament(
            players[0],
            name="Two stacks cup",
            starts_at=timezone.now() + timedelta(seconds=3),
            computers=["casual", "casual"],
        )
        game_ids = [future.result(timeout=300) for future in playing]

    # Every game finished, its whole log replays to its snapshot.
    assert len(set(game_ids)) == GAMES
    games = list(Game.objects.filter(pk__in=game_ids))
    assert all(game.status == GameStatus.FINISHED for game in games)
    for game in games:
        assert_whole_log(game)

    # The player never scored: each of its turns was scored once, by the auto-confirm.
    scored = GameEvent.objects.filter(game__in=games, type="box_scored", data__seat=0)
    per_game = Counter(str(game_id) for game_id in scored.values_list("game_id", flat=True))
    assert per_game == dict.fromkeys(game_ids, ROUNDS)
    assert all(event.automatic and event.actor_id is None for event in scored)
    boxes = Counter((str(e.game_id), e.data["box"]) for e in scored)
    assert set(boxes.values()) == {1}  # no turn scored twice

    # Each fire that moved a game was fired once, by either timers process; both took part.
    fired = {
        stack.name: [m.groups() for m in FIRED.finditer(stack.processes["timers"].text())]
        for stack in stacks
    }
    everyone = fired["a"] + fired["b"]
    assert len(everyone) == len(set(everyone))
    assert fired["a"] and fired["b"], {name: len(f) for name, f in fired.items()}

    # Beat: the first holder alone sent until it died; the other only once it held the lease.
    # (How soon it takes over is tests/automation/test_beat_lock.py's: at its first look after
    # the dead holder's lease expired.)
    assert second is standby
    for stack in stacks:
        assert not sent_before_holding(stack.processes["beat"].text()), stack.name
    first_sent = times_of(first.processes["beat"].text(), "Sending due task")
    second_held = times_of(second.processes["beat"].text(), "holds the lease")
    assert first_sent and second_held
    assert max(first_sent) < min(second_held)  # never both at once

    # The tournament started once: one first round, one table in it, not replayed.
    for _poll in range(60):  # up to half a minute: a time-out, not a bound
        if Tournament.objects.get(pk=cup.pk).started_at is not None:
            break
        time.sleep(0.5)
    else:
        pytest.fail("the tournament never started")
    cup.refresh_from_db()
    assert cup.status in {"running", "finished"}
    assert TournamentRound.objects.filter(tournament=cup, number=1).count() == 1
    assert TournamentGame.objects.filter(round__tournament=cup, round__number=1).count() == 1

    # Both web tiers carried half of the players' requests.
    counts = [stack.requests for stack in stacks]
    assert abs(counts[0] - counts[1]) <= GAMES, counts
    print(json.dumps({"requests": counts, "fired": {k: len(v) for k, v in fired.items()}}))
