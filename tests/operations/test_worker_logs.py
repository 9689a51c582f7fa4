"""The real processes, once: two gunicorn workers (the WSGI tier as deployed), a Celery worker
(with beat) and the timers process, on PostgreSQL and Redis, logging JSON and sharing one
Prometheus multiprocess directory, as one machine of `make serve` plus its workers runs them.

- a move's request id, sent as ``X-Request-ID``, is in the web's JSON access line and in the
  worker's lines of the computer move that the request queued;
- every line the processes log is one JSON object;
- ``/metrics`` (through gunicorn) adds up both web processes' requests, the worker's tasks and
  the timers process's timer lag.

Skipped unless DATABASE_URL names PostgreSQL and REDIS_URL is set (CI sets both).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.parser import text_string_to_metric_families

from tests.automation.test_worker import Worker

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL"),
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]
COMPUTER_MOVE = "games.tasks.play_computer_move"


def free_port() -> int:
    for port in range(18150, 18200):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise AssertionError("no free port in 18150-18199")


class Web:
    """``gunicorn config.wsgi`` with config/deploy/gunicorn.conf.py and two workers."""

    def __init__(self, tmp: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.log_path = tmp / "web.log"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "-c",
                "config/deploy/gunicorn.conf.py",
            ],
            cwd=ROOT,
            env={
                **env,
                "API_BIND": f"127.0.0.1:{self.port}",
                "WEB_CONCURRENCY": "2",
                "GUNICORN_CONTROL_SOCKET": str(tmp / "gunicorn.ctl"),
            },
            stdout=self.log_path.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.requests: Counter[str] = Counter()
        for _poll in range(300):
            with contextlib.suppress(OSError):
                if self.call("GET", "/health/live")[0] == 200:
                    return
            assert self.process.poll() is None, self.log_path.read_text()[-3000:]
            time.sleep(0.1)
        raise AssertionError(f"gunicorn did not answer\n{self.log_path.read_text()[-3000:]}")

    def call(
        self, method: str, path: str, body: Any = None, token: str = "", request_id: str = ""
    ) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        if request_id:
            headers["X-Request-ID"] = request_id
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=data, method=method, headers=headers
        )
        self.requests[path] += 1
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            raw, status = error.read(), error.code
        return status, json.loads(raw) if raw and raw[:1] in b"{[" else raw

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture
def stack(tmp_path: Path, transactional_db: None) -> Iterator[tuple[Web, Worker, Path]]:
    from config.celery_app import app
    from config.storage.redis_client import redis_client

    app.control.purge()
    key = settings.GAMES_TIMERS_KEY
    redis_client().delete(key, f"{key}:version")
    directory = tmp_path / "prometheus"
    directory.mkdir()
    db = connection.settings_dict
    env = dict(
        os.environ,
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        DEBUG="false",
        SECRET_KEY="ops-test-" + "k" * 40,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_COOKIES="false",
        LOG_FORMAT="json",
        ACCESS_LOG="true",
        PROMETHEUS_MULTIPROC_DIR=str(directory),
        COMPUTER_MOVE_DELAY="0.05",
        SWEEP_SECONDS="0.5",
        TOURNAMENT_TICK_SECONDS="0.5",
    )
    worker = Worker(tmp_path, env)
    worker.start()
    web: Web | None = None
    try:
        web = Web(tmp_path, env)
        yield web, worker, directory
    finally:
        if web is not None:
            web.stop()
        worker.stop()


def json_lines(path: Path) -> list[dict[str, Any]]:
    """The log's JSON lines (a Celery worker also prints its banner as plain text)."""
    lines = path.read_text(errors="replace").splitlines()
    return [json.loads(line) for line in lines if line.startswith("{")]


def wait_for(condition: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def scrape(web: Web) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    status, body = web.call("GET", "/metrics")
    assert status == 200
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(body.decode())
        for sample in family.samples
    }


def requests_per_process(directory: Path, route: str) -> dict[str, float]:
    """dice_http_requests_total for ``route``, per process file of the directory."""
    counts: dict[str, float] = {}
    for path in directory.glob("counter_*.db"):
        for key, count, _ts, _pos in MmapedDict.read_all_values_from_file(str(path)):
            _metric, name, labels, _help = json.loads(key)
            if name == "dice_http_requests_total" and labels.get("route") == route:
                counts[path.stem] = counts.get(path.stem, 0) + count
    return counts


