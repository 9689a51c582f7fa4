"""Benchmark of a move through the HTTP API, beside a trivial endpoint on the same server.

    .venv/bin/python bench/http_moves.py [--clients 32] [--seconds 20 | --moves 20000]
        [--baseline-seconds 10] [--warmup 2] [--database-url postgres://postgres@127.0.0.1:5432/dice_bench]
        [--sqlite] [--redis-url auto|''|redis://...] [--server uvicorn|gunicorn] [--workers 2]
        [--smoke]

DESIGN target: "A move through the HTTP API costs little beyond Django itself". Prints figures;
never asserts on time.

1. creates a fresh database (PostgreSQL ``dice_bench``, dropped and re-created; ``--sqlite``: a
   temporary SQLite file), migrates it, flushes a dedicated Redis db (``/4``) used as the cache
   (throttle counters) and broker, as in production;
2. starts the server as deployed: ``uvicorn config.asgi:application --workers 2`` (``--server
   gunicorn``: ``gunicorn config.wsgi -w 2 --threads 4``, gthread workers, which needs
   ``gunicorn==27.0.1`` installed by hand), DEBUG off, throttles set high;
3. registers ``--clients`` accounts; each creates its own one-seat yatzy game with
   ``auto_confirm_seconds`` 0 and plays roll/roll/roll/score turns (holding its most common face,
   scoring its best legal box, with ``expected_version``) over one keep-alive connection, all
   clients at once (threads), for ``--seconds`` (or ``--moves``) after ``--warmup``; a finished
   game is replaced by a new one (those create/start requests are counted apart);
4. the same concurrency on the baselines: ``GET /health/live`` (a view with no DB access; skipped
   with a note if the server has no such route) and ``GET /api/v1/accounts/me/`` (token auth + one
   query, through DRF);
5. prints requests/s, p50/p90/p99/max latency and errors per endpoint, and the ratios.

The load generator runs on the same machine as the server (Python threads, one GIL): its CPU use is
printed beside the server's, so a client-bound figure can be told apart from a server-bound one.

``--smoke``: 2 clients, 1 s of moves, 0.5 s per baseline, on a database of its own; it checks
that no request failed, each client kept its one connection, and the moves the clients were
answered are those the event log holds.

The helpers (database, Redis, server process, HTTP client, percentiles, CPU counters) are
bench/harness.py's, shared by every bench.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import secrets
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # a sibling module: the benches are scripts, not a package
    API,
    CPU_COLUMNS,
    HIGH_RATE,
    BenchDatabase,
    Checks,
    CpuMeter,
    Http,
    Process,
    YatzyPlayer,
    add_server_arguments,
    bench_env,
    clean_up,
    flush_redis,
    free_port,
    machine_busy,
    manage,
    ms,
    parse_args,
    percentile,
    register_many,
    resolve_redis,
    server_description,
    server_env,
    smoke_database,
    start_server,
    table,
    terminate_on_signals,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/4"


# --------------------------------------------------------------------------------------------------
# a closed-loop load phase


@dataclass
class PhaseResult:
    name: str
    seconds: float
    latencies: dict[str, list[float]] = field(default_factory=dict)
    failures: Counter[str] = field(default_factory=Counter)
    cpu: dict[str, float] = field(default_factory=dict)
    connects: int = 0
    answered: Counter[str] = field(default_factory=Counter)  # successes, warm-up included

    def count(self, category: str) -> int:
        return len(self.latencies.get(category, []))

    def rate(self, category: str) -> float:
        return self.count(category) / self.seconds if self.seconds else math.nan

    def errors(self, category: str | None = None) -> int:
        if category is None:
            return sum(self.failures.values())
        return self.failures[category]


def run_closed_loop(
    name: str,
    steps: list[Callable[[], tuple[str, bool]]],
    *,
    warmup: float,
    seconds: float,
    target: tuple[str, int] | None = None,
    cpu_trees: dict[str, list[int]],
    max_seconds: float = 600,
) -> PhaseResult:
    """Every step function in its own thread, back to back, for ``warmup`` then the measured window
    (``seconds``, or until ``target`` = (category, count) successes, at most ``max_seconds``).
    A request counts when it started and ended inside the window."""
    samples: list[list[tuple[float, float, str, bool]]] = [[] for _ in steps]
    stop = threading.Event()
    window: dict[str, float] = {}
    counted = [0]
    lock = threading.Lock()
    started = threading.Barrier(len(steps) + 1)

    def loop(index: int, step: Callable[[], tuple[str, bool]]) -> None:
        mine = samples[index]
        started.wait()
        while not stop.is_set():
            t0 = time.perf_counter()
            category, ok = step()
            t1 = time.perf_counter()
            mine.append((t0, t1, category, ok))
            if target and ok and category == target[0] and t0 >= window.get("start", math.inf):
                with lock:
                    counted[0] += 1
                    if counted[0] >= target[1] and "end" not in window:
                        window["end"] = time.perf_counter()
                        stop.set()

    threads = [
        threading.Thread(target=loop, args=(i, step), daemon=True, name=f"{name}-{i}")
        for i, step in enumerate(steps)
    ]
    for thread in threads:
        thread.start()
    started.wait()
    time.sleep(warmup)
    meter = CpuMeter(cpu_trees)
    window["start"] = time.perf_counter()
    limit = seconds if target is None else max_seconds
    stop.wait(limit)
    window.setdefault("end", time.perf_counter())
    stop.set()
    cpu = meter.read()
    for thread in threads:
        thread.join(timeout=120)

    result = PhaseResult(name=name, seconds=window["end"] - window["start"], cpu=cpu)
    for rows in samples:
        for t0, t1, category, ok in rows:
            result.answered[category] += ok
            if t0 < window["start"] or t1 > window["end"]:
                continue
            if ok:
                result.latencies.setdefault(category, []).append(t1 - t0)
            else:
                result.failures[category] += 1
    return result


# --------------------------------------------------------------------------------------------------
# report


def latency_row(label: str, result: PhaseResult, category: str, main: bool = True) -> list[str]:
    """One endpoint; the CPU cells only on the ``main`` row of a window (not on its side rows)."""
    values = result.latencies.get(category, [])
    cpu = [f"{server_ms_per_request(result):.2f}", *cpu_cells(result.cpu)] if main else ["-"] * 5
    return [
        label,
        f"{result.count(category)}",
        f"{result.rate(category):.1f}",
        ms(percentile(values, 50)),
        ms(percentile(values, 90)),
        ms(percentile(values, 99)),
        ms(max(values) if values else math.nan),
        f"{result.errors(category)}",
        *cpu,
    ]


CPU_HEADER = ["cpu: server", "postgres", "client", "other"]
LATENCY_HEADER = [
    "endpoint", "requests", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors",
    "server cpu ms/req", *CPU_HEADER,
]  # fmt: skip
CPU_NOTE = (
    "server cpu ms/req: the server's CPU time in the window over every request of the window\n"
    "(the move window's includes its few game create/start requests). cpu columns:\n"
    "cores used in the window by the server's processes, PostgreSQL, this load generator, and\n"
    "everything else on the machine (other users' jobs show up there)."
)


def server_ms_per_request(result: PhaseResult) -> float:
    """The server's CPU in the window over every request answered in it."""
    count = sum(len(v) for v in result.latencies.values()) + result.errors()
    return 1000 * result.cpu.get("server", math.nan) * result.seconds / count if count else math.nan


