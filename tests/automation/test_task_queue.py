"""CELERY_QUEUE names the queue every task is sent to (the timers' queue follows it), so servers
sharing a broker, such as the browser tests' live server (tests/webclient/live.py) next to a
developer's worker, never deliver each other's tasks. Settings are read at start: each case is a
process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.webclient.live import ROOT

ROUTES = """
import json
from config.celery_app import app
router = app.amqp.router
print(json.dumps({
    name: router.route({}, name)["queue"].name
    for name in ["games.tasks.play_computer_move", "games.tasks.timeout",
                 "games.tasks.sweep_automatic_moves"]
} | {"exchange": router.route({}, "games.tasks.play_computer_move")["queue"].exchange.name}))
"""


def routes(queue: str | None) -> dict[str, str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.pop("CELERY_QUEUE", None)
    if queue is not None:
        env["CELERY_QUEUE"] = queue
    done = subprocess.run(
        [sys.executable, "-c", ROUTES], cwd=ROOT, env=env, check=True, capture_output=True
    )
    routed: dict[str, str] = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return routed


def test_tasks_go_to_the_default_queues_unless_told() -> None:
    assert routes(None) == {
        "games.tasks.play_computer_move": "celery",
        "games.tasks.timeout": "timers",
        "games.tasks.sweep_automatic_moves": "celery",
        "exchange": "celery",
    }


def test_a_queue_of_its_own_takes_every_task_and_the_timers() -> None:
    assert routes("webclient-1234") == {
        "games.tasks.play_computer_move": "webclient-1234",
        "games.tasks.timeout": "webclient-1234-timers",
        "games.tasks.sweep_automatic_moves": "webclient-1234",
        # Its own exchange too: no binding is shared with the default queue's.
        "exchange": "webclient-1234",
    }
