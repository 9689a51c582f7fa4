"""Metrics: HTTP requests by route (the URL's name, never the path) and status; Celery tasks'
durations, outcomes and failures; the queues' and timers' depths; and in multiprocess mode
(PROMETHEUS_MULTIPROC_DIR) ``/metrics`` adds up the web processes' and a worker's figures.

tests/operations/test_worker_logs.py reads them from two real gunicorn workers and a worker.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from pytest_django import Settings

from config.celery_app import app
from config.observability.queue_depth import queue_depths, timers_pending
from games import tasks  # registers the tasks QueuedTasks runs
from players.models import Player
from tests.doubles import QueuedTasks
from tests.factories import api_client, api_game, game_url, new_game, rolled_out

ROOT = Path(__file__).resolve().parents[2]


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scraped(body: bytes) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(body.decode())
        for sample in family.samples
    }


@pytest.mark.django_db
def test_http_requests_are_counted_by_route_and_status() -> None:
    client = api_client()
    game = api_game(client)
    before = value("dice_http_requests_total", route="game-detail", method="GET", status="200")
    missing = value("dice_http_requests_total", route="unmatched", method="GET", status="404")
    timed = value("dice_http_request_seconds_count", route="game-detail")
    client.get(game_url(game["id"]))
    client.get(game_url(game["id"]))
    client.get("/no/such/path/")
    assert (
        value("dice_http_requests_total", route="game-detail", method="GET", status="200")
        == before + 2
    )
    assert value("dice_http_requests_total", route="unmatched", method="GET", status="404") == (
        missing + 1
    )
    assert value("dice_http_request_seconds_count", route="game-detail") == timed + 2
    stale = client.post(game_url(game["id"], "moves/"), {"type": "roll", "expected_version": 0})
    assert stale.status_code == 409
    assert value("dice_http_requests_total", route="game-moves", method="POST", status="409") >= 1
    # No series is ever labelled with a path (a game's id would make one per game).
    paths = [
        s.labels["route"]
        for family in REGISTRY.collect()
        if family.name == "dice_http_requests"
        for s in family.samples
        if "/" in s.labels.get("route", "")
    ]
    assert paths == []


@pytest.mark.django_db(transaction=True)
def test_tasks_are_timed_and_their_outcomes_counted(ann: Player, settings: Settings) -> None:
    settings.GAMES_TIMERS = "database"
    worker = QueuedTasks(app)
    name = "games.tasks.play_computer_move"
    ran = value("dice_tasks_total", task=name, state="SUCCESS")
    timed = value("dice_task_seconds_count", task=name)
    failed = value("dice_task_failures_total", task=name)
    new_game(ann, "yatzy", [{"type": "computer"}, "me"])
    moves = worker.run()
    assert moves > 0
    assert value("dice_tasks_total", task=name, state="SUCCESS") == ran + moves
    assert value("dice_task_seconds_count", task=name) == timed + moves
    tasks.play_computer_move.apply(("not-a-game-id", 1))  # raises inside: a failure
    assert value("dice_task_failures_total", task=name) == failed + 1
    assert value("dice_tasks_total", task=name, state="FAILURE") >= 1


def default_queues(settings: Settings) -> None:
    """The queues' default names, whatever CELERY_QUEUE this run was given."""
    settings.CELERY_TASK_DEFAULT_QUEUE = "celery"
    settings.CELERY_TASK_ROUTES = {"games.tasks.timeout": {"queue": "timers"}}


def test_queue_depths_in_a_broker_of_files(settings: Settings, tmp_path: Path) -> None:
    default_queues(settings)
    settings.CELERY_BROKER_URL = "filesystem://"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"data_folder_out": str(tmp_path)}
    for name in ("1_a.celery.msg", "2_b.celery.msg", "3_c.timers.msg", "other.txt"):
        (tmp_path / name).write_text("{}")
    assert queue_depths() == {"celery": 2, "timers": 1}


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL")
def test_queue_depths_on_redis(settings: Settings) -> None:
    import redis

    default_queues(settings)
    settings.CELERY_BROKER_URL = os.environ["REDIS_URL"]
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.delete("celery", "timers")
    client.rpush("celery", "a", "b", "c")
    try:
        assert queue_depths() == {"celery": 3, "timers": 0}
    finally:
        client.delete("celery")