def cpu_cells(cpu: dict[str, float], columns: tuple[str, ...] = CPU_COLUMNS) -> list[str]:
    return [f"{cpu.get(column, math.nan):.2f}" for column in columns]


# The moves of the accounts' games, from the event log (a roll or a score: one event each).
MOVES_MADE = """
SELECT count(*) FROM games_gameevent e JOIN games_game g ON g.id = e.game_id
JOIN players_player p ON p.id = g.created_by_id
WHERE p.username LIKE %s AND e.type IN ('dice_rolled', 'box_scored')
"""

# --smoke: every phase, tiny, on a database of its own.
SMOKE: dict[str, Any] = {
    "clients": 2, "seconds": 1.0, "baseline_seconds": 0.5, "warmup": 0.2,
    "database_url": smoke_database(DEFAULT_DATABASE_URL),
}  # fmt: skip


def smoke_checks(
    checks: Checks,
    results: list[tuple[str, PhaseResult, str, bool]],
    errors: Counter[str],
    opened: int,
    clients: int,
    moves: tuple[int, int | None],
) -> None:
    """What must add up: no request failed, one connection a client, the moves answered are those
    in the event log."""
    for label, result, category, _main in results:
        checks.expect(
            (category != "get" and category != "move") or result.count(category) > 0,
            f"{label.strip()}: {result.count(category)} requests in the window",
        )
        checks.expect(
            not result.errors(category),
            f"{label.strip()}: errors {result.errors(category)} (must be 0)",
        )
    checks.expect(not errors, f"move-phase errors: {dict(errors) or 0}")
    checks.expect(opened == clients, f"connections opened: {opened} for {clients} clients")
    answered, logged = moves
    if logged is not None:
        checks.expect(
            answered == logged, f"moves answered 201: {answered}; in the event log: {logged}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients (threads)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window of the moves")
    parser.add_argument("--moves", type=int, default=0, help="measure this many moves instead")
    parser.add_argument("--baseline-seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds per phase")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead")
    parser.add_argument(
        "--redis-url",
        default="auto",
        help=f"cache/broker; 'auto': {DEFAULT_REDIS_URL} if it answers; '': none",
    )
    add_server_arguments(parser)
    parser.add_argument("--keep-logs", action="store_true", help="keep the temporary directory")
    args = parse_args(parser, argv, SMOKE)
    with terminate_on_signals():
        return run(args)


