"""Every bench runs in its smoke mode, so that a bench that breaks fails `make test`.

``bench/X.py --smoke`` runs the bench at tiny sizes through the code paths of a full run, and
checks that its own figures add up (errors 0, counts that agree: never a time); it exits 1 when a
check fails. Each runs here as a subprocess, as a person runs it, and must exit 0 having printed
its figures. The figures of full runs are read by people, never asserted on.

A bench makes its own database (``dice_bench..._smoke``: never the test database, nor a full
run's) and uses its own Redis db (3, 4, 5, 6, 9, 10 or 13; the suite's is REDIS_URL's, db 0
in CI), on 127.0.0.1 as CI has them; it is started without the suite's DATABASE_URL and
REDIS_URL. What a bench needs besides (PostgreSQL, Redis, nginx, wrk, a C compiler, valgrind)
skips it where it is missing, as in the serving tests; CI has them all.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
# What the scripts share: modules, not benches (no ``__main__``).
SHARED = {"harness.py", "wrk_load.py", "native_reader.py"}
# A bench's clean-up (its servers, database, Redis db) once it is told to stop.
STOP_SECONDS = 60

POSTGRES = pytest.mark.postgres
REDIS = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL")
# make serve looks nginx up in PATH, which the benches extend with /usr/sbin (Debian keeps it there)
NGINX_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin"])
NGINX = pytest.mark.skipif(
    shutil.which("nginx", path=NGINX_PATH) is None, reason="needs nginx (apt-get install nginx)"
)
WRK = pytest.mark.skipif(shutil.which("wrk") is None, reason="needs wrk (apt-get install wrk)")
CC = pytest.mark.skipif(
    shutil.which(os.environ.get("CC", "cc")) is None, reason="needs a C compiler (cc)"
)
VALGRIND = pytest.mark.skipif(
    shutil.which("valgrind") is None, reason="needs valgrind (apt-get install valgrind)"
)
SLOW = pytest.mark.slow


@dataclass(frozen=True)
class Smoke:
    figures: tuple[str, ...]  # lines the bench must print (regular expressions, one line each)
    marks: tuple[pytest.MarkDecorator, ...] = ()
    timeout: float = 300.0  # seconds: the servers' start-up on a loaded machine included


SMOKES: dict[str, Smoke] = {
    "analysis_cache.py": Smoke(
        (r"^analysis/ \(finished\) +[1-9]\d* +[\d.]+", r"^replay/\?at= \(halfway\) +[1-9]",
         r"^analysis/ \(in play\) +[1-9]"),
        (POSTGRES, REDIS),
    ),
    "analysis_pictures.py": Smoke(
        (r"^yatzy optimal +skill loss per game +[\d.]+ +accuracy +[\d.]+ %",
         r"^ten_thousand classic +skill loss per turn", r"^wrote .*analysis-yatzy\.svg$"),
    ),
    "auto_confirm_lag.py": Smoke(
        (r"^idle +4 +4 +[\d.]+", r"^live +4 +4 +[\d.]+", r"^Timers \(from the logs",
         r"^flat-out +\d+ +\d+ +\d+"),
        (POSTGRES, REDIS, NGINX, SLOW),
        timeout=900.0,
    ),
    "http_moves.py": Smoke(
        (r"^POST games/\{id\}/moves/ +[1-9]\d* +[\d.]+", r"^GET /health/live \(no DB\) +[1-9]",
         r"^moves/s: [\d.]+"),
        (POSTGRES, SLOW),
    ),
    "move_instructions.py": Smoke(
        (r"^POST moves/: [\d.]+ million instructions per move \(over 10\)",
         r"^instructions in 10 moves: [\d,]+$"),
        (POSTGRES, REDIS, VALGRIND, SLOW),
        timeout=600.0,
    ),
    "move_profile.py": Smoke(
        (r"^POST moves/: [\d.]+ queries, [\d.]+ Redis round trips per move",
         r"^POST moves/ +CPU per request over 20: mean [\d.]+ ms"),
        (POSTGRES, REDIS),
    ),
    "native_reader_check.py": Smoke(
        (r"^native: opened 12/14", r"^cuts: \d+ streams", r"^python: opened 50/50"), (CC,)
    ),
    "request_context.py": Smoke((r"^bare view [\d.]+ us; with the middleware: the client's id",)),
    "serve.py": Smoke(
        (r"^project move, via nginx +2 +[\d.]+ ", r"^anchor move \(raw SQL\) +2 +[\d.]+ ",
         r"^anchor move, via nginx +2 +[\d.]+ ", r"^ratios of req/s:$",
         r"p99, project move via nginx / anchor move direct +[\d.]+ x"),
        (POSTGRES, REDIS, NGINX, WRK, SLOW),
        timeout=900.0,
    ),
    "streams.py": Smoke(
        (r"deliveries to streams: [1-9]\d* of [1-9]\d* expected", r"^  delivery latency",
         r"^Pairs, side by side"),
        (POSTGRES, REDIS, NGINX, WRK, CC, SLOW),
        timeout=900.0,
    ),
    "ten_thousand_ai.py": Smoke((r"expert win rate: [\d.]+%", r"^solitaire turns: 200")),
    "wire_codec.py": Smoke(
        (r"^yatzy +a move \(see above\) +[\d.]+", r"^ten_thousand +a move \(see above\)"),
    ),
    "yatzy_ai.py": Smoke(
        (r"^start value +254\.48", r"^optimal +mean [\d.]+ ± [\d.]+", r"^casual +mean [\d.]+"),
    ),
}  # fmt: skip


def is_script(path: Path) -> bool:
    return 'if __name__ == "__main__":' in path.read_text()


def test_every_bench_has_a_smoke_run() -> None:
    """A new bench cannot be left out of CI: each script of bench/ has its entry here, and what is
    not one (no ``__main__``) is a shared module."""
    scripts = {path.name for path in BENCH.glob("*.py") if is_script(path)}
    modules = {path.name for path in BENCH.glob("*.py")} - scripts
    assert scripts == set(SMOKES), "bench scripts and SMOKES differ"
    assert modules == SHARED, "bench/'s shared modules have changed: SHARED says which they are"


def smoke_env() -> dict[str, str]:
    """The suite's environment without its database, Redis and Django settings (a bench takes
    its own), and without an outer make's (``make test``) flags for the benches' ``make serve``."""
    drop = {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE",
            "MAKEFLAGS", "MAKELEVEL", "MFLAGS"}  # fmt: skip
    return {**{k: v for k, v in os.environ.items() if k not in drop}, "PYTHONUNBUFFERED": "1"}


def run_smoke(script: str, timeout: float) -> tuple[int, str]:
    """``bench/script --smoke``: its exit status and output. Out of time, it is told to stop
    (SIGTERM: the benches clean up then), and killed if it does not."""
    process = subprocess.Popen(
        [sys.executable, str(BENCH / script), "--smoke"],
        cwd=ROOT,
        env=smoke_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGTERM)
        try:
            output, _ = process.communicate(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        return -1, f"(no end in {timeout:.0f} s)\n{output}"
    return process.returncode, output


@pytest.mark.parametrize(
    "script", [pytest.param(name, marks=smoke.marks, id=name) for name, smoke in SMOKES.items()]
)
def test_bench_smoke(script: str) -> None:
    smoke = SMOKES[script]
    status, output = run_smoke(script, smoke.timeout)
    tail = output[-6000:]
    assert status == 0, f"bench/{script} --smoke exited {status}:\n{tail}"
    assert re.search(r"^smoke: ok, [1-9]\d* checks$", output, re.MULTILINE), tail
    missing = [p for p in smoke.figures if not re.search(p, output, re.MULTILINE)]
    assert not missing, f"bench/{script} --smoke printed no line like {missing}:\n{tail}"
