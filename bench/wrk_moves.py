"""Moves through gunicorn's sync workers, driven by wrk: requests/s, latency, server CPU per move.

    .venv/bin/python bench/wrk_moves.py [--connections 16] [--seconds 10] [--workers 4]
        [--port 8011] [--database-url postgres://postgres@127.0.0.1:5432/dice_lean_bench]
        [--redis-url redis://127.0.0.1:6379/9] [--keep-logs]

Prints figures; never asserts on time. Needs ``wrk`` (Debian's package) on PATH.

1. creates a fresh PostgreSQL database (dropped and re-created; its name must contain ``bench``),
   migrates it, flushes the Redis db (cache: throttle counters; broker);
2. starts ``gunicorn config.wsgi -w 4 -b 127.0.0.1:8011`` (sync workers: one request at a time
   per process, no keep-alive), DEBUG off, throttles set out of the way (``1000000/s``);
3. registers one account per connection;
4. runs ``wrk -t N -c N -d S --latency -s bench/wrk_moves.lua``: each connection is one account
   playing its own one-seat yatzy game (``auto_confirm_seconds`` 0), roll, roll, roll, score, turn
   after turn; a finished game is replaced by a new one (create + start: 2 requests in 54);
5. prints wrk's requests/s and latency percentiles (every request: moves, creates, starts), the
   moves counted by the script, and the CPU used in the window by the server's processes, by
   PostgreSQL and by the rest of the machine (wrk, Redis), per request.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from http_moves import (  # a sibling script, not a package
    API,
    HIGH_RATE,
    BenchDatabase,
    CpuMeter,
    Process,
    bench_env,
    flush_redis,
    machine_busy,
    manage,
    register_many,
)

HERE = Path(__file__).resolve().parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_lean_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/9"


def wait_until_up(server: Process, port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        server.check()
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", f"{API}/accounts/me/")
            status = conn.getresponse().status
            conn.close()
            if status in (401, 403):
                return
        time.sleep(0.2)
    raise SystemExit(f"server did not answer in {seconds:.0f} s:\n{server.log_tail()}")


def parse_wrk(output: str) -> dict[str, float]:
    found: dict[str, float] = {}
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if rate:
        found["req/s"] = float(rate.group(1))
    for percent, value, unit in re.findall(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s)\s*$", output, re.M):
        scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
        found[f"p{percent}"] = float(value) * scale
    counts = re.search(r"WRK_COUNTS (.*)", output)
    if counts:
        for pair in counts.group(1).split():
            key, value = pair.split("=")
            found[key] = float(value)
    requests = re.search(r"(\d+) requests in", output)
    if requests:
        found["requests"] = float(requests.group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    found["non2xx"] = float(non2xx.group(1)) if non2xx else 0.0
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=8011)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk)")

    tmp = Path(tempfile.mkdtemp(prefix="dice-wrk-moves-"))
    database = BenchDatabase(args.database_url, False, tmp)
    env = bench_env(database.url, args.redis_url)
    server: Process | None = None
    argv_server = [
        sys.executable, "-m", "gunicorn", "config.wsgi", "-w", str(args.workers),
        "-b", f"127.0.0.1:{args.port}",
    ]  # fmt: skip
    print(f"server: {' '.join(argv_server[2:])}, DEBUG off, throttles {HIGH_RATE}")
    print(f"database: {database.url}; redis: {args.redis_url}")
    print(f"machine busy before start: {machine_busy():.2f} cores (of {os.cpu_count()})")
    try:
        database.create()
        flush_redis(args.redis_url)
        manage(env, "migrate", "--noinput", "-v", "0")
        server = Process("gunicorn", argv_server, env, tmp / "server.log")
        wait_until_up(server, args.port)
        tokens = register_many(args.port, args.connections, "wrk", parallel=4)
        command = [
            "wrk", f"-t{args.connections}", f"-c{args.connections}", f"-d{args.seconds}s",
            "--latency", "-s", str(HERE / "wrk_moves.lua"), f"http://127.0.0.1:{args.port}",
            "--", ",".join(tokens),
        ]  # fmt: skip
        print("$ " + " ".join(command[:-1]) + " TOKENS")
        meter = CpuMeter({"server": [server.pid]})
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.seconds + 60)
        wall = time.monotonic() - started
        cpu = meter.read()
        print(done.stdout)
        if done.returncode != 0:
            print(done.stderr)
            return 1
        figures = parse_wrk(done.stdout)
        requests = figures.get("requests", 0.0)
        moves = figures.get("moves", 0.0)
        server_seconds = cpu["server"] * wall
        print(
            f"req/s {figures.get('req/s', 0):.1f}; p50 {figures.get('p50', 0):.1f} ms, "
            f"p90 {figures.get('p90', 0):.1f} ms, p99 {figures.get('p99', 0):.1f} ms; "
            f"moves {moves:.0f} ({moves / wall:.1f}/s), creates {figures.get('creates', 0):.0f}, "
            f"starts {figures.get('starts', 0):.0f}, failures {figures.get('failures', 0):.0f}, "
            f"non-2xx {figures.get('non2xx', 0):.0f}"
        )
        if requests:
            print(
                f"server CPU: {1000 * server_seconds / requests:.2f} ms per request "
                f"({cpu['server']:.2f} cores); PostgreSQL {cpu['postgres']:.2f} cores, "
                f"{1000 * cpu['postgres'] * wall / requests:.2f} ms per request; "
                f"other (wrk, Redis, ...) {cpu['other']:.2f} cores"
            )
        return 0
    finally:
        if server is not None:
            server.stop()
        with contextlib.suppress(Exception):
            database.drop()
        with contextlib.suppress(Exception):
            flush_redis(args.redis_url)
        if args.keep_logs:
            print(f"logs kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