def test_one_request_id_through_web_and_worker_and_metrics_summed(
    stack: tuple[Web, Worker, Path],
) -> None:
    web, worker, directory = stack
    status, account = web.call(
        "POST", "/api/v1/accounts/register/", {"username": "ops-ann", "password": "a-long-pass-1"}
    )
    assert status == 201, account
    token = account["token"]
    seats = [{"type": "me"}, {"type": "computer"}]
    status, game = web.call("POST", "/api/v1/games/", {"kind": "yatzy", "seats": seats}, token)
    assert status == 201, game
    url = f"/api/v1/games/{game['id']}/"
    status, game = web.call("POST", url + "start/", None, token)
    assert status == 200, game

    def move(command: dict[str, Any], request_id: str) -> dict[str, Any]:
        body = {**command, "expected_version": game["version"]}
        status, answer = web.call("POST", url + "moves/", body, token, request_id)
        assert status == 201, answer
        result: dict[str, Any] = answer["game"]
        return result

    game = move({"type": "roll"}, "ops-roll-1")
    game = move({"type": "score", "box": "chance"}, "ops-score-1")  # the computer's turn next

    def back_to_ann() -> dict[str, Any] | None:
        _status, now = web.call("GET", url, None, token)
        return now if now["version"] > game["version"] and now["turn_seat"] == 0 else None

    game = wait_for(back_to_ann, 60, "the computer's turn, played by the worker")
    for roll in range(3):  # rolled out: left for the auto-confirm (3 s)
        game = move({"type": "roll"}, f"ops-roll-{2 + roll}")
    wait_for(
        lambda: scrape(web).get(("dice_timer_lag_seconds_count", frozenset()), 0) >= 1,
        60,
        "the timers process's auto-confirm",
    )
    with ThreadPoolExecutor(8) as pool:  # enough at once that both web processes answer
        statuses = list(pool.map(lambda _: web.call("GET", url, None, token)[0], range(40)))
    assert set(statuses) == {200}

    # Logs: one request id from the web's JSON line to the worker's.
    web_lines = json_lines(web.log_path)
    scored = [line for line in web_lines if line.get("request_id") == "ops-score-1"]
    assert [line["logger"] for line in scored] == ["dice.access"], scored
    assert scored[0]["route"] == "game-moves" and scored[0]["status"] == 201
    _status, me = web.call("GET", "/api/v1/accounts/me/", None, token)
    assert scored[0]["game_id"] == game["id"] and scored[0]["user_id"] == me["id"]
    worker_lines = json_lines(worker.tmp / f"worker{worker.starts}.log")
    carried = [line for line in worker_lines if line.get("request_id") == "ops-score-1"]
    assert carried, worker.log()
    assert {line.get("task") for line in carried} == {COMPUTER_MOVE}
    assert {line.get("game_id") for line in carried} == {game["id"]}
    for line in web_lines + worker_lines:
        assert {"time", "level", "logger", "message", "request_id"} <= line.keys(), line
    timers_lines = json_lines(worker.tmp / f"timers{worker.starts}.log")
    assert any("ready" in line["message"] for line in timers_lines)

    # Metrics: both web processes' requests, the worker's tasks, the timers' lag, in one page.
    samples = scrape(web)
    detail = frozenset({"route": "game-detail", "method": "GET", "status": "200"}.items())
    assert samples[("dice_http_requests_total", detail)] == web.requests[url]
    per_process = requests_per_process(directory, "game-detail")
    assert len([n for n in per_process.values() if n > 0]) == 2, per_process
    task = frozenset({"task": COMPUTER_MOVE, "state": "SUCCESS"}.items())
    assert samples[("dice_tasks_total", task)] >= 1
    assert samples[("dice_task_seconds_count", frozenset({("task", COMPUTER_MOVE)}))] >= 1
    assert samples[("dice_timer_lag_seconds_count", frozenset())] >= 1
    moves = sum(v for (name, _labels), v in samples.items() if name == "dice_moves_total")
    assert moves >= 4  # Ann's three and the computer's, from the web and the worker