@pytest.mark.django_db
def test_timers_pending_and_overdue_from_the_games(ann: Player, settings: Settings) -> None:
    settings.GAMES_TIMERS = "database"
    game = rolled_out(new_game(ann), ann)  # auto-confirm due in 3 s
    assert game.deadline_at is not None
    due = game.deadline_at.timestamp()
    assert timers_pending(now=due - 1) == (1, 0)
    assert timers_pending(now=due + 1) == (1, 1)


@pytest.mark.django_db
def test_metrics_page_exports_the_queues(client: Client) -> None:
    body = client.get("/metrics").content.decode()
    assert "# TYPE dice_timers_pending gauge" in body
    assert "# TYPE dice_queue_depth gauge" in body
    assert "dice_http_requests_total" in body


# One process of each kind, in multiprocess mode: two web processes answer requests through the
# WSGI application, a worker process records a timer's lag and a task.
WEB = """
import django, os
django.setup()
from django.test import Client
client = Client(HTTP_HOST="localhost")
for _ in range({n}):
    assert client.get("/health/live").status_code == 200
"""
WORKER = """
import django
django.setup()
from config.observability.metrics import TASKS, TIMER_LAG_SECONDS
TIMER_LAG_SECONDS.observe(0.25)
TIMER_LAG_SECONDS.observe(0.75)
TASKS.labels("games.tasks.play_computer_move", "SUCCESS").inc(3)
"""


@pytest.mark.django_db
def test_metrics_add_up_every_process_of_the_multiprocess_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    directory = tmp_path / "prometheus"
    directory.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory), "LOG_LEVEL": "WARNING"}
    for script in (WEB.format(n=3), WEB.format(n=4), WORKER):
        subprocess.run(
            [sys.executable, "-c", textwrap.dedent(script)], cwd=ROOT, env=env, check=True
        )
    # Three processes wrote their own files; this one reads them all, as /metrics does.
    assert len({path.name.rsplit("_", 1)[-1] for path in directory.glob("*.db")}) == 3
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(directory))
    samples = scraped(client.get("/metrics").content)
    health = frozenset({"route": "health-live", "method": "GET", "status": "200"}.items())
    assert samples[("dice_http_requests_total", health)] == 7  # 3 + 4, two processes
    assert samples[("dice_timer_lag_seconds_count", frozenset())] == 2
    assert samples[("dice_timer_lag_seconds_bucket", frozenset({("le", "0.5")}))] == 1
    task = frozenset({"task": "games.tasks.play_computer_move", "state": "SUCCESS"}.items())
    assert samples[("dice_tasks_total", task)] == 3


async def stream_tier_metrics(client: str, authorization: str = "") -> list[dict[str, Any]]:
    from games.streams.app import StreamApp

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        raise AssertionError("not read")

    headers = [(b"authorization", authorization.encode())] if authorization else []
    scope = {
        "type": "http", "method": "GET", "path": "/metrics", "headers": headers,
        "client": (client, 50000),
    }  # fmt: skip
    await StreamApp()(scope, receive, send)
    return sent


@pytest.mark.asyncio
async def test_the_stream_tier_answers_metrics_itself_to_the_operators(settings: Settings) -> None:
    settings.INTERNAL_TOKEN = ""
    here = await stream_tier_metrics("127.0.0.1")
    assert here[0]["status"] == 200
    assert b"dice_streams_open" in here[1]["body"]
    assert (await stream_tier_metrics("10.1.2.3"))[0]["status"] == 403
    settings.INTERNAL_TOKEN = "s3cret"
    assert (await stream_tier_metrics("10.1.2.3", "Bearer s3cret"))[0]["status"] == 200
    assert (await stream_tier_metrics("127.0.0.1", "Bearer wrong"))[0]["status"] == 403
