"""Redis restarted empty in the middle of 50 live games (issue 25, item 4), on a stack as one
machine runs it: the web tier by `make serve`, the Celery worker, the timers process and beat with
config/deploy/Procfile's command lines (tests/serving/stacks.py), on the test PostgreSQL and on a
Redis server of the test's own (tests/reliability/private_redis.py), which holds everything Redis
holds for the service: the broker, the timers' wheel, the live bus, beat's lease, the throttles.

Played: 20 yatzy games between two computers (the worker plays every move), 10 of a player
against the computer and 20 of a player alone, where the player rolls three times and never
scores, so that each of its turns waits on its 3-second auto-confirm (the timers process fires
it). Eight clients follow a game's SSE stream. Injected: once auto-confirms are pending and
computer moves queued, Redis is killed (SIGKILL) and started again after ``DOWN_SECONDS``, empty;
half the streams lose their connection while it is away.

Checks: every game finishes and its log replays to its snapshot (no move lost); each of the
player's turns was scored exactly once, by the auto-confirm, and every auto-confirm pending at the
kill scored its turn (the sweep stood in for the timers Redis lost); the worker, the timers
process and beat are the processes started at the beginning (nothing restarted them, by hand or
otherwise); every stream saw each event once, in order, across its reconnections. Measured and
printed (``pytest tests/reliability/test_redis_restart.py -s``): the time until every game moved
again after Redis came back, how late the pending auto-confirms fired, the requests clients had to
try again, the streams' reconnections. Time bounds are generous: a time-out, not a pace.

Needs PostgreSQL, REDIS_URL (the suite's Redis: the test's own server is redis-server), and nginx.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import redis
from django.db import connection

from games.models import Game, GameEvent, GameStatus
from games.rules.yatzy import BOXES
from tests.automation.checks import assert_whole_log
from tests.factories import account, token
from tests.reliability import private_redis
from tests.reliability.live_play import Client, EventStream, YatzyPlayer
from tests.reliability.private_redis import RedisServer
from tests.serving.stacks import Stack, free_base_ports

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"),
    pytest.mark.skipif(not private_redis.available(), reason="needs redis-server"),
    pytest.mark.skipif(shutil.which("nginx") is None, reason="needs nginx (apt-get install nginx)"),
]

COMPUTER_GAMES = 20
PLAYER_GAMES = 30  # against the computer, then alone
AGAINST_COMPUTER = 10
PLAYERS = 6
STREAMS = 4  # of each kind of game
ROUNDS = len(BOXES)  # one turn of each seat per box
DOWN_SECONDS = 3.0
AUTO_CONFIRM_SECONDS = 3
POLL = 0.2


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with private_redis.private_redis(tmp_path) as server:
        yield server


@pytest.fixture
def stack(transactional_db: None, tmp_path: Path, redis_server: RedisServer) -> Iterator[Stack]:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": f"{redis_server.url}/0",
        "SECRET_KEY": "redis-restart-test-secret-key-0123456789-abcdefghijklmn",
        "DEBUG": "false",
        "LOG_FORMAT": "json",
        "THROTTLE_ANON": "1000000/s",
        "THROTTLE_USER": "1000000/s",
        "STREAM_OPENS_PER_MINUTE": "1000000",
        "STREAMS_PER_ADDRESS": "1000",
        "STREAMS_PER_ACCOUNT": "100",
        "WEB_CONCURRENCY": "2",
        "STREAM_WORKERS": "1",
        "DB_POOL_MAX": "4",
        "MAX_COMPUTER_GAMES_PER_ACCOUNT": "100",
        # A pause before each computer move: the worker holds them as countdown messages, not
        # acknowledged, when Redis dies (the path that made workers exit: config/broker.py).
        "COMPUTER_MOVE_DELAY": "0.2",
        "BEAT_LEASE_SECONDS": "3",
    }
    (port,) = free_base_ports(1, first=8700, last=8799)
    started = Stack("r", port, env, tmp_path)
    try:
        started.start()
        started.wait_ready()
        yield started
    finally:
        started.stop()


def new_game(client: Client, seats: list[dict[str, Any]]) -> str:
    body = {"kind": "yatzy", "seats": seats, "options": {"auto_confirm_seconds": 3}}
    game_id = str(client.ok("POST", "/api/v1/games/", body)["id"])
    client.ok("POST", f"/api/v1/games/{game_id}/start/", {})
    return game_id


def waiting_on_auto_confirm(game_ids: list[str]) -> dict[str, tuple[int, datetime]]:
    """The games among ``game_ids`` whose auto-confirm is pending: version and deadline."""
    rows = Game.objects.filter(
        pk__in=game_ids, status=GameStatus.ACTIVE, deadline_at__isnull=False
    ).values_list("pk", "version", "deadline_at")
    return {str(pk): (version, deadline) for pk, version, deadline in rows if deadline is not None}


def versions(game_ids: list[str]) -> dict[str, tuple[int, str]]:
    rows = Game.objects.filter(pk__in=game_ids).values_list("pk", "version", "status")
    return {str(pk): (version, status) for pk, version, status in rows}


def poll_until(condition: Any, polls: int, what: str) -> None:
    for _poll in range(polls):
        if condition():
            return
        time.sleep(POLL)
    raise AssertionError(f"{what}: not after {polls} polls")


def moved_again(games: list[str], back: float) -> tuple[dict[str, int], dict[str, float]]:
    """The games not over once Redis is back (at ``back``, monotonic), with their versions, and
    how long after ``back`` each moved again, polled until every one has."""
    before = {g: v for g, (v, status) in versions(games).items() if status != "finished"}
    moved_after: dict[str, float] = {}

    def all_moved() -> bool:
        now = time.monotonic() - back
        for game_id, (version, _status) in versions(list(before)).items():
            if version > before[game_id]:
                moved_after.setdefault(game_id, now)
        return len(moved_after) == len(before)

    poll_until(all_moved, 900, "every game moving again")
    return before, moved_after


def auto_confirms_scored_once(
    player_games: list[str], pending: dict[str, tuple[int, datetime]], back_at: datetime
) -> list[float]:
    """Each of the player's turns was scored once, by the auto-confirm (it never scores), and
    each auto-confirm pending at the kill scored the turn it waited on (the next event). Returns
    how late past its due (or past Redis's return, if later) each of those fired after it."""
    scored = GameEvent.objects.filter(game_id__in=player_games, type="box_scored", data__seat=0)
    assert Counter(str(e.game_id) for e in scored) == dict.fromkeys(player_games, ROUNDS)
    assert all(event.automatic and event.actor_id is None for event in scored)
    assert set(Counter((str(e.game_id), e.data["box"]) for e in scored).values()) == {1}
    lateness = []
    for game_id, (version, deadline) in pending.items():
        event = GameEvent.objects.get(game_id=game_id, seq=version + 1)
        assert (event.type, event.data["seat"], event.automatic) == ("box_scored", 0, True)
        if event.created_at > back_at:
            lateness.append((event.created_at - max(deadline, back_at)).total_seconds())
    return lateness


def test_redis_restarted_empty_mid_play(stack: Stack, redis_server: RedisServer) -> None:
    host = Client(stack, token(account("host")))
    players = [YatzyPlayer(stack, token(account(f"player{i}"))) for i in range(PLAYERS)]
    computer = {"type": "computer", "level": "casual"}
    computer_games = [new_game(host, [computer, computer]) for _ in range(COMPUTER_GAMES)]
    player_games = [
        new_game(players[i % PLAYERS], [{"type": "me"}, *([computer] * (i < AGAINST_COMPUTER))])
        for i in range(PLAYER_GAMES)
    ]
    games = computer_games + player_games
    streams = [EventStream(stack, g) for g in computer_games[:STREAMS] + player_games[:STREAMS]]
    for follower in streams:
        follower.start()
    processes = {name: stack.processes[name].popen.pid for name in ("worker", "timers", "beat")}
    broker = redis.Redis.from_url(f"{redis_server.url}/0")

    with ThreadPoolExecutor(PLAYER_GAMES) as pool:
        playing = [
            pool.submit(players[i % PLAYERS].play, game_id)
            for i, game_id in enumerate(player_games)
        ]
        # Mid-play: auto-confirms pending, computer moves queued.
        poll_until(lambda: len(waiting_on_auto_confirm(player_games)) >= 5, 600, "pending")
        pending = waiting_on_auto_confirm(player_games)
        at_kill = {
            "timers_in_the_wheel": broker.zcard("dice:timers"),
            "messages_queued": broker.llen("celery"),
            "messages_unacknowledged": broker.hlen("unacked"),
            "auto_confirms_pending": len(pending),
        }
        redis_server.kill()
        # Half the streams break while Redis is away: they resume from their Last-Event-ID.
        dropped = streams[::2]
        for follower in dropped:
            follower.drop()
        time.sleep(DOWN_SECONDS)
        redis_server.start()
        back, back_at = time.monotonic(), datetime.now(UTC)
        at_kill["keys_when_back"] = broker.dbsize()
        before, moved_after = moved_again(games, back)
        recovery = max(moved_after.values())
        print(
            json.dumps(
                {
                    "injected": f"redis-server SIGKILLed, started again empty {DOWN_SECONDS} s on",
                    "at_kill": at_kill,
                    "games_to_move_again": len(before),
                    "seconds_until_every_game_moved_again": round(recovery, 2),
                }
            )
        )
        for future in playing:
            future.result(timeout=900)
    poll_until(
        lambda: all(status == "finished" for _v, status in versions(games).values()),
        3000,
        "every game finished",
    )

    # No move lost: every game finished, its whole log replays to its snapshot.
    finished = list(Game.objects.filter(pk__in=games))
    assert len(finished) == len(games)
    for game in finished:
        assert game.status == GameStatus.FINISHED
        assert_whole_log(game)
    lateness = auto_confirms_scored_once(player_games, pending, back_at)

    # Nothing was restarted: the processes of the start are the ones running, none said it gave
    # up (the worker's exit read "Unrecoverable error").
    for name, pid in processes.items():
        assert stack.processes[name].alive() and stack.processes[name].popen.pid == pid, name
    assert "Unrecoverable" not in stack.processes["worker"].text()

    # Every stream saw each event once and in order, across its reconnections.
    final = {g: v for g, (v, _status) in versions(games).items()}
    for follower in streams:
        follower.until = final[follower.game_id]
        seen = f"{follower.game_id}: {len(follower.seqs)} events to {final[follower.game_id]}"
        assert follower.done.wait(timeout=120), seen
        assert follower.seqs == list(range(1, final[follower.game_id] + 1)), seen

    assert all(follower.connections > 1 for follower in dropped)
    print(
        json.dumps(
            {
                "games": len(games),
                "games_finished": len(finished),
                "auto_confirms_fired_after_redis_was_back": len(lateness),
                "latest_of_them_past_due_seconds": round(max(lateness, default=0.0), 2),
                "client_requests_tried_again": sum(p.failures for p in [host, *players]),
                "stream_connections": [follower.connections for follower in streams],
            }
        )
    )
    assert pending and len(before) >= COMPUTER_GAMES // 2  # the kill found games in play
    assert recovery < 120  # generous: the sweep's grace, beat's lease, the worker's reconnection
