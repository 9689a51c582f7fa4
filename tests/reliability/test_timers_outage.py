"""The timers process and beat stopped for a minute, then started again (issue 25, item 4).

A machine as `make serve` runs it, with the Procfile's worker, timers process and beat
(tests/reliability/machine.py). Yatzy games against the computer are played by HTTP; the player
rolls three times and never scores, so that every one of its turns is scored by the auto-confirm,
3 s after the last roll (as tests/serving/test_two_stacks.py plays them). A few games also have a
turn clock, on which the player does not even roll its first turn.

Injected: half the games make their third roll at once, and the timers process and beat are
SIGKILLed (as a machine dies) while those wait on their auto-confirm; the other half make theirs
one by one, their deadlines a moment apart and in an order unlike the games', and the clocked
games are started. ``OUTAGE_SECONDS`` later both are started again with the same commands.

Checks: nothing fired while they were away; every timer then overdue fired once, after the
restart (each of the player's turns scored once, automatically, no box twice, no fire twice in the
timers process's log), those due after the kill in the order of their deadlines as far as the
timers process promises it: it claims the earliest first, ``TIMERS_THREADS`` at a time, so a fire
may overtake at most that many less one fires due before it, and beat's sweep (a sequential
catch-up) none. Every game then finishes and replays to its snapshot.

Printed: what was injected; how many timers were overdue, how many the timers process fired and
how many the sweep; how long after the restart the first and the last of them fired.

Needs PostgreSQL, Redis and nginx (skipped where any is missing).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from games.models import Game, GameEvent, GameStatus
from games.rules.yatzy import BOXES
from tests.automation.checks import assert_whole_log
from tests.factories import account, token
from tests.reliability.machine import Machine, new_run, server_env
from tests.reliability.playing import Player, wait_until
from tests.serving.stacks import free_base_ports

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"),
    pytest.mark.skipif(shutil.which("nginx") is None, reason="needs nginx (apt-get install nginx)"),
]

#: How long the timers process and beat stay dead (the issue's minute).
OUTAGE_SECONDS = 60.0
PLAYERS = 4
#: Games waiting on the auto-confirm, and games waiting on a turn clock.
GAMES = 24
CLOCKED = 4
AUTO_CONFIRM_SECONDS = 3.0
TURN_CLOCK_SECONDS = 15  # the shortest a player may choose
#: The timers process's threads (its default): fires claimed together may finish in any order.
TIMERS_THREADS = 2
#: Between two third rolls: each timer has a deadline of its own.
STAGGER_SECONDS = 0.2
ROUNDS = len(BOXES)
FIRED = re.compile(r"timer fired: game=(?P<game>[0-9a-f-]+) version=(?P<version>\d+) moved=True")


@pytest.fixture
def machine(transactional_db: None, tmp_path: Path) -> Iterator[Machine]:
    from config.storage.redis_client import redis_client

    run = new_run()
    env = server_env(
        run,
        COMPUTER_MOVE_DELAY="0",
        MAX_COMPUTER_GAMES_PER_ACCOUNT=str(GAMES + CLOCKED),
        # Every game is made before any starts: each player's all wait for players at once.
        MAX_OPEN_GAMES_PER_ACCOUNT=str(GAMES + CLOCKED),
        TIMERS_THREADS=str(TIMERS_THREADS),
    )
    (port,) = free_base_ports(1, first=8900, last=8999)
    # The timers process logs each fire (at DEBUG): which it fired, and which the sweep did.
    machine = Machine("m", port, env, tmp_path, extra_env={"timers": {"LOG_LEVEL": "DEBUG"}})
    try:
        machine.start()
        machine.wait_ready(seconds=300)
        yield machine
    finally:
        machine.stop()
        timers = env["TIMERS_KEY"]
        redis_client().delete(timers, f"{timers}:version", env["BEAT_LEASE_KEY"])
        redis_client().delete(env["CELERY_QUEUE"])


def new_games(players: list[Player], count: int, **options: Any) -> list[tuple[Player, str]]:
    """``count`` games, each of the next player in turn: (its player, its id)."""
    tables = []
    for index in range(count):
        player = players[index % len(players)]
        game = player.new_game(auto_confirm_seconds=AUTO_CONFIRM_SECONDS, **options)
        tables.append((player, str(game["id"])))
    return tables


def roll_out(player: Player, game_id: str) -> Any:
    """Three rolls, no score: the auto-confirm is due ``AUTO_CONFIRM_SECONDS`` after the last."""
    game = None
    for _roll in range(3):
        game = player.move(game_id, {"type": "roll"})
    return game


def roll_twice(player: Player, game_id: str) -> Any:
    """The game's first turn left to the auto-confirm, then two rolls of its second."""
    game = player.start(game_id)
    roll_out(player, game_id)
    game = player.wait_for_my_turn(game)
    player.move(game_id, {"type": "roll"})
    return player.move(game_id, {"type": "roll"})


