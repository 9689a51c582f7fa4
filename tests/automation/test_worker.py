"""The real thing: a Celery worker process (with beat) on Redis and PostgreSQL, not eager mode.

Skipped unless DATABASE_URL names PostgreSQL and REDIS_URL is set (CI sets both): a worker in
another process must see the test database, which SQLite's in-memory test database is not.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import services, tasks
from games.models import Game, GameEvent, GameStatus
from games.selectors import game_replay_matches_snapshot
from players.models import Player

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"),
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]


class Worker:
    """A `celery worker -B` subprocess pointed at the test database, and beside it the timers
    process (`manage.py run_timers`), as config/deploy/Procfile runs them."""

    def __init__(self, tmp: Path, env: dict[str, str]) -> None:
        self.tmp = tmp
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.timers: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        self.timers = subprocess.Popen(
            [sys.executable, "manage.py", "run_timers", "--threads=2"],
            cwd=ROOT,
            env=self.env,
            stdout=(self.tmp / f"timers{self.starts}.log").open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log = (self.tmp / f"worker{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-B",
                "--pool=solo",
                "--queues=celery,timers",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--schedule",
                str(self.tmp / "beat-schedule"),
                "--hostname",
                f"test{self.starts}@%h",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            # Its own process group: -B forks a beat process, which must die with the worker.
            start_new_session=True,
        )
        for _poll in range(300):  # up to a minute for both to say they are ready
            if b"ready" in (self.tmp / f"worker{self.starts}.log").read_bytes() and (
                b"ready" in (self.tmp / f"timers{self.starts}.log").read_bytes()
            ):
                return
            assert self.process.poll() is None, self.log()
            assert self.timers.poll() is None, self.log()
            time.sleep(0.2)
        raise AssertionError(f"the worker or the timers never became ready\n{self.log()}")

    def kill(self) -> None:
        """Kill the worker, its beat and the timers at once, as a lost machine would."""
        for process in (self.process, self.timers):
            assert process is not None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)

    def stop(self) -> None:
        for process in (self.process, self.timers):
            if process is None:
                continue
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)
            # Whatever it forked and left behind goes too.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)

    def log(self) -> str:
        worker = (self.tmp / f"worker{self.starts}.log").read_text(errors="replace")[-3000:]
        timers = (self.tmp / f"timers{self.starts}.log").read_text(errors="replace")[-1500:]
        return f"{worker}\n--- timers ---\n{timers}"


@pytest.fixture
def worker(tmp_path: Path, transactional_db: None) -> Iterator[Worker]:
    from config.celery_app import app
    from config.redis_client import redis_client

    app.control.purge()  # messages left by other tests name games that no longer exist
    key = settings.GAMES_TIMERS_KEY
    redis_client().delete(key, f"{key}:version")  # and so do timers
    db = connection.settings_dict
    env = dict(
        os.environ,
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        COMPUTER_MOVE_DELAY="0.05",
        SWEEP_SECONDS="0.5",
        SWEEP_GRACE_SECONDS="0.5",
        CELERY_VISIBILITY_TIMEOUT="10",
        TOURNAMENT_TICK_SECONDS="0.5",
    )
    process = Worker(tmp_path, env)
    process.start()
    yield process
    process.stop()


def wait_for(condition: Callable[[], Any], seconds: float, what: str, worker: Worker) -> Any:
    """Poll ``condition`` every 0.1 s, for about ``seconds`` at most (a time-out, not a bound)."""
    for _poll in range(int(seconds * 10)):
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}\n{worker.log()}")


def new_game(kind: str, seats: list[dict[str, str]], **options: object) -> tuple[Game, Player]:
    ann = Player.objects.create_user("ann", password="ann-password-1")
    specs = [services.SeatSpec(**seat) for seat in seats]
    game = services.game_create(creator=ann, kind=kind, seats=specs, options=options)
    services.game_start(game_id=game.pk, player=ann)
    return Game.objects.get(pk=game.pk), ann


def finished(game: Game) -> bool:
    return Game.objects.filter(pk=game.pk, status=GameStatus.FINISHED).exists()


def assert_whole_log(game: Game) -> None:
    game.refresh_from_db()
    seqs = list(GameEvent.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    assert game_replay_matches_snapshot(game)


def human_turn(game: Game, ann: Player) -> None:
    """Ann rolls once and fills her first free box."""
    services.game_move(game_id=game.pk, command={"type": "roll"}, actor=ann)
    sheet = Game.objects.get(pk=game.pk).state["sheets"][0]
    box = next(box for box, points in sheet.items() if points is None)
    services.game_move(game_id=game.pk, command={"type": "score", "box": box}, actor=ann)


def test_a_game_with_a_computer_seat_plays_to_the_end(worker: Worker) -> None:
    game, ann = new_game("yatzy", [{"type": "me"}, {"type": "computer"}])
    for _turn in range(13):
        human_turn(game, ann)
        wait_for(
            lambda: finished(game) or Game.objects.get(pk=game.pk).turn_seat == 0,
            60,
            "the computer's turn",
            worker,
        )
    assert finished(game)
    computer = GameEvent.objects.filter(game=game, automatic=True)
    assert computer.filter(type="box_scored").count() == 13
    assert not GameEvent.objects.filter(game=game, automatic=False, data__seat=1).exists()
    assert_whole_log(game)


def test_a_computer_only_game_needs_no_human_at_all(worker: Worker) -> None:
    game, _ = new_game(
        "yatzy", [{"type": "computer", "level": "optimal"}, {"type": "computer", "level": "casual"}]
    )
    wait_for(lambda: finished(game), 120, "the end of the game", worker)
    assert_whole_log(game)


def roll_out(game: Game, ann: Player) -> GameEvent:
    services.game_move(game_id=game.pk, command={"type": "roll"}, actor=ann)
    services.game_move(game_id=game.pk, command={"type": "roll", "hold": [0]}, actor=ann)
    services.game_move(game_id=game.pk, command={"type": "roll", "hold": [0]}, actor=ann)
    return GameEvent.objects.filter(game=game).latest("seq")


def test_auto_confirm_scores_once_after_three_seconds(worker: Worker) -> None:
    game, ann = new_game("yatzy", [{"type": "me"}, {"type": "hotseat", "name": "Bo"}])
    last_roll = roll_out(game, ann)
    scored = wait_for(
        lambda: GameEvent.objects.filter(game=game, type="box_scored").first(),
        15,
        "the auto-confirm",
        worker,
    )
    assert scored.automatic and scored.actor is None
    waited = scored.created_at - last_roll.created_at
    # Never early; how late it is at p99 under load is bench/'s business, not a test's.
    assert waited >= timedelta(seconds=3), waited
    time.sleep(1.5)  # a second timer or the sweep would show up by now
    assert GameEvent.objects.filter(game=game, type="box_scored").count() == 1
    assert_whole_log(game)


def test_a_player_who_scores_at_2_9_seconds_wins(worker: Worker) -> None:
    game, ann = new_game("yatzy", [{"type": "me"}, {"type": "hotseat", "name": "Bo"}])
    last_roll = roll_out(game, ann)
    game.refresh_from_db()
    assert game.deadline_at - game.last_move_at == timedelta(seconds=3)
    # Score 2.9 s after the roll was recorded, 0.1 s before the auto-confirm is due.
    elapsed = (timezone.now() - last_roll.created_at).total_seconds()
    time.sleep(max(2.9 - elapsed, 0))
    services.game_move(game_id=game.pk, command={"type": "score", "box": "chance"}, actor=ann)
    time.sleep(2.5)  # past the deadline and the sweep's grace
    scores = GameEvent.objects.filter(game=game, type="box_scored")
    assert scores.count() == 1
    assert not scores.get().automatic
    assert scores.get().data["box"] == "chance"
    assert_whole_log(game)


def test_stale_and_duplicate_tasks_do_nothing(worker: Worker) -> None:
    game, ann = new_game("yatzy", [{"type": "me"}, {"type": "hotseat", "name": "Bo"}])
    roll_out(game, ann)
    game.refresh_from_db()
    stale = game.version - 1
    tasks.fire_timer.delay(str(game.pk), stale)
    time.sleep(1.0)
    assert not GameEvent.objects.filter(game=game, type="box_scored").exists()
    # The same timer delivered twice, both due now: one score.
    Game.objects.filter(pk=game.pk).update(deadline_at=game.deadline_at - timedelta(seconds=3))
    tasks.fire_timer.delay(str(game.pk), game.version)
    tasks.fire_timer.delay(str(game.pk), game.version)
    wait_for(
        lambda: GameEvent.objects.filter(game=game, type="box_scored").exists(), 10, "score", worker
    )
    time.sleep(1.0)
    assert GameEvent.objects.filter(game=game, type="box_scored").count() == 1
    assert_whole_log(game)


def test_a_worker_killed_mid_turn_loses_and_doubles_nothing(worker: Worker) -> None:
    game, _ = new_game("yatzy", [{"type": "computer"}, {"type": "computer", "level": "casual"}])
    wait_for(lambda: Game.objects.get(pk=game.pk).version >= 12, 60, "a few moves", worker)
    worker.kill()
    stopped_at = Game.objects.get(pk=game.pk).version
    time.sleep(0.5)
    assert Game.objects.get(pk=game.pk).version == stopped_at  # nobody else is playing
    worker.start()  # its beat sweeps the stalled turn back to life
    wait_for(lambda: finished(game), 180, "the end of the game after a restart", worker)
    assert GameEvent.objects.filter(game=game, type="box_scored").count() == 26
    assert_whole_log(game)


def test_a_tournament_runs_on_the_worker_and_beat_with_an_absent_human(worker: Worker) -> None:

    from games.tournaments import services as tournaments
    from games.tournaments.models import Tournament, TournamentStatus

    organiser = Player.objects.create_user("org", password="org-password-1", is_staff=True)
    away = Player.objects.create_user("away", password="away-password-1")
    cup = tournaments.tournament_create(
        created_by=organiser,
        name="Worker cup",
        kind="yatzy",
        format="round_robin",
        starts_at=timezone.now() + timedelta(seconds=2),
        turn_clock_seconds=1,
        computers=["casual", "optimal"],
    )
    tournaments.tournament_register(tournament_id=cup.pk, player=away)

    def over() -> bool:
        return Tournament.objects.get(pk=cup.pk).status == TournamentStatus.FINISHED

    wait_for(over, 240, "the end of the tournament", worker)  # beat starts it, the clock plays
    games = Game.objects.filter(tournament_game__round__tournament=cup)
    assert games.count() == 3 and all(game.status == GameStatus.FINISHED for game in games)
    for game in games.filter(seats__player=away):
        seat = game.seats.get(player=away).index
        played = GameEvent.objects.filter(game=game, data__seat=seat, type="box_scored")
        assert played.count() == 13
        assert all(event.automatic for event in played)  # every turn handed to the computer
        assert_whole_log(game)
