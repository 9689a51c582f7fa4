"""More than one gunicorn worker without Redis would keep one set of throttle and sign-in guard
counts per worker (each process's own cache): a client would get every limit once per worker.
gunicorn's configuration refuses to start so, with words that say why, and ``make serve`` runs
that check before it starts anything."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.serving.stacks import Process

ROOT = Path(__file__).resolve().parents[2]
CONF = "config/deploy/gunicorn.conf.py"
WORDS = "without REDIS_URL would each keep their own throttle and sign-in guard counts"


def without_redis(**env: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "WEB_CONCURRENCY"}}
    return {**clean, "DEBUG": "true", **env}


def gunicorn_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """gunicorn reads its configuration (and loads the application), then exits."""
    command = [sys.executable, "-m", "gunicorn", "--check-config", "-c", CONF, "config.wsgi"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_gunicorn_refuses_workers_without_redis_and_says_why() -> None:
    refused = gunicorn_check(without_redis(WEB_CONCURRENCY="2"))
    assert refused.returncode != 0
    assert f"WEB_CONCURRENCY=2 gunicorn workers {WORDS}" in refused.stderr + refused.stdout
    # One worker has one set of counts; with Redis, any number share theirs.
    assert gunicorn_check(without_redis(WEB_CONCURRENCY="1")).returncode == 0
    with_redis = without_redis(WEB_CONCURRENCY="4", REDIS_URL="redis://127.0.0.1:6379/14")
    assert gunicorn_check(with_redis).returncode == 0


def test_make_serve_refuses_to_start_so_before_anything_starts(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = without_redis(SECRET_KEY="shared-counts-test-secret-key-0123456789-abcdefghijkl")
    serve = Process(
        "serve", ["make", "serve", f"PORT={port}", "WEB_CONCURRENCY=3"], env, tmp_path / "out"
    )
    deadline = time.monotonic() + 90
    while serve.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    if serve.alive():  # it started the stack: stop everything it started
        serve.stop()
        pytest.fail(f"make serve started without REDIS_URL:\n{serve.text()[-2000:]}")
    assert serve.popen.returncode != 0
    output = serve.text()
    assert f"WEB_CONCURRENCY=3 gunicorn workers {WORDS}" in output
    # Refused before anything started: no proxy configuration written, no process supervised.
    assert "supervise" not in output and "collectstatic" not in output
    assert not (ROOT / "var" / "nginx" / str(port)).exists()