def finish(player: Player, game: dict[str, Any]) -> None:
    """Every turn left to the auto-confirm, to the end (from a turn left to its timer, or one
    whose timer fired before the kill)."""
    while game["status"] != GameStatus.FINISHED:
        if player.my_turn(game):
            roll_out(player, game["id"])
            game = player.game(game["id"])
        else:
            game = player.wait_for_my_turn(game)


@dataclass(frozen=True)
class Timer:
    game: str
    version: int  # the version it was set for
    deadline: datetime
    clocked: bool


@dataclass(frozen=True)
class Outage:
    killed: float  # time.time()
    restarted: float
    waiting: dict[str, int]  # each game's version its timer was set for
    overdue: list[Timer]  # those still waiting at the restart, by deadline
    before_kill: set[str]  # the games whose third roll came before the kill


def fire_of(game_id: str, version: int) -> GameEvent:
    """The event that ended a wait on a timer set for ``version``: the first after it."""
    return GameEvent.objects.get(game_id=game_id, seq=version + 1)


def play_through_an_outage(
    machine: Machine, auto: list[tuple[Player, str]], clocked: list[tuple[Player, str]]
) -> Outage:
    with ThreadPoolExecutor(len(auto)) as pool:
        games = list(pool.map(lambda table: roll_twice(*table), auto))
    waiting: dict[str, int] = {}

    def third_roll(table: tuple[Player, str]) -> None:
        player, game_id = table
        waiting[game_id] = player.move(game_id, {"type": "roll"})["version"]

    # Half at once, just before the kill, so that they are still waiting at it (a few of them
    # may not be, on a slow machine); the other half after it, one by one, against the order
    # the games were made, so that no other order (of ids, of rows) passes for the deadlines'.
    half = len(auto) // 2
    with ThreadPoolExecutor(half) as pool:
        list(pool.map(third_roll, auto[half:]))
    killed = time.time()
    machine.kill("timers", "beat")
    for table in reversed(auto[:half]):
        third_roll(table)
        time.sleep(STAGGER_SECONDS)
    for player, game_id in clocked:
        waiting[game_id] = player.start(game_id)["version"]
        time.sleep(STAGGER_SECONDS)
    assert all(game["state"]["rolls_left"] == 1 for game in games)
    time.sleep(max(0.0, killed + OUTAGE_SECONDS - time.time()))

    # Read before the restart: what was waiting on the timers when they came back.
    rows = list(
        Game.objects.filter(pk__in=list(waiting)).values_list("pk", "version", "deadline_at")
    )
    restarted = time.time()
    machine.restart("timers", "beat")
    clocks = {game_id for _player, game_id in clocked}
    overdue = []
    for pk, version, deadline in rows:
        if version == waiting[str(pk)]:  # still waiting on its timer
            assert deadline is not None, pk
            overdue.append(Timer(str(pk), version, deadline, str(pk) in clocks))
    before_kill = {game_id for _player, game_id in auto[half:]}
    # Before the players go on (a clocked game's player would roll the turn its clock is for).
    timers = {timer.game: timer.version for timer in overdue}
    fired = Game.objects.filter(pk__in=list(timers))

    def moved_on() -> bool:
        return all(v > timers[str(pk)] for pk, v in fired.values_list("pk", "version"))

    assert wait_until(moved_on, polls=1200), "an overdue timer never fired"
    by_deadline = sorted(overdue, key=lambda timer: timer.deadline)
    return Outage(killed, restarted, waiting, by_deadline, before_kill)


def logged_at(text: str, words: str) -> float | None:
    """When a process's JSON log first said ``words`` (epoch seconds), if it did."""
    for line in text.splitlines():
        if line.startswith("{") and words in (entry := json.loads(line)).get("message", ""):
            return datetime.fromisoformat(entry["time"]).timestamp()
    return None


def overtaken(fires: list[float]) -> list[int]:
    """For each fire, in deadline order: how many fires due before it came after it."""
    return [sum(earlier > fire for earlier in fires[:i]) for i, fire in enumerate(fires)]


