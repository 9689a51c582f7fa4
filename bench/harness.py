"""What the benches share: figures (percentiles, cores used by process tree), a throw-away
database and Redis db, their processes' environment, the processes themselves (a server, ``make
serve``), an HTTP client, accounts, a simple yatzy client, and the smoke runs (``--smoke``: tiny
sizes, and checks of the figures' consistency).

The benches are scripts (``.venv/bin/python bench/x.py``): each puts this folder on ``sys.path``
and imports this module by name.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import os
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
# A bench measures the code of its own checkout: the project before the virtualenv's editable
# install, which points at whichever checkout last ran `make install` (a worktree's, say).
if str(ROOT) not in sys.path:
    sys.path.insert(1, str(ROOT))
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


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(  # noqa: E731
        str(c).ljust(w) if i == 0 else str(c).rjust(w)
        for i, (c, w) in enumerate(zip(r, widths, strict=True))
    )
    return "\n".join([line(header), "  ".join("-" * w for w in widths), *map(line, rows)])


def process_tree(root: int, procs: dict[int, tuple[int, str, float]] | None = None) -> set[int]:
    """``root`` (if it runs) and every process below it, from /proc."""
    procs = procs if procs is not None else proc_table()
    members = {root} if root in procs else set()
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _, _) in procs.items():
            if ppid in members and pid not in members:
                members.add(pid)
                grew = True
    return members


def descendants(root: int) -> set[int]:
    """Every process below ``root``."""
    return process_tree(root) - {root}


def running(pid: int) -> bool:
    """Running (not a zombie waiting to be reaped)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return raw[raw.rindex(")") + 2 :].split()[0] != "Z"


