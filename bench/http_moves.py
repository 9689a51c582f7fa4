"""Benchmark of a move through the HTTP API, beside a trivial endpoint on the same server.

    .venv/bin/python bench/http_moves.py [--clients 32] [--seconds 20 | --moves 20000]
        [--baseline-seconds 10] [--warmup 2] [--database-url postgres://postgres@127.0.0.1:5432/dice_bench]
        [--sqlite] [--redis-url auto|''|redis://...] [--server uvicorn|gunicorn] [--workers 2]

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

The helpers (database, Redis, server process, HTTP client, percentiles, CPU counters) are reused by
``bench/auto_confirm_lag.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.client
import json
import math
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/4"
API = "/api/v1"
HIGH_RATE = "1000000/s"


# --------------------------------------------------------------------------------------------------
# figures


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile of ``values`` (any order); nan when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:.1f}"


def proc_table() -> dict[int, tuple[int, str, float]]:
    """pid -> (ppid, name, CPU seconds including reaped children), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    found: dict[int, tuple[int, str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
        except OSError:
            continue
        name = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        # after the name: state, ppid, ...; utime stime cutime cstime are fields 11..14
        found[int(entry.name)] = (int(fields[1]), name, sum(map(int, fields[11:15])) / tick)
    return found


class CpuMeter:
    """Cores used over an interval, from /proc: this process (the load generator), each named
    process tree (by root pid), PostgreSQL (every process named ``postgres``), and the whole
    machine; ``other`` is what is left (Redis, the kernel, anything else running on the machine)."""

    def __init__(self, trees: dict[str, list[int]]) -> None:
        self.trees = trees
        self.wall = time.monotonic()
        self.start = self._sample()

    def _sample(self) -> dict[str, float]:
        procs = proc_table()
        sample = {"client": sum(os.times()[:2])}
        for label, roots in self.trees.items():
            members = {pid for pid in roots if pid in procs}
            grew = True
            while grew:
                grew = False
                for pid, (ppid, _, _) in procs.items():
                    if ppid in members and pid not in members:
                        members.add(pid)
                        grew = True
            sample[label] = sum(procs[pid][2] for pid in members)
        sample["postgres"] = sum(cpu for _, name, cpu in procs.values() if name == "postgres")
        parts = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        tick = os.sysconf("SC_CLK_TCK")
        sample["machine"] = (sum(parts) - parts[3] - parts[4]) / tick
        return sample

    def read(self) -> dict[str, float]:
        wall = max(time.monotonic() - self.wall, 1e-9)
        end = self._sample()
        cores = {k: max(end[k] - self.start[k], 0.0) / wall for k in end}
        cores["other"] = max(
            cores["machine"] - sum(v for k, v in cores.items() if k != "machine"), 0.0
        )
        return cores


def machine_busy(seconds: float = 1.0) -> float:
    """Cores busy on the whole machine over ``seconds``: is anything else running?"""
    meter = CpuMeter({})
    time.sleep(seconds)
    return meter.read()["machine"]


# --------------------------------------------------------------------------------------------------
# database and Redis


class BenchDatabase:
    """A throw-away database: PostgreSQL (dropped and re-created) or a temporary SQLite file."""

    def __init__(self, url: str | None, sqlite: bool, tmp: Path) -> None:
        self.sqlite = sqlite
        self.url = f"sqlite:///{tmp / 'bench.sqlite3'}" if sqlite else (url or DEFAULT_DATABASE_URL)
        if not sqlite:
            parts = urlsplit(self.url)
            if not parts.scheme.startswith("postgres"):
                raise SystemExit(
                    f"--database-url must name PostgreSQL (or use --sqlite): {self.url}"
                )
            self.name = unquote(parts.path.lstrip("/"))
            if "bench" not in self.name:
                raise SystemExit(
                    f"refusing to drop a database whose name lacks 'bench': {self.name}"
                )
            self.admin = {
                "host": parts.hostname or "127.0.0.1",
                "port": parts.port or 5432,
                "user": unquote(parts.username or "postgres"),
                "password": unquote(parts.password or "") or None,
                "dbname": "postgres",
                "autocommit": True,
            }

    def describe(self) -> str:
        return "SQLite (temporary file)" if self.sqlite else f"PostgreSQL {self.url}"

    def _execute(self, *statements: Any) -> None:
        import psycopg

        with psycopg.connect(**self.admin) as conn:
            for statement in statements:
                conn.execute(statement)

    def create(self) -> None:
        if self.sqlite:
            return
        from psycopg import sql

        name = sql.Identifier(self.name)
        self._execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name),
            sql.SQL("CREATE DATABASE {}").format(name),
        )

    def drop(self) -> None:
        if self.sqlite:
            return
        from psycopg import sql

        self._execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name))
        )