def test_overdue_timers_fire_once_in_order_after_the_timers_process_and_beat_come_back(
    machine: Machine,
) -> None:
    players = [Player(machine.port, token(account(f"timed{i}"))) for i in range(PLAYERS)]
    auto = new_games(players, GAMES)
    clocked = new_games(players, CLOCKED, turn_clock_seconds=TURN_CLOCK_SECONDS)
    outage = play_through_an_outage(machine, auto, clocked)
    with ThreadPoolExecutor(len(auto) + len(clocked)) as pool:
        tables = auto + clocked
        playing = [pool.submit(finish, player, player.game(game_id)) for player, game_id in tables]
        for future in playing:
            future.result(timeout=900)

    # Every game finished; each of the player's turns was scored once, by a timer.
    game_ids = [game_id for _player, game_id in auto + clocked]
    games = list(Game.objects.filter(pk__in=game_ids))
    assert all(game.status == GameStatus.FINISHED for game in games)
    for game in games:
        assert_whole_log(game)
    scored = GameEvent.objects.filter(game__in=games, type="box_scored", data__seat=0)
    per_game = Counter(str(game_id) for game_id in scored.values_list("game_id", flat=True))
    assert per_game == dict.fromkeys(game_ids, ROUNDS)
    assert all(event.automatic and event.actor_id is None for event in scored)
    assert set(Counter((e.game_id, e.data["box"]) for e in scored).values()) == {1}
    runs = [m.groups() for m in FIRED.finditer(machine.text("timers"))]
    assert len(runs) == len(set(runs))  # no timer fired twice by the timers process

    # Every timer set after the kill was still waiting at the restart, and overdue by then; one
    # set before it may have fired first, never while the processes were away.
    overdue = outage.overdue
    waiting = {timer.game for timer in overdue}
    assert set(game_ids) - outage.before_kill <= waiting
    assert all(timer.deadline.timestamp() < outage.restarted for timer in overdue)
    for game_id in outage.before_kill - waiting:
        early = fire_of(game_id, outage.waiting[game_id])
        assert early.automatic and early.created_at.timestamp() < outage.killed, game_id

    # Each overdue timer fired after the restart, automatically, in deadline order but for fires
    # claimed together. (One due before the kill may have been claimed by the killed process and
    # lost from the wheel: the sweep's, after its grace, in an order the timers process does not
    # see. The order is checked of those due after the kill.)
    fires = [fire_of(timer.game, timer.version) for timer in overdue]
    assert all(fire.automatic and fire.actor_id is None for fire in fires)
    at = [fire.created_at.timestamp() for fire in fires]
    assert min(at) >= outage.restarted
    after_kill = [
        fire
        for timer, fire in zip(overdue, at, strict=True)
        if timer.deadline.timestamp() > outage.killed
    ]
    seen = [
        (timer.deadline.timestamp() - outage.killed, fire - outage.restarted, timer.clocked)
        for timer, fire in zip(overdue, at, strict=True)
    ]
    assert len(after_kill) >= GAMES // 2 + CLOCKED
    assert max(overtaken(after_kill)) <= TIMERS_THREADS - 1, (overtaken(after_kill), seen)

    # The figures: who fired the overdue timers (the timers process logs each of its fires),
    # and when, after the restart.
    by_runner = {(timer.game, str(timer.version)) for timer in overdue} & set(runs)
    timers, beat = machine.runs["timers"][-1], machine.runs["beat"][-1]

    def since(moment: float | None) -> float | None:
        return None if moment is None else round(moment - outage.restarted, 2)

    print(
        json.dumps(
            {
                "injected": {
                    "killed": "timers, beat (SIGKILL)",
                    "outage_seconds": round(outage.restarted - outage.killed, 1),
                },
                "overdue": {
                    "auto_confirm": sum(not timer.clocked for timer in overdue),
                    "turn_clock": sum(timer.clocked for timer in overdue),
                },
                "fired_by": {
                    "timers_process": len(by_runner),
                    "sweep": len(fires) - len(by_runner),
                },
                "seconds_from_restart_until": {
                    "timers_ready": since(logged_at(timers.text(), "ready")),
                    "beat_holding_the_lease": since(logged_at(beat.text(), "holds the lease")),
                    "first_fire": round(min(at) - outage.restarted, 2),
                    "last_fire": round(max(at) - outage.restarted, 2),
                },
                "fires_overtaking_earlier_deadlines": sum(1 for n in overtaken(at) if n),
                "overdue_due_before_the_kill": len(at) - len(after_kill),
            }
        )
    )