def run(args: argparse.Namespace) -> int:
    checks = Checks(args.smoke)
    tmp = Path(tempfile.mkdtemp(prefix="dice-bench-http-"))
    database = BenchDatabase(args.database_url, args.sqlite, tmp)
    redis_url = resolve_redis(args.redis_url, DEFAULT_REDIS_URL)
    env = bench_env(database.url, redis_url, **server_env(args))
    server: Process | None = None
    server_line = server_description(args)
    python = sys.version.split()[0]
    print(f"http_moves: {args.clients} clients; python {python}; {os.cpu_count()} cores")
    print(f"  database: {database.describe()}")
    print(f"  redis:    {redis_url or 'none (in-process cache per worker)'}")
    print(f"  server:   {server_line}, DEBUG off, throttles {HIGH_RATE}")
    print(f"  machine busy before start: {machine_busy():.2f} cores (of {os.cpu_count()})")
    try:
        began = time.monotonic()
        database.create()
        flush_redis(redis_url)
        manage(env, "migrate", "--noinput", "-v", "0")
        port = free_port()
        server = start_server(env, port, args, tmp / "server.log")
        trees = {"server": [server.pid]}
        # one at a time on SQLite: concurrent registrations there fail with "database is locked"
        parallel = 1 if args.sqlite else 8
        prefix = f"bench{secrets.token_hex(3)}_"
        tokens = register_many(port, args.clients, prefix, parallel)
        setup = time.monotonic() - began
        print(f"  setup:    {setup:.1f} s (database, migrate, server, {len(tokens)} accounts)")

        connections = [Http(port, token) for token in tokens]
        results: list[tuple[str, PhaseResult, str, bool]] = []

        def get(client: Http, path: str) -> tuple[str, bool]:
            return "get", client.request("GET", path)[0] == 200

        live: PhaseResult | None = None
        probe_status, _ = connections[0].request("GET", "/health/live")
        if probe_status == 200:
            live = run_closed_loop(
                "live",
                [functools.partial(get, c, "/health/live") for c in connections],
                warmup=args.warmup,
                seconds=args.baseline_seconds,
                cpu_trees=trees,
            )
            results.append(("GET /health/live (no DB)", live, "get", True))
        else:
            print(f"  note: GET /health/live answered {probe_status}: no trivial baseline here")

        me = run_closed_loop(
            "me",
            [functools.partial(get, c, f"{API}/accounts/me/") for c in connections],
            warmup=args.warmup,
            seconds=args.baseline_seconds,
            cpu_trees=trees,
        )
        results.append(("GET accounts/me/ (auth+1 query)", me, "get", True))

        players = [YatzyPlayer(c, {"auto_confirm_seconds": 0}) for c in connections]
        moves = run_closed_loop(
            "moves",
            [p.step for p in players],
            warmup=args.warmup,
            seconds=args.seconds,
            target=("move", args.moves) if args.moves else None,
            cpu_trees=trees,
        )
        results.append(("POST games/{id}/moves/", moves, "move", True))
        for category in ("create", "start"):
            if moves.count(category) or moves.errors(category):
                results.append((f"  (POST games/ {category}, same window)", moves, category, False))

        print()
        print(
            f"Measured windows: baselines {me.seconds:.1f} s each, moves {moves.seconds:.1f} s; "
            f"{args.clients} concurrent keep-alive clients, each after {args.warmup:.0f} s warm-up."
        )
        rows = [latency_row(*row) for row in results]
        print(table(rows, LATENCY_HEADER))
        print(CPU_NOTE)
        print()
        requests = sum(moves.count(c) for c in ("move", "create", "start"))
        finished = sum(p.games_finished for p in players)
        print(
            f"moves/s: {moves.rate('move'):.1f}  (every request of the move phase: "
            f"{requests / moves.seconds:.1f}/s; yatzy games finished: {finished})"
        )
        move_p50 = percentile(moves.latencies.get("move", []), 50)
        move_cpu = server_ms_per_request(moves)
        for label, base in (("/health/live", live), ("accounts/me/", me)):
            if base is None or not base.count("get"):
                continue
            print(
                f"a move vs {label:<13} throughput {moves.rate('move') / base.rate('get'):.3f}x  "
                f"p50 latency {move_p50 / percentile(base.latencies['get'], 50):.1f}x  "
                f"server cpu per request {move_cpu / server_ms_per_request(base):.1f}x"
            )
        errors = Counter[str]()
        for p in players:
            errors.update(p.errors)
        opened = sum(c.connects for c in connections)
        print(f"move-phase errors: {dict(errors) if errors else 0}")
        print(f"connections opened: {opened} for {len(connections)} clients (keep-alive)")
        for c in connections:
            c.close()
        if checks.enabled:
            logged = None
            if not database.sqlite:
                with database.connect() as conn:
                    logged = int(conn.execute(MOVES_MADE, (f"{prefix}%",)).fetchone()[0])
            answered = moves.answered["move"]
            smoke_checks(checks, results, errors, opened, len(connections), (answered, logged))
        return checks.exit_code()
    finally:
        if server is not None:
            server.stop()
        clean_up(database, redis_url, tmp, args.keep_logs)


if __name__ == "__main__":
    sys.exit(main())
