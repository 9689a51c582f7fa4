"""The stream tier killed mid-play and started again (issue 25, item 4).

A machine as `make serve` runs it (nginx in front of gunicorn and the stream tier, each its own
process here: tests/reliability/machine.py), with the Procfile's worker, timers process and beat.
Yatzy games against the computer are played by HTTP: the players' moves to the WSGI tier, their
waits as long-polls on the stream tier. Every game is followed by SSE clients (its ``stream/``,
and its ``events/`` asked for as a stream), every player's account stream too.

Injected: once every game is under way, the stream tier's processes are SIGKILLed, as a machine
loses them; ``DOWN_SECONDS`` later they are started again with the same command. Meanwhile the
games go on through the WSGI tier.

Checks: every follower saw its stream drop and came back, resuming with ``Last-Event-ID``, and
together its connections gave it every event of the game once, in order, equal to the game's log
(``GET events/``): no gap, no duplicate. Every account stream opened again and heard notes
after the restart. Every game finished.

Printed: the answers clients got while the tier was away, and the time from the restart until
each follower had a stream again and received events again (the slowest and the median).

Needs PostgreSQL, Redis and nginx (skipped where any is missing).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from games.models import Game, GameStatus
from tests.automation.checks import assert_whole_log
from tests.factories import account, token
from tests.reliability.following import Follower
from tests.reliability.machine import Machine, new_run, server_env
from tests.reliability.playing import Player, request, wait_until
from tests.serving.stacks import free_base_ports

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"),
    pytest.mark.skipif(shutil.which("nginx") is None, reason="needs nginx (apt-get install nginx)"),
]

PLAYERS = 4
GAMES_EACH = 2
#: How long the stream tier stays dead.
DOWN_SECONDS = 3.0
#: The stream tier's processes: more than one, so that the kill takes a supervisor and its workers.
STREAM_WORKERS = 2
#: Every game this far in when the tier is killed (a yatzy game is about 100 events).
KILLED_AT_VERSION = 12
#: Between two of a player's moves: the games last long enough to outlive the outage.
PACE_SECONDS = 0.15


@pytest.fixture
def machine(transactional_db: None, tmp_path: Path) -> Iterator[Machine]:
    run = new_run()
    env = server_env(
        run, STREAM_WORKERS=str(STREAM_WORKERS), COMPUTER_MOVE_DELAY="0.2", LOG_LEVEL="INFO"
    )
    (port,) = free_base_ports(1, first=8900, last=8999)
    machine = Machine("m", port, env, tmp_path)
    try:
        machine.start()
        machine.wait_ready(seconds=300)
        yield machine
    finally:
        machine.stop()


def play(player: Player, game_id: str) -> None:
    """Roll twice and score the first legal box, every turn, to the end."""
    game = player.start(game_id)
    while game["status"] != GameStatus.FINISHED:
        if not player.my_turn(game):
            game = player.wait_for_my_turn(game)
            continue
        for command in ({"type": "roll"}, {"type": "roll"}):
            game = player.move(game_id, command)
            time.sleep(PACE_SECONDS)
        box = game["state"]["legal_boxes"][0]["box"]
        game = player.move(game_id, {"type": "score", "box": box})
        time.sleep(PACE_SECONDS)


def versions(game_ids: list[str]) -> dict[str, int]:
    rows = Game.objects.filter(pk__in=game_ids).values_list("pk", "version")
    return {str(pk): version for pk, version in rows}


def log_of(machine: Machine, game_id: str) -> list[dict[str, Any]]:
    status, page = machine.request("GET", f"/api/v1/games/{game_id}/events/?after=0&limit=500")
    assert status == 200, page
    return list(page["events"])


@dataclass(frozen=True)
class Kill:
    killed_at: float  # time.monotonic()
    restarted_at: float
    up_at: float  # the tier answered again
    at_kill: dict[str, int]  # each game's version
    at_restart: dict[str, int]


def play_through_a_restart(
    machine: Machine, tables: list[tuple[Player, str]], followers: list[Follower]
) -> Kill:
    """Every game played to its end, the stream tier killed and restarted once all are under
    way and every follower has its stream."""
    game_ids = [game_id for _player, game_id in tables]
    opened = wait_until(lambda: all(f.connected_since(0) for f in followers))
    assert opened, [f.attempts for f in followers]
    with ThreadPoolExecutor(len(tables)) as pool:
        playing = [pool.submit(play, player, game_id) for player, game_id in tables]
        under_way = Game.objects.filter(pk__in=game_ids, version__gte=KILLED_AT_VERSION)
        assert wait_until(lambda: under_way.count() == len(game_ids), polls=1200)
        at_kill = versions(game_ids)
        killed_at = time.monotonic()
        machine.kill("streams")
        time.sleep(DOWN_SECONDS)
        at_restart = versions(game_ids)
        restarted_at = time.monotonic()
        machine.restart("streams")
        # How long the tier takes to start, whatever the clients do: its own port answers.
        stream_tier = f"/api/v1/games/{tables[0][1]}/events/?after=0&wait=0.1"
        assert wait_until(lambda: request(machine.port + 2, "GET", stream_tier)[0] == 200, 3000)
        up_at = time.monotonic()
        for future in playing:
            future.result(timeout=600)
    return Kill(killed_at, restarted_at, up_at, at_kill, at_restart)


def test_streams_resume_without_gap_or_duplicate_after_the_stream_tier_restarts(
    machine: Machine,
) -> None:
    players = [Player(machine.port, token(account(f"streamer{i}"))) for i in range(PLAYERS)]
    tables = [
        (player, player.new_game(auto_confirm_seconds=0)["id"])
        for player in players
        for _game in range(GAMES_EACH)
    ]
    game_ids = [game_id for _player, game_id in tables]

    followers = {
        game_id: [
            Follower(machine.port, f"/api/v1/games/{game_id}/stream/").start(),
            Follower(machine.port, f"/api/v1/games/{game_id}/events/?after=0").start(),
        ]
        for game_id in game_ids
    }
    accounts = [
        Follower(machine.port, "/api/v1/stream/", {"Authorization": f"Token {p.token}"}).start()
        for p in players
    ]
    everyone = [f for pair in followers.values() for f in pair]
    try:
        kill = play_through_a_restart(machine, tables, everyone + accounts)
        games = {str(game.pk): game for game in Game.objects.filter(pk__in=game_ids)}
        assert all(game.status == GameStatus.FINISHED for game in games.values())
        for game in games.values():
            assert_whole_log(game)
        for game_id, pair in followers.items():
            for follower in pair:
                # Up to the last event, or the looks run out: the checks below say what came.
                final = games[game_id].version
                wait_until(lambda f=follower, n=final: len(f.frames) >= n)  # type: ignore[misc]
        wait_until(lambda: all(a.connected_since(kill.restarted_at) for a in accounts))
        time.sleep(1)  # anything repeated after the last event would have arrived by now
    finally:
        for follower in everyone + accounts:
            follower.close()
    killed_at, restarted_at = kill.killed_at, kill.restarted_at

    for game_id, pair in followers.items():
        log = log_of(machine, game_id)
        for follower in pair:
            # Every event once, in order, as the log has it: the drop cost nothing.
            seen = [frame.data for frame in follower.frames]
            assert [e["seq"] for e in seen] == [e["seq"] for e in log], follower.path
            assert seen == log, follower.path
            assert [frame.id for frame in follower.frames] == [str(e["seq"]) for e in log]
            # It did lose its stream, and came back where it was.
            assert follower.drops and follower.drops[0] >= killed_at, follower.path
            resumed = [a for a in follower.attempts if a.at >= restarted_at and a.status == 200]
            assert resumed and resumed[0].last_event_id is not None, follower.path
    for follower in accounts:
        assert follower.drops and follower.drops[0] >= killed_at
        assert any(frame.at >= restarted_at for frame in follower.frames), follower.headers

    # The figures: what clients were answered while the tier was away, and how long they waited.
    def since_restart(times: list[float]) -> float:
        return min(t for t in times if t >= restarted_at) - restarted_at

    back = [since_restart([a.at for a in f.attempts if a.status == 200]) for f in everyone]
    heard = [since_restart([frame.at for frame in f.frames]) for f in everyone]
    notes = [since_restart([frame.at for frame in f.frames]) for f in accounts]
    during = Counter(
        str(a.status)
        for f in everyone + accounts
        for a in f.attempts
        if killed_at <= a.at < restarted_at + max(back) and a.status != 200
    )
    while_away = sum(kill.at_restart[game_id] - kill.at_kill[game_id] for game_id in game_ids)
    print(
        json.dumps(
            {
                "injected": {
                    "killed": "streams (SIGKILL, every process)",
                    "stream_workers": STREAM_WORKERS,
                    "down_seconds": DOWN_SECONDS,
                },
                "games": len(game_ids),
                "game_followers": len(everyone),
                "account_followers": len(accounts),
                "answers_while_away": dict(during),
                "events_committed_while_away": while_away,
                "player_polls_failed": sum(p.failed_polls for p in players),
                "seconds_from_restart_until": {
                    "stream_tier_answering": round(kill.up_at - restarted_at, 2),
                    "every_follower_streaming": round(max(back), 2),
                    "median_follower_streaming": round(statistics.median(back), 2),
                    "every_follower_had_events": round(max(heard), 2),
                    "median_follower_had_events": round(statistics.median(heard), 2),
                    "every_account_stream_had_notes": round(max(notes), 2),
                },
            }
        )
    )