def resolve_redis(option: str, default: str) -> str:
    """``auto``: ``default`` if it answers PING, else none (in-process cache). ``''``: none."""
    if option != "auto":
        return option
    try:
        import redis

        redis.Redis.from_url(default, socket_timeout=1).ping()
        return default
    except Exception:
        return ""


def flush_redis(url: str) -> None:
    if url:
        import redis

        redis.Redis.from_url(url, socket_timeout=5).flushdb()


def bench_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of a bench's processes: production settings, throttles out of the way."""
    env = dict(os.environ)
    for name in ("REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    env.update(
        DEBUG="false",
        SECRET_KEY="bench-" + secrets.token_hex(24),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_COOKIES="false",
        DATABASE_URL=database_url,
        THROTTLE_USER=HIGH_RATE,
        THROTTLE_ANON=HIGH_RATE,
        THROTTLE_AUTH=HIGH_RATE,
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


# --------------------------------------------------------------------------------------------------
# processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Process:
    """A child process in its own session (so the whole group can be ended), logging to a file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.log_path = log
        self.handle = log.open("wb")
        self.popen = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=self.handle, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:]

    def check(self) -> None:
        if not self.alive():
            raise SystemExit(f"{self.name} exited ({self.popen.returncode}):\n{self.log_tail()}")

    def stop(self, grace: float = 15) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                self.popen.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=grace)
        # whatever is left of the group this process leads (workers, beat): by its own pgid only
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        self.handle.close()


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        choices=("uvicorn", "gunicorn"),
        default="uvicorn",
        help="uvicorn config.asgi (as deployed; the default) or gunicorn config.wsgi (gthread)",
    )
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn only: threads per worker")
    parser.add_argument(
        "--conn-max-age",
        default=None,
        help="DB_CONN_MAX_AGE for the server; default 0 under uvicorn (Django: no persistent "
        "connections under ASGI), the settings' 60 under gunicorn",
    )


def server_env(args: argparse.Namespace) -> dict[str, str]:
    """The settings a server kind needs: under ASGI, Django opens a connection per request and
    persistent ones pile up (PostgreSQL refuses past max_connections), so none by default."""
    if args.conn_max_age is None:
        args.conn_max_age = "0" if args.server == "uvicorn" else "60"
    return {"DB_CONN_MAX_AGE": str(args.conn_max_age)}


def server_description(args: argparse.Namespace) -> str:
    age = f"DB_CONN_MAX_AGE={args.conn_max_age}"
    if args.server == "gunicorn":
        return f"gunicorn config.wsgi -w {args.workers} --threads {args.threads} (gthread), {age}"
    return f"uvicorn config.asgi:application --workers {args.workers}, {age}"


def start_server(env: dict[str, str], port: int, args: argparse.Namespace, log: Path) -> Process:
    """The web server, as deployed (uvicorn, a project dependency) or gunicorn (not one: it needs
    ``.venv/bin/pip install gunicorn==27.0.1``); returns once it answers."""
    if args.server == "gunicorn":
        try:
            import gunicorn  # noqa: F401
        except ImportError:
            raise SystemExit(
                "gunicorn is not installed: .venv/bin/pip install gunicorn==27.0.1"
            ) from None
        argv = [
            sys.executable, "-m", "gunicorn", "config.wsgi:application",
            "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers),
            "--threads", str(args.threads), "--worker-class", "gthread", "--keep-alive", "75",
            "--timeout", "60", "--graceful-timeout", "5", "--log-level", "warning",
        ]  # fmt: skip
    else:
        argv = [
            sys.executable, "-m", "uvicorn", "config.asgi:application",
            "--host", "127.0.0.1", "--port", str(port), "--workers", str(args.workers),
            "--timeout-keep-alive", "75", "--no-access-log", "--log-level", "warning",
        ]  # fmt: skip
    server = Process(args.server, argv, env, log)
    deadline = time.monotonic() + 60
    while True:
        server.check()
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", f"{API}/accounts/me/")
            status = conn.getresponse().status
            conn.close()
            if status in (401, 403):
                return server
            raise SystemExit(
                f"server answered {status} on {API}/accounts/me/:\n{server.log_tail()}"
            )
        if time.monotonic() > deadline:
            server.stop()
            raise SystemExit(f"server did not answer in 60 s:\n{server.log_tail()}")
        time.sleep(0.2)


# --------------------------------------------------------------------------------------------------
# HTTP


class ApiFailure(Exception):
    def __init__(self, status: int, body: Any, what: str) -> None:
        super().__init__(f"{what}: HTTP {status} {str(body)[:300]}")
        self.status = status
        self.body = body


class Http:
    """One keep-alive connection (http.client), JSON in and out, an optional token."""

    RETRYABLE = (
        http.client.RemoteDisconnected, http.client.CannotSendRequest, ConnectionResetError,
        BrokenPipeError, ConnectionAbortedError,
    )  # fmt: skip

    def __init__(self, port: int, token: str | None = None, timeout: float = 60) -> None:
        self.port = port
        self.token = token
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None
        self.connects = 0

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        payload = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                self.connects += 1
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
            except self.RETRYABLE:
                # the server closed a kept-alive connection between two requests: reconnect once
                self.close()
                if attempt == 2:
                    raise
                continue
            if response.will_close:
                self.close()
            ctype = response.getheader("Content-Type", "")
            data = json.loads(raw) if raw and "json" in ctype else raw
            return response.status, data
        raise AssertionError("unreachable")

    def expect(self, status: int, method: str, path: str, body: Any = None) -> Any:
        got, data = self.request(method, path, body)
        if got != status:
            raise ApiFailure(got, data, f"{method} {path}")
        return data

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def register_account(port: int, username: str) -> tuple[str, int]:
    """A new account: (token, player id)."""
    client = Http(port)
    try:
        body = client.expect(
            201, "POST", f"{API}/accounts/register/",
            {"username": username, "password": "bench-" + secrets.token_hex(12)},
        )  # fmt: skip
    finally:
        client.close()
    return str(body["token"]), int(body["player"]["id"])


def register(port: int, username: str) -> str:
    """A new account; returns its token."""
    return register_account(port, username)[0]


def register_many(port: int, count: int, prefix: str, parallel: int = 8) -> list[str]:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(parallel, max(count, 1))) as pool:
        return list(pool.map(lambda i: register(port, f"{prefix}{i}"), range(count)))


# --------------------------------------------------------------------------------------------------
# a yatzy client


def yatzy_command(state: dict[str, Any]) -> dict[str, Any]:
    """The next move of a simple bot from the presented state: roll three times (holding the most
    common face), then score the legal box worth the most."""
    if state["rolls_used"] == 0:
        return {"type": "roll"}
    if state["rolls_left"] > 0:
        dice = state["dice"]
        face = Counter(dice).most_common(1)[0][0]
        return {"type": "roll", "hold": [i for i, d in enumerate(dice) if d == face][:4]}
    legal = state["legal_boxes"]
    best = max(legal, key=lambda box: box["points"] or 0)
    return {"type": "score", "box": best["box"]}


class YatzyPlayer:
    """A client with its own one-seat yatzy game, replaced when it finishes. ``step`` sends exactly
    one request and returns its category: ``create``, ``start`` or ``move``."""

    def __init__(self, http: Http, options: dict[str, Any]) -> None:
        self.http = http
        self.options = options
        self.game: dict[str, Any] | None = None
        self.games_finished = 0
        self.errors: Counter[str] = Counter()

    def step(self) -> tuple[str, bool]:
        game = self.game
        if game is None or game["status"] == "finished":
            if game is not None:
                self.games_finished += 1
            status, body = self.http.request(
                "POST", f"{API}/games/",
                {"kind": "yatzy", "seats": [{"type": "me"}], "options": self.options},
            )  # fmt: skip
            ok = status == 201
            if ok:
                self.game = body
            else:
                self.errors[f"create {status}"] += 1
            return "create", ok
        if game["status"] == "open":
            status, body = self.http.request("POST", f"{API}/games/{game['id']}/start/")
            ok = status == 200
            if ok:
                self.game = body
            else:
                self.errors[f"start {status}"] += 1
            return "start", ok
        command = {**yatzy_command(game["state"]), "expected_version": game["version"]}
        status, body = self.http.request("POST", f"{API}/games/{game['id']}/moves/", command)
        if status == 201:
            self.game = body["game"]
            return "move", True
        code = body.get("code") if isinstance(body, dict) else None
        self.errors[f"move {status} {code}"] += 1
        # resynchronise from the server's view, then carry on
        status, body = self.http.request("GET", f"{API}/games/{game['id']}/")
        if status == 200:
            self.game = body
        return "move", False


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
            if t0 < window["start"] or t1 > window["end"]:
                continue
            if ok:
                result.latencies.setdefault(category, []).append(t1 - t0)
            else:
                result.failures[category] += 1
    return result


# --------------------------------------------------------------------------------------------------
# report


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(  # noqa: E731
        str(c).ljust(w) if i == 0 else str(c).rjust(w)
        for i, (c, w) in enumerate(zip(r, widths, strict=True))
    )
    return "\n".join([line(header), "  ".join("-" * w for w in widths), *map(line, rows)])


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


CPU_COLUMNS = ("server", "postgres", "client", "other")
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
    args = parser.parse_args(argv)

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
        tokens = register_many(port, args.clients, f"bench{secrets.token_hex(3)}_", parallel)
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
        return 0
    finally:
        if server is not None:
            server.stop()
        with contextlib.suppress(Exception):
            database.drop()
        with contextlib.suppress(Exception):
            flush_redis(redis_url)
        if args.keep_logs:
            print(f"logs kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
