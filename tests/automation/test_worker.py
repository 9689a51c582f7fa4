"""The real thing, once: a Celery worker process (with beat) and the timers process on Redis and
PostgreSQL. Everything else the worker does is tested in this process, on an injected clock
(tests/automation/test_worker_tasks.py).

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

from games.models import GameEvent
from players.models import Player
from tests.automation.checks import assert_whole_log
from tests.factories import new_game, rolled_out

pytestmark = [
    pytest.mark.slow,
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
                # The queues this test process sends to (CELERY_QUEUE): another run on the
                # same Redis with its own queue neither feeds this worker nor is fed by it.
                f"--queues={settings.CELERY_TASK_DEFAULT_QUEUE},{settings.CELERY_TIMERS_QUEUE}",
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
    from config.storage.redis_client import redis_client

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


def test_a_real_worker_fires_the_auto_confirm_and_plays_the_computer_turn(
    ann: Player, worker: Worker
) -> None:
    """End to end: the timers process scores Ann's turn 3 s after her last roll, never before;
    then the worker plays the computer's whole turn."""
    game = rolled_out(new_game(ann, "yatzy", ["me", "computer"]), ann)
    last_roll = GameEvent.objects.filter(game=game).latest("seq")
    wait_for(
        lambda: GameEvent.objects.filter(game=game, type="box_scored", data__seat=1).exists(),
        60,
        "the auto-confirm and the computer's turn",
        worker,
    )
    scored = GameEvent.objects.get(game=game, type="box_scored", data__seat=0)
    assert scored.automatic and scored.actor is None
    waited = scored.created_at - last_roll.created_at
    # Never early; how late it is at p99 under load is bench/'s business, not a test's.
    assert waited >= timedelta(seconds=3), waited
    computer = GameEvent.objects.filter(game=game, data__seat=1)
    assert computer.exists() and all(event.automatic for event in computer)
    assert_whole_log(game)


def test_a_real_worker_writes_an_accounts_export_a_step_at_a_time(worker: Worker) -> None:
    """The web request only asks; the worker writes every step (each queuing the next) and the
    account downloads the document (games.accounts.export_files)."""
    import gzip
    import json

    from players.models import AccountExport
    from tests.factories import api_client, scored_turn

    ann = api_client("ann")
    player = Player.objects.get(username="ann")
    games = [new_game(player, "yatzy", ["me"]) for _ in range(3)]
    for game in games:
        scored_turn(game, player)
    # A hundred games a step (EXPORT_BATCH): three steps, the head, the games, the tail.
    assert ann.post("/api/v1/accounts/me/export/").status_code == 202
    wait_for(
        lambda: AccountExport.objects.filter(player=player, status="ready").exists(),
        60,
        "the worker to write the export",
        worker,
    )
    assert AccountExport.objects.get(player=player).parts == 3
    response: Any = ann.get("/api/v1/accounts/me/export/download/", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    document = json.loads(gzip.decompress(b"".join(response.streaming_content)))
    assert [g["id"] for g in document["games"]] == [str(g.pk) for g in games]