def cmdline(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


# The cores a CpuMeter reports for a server's tree, the default ``own`` and what is left.
CPU_COLUMNS = ("server", "postgres", "client", "other")


class CpuMeter:
    """Cores used over an interval, from /proc: this process (``own``: the load generator), each
    named process tree (by root pids; with ``by_pid``, each of its processes too, as
    ``label:pid``), PostgreSQL (every process named ``postgres``), and the whole machine;
    ``other`` is what is left (Redis, the kernel, anything else running on the machine)."""

    def __init__(
        self, trees: dict[str, list[int]], *, own: str = "client", by_pid: bool = False
    ) -> None:
        self.trees = trees
        self.own = own
        self.by_pid = by_pid
        self.wall = time.monotonic()
        self.start = self._sample()

    def _sample(self) -> dict[str, float]:
        procs = proc_table()
        sample = {self.own: sum(os.times()[:2])}
        for label, roots in self.trees.items():
            members: set[int] = set()
            for root in roots:
                members |= process_tree(root, procs)
            sample[label] = sum(procs[pid][2] for pid in members)
            if self.by_pid:
                for pid in members:
                    sample[f"{label}:{pid}"] = procs[pid][2]
        sample["postgres"] = sum(cpu for _, name, cpu in procs.values() if name == "postgres")
        parts = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        sample["machine"] = (sum(parts) - parts[3] - parts[4]) / os.sysconf("SC_CLK_TCK")
        return sample

    def read(self) -> dict[str, float]:
        wall = max(time.monotonic() - self.wall, 1e-9)
        end = self._sample()
        # a process born in the interval has no start: all its CPU is the interval's
        cores = {k: max(end[k] - self.start.get(k, 0.0), 0.0) / wall for k in end}
        counted = sum(v for k, v in cores.items() if k != "machine" and ":" not in k)
        cores["other"] = max(cores["machine"] - counted, 0.0)
        return cores


def machine_busy(seconds: float = 1.0) -> float:
    """Cores busy on the whole machine over ``seconds``: is anything else running?"""
    meter = CpuMeter({})
    time.sleep(seconds)
    return meter.read()["machine"]


# --------------------------------------------------------------------------------------------------
# smoke runs: `make test` runs every bench with --smoke (tests/bench/test_smoke.py)


def parse_args(
    parser: argparse.ArgumentParser, argv: list[str] | None, smoke: dict[str, Any]
) -> argparse.Namespace:
    """The bench's arguments, ``--smoke`` among them: in a smoke run the sizes in ``smoke`` (by
    option dest) are the defaults, and an option given on the command line still wins."""
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a smoke run: tiny sizes (" + ", ".join(f"{k}={v}" for k, v in smoke.items())
        + "), the same code paths, and checks that the figures add up (never of time): "
        "exits 1 when one fails",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.smoke:
        unknown = [name for name in smoke if not hasattr(args, name)]
        if unknown:
            raise AssertionError(f"smoke sizes for no option: {unknown}")
        parser.set_defaults(**smoke)
        args = parser.parse_args(argv)
    return args


def smoke_database(url: str) -> str:
    """A smoke run's database: the bench's own name with ``_smoke`` after it, so that a smoke run
    never drops the database of a full run going on meanwhile."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "_smoke"))


class Checks:
    """A smoke run's checks of its own figures: counts that must agree, errors that must be 0,
    never a time. Each is printed with what it saw; ``exit_code`` is 1 when one failed. In a full
    run (``enabled`` false) nothing is checked or printed: the bench prints figures only."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.passed = 0
        self.failed: list[str] = []

    def expect(self, ok: bool, what: str) -> bool:
        if self.enabled:
            if ok:
                self.passed += 1
            else:
                self.failed.append(what)
            print(f"  smoke check {'ok' if ok else 'FAILED'}: {what}", flush=True)
        return ok

    def exit_code(self) -> int:
        if not self.enabled:
            return 0
        if self.failed:
            print(f"smoke: FAILED {len(self.failed)} of {len(self.failed) + self.passed} checks")
            return 1
        print(f"smoke: ok, {self.passed} checks")
        return 0


@contextlib.contextmanager
def terminate_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP end the run as Ctrl-C does: through the clean-up (a bench's servers,
    database and Redis db), e.g. when the smoke test's time runs out."""

    def leave(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    previous = {s: signal.signal(s, leave) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


# --------------------------------------------------------------------------------------------------
# database and Redis


class BenchDatabase:
    """A throw-away database: PostgreSQL (dropped and re-created; refused if its name lacks
    ``bench`` or another session uses it) or a temporary SQLite file. Only a database this run
    created is dropped. PostgreSQL's figures are read on one kept admin connection, opened before
    the servers start, so that they can still be read when the servers fill
    ``max_connections``."""

    def __init__(self, url: str, sqlite: bool = False, tmp: Path | None = None) -> None:
        self.sqlite = sqlite
        self.created = False
        self.conn: Any = None
        self.lock = threading.Lock()
        if sqlite:
            assert tmp is not None
            self.url = f"sqlite:///{tmp / 'bench.sqlite3'}"
            return
        self.url = url
        parts = urlsplit(url)
        if not parts.scheme.startswith("postgres"):
            raise SystemExit(f"--database-url must name PostgreSQL (or use --sqlite): {url}")
        self.name = unquote(parts.path.lstrip("/"))
        if "bench" not in self.name:
            raise SystemExit(f"refusing to drop a database whose name lacks 'bench': {self.name}")
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

    def _execute(self, statement: Any, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        import psycopg

        with self.lock:
            if self.conn is None or self.conn.closed:
                self.conn = psycopg.connect(**self.admin)
            cursor = self.conn.execute(statement, params)
            return cursor.fetchall() if cursor.description else []

    def create(self) -> None:
        if self.sqlite:
            self.created = True
            return
        from psycopg import sql

        if self.connections():
            raise SystemExit(
                f"database {self.name} is in use (another run of this bench?): not dropping it"
            )
        name = sql.Identifier(self.name)
        self._execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        self._execute(sql.SQL("CREATE DATABASE {}").format(name))
        self.created = True

    def drop(self) -> None:
        """Only a database this run created."""
        if self.sqlite or not self.created:
            return
        from psycopg import sql

        name = sql.Identifier(self.name)
        self._execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))

    def connect(self) -> Any:
        """A connection of the bench's own to its database."""
        import psycopg

        return psycopg.connect(**{**self.admin, "dbname": self.name})

    def close(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None

    def max_connections(self) -> int:
        return int(self._execute("SHOW max_connections")[0][0])

    def connections(self) -> int:
        """Server connections open to the bench database now (every client, by pg_stat_activity)."""
        rows = self._execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (self.name,)
        )
        return int(rows[0][0])

    def sessions(self) -> int:
        """Connections ever opened to the bench database (pg_stat_database, PostgreSQL 14+)."""
        rows = self._execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = %s", (self.name,)
        )
        return int(rows[0][0] or 0) if rows else 0

    def all_connections(self) -> int:
        return int(self._execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = "
                                 "'client backend'")[0][0])  # fmt: skip


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


def redis_call(url: str, what: str) -> Any:
    """One command on ``url``'s db: ``flush`` it, count its ``clients``, or ``ping`` it."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        if what == "flush":
            return client.flushdb()
        if what == "clients":
            return int(client.info("clients")["connected_clients"])
        if what == "ping":
            return client.ping()
    finally:
        client.close()
    raise ValueError(what)


def flush_redis(url: str) -> None:
    if url:
        redis_call(url, "flush")


def clean_up(
    database: BenchDatabase, redis_url: str, tmp: Path, keep_logs: bool, drop: bool = True
) -> None:
    """The end of a run: its database dropped (unless ``drop`` is false) and its Redis db flushed
    (only if this run created the database: else they are another run's), its logs kept or
    removed."""
    if "django" in sys.modules:  # a bench that set Django up in its own process
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
    if database.created:
        if drop:
            with contextlib.suppress(Exception):
                database.drop()
        with contextlib.suppress(Exception):
            flush_redis(redis_url)
    database.close()
    if keep_logs:
        print(f"logs kept in {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)


# --------------------------------------------------------------------------------------------------
# the environment and processes


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
        # Every stream of a bench comes from this one machine's address.
        STREAMS_PER_ADDRESS="1000000",
        STREAMS_PER_ACCOUNT="1000000",
        STREAM_OPENS_PER_MINUTE="1000000",
        MAX_COMPUTER_GAMES_PER_ACCOUNT="1000000",
        # An account's games are made several at once (serve.py), each open until it starts.
        MAX_OPEN_GAMES_PER_ACCOUNT="1000000",
        LOG_LEVEL="WARNING",
        # The benches read the worker's and the timers' lines in Celery's and the text format.
        LOG_FORMAT="text",
        PYTHONUNBUFFERED="1",
    )
    # make serve looks nginx up in PATH; Debian keeps it in /usr/sbin, not always on a user's PATH
    env["PATH"] = os.pathsep.join([env.get("PATH", ""), "/usr/sbin", "/sbin"])
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports on 127.0.0.1 (make serve takes 3)."""
    for _ in range(200):
        base = free_port()
        if base + count > 65535:
            continue
        try:
            for port in range(base, base + count):
                with socket.socket() as sock:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise SystemExit(f"no {count} consecutive free ports on 127.0.0.1")


def raise_nofile(want: int) -> int:
    """Raise this process's soft open-file limit towards ``want`` (at most the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Process:
    """A child process in its own session (so the whole group can be ended), logging to a file."""

    def __init__(
        self,
        name: str,
        argv: list[str],
        env: dict[str, str],
        log: Path,
        preexec_fn: Callable[[], Any] | None = None,
    ) -> None:
        self.name = name
        self.log_path = log
        self.handle = log.open("wb")
        self.popen = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=self.handle, stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=preexec_fn,
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


class MakeServe(Process):
    """``make serve`` on ``port`` (nginx; gunicorn and the stream tier on the next two ports
    unless ``make_vars`` name others). make runs supervisord in make's own process group, but it
    starts each tier in a group of its own: the tiers are found in the process tree. ``stop``
    sends SIGTERM to make's group, so supervisord stops its tiers as on Ctrl-C, waits for every
    process seen in the tree, then kills whatever is left of it, by pid and by group (no orphan
    outlives the bench)."""

    def __init__(
        self,
        env: dict[str, str],
        port: int,
        log: Path,
        make_vars: dict[str, object] | None = None,
        nofile: int | None = None,
    ) -> None:
        argv = ["make", "--no-print-directory", "serve", f"PORT={port}"]
        argv += [f"{name}={value}" for name, value in (make_vars or {}).items()]
        preexec = None if nofile is None else lambda: raise_nofile(nofile)
        super().__init__("make serve", argv, env, log, preexec_fn=preexec)
        self.port = port
        self.seen: set[int] = set()

    def descendants(self) -> set[int]:
        """The processes below make now (each one is remembered, for ``stop``)."""
        members = descendants(self.pid)
        self.seen |= members
        return members

    def tier(self, name: str) -> list[int]:
        """The pids of one tier: ``streams`` (uvicorn), ``api`` (gunicorn) or ``proxy``."""
        mark = {"streams": "config.streams", "api": "gunicorn", "proxy": "nginx"}[name]
        return sorted(pid for pid in self.descendants() if mark in cmdline(pid))

    def wait_ready(self, seconds: float = 90, ready: Callable[[], bool] = lambda: True) -> None:
        """Until ``/health/live`` answers 200 through nginx and ``ready()`` holds."""
        deadline = time.monotonic() + seconds
        while True:
            self.check()
            with contextlib.suppress(OSError, http.client.HTTPException):
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/health/live")
                status = conn.getresponse().status
                conn.close()
                if status == 200 and ready():
                    return
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit(
                    f"make serve did not answer in {seconds:.0f} s:\n{self.log_tail()}"
                )
            time.sleep(0.2)

    def stop(self, grace: float = 20) -> None:
        self.descendants()
        groups = set()
        for pid in self.seen:
            with contextlib.suppress(OSError):
                groups.add(os.getpgid(pid))
        groups.discard(os.getpgrp())  # never this bench's own
        if self.alive():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and any(running(pid) for pid in self.seen):
            time.sleep(0.2)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=0)  # reap make
        for pid in self.seen:
            if running(pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        for group in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        super().stop(grace=5)


# --------------------------------------------------------------------------------------------------
# one server process (uvicorn or gunicorn, without nginx)


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

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        """One request, with ``token`` if given (a client playing several accounts' games over
        one connection), else the client's own."""
        payload = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        token = token or self.token
        if token:
            headers["Authorization"] = f"Token {token}"
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
