"""PostgreSQL stopped for a few seconds under a whole stack, mid-play (issue 25).

Injected: a private PostgreSQL (tests/reliability/private_postgres.py) under `make serve` and the
Procfile's worker, timers process and beat (tests/reliability/fault_stack.py) is stopped with
``pg_ctl stop -m fast`` (or ``immediate``) while games against the computer are being played by
HTTP (the client rolls, the auto-confirm scores, the worker plays the computer), and started
again ``OUTAGE_SECONDS`` later. A probe reads one game every tenth of a second throughout.

Checked: every answer during the outage is a 503 ``service_unavailable`` with ``Retry-After``
(never a 500, a 502 or a traceback); no request from the stop on took longer than 10 s;
readiness said not ready; the pools reconnected by themselves (no process restarted, and the
probe served again); every game finished, and every game's log replays to its snapshot
(``manage.py verify_log`` on the private server). Printed: the 503s, the slowest request, the
time from the server's return to the probe's first answer.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.reliability.fault_stack import (
    GAMES,
    Answer,
    Client,
    manage,
    play_to_the_end,
    register,
    stack_on_private_server,
    start_computer_game,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

PLAYERS = 4
GAMES_EACH = 2
OUTAGE_SECONDS = 4.0
SLOWEST_ALLOWED = 10.0


def probe(client: Client, path: str, stop: threading.Event) -> None:
    while not stop.is_set():
        client.call("GET", path, timeout=20)
        time.sleep(0.1)


# fast: the server ends its sessions, saying so; immediate: they die as in a crash, and the
# server recovers from its log on the way back.
@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_postgres_stopped_mid_play_is_503_then_every_game_finishes(
    tmp_path: Path, mode: str
) -> None:
    with stack_on_private_server(tmp_path) as (stack, server):
        answers: list[Answer] = []
        clients = [register(stack.port, answers, f"outage{i}") for i in range(PLAYERS)]
        games = [start_computer_game(client) for client in clients for _ in range(GAMES_EACH)]
        probes: list[Answer] = []
        prober = Client(stack.port, probes, clients[0].token)
        health: list[Answer] = []
        stop_probing = threading.Event()

        with ThreadPoolExecutor(len(games) + 1) as pool:
            pool.submit(probe, prober, f"{GAMES}{games[0]}/", stop_probing)
            playing = [
                pool.submit(play_to_the_end, clients[i // GAMES_EACH], game_id)
                for i, game_id in enumerate(games)
            ]
            time.sleep(3)  # the games under way
            went = time.monotonic()
            server.stop(mode)
            health_client = Client(stack.port, health)
            while time.monotonic() - went < OUTAGE_SECONDS:
                health_client.call("GET", "/health/ready")
                time.sleep(0.5)
            server.start()
            back = time.monotonic()
            finished = [future.result(timeout=900) for future in playing]
            stop_probing.set()

        everyone = answers + probes
        during = [a for a in everyone if a.ended > went and a.started < back]
        unavailable = [a for a in everyone if a.status == 503]
        # From the stop on (the accounts' sign-ups before it hash passwords: slow by design).
        slowest = max((a for a in everyone if a.ended > went), key=lambda a: a.seconds)
        recovered = min(a.ended for a in probes if a.status == 200 and a.ended > back) - back
        statuses = Counter(a.status for a in everyone)
        ready_after = stack.request("GET", "/health/ready", count=False)
        verified = manage(stack.env, "verify_log")
        print(
            json.dumps(
                {
                    "injected": f"pg_ctl stop -m {mode}, started again after {OUTAGE_SECONDS} s",
                    "games": len(games),
                    "requests": len(everyone),
                    "statuses": dict(sorted(statuses.items())),
                    "answered_during_outage": len(during),
                    "503": len(unavailable),
                    "503_after_return": sum(a.started > back for a in unavailable),
                    "slowest_seconds": round(slowest.seconds, 2),
                    "slowest": f"{slowest.method} {slowest.path} {slowest.status}",
                    "first_success_after_return_seconds": round(recovered, 2),
                    "health_during_outage": sorted({a.status for a in health}),
                    "verify_log": verified.stdout.strip().splitlines()[-1:],
                }
            )
        )

        # The outage was felt, and said so: 503 with its code and Retry-After, nothing else.
        assert unavailable, "no request met the outage"
        assert set(statuses) <= {200, 201, 409, 503}, statuses
        for answer in unavailable:
            assert answer.code == "service_unavailable", answer.text[:300]
            assert answer.retry_after is not None and int(answer.retry_after) > 0
            assert answer.body["retry_after"] == int(answer.retry_after)
        assert not any("Traceback" in a.text for a in everyone)
        # Refusals other than the outage's: a move that met a game moved on meanwhile.
        assert {a.code for a in everyone if a.status == 409} <= {"stale_version", "not_your_turn"}
        # Bounded: no request waited on the stopped server past the bound.
        assert slowest.seconds <= SLOWEST_ALLOWED, slowest
        # Readiness said so, and says ready again.
        assert 503 in {a.status for a in health}
        assert ready_after[0] == 200, ready_after

        # The pools came back by themselves: no process restarted, the probe served again.
        assert recovered < SLOWEST_ALLOWED
        assert all(process.alive() for process in stack.processes.values()), stack.logs()
        booted = re.findall(r"Booting worker", stack.processes["web"].text())
        assert len(booted) == int(stack.env["WEB_CONCURRENCY"]), stack.logs()

        # Every game finished, and every log replays to its snapshot.
        assert all(game["status"] == "finished" for game in finished)
        assert verified.returncode == 0, verified.stdout + verified.stderr
