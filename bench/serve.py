"""Side by side under wrk: the project as deployed (``make serve``) and a hand-written anchor.

    .venv/bin/python bench/serve.py [--seconds 15] [--warmup 3] [--rounds 1] [--connections 16,64]
        [--workers 4] [--threads 2] [--anchor-middleware django|none]
        [--anchor-statements django|prepared] [--games-per-account 8]
        [--database-url postgres://postgres@127.0.0.1:5432/dice_bench_serve]
        [--redis-url redis://127.0.0.1:6379/6] [--port N] [--keep-logs] [--keep-db] [--smoke]

Prints figures; never asserts on time. In one run, on one machine:

1. creates a fresh PostgreSQL database (``dice_bench_serve``, dropped and re-created; refused while
   another session uses it), migrates it, flushes a dedicated Redis db (``/6``: cache, broker and
   live bus, with a ``LIVE_CHANNEL_PREFIX`` of its own);
2. starts ``make serve`` (nginx in front of gunicorn, ``config.wsgi``, ``--workers`` sync workers,
   and of the stream tier) in a session of its own, DEBUG off, throttles out of the way;
3. starts the anchor, ``bench/anchor/``: a minimal Django project on the same database, served by
   the same gunicorn command line (``gunicorn anchor.wsgi --config
   config/deploy/gunicorn.conf.py``, the same worker count) on a port of its own, with a plain view
   and a DRF APIView doing the move's transaction by hand in raw SQL on its own fake games, and an
   nginx of its own in front of it, rendered from the project's templates (the same proxy);
4. at each ``--connections`` count, runs wrk (``--warmup`` seconds, discarded, then ``--seconds``
   with ``--latency``) on: the project's move through nginx and directly on gunicorn, the anchor's
   move direct and through its nginx, then ``GET /health/live`` through nginx and direct, and the
   anchor's plain view direct and through its nginx. The moves
   come from ``bench/wrk_moves.lua``: each wrk thread goes round games of its own, each request
   the next legal move of its game; the games are real yatzy games made through the API
   (``--games-per-account`` per account), topped up before each run so that none runs out, and
   carried from run to run (the moves each has made are read back from its event log);
5. prints one table (req/s, p50, p99, non-2xx, socket errors, CPU per request of the server, of
   nginx and of PostgreSQL, the cores each part used), the ratios against the anchor (served
   directly, the target's, and behind the same proxy), the p99s' ratios and each row's CPU per
   request by part.

``--smoke``: 2 connections, 1 s rows, on a database of its own; it checks that every row was
answered with no error, and that the moves each move row's games made (read back from the event
log) are those wrk counted, give or take the requests in flight when it stopped.

Everything shares the machine: wrk, nginx, gunicorn and PostgreSQL. The cores each used are
printed beside the figures, and ``other`` is what the rest of the machine used meanwhile (other
people's work shows up there).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import http.client
import math
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # a sibling module: the benches are scripts, not a package
    API,
    ROOT,
    BenchDatabase,
    Checks,
    CpuMeter,
    Http,
    MakeServe,
    Process,
    bench_env,
    clean_up,
    cmdline,
    descendants,
    flush_redis,
    free_ports,
    machine_busy,
    manage,
    parse_args,
    proc_table,
    register_account,
    running,
    smoke_database,
    table,
    terminate_on_signals,
)
from wrk_load import INVALID_SHARE, Wrk, WrkResult, settle, write_lists

HERE = Path(__file__).resolve().parent
VENV_BIN = ROOT / ".venv" / "bin"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_bench_serve"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/6"
LIVE_CHANNEL_PREFIX = "dice-bench-serve"
MOVES_PER_GAME = 52  # 13 turns of roll, roll, roll, score
# Games made for a run cover the moves expected at the best rate seen so far, times this.
MARGIN = 1.5
# A wrk thread keeps at least this many games per connection in its round (see wrk_moves.lua).
GAMES_PER_CONNECTION = 4
ANCHOR_GAMES_PER_CONNECTION = 8
BUSY_OTHER = 0.5  # cores used by the rest of the machine during a row: its figures are skewed
START_SECONDS = 90.0
STOP_SECONDS = 30.0
T = TypeVar("T")
R = TypeVar("R")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


# --------------------------------------------------------------------------------------------------
# processes


def become_subreaper() -> bool:
    """Orphans of this process's children come back to it instead of init: supervisord starts each
    tier in a group of its own, and one left behind by a dying supervisord stays findable here."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(36, 1, 0, 0, 0)) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def reap() -> None:
    """Collect the exit status of orphans handed to this process (see become_subreaper)."""
    for pid in list(descendants(os.getpid())):
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)


def tier_roots(serve: MakeServe) -> dict[str, list[int]]:
    """The root process of each tier: what supervisord started for each line of the Procfile."""
    members = serve.descendants()
    procs = proc_table()
    roots: dict[str, list[int]] = {}
    for pid in members:
        parent = procs.get(pid, (0, "", 0.0))[0]
        line = cmdline(pid)
        if "supervisord" not in cmdline(parent) or "supervisord" in line:
            continue
        for tier in ("gunicorn", "uvicorn", "nginx"):
            if tier in line:
                roots.setdefault(tier, []).append(pid)
                break
    return roots


def wait_answers(port: int, path: str, processes: list[Any], what: str) -> None:
    """Until ``GET path`` on ``port`` answers 200 (``processes`` must stay up meanwhile)."""
    deadline = time.monotonic() + START_SECONDS
    status = None
    while time.monotonic() < deadline:
        for process in processes:
            process.check()
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            try:
                conn.request("GET", path)
                status = conn.getresponse().status
            finally:
                conn.close()
            if status == 200:
                return
        time.sleep(0.25)
    tails = "\n".join(p.log_tail() for p in processes)
    raise SystemExit(f"{what} did not answer 200 on {path} in {START_SECONDS:.0f} s "
                     f"(last: {status}):\n{tails}")  # fmt: skip


# --------------------------------------------------------------------------------------------------
# database


# --------------------------------------------------------------------------------------------------
# games


@dataclass
class Game:
    id: str
    token: str
    made: int = 0  # moves made so far, from the event log

    @property
    def left(self) -> int:
        return MOVES_PER_GAME - self.made


def parallel(function: Callable[[T], R], items: list[T], workers: int) -> list[R]:
    """``function`` over ``items`` on ``workers`` threads, in order; on an error or Ctrl-C the
    items not yet started are dropped, so that the clean-up does not wait for them."""
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        return list(pool.map(function, items))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class GamePool:
    """The project's yatzy games, one ``me`` seat each (``auto_confirm_seconds`` 0), made through
    the API, ``per_account`` to an account so that no account carries much of the load (the user
    throttle keeps each account's recent requests in Redis)."""

    COUNTERS = """
        SELECT g.id::text, g.status,
               count(e.id) FILTER (WHERE e.type = 'box_scored'),
               count(e.id) FILTER (WHERE e.type = 'dice_rolled' AND e.seq > coalesce(last.seq, 0))
        FROM games_game g
        LEFT JOIN games_gameevent e ON e.game_id = g.id
        LEFT JOIN LATERAL (
            SELECT max(s.seq) AS seq FROM games_gameevent s
            WHERE s.game_id = g.id AND s.type = 'box_scored'
        ) last ON true
        WHERE g.id = ANY(%s::uuid[])
        GROUP BY g.id, g.status, last.seq
    """

    def __init__(self, port: int, per_account: int, prefix: str) -> None:
        self.port = port
        self.per_account = per_account
        self.prefix = prefix
        self.games: list[Game] = []
        self.accounts: list[tuple[str, int]] = []
        self.seconds = 0.0  # spent making accounts and games

    def ensure_accounts(self, count: int) -> None:
        missing = count - len(self.accounts)
        if missing <= 0:
            return
        start = len(self.accounts)
        names = [f"{self.prefix}{start + i}" for i in range(missing)]
        # Registration hashes a password (PBKDF2): CPU-bound, as many at once as the machine has
        # cores, more would only queue.
        workers = max(1, min(os.cpu_count() or 1, missing))
        self.accounts.extend(
            parallel(lambda name: register_account(self.port, name), names, workers)
        )

    def add(self, count: int) -> None:
        began = time.monotonic()
        first = len(self.games)
        self.ensure_accounts(math.ceil((first + count) / self.per_account))
        tokens = [self.accounts[(first + i) // self.per_account][0] for i in range(count)]

        def make(token: str) -> Game:
            return Game(new_game(self.port, token), token)

        self.games.extend(parallel(make, tokens, 8))
        self.seconds += time.monotonic() - began

    def refresh(self, conn: Any) -> None:
        """Each game's moves made, from its event log: a turn's rolls since its last score, plus 4
        per box scored (a move that failed made nothing, so the next one picks up from here)."""
        made: dict[str, int] = {}
        for game_id, status, scored, rolled in conn.execute(
            self.COUNTERS, ([g.id for g in self.games],)
        ):
            made[game_id] = MOVES_PER_GAME if status == "finished" else 4 * scored + min(rolled, 3)
        for game in self.games:
            game.made = made.get(game.id, game.made)

    def plan(self, threads: int, floor: int, moves_per_thread: int) -> list[list[Game]]:
        """Every game with moves left, dealt to the wrk threads; more games first when a thread
        could not make ``moves_per_thread`` moves before fewer than ``floor`` games are left to it.
        A thread goes round its games, which leave when finished: it can make ``floor`` times the
        moves left in its floor-th fullest game, plus every move of its emptier ones."""
        for _ in range(20):
            usable = sorted((g for g in self.games if g.left > 0), key=lambda g: -g.left)
            dealt = [usable[i::threads] for i in range(threads)]
            short = 0
            for games in dealt:
                if len(games) < floor:
                    short += (floor - len(games)) * MOVES_PER_GAME + moves_per_thread
                    continue
                capacity = floor * games[floor - 1].left + sum(g.left for g in games[floor:])
                short += max(moves_per_thread - capacity, 0)
            if not short:
                return dealt
            self.add(max(threads, math.ceil(short / MOVES_PER_GAME)))
        raise SystemExit("could not make enough games for the run")


def new_game(port: int, token: str) -> str:
    """A started one-seat yatzy game (``auto_confirm_seconds`` 0) made through the API: its id."""
    client = Http(port, token)
    try:
        game = client.expect(
            201, "POST", f"{API}/games/",
            {"kind": "yatzy", "options": {"auto_confirm_seconds": 0}, "seats": [{"type": "me"}]},
        )  # fmt: skip
        client.expect(200, "POST", f"{API}/games/{game['id']}/start/")
    finally:
        client.close()
    return str(game["id"])


# Copies of a real game's row: every column the project's table has, with whatever value the API
# gave it, so that a column added to games_game (NOT NULL, with a default only in Django, or
# under a constraint) needs no change here; only what the anchor's move reads is made its own.
ANCHOR_GAMES = """
    INSERT INTO games_game
    SELECT (jsonb_populate_record(NULL::games_game, to_jsonb(g) || jsonb_build_object(
        'id', gen_random_uuid(), 'status', 'active', 'version', 0, 'turn_seat', 0,
        'state', '{"anchor": true}'::jsonb, 'created_at', now(), 'started_at', now(),
        'last_move_at', NULL, 'deadline_at', NULL
    ))).*
    FROM games_game g, generate_series(1, %s)
    WHERE g.id = %s
    RETURNING id::text
"""


def anchor_games(conn: Any, count: int, template: str) -> list[str]:
    """Fake games for the anchor, in the project's table (rows it never touches): ``count``
    copies of the game ``template`` (made through the API), each active at version 0 with a small
    state of its own. The anchor has no rules: a row with a version and a state is all its move
    needs."""
    rows = conn.execute(ANCHOR_GAMES, (count, template)).fetchall()
    if len(rows) != count:
        raise SystemExit(f"made {len(rows)} anchor games of {count} (no template game {template})")
    return [row[0] for row in rows]


def children_cpu() -> float:
    """CPU seconds of this process's children that have been waited for (wrk, once it exits)."""
    times = os.times()
    return times.children_user + times.children_system


# --------------------------------------------------------------------------------------------------
# the runs


@dataclass(frozen=True)
class Endpoint:
    key: str
    label: str
    side: str  # "project" or "anchor"
    moves: bool


MOVE_NGINX = Endpoint("move-nginx", "project move, via nginx", "project", True)
MOVE_DIRECT = Endpoint("move-direct", "project move, gunicorn direct", "project", True)
MOVE_ANCHOR = Endpoint("move-anchor", "anchor move (raw SQL)", "anchor", True)
MOVE_ANCHOR_NGINX = Endpoint("move-anchor-nginx", "anchor move, via nginx", "anchor", True)
LIVE_NGINX = Endpoint("live-nginx", "project /health/live, via nginx", "project", False)
LIVE_DIRECT = Endpoint("live-direct", "project /health/live, gunicorn", "project", False)
LIVE_ANCHOR = Endpoint("live-anchor", "anchor plain view", "anchor", False)
LIVE_ANCHOR_NGINX = Endpoint("live-anchor-nginx", "anchor plain view, via nginx", "anchor", False)
# The anchor's move runs before the project's: its rate bounds theirs from above, which sizes the
# games of the first project run. Each project row runs close in time to its anchor row.
RUN_ORDER = (
    LIVE_ANCHOR, LIVE_ANCHOR_NGINX, LIVE_NGINX, LIVE_DIRECT,
    MOVE_ANCHOR, MOVE_ANCHOR_NGINX, MOVE_NGINX, MOVE_DIRECT,
)  # fmt: skip
PRINT_ORDER = (
    MOVE_NGINX, MOVE_DIRECT, MOVE_ANCHOR, MOVE_ANCHOR_NGINX,
    LIVE_NGINX, LIVE_DIRECT, LIVE_ANCHOR, LIVE_ANCHOR_NGINX,
)  # fmt: skip
# The targets (issue 30): the project's move through its proxy against the anchor's served
# directly by gunicorn with the same worker count, in the same run.
TARGET_SHARE = 60.0  # % of the anchor's moves/s
TARGET_P99 = 1.5  # times the anchor's p99


@dataclass
class Row:
    endpoint: Endpoint
    connections: int
    result: WrkResult
    cpu: dict[str, float]
    wall: float
    errors_seen: Counter[str] = field(default_factory=Counter)
    committed: int | None = None  # a move row's moves, read back from the event log
    round: int = 1

    def per_request(self, part: str) -> float:
        """CPU ms of ``part`` per request answered in the window."""
        if not self.result.requests or part not in self.cpu:
            return math.nan
        return 1000 * self.cpu[part] * self.wall / self.result.requests


class Bench:
    def __init__(self, args: argparse.Namespace, tmp: Path) -> None:
        self.args = args
        self.tmp = tmp
        self.wrk = Wrk(args.threads, tmp)
        self.serve: MakeServe | None = None
        self.anchor: Process | None = None
        self.anchor_nginx: Process | None = None
        self.pool: GamePool | None = None
        self.conn: Any = None
        self.ports: dict[str, int] = {}
        self.anchor_ids: list[str] = []
        self.rows: list[Row] = []
        self.move_rates: list[float] = []  # every project move run's, warm-ups included
        self.anchor_move_rates: dict[int, float] = {}
        self.anchor_events = 0  # the anchor's moves so far (its games' events)

    # --- set-up

    def start(self, env: dict[str, str]) -> None:
        base = self.args.port or free_ports(5)
        self.ports = {"nginx": base, "gunicorn": base + 1, "streams": base + 2,
                      "anchor": base + 3, "anchor-nginx": base + 4}  # fmt: skip
        self.serve = MakeServe(
            env, base, self.tmp / "serve.log",
            {"HOST": "127.0.0.1", "WEB_CONCURRENCY": self.args.workers},
        )  # fmt: skip
        anchor_env = {
            **env,
            "API_BIND": f"127.0.0.1:{self.ports['anchor']}",
            "WEB_CONCURRENCY": str(self.args.workers),
            "PYTHONPATH": str(HERE),
            "ANCHOR_MIDDLEWARE": self.args.anchor_middleware,
            "ANCHOR_STATEMENTS": self.args.anchor_statements,
        }
        # The Procfile's api line with the anchor's module: the same config file, the same workers.
        argv = [str(VENV_BIN / "gunicorn"), "anchor.wsgi", "--config",
                "config/deploy/gunicorn.conf.py"]  # fmt: skip
        self.anchor = Process("anchor", argv, anchor_env, self.tmp / "anchor.log")
        self.anchor_nginx = self.proxy_for_anchor(env)
        wait_answers(self.ports["nginx"], "/health/live", [self.serve], "make serve (nginx)")
        wait_answers(self.ports["gunicorn"], "/health/live", [self.serve], "make serve (gunicorn)")
        wait_answers(self.ports["anchor"], "/plain/", [self.anchor], "the anchor")
        wait_answers(
            self.ports["anchor-nginx"], "/plain/", [self.anchor, self.anchor_nginx],
            "the anchor's nginx",
        )  # fmt: skip

    def proxy_for_anchor(self, env: dict[str, str]) -> Process:
        """The project's nginx configuration, as make serve renders it (config/deploy/nginx/),
        with the anchor's gunicorn as its API upstream: the same proxy in front of each."""
        directory = self.tmp / "anchor-nginx"
        values = {
            **env,
            "LISTEN": f"127.0.0.1:{self.ports['anchor-nginx']}",
            "API_UPSTREAM": f"127.0.0.1:{self.ports['anchor']}",
            "STREAMS_UPSTREAM": f"127.0.0.1:{self.ports['streams']}",
            "STATIC_ROOT": str(ROOT / "var" / "static"),
            "NGINX_WORKERS": "1",
        }
        subprocess.run(
            [sys.executable, str(ROOT / "config" / "deploy" / "render_nginx.py"), str(directory)],
            env=values, check=True, cwd=ROOT,
        )  # fmt: skip
        nginx = shutil.which("nginx", path=env.get("PATH")) or "nginx"
        argv = [nginx, "-p", str(directory), "-c", str(directory / "nginx.conf"), "-e", "stderr"]
        return Process("anchor nginx", argv, env, self.tmp / "anchor-nginx.log")

    def prepare(self, database: BenchDatabase) -> None:
        self.conn = database.connect()
        self.conn.autocommit = True
        prefix = f"serve{secrets.token_hex(3)}_"
        self.pool = GamePool(self.ports["nginx"], self.args.games_per_account, prefix)
        self.pool.ensure_accounts(1)
        top = max(self.args.connections)
        count = ANCHOR_GAMES_PER_CONNECTION * top
        template = new_game(self.ports["nginx"], self.pool.accounts[0][0])
        self.anchor_ids = anchor_games(self.conn, count, template)

    def check_servers(self) -> None:
        assert self.serve and self.anchor and self.anchor_nginx
        self.serve.check()
        self.anchor.check()
        self.anchor_nginx.check()

    # --- one row

    def url(self, endpoint: Endpoint) -> str:
        port = {
            "move-nginx": "nginx", "live-nginx": "nginx", "move-direct": "gunicorn",
            "live-direct": "gunicorn", "move-anchor": "anchor", "live-anchor": "anchor",
            "move-anchor-nginx": "anchor-nginx", "live-anchor-nginx": "anchor-nginx",
        }[endpoint.key]  # fmt: skip
        path = {"live-nginx": "/health/live", "live-direct": "/health/live",
                "live-anchor": "/plain/", "live-anchor-nginx": "/plain/"}.get(
            endpoint.key, "")  # fmt: skip
        return f"http://127.0.0.1:{self.ports[port]}{path}"

    def cpu_trees(self, endpoint: Endpoint) -> dict[str, list[int]]:
        assert self.serve and self.anchor and self.anchor_nginx
        if endpoint.side == "anchor":
            if endpoint.key.endswith("nginx"):
                nginx = [self.anchor_nginx.pid]
                return {"server": [self.anchor.pid, *nginx], "nginx": nginx}
            return {"server": [self.anchor.pid]}
        tiers = tier_roots(self.serve)
        return {"server": [pid for pids in tiers.values() for pid in pids],
                "nginx": tiers.get("nginx", [])}  # fmt: skip

    def threads_for(self, connections: int) -> int:
        return min(self.args.threads, connections)

    def script_args(self, endpoint: Endpoint, connections: int, seconds: float) -> list[str]:
        """Write the games of this run (one list per wrk thread) and return wrk_moves.lua's
        arguments."""
        assert self.pool is not None
        threads = self.threads_for(connections)
        per_thread = connections // threads
        prefix = self.tmp / f"games-{endpoint.key}-{connections}"
        if endpoint.side == "anchor":
            ids = self.anchor_ids
            dealt = [[(f"/move/{gid}/", "-", 0) for gid in ids[i::threads]] for i in range(threads)]
            write_lists(prefix, dealt)
            return [str(prefix), "anchor", "1"]
        floor = GAMES_PER_CONNECTION * per_thread
        # The rate to expect: the best project move rate seen so far, else the anchor's move rate
        # (an upper bound: the project's move does the anchor's statements and more besides).
        rate = max(self.move_rates, default=0.0) or self.anchor_move_rates.get(connections, 0.0)
        if not rate:
            rate = max(self.anchor_move_rates.values(), default=1000.0)
        per = math.ceil(rate * (seconds + 2) * MARGIN / threads)
        games = self.pool.plan(threads, floor, per)
        write_lists(prefix, [[(f"{API}/games/{g.id}/moves/", g.token, g.made) for g in gs]
                             for gs in games])  # fmt: skip
        return [str(prefix), "project", str(floor)]

    def after_moves(self, endpoint: Endpoint, result: WrkResult) -> int:
        """Once the server is quiet, the moves made since the last call on that side, from the
        event log: the project's games' moves made, or the anchor's events."""
        if endpoint.side == "anchor":
            settle(self.conn, self.anchor_ids)
            row = self.conn.execute(
                "SELECT count(*) FROM games_gameevent WHERE game_id = ANY(%s::uuid[])",
                (self.anchor_ids,),
            ).fetchone()
            total = int(row[0]) if row else 0
            made, self.anchor_events = total - self.anchor_events, total
            return made
        assert self.pool is not None
        self.move_rates.append(result.rate)
        settle(self.conn, [g.id for g in self.pool.games])
        before = sum(g.made for g in self.pool.games)
        self.pool.refresh(self.conn)
        return sum(g.made for g in self.pool.games) - before

    def measure(self, endpoint: Endpoint, connections: int) -> Row:
        args = self.args
        url = self.url(endpoint)
        if args.warmup > 0:
            script = (
                self.script_args(endpoint, connections, args.warmup) if endpoint.moves else None
            )
            warm = self.wrk.run(url, connections, args.warmup, script)
            if endpoint.moves:
                self.after_moves(endpoint, warm)
            self.check_servers()
        script = self.script_args(endpoint, connections, args.seconds) if endpoint.moves else None
        meter = CpuMeter(self.cpu_trees(endpoint))
        spent = children_cpu()
        result = self.wrk.run(url, connections, args.seconds, script)
        cpu = meter.read()
        wall = time.monotonic() - meter.wall
        cpu["wrk"] = (children_cpu() - spent) / wall
        cpu["other"] = max(
            cpu["machine"] - sum(cpu[k] for k in ("server", "postgres", "client", "wrk")), 0.0
        )
        self.check_servers()
        row = Row(endpoint, connections, result, cpu, wall)
        if endpoint.moves:
            row.committed = self.after_moves(endpoint, result)
        if endpoint.key == "move-anchor":
            self.anchor_move_rates[connections] = result.rate
        if endpoint.side == "project" and endpoint.moves and result.non2xx:
            row.errors_seen = self.capture_errors(endpoint, connections)
        print(progress(row), flush=True)
        return row

    def capture_errors(self, endpoint: Endpoint, connections: int) -> Counter[str]:
        """The measured run counts non-2xx without their bodies (a response hook slows wrk down):
        a short run with wrk_moves.lua's hook on collects some, to say what they were."""
        seconds = 2.0
        capture = self.tmp / f"errors-{endpoint.key}-{connections}"
        script = self.script_args(endpoint, connections, seconds)
        result = self.wrk.run(
            self.url(endpoint), connections, seconds, script,
            env={"WRK_MOVES_CAPTURE": str(capture)},
        )  # fmt: skip
        self.after_moves(endpoint, result)
        self.move_rates.pop()  # a run slowed by its hook says nothing of the rate
        seen: Counter[str] = Counter()
        for path in self.tmp.glob(f"{capture.name}.*"):
            for line in path.read_text(errors="replace").splitlines():
                seen[UUID.sub("<id>", line)[:300]] += 1
        if not seen:
            seen["(none: the rerun got no error)"] = 1
        return seen

    def run(self) -> None:
        for connections in self.args.connections:
            for number in range(1, self.args.rounds + 1):
                for endpoint in RUN_ORDER:
                    row = self.measure(endpoint, connections)
                    row.round = number
                    self.rows.append(row)

    def stop(self) -> None:
        self.wrk.stop()
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
        if self.anchor_nginx is not None:
            self.anchor_nginx.stop()
        if self.anchor is not None:
            self.anchor.stop()
        if self.serve is not None:
            self.serve.stop()


# --------------------------------------------------------------------------------------------------
# report


def ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:.1f}"


def cell(value: float, digits: int = 2) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def progress(row: Row) -> str:
    r = row.result
    return (
        f"  {row.connections:>3} conns  {row.endpoint.label:<32} {r.rate:8.1f} req/s"
        f"  p50 {ms(r.p50):>6} ms  p99 {ms(r.p99):>6} ms  non-2xx {r.non2xx}"
        + (f"  socket errors: {r.socket_detail}" if r.socket_errors else "")
        + (f"  moves in the event log {row.committed}" if row.committed is not None else "")
    )


HEADER = [
    "endpoint", "conns", "req/s", "p50 ms", "p99 ms", "non-2xx", "sock err",
    "cpu ms/req: server", "nginx", "pg", "cores: server", "pg", "wrk", "other", "",
]  # fmt: skip
NOTES = f"""\
endpoints: project move = POST /api/v1/games/{{id}}/moves/ (token auth, a legal yatzy move),
through nginx (make serve's PORT) or straight to its gunicorn (PORT+1); anchor move = POST
/move/{{id}}/ on bench/anchor (DRF APIView, the transaction written by hand in raw SQL, no auth),
straight to its gunicorn or through an nginx of its own rendered from the project's templates
(config/deploy/nginx/: the same proxy); project /health/live (no database) through nginx or
straight to gunicorn; anchor plain view = GET /plain/ (a plain Django view), direct or through
its nginx. Both servers: gunicorn, config/deploy/gunicorn.conf.py, the same worker count.
req/s, p50, p99, non-2xx (wrk counts answers >= 400) and socket errors: wrk --latency.
A row is INVALID when non-2xx or socket errors pass {100 * INVALID_SHARE:.0f} % of its requests,
or when its games ran out; "busy machine" when the rest of the machine used {BUSY_OTHER:.1f} core
or more meanwhile (its figures are then off by an unknown amount: compare cpu ms/req instead).
cpu ms/req: CPU time over the window / requests answered: the server's processes (the project:
gunicorn, nginx and the stream tier; the anchor: its gunicorn, and its nginx on a row via
nginx), nginx's share, and every
postgres process on the machine. cores: used during the window by the server, PostgreSQL, wrk,
and the rest of the machine (other people's work shows there: it skews the row)."""


def table_row(row: Row, rounds: int) -> list[str]:
    r = row.result
    why = r.invalid()
    cores = [f"{row.cpu.get(k, math.nan):.2f}" for k in ("server", "postgres", "wrk", "other")]
    return [
        row.endpoint.label + (f" #{row.round}" if rounds > 1 else ""),
        str(row.connections),
        f"{r.rate:.1f}",
        ms(r.p50),
        ms(r.p99),
        str(r.non2xx),
        str(r.socket_errors),
        cell(row.per_request("server")),
        cell(row.per_request("nginx")) if row.endpoint.key.endswith("nginx") else "-",
        cell(row.per_request("postgres")),
        *cores,
        "; ".join(
            ([f"INVALID: {'; '.join(why)}"] if why else [])
            + (["busy machine"] if row.cpu.get("other", 0.0) >= BUSY_OTHER else [])
        ),
    ]


def invalid_flag(pairs: list[tuple[Row, Row]]) -> str:
    invalid = any(a.result.invalid() or b.result.invalid() for a, b in pairs)
    return "  [from an INVALID row]" if invalid else ""


def median_of(values: list[float]) -> str:
    """The median, and each round's value after it when there are several."""
    if not values:
        return "-"
    middle = statistics.median(values)
    if len(values) == 1:
        return f"{middle:.1f}"
    return f"{middle:.1f} (" + ", ".join(f"{v:.1f}" for v in values) + ")"


def report(bench: Bench) -> None:
    rounds = bench.args.rounds

    def rows_of(key: str, c: int) -> list[Row]:
        return [row for row in bench.rows if row.endpoint.key == key and row.connections == c]

    ordered = [
        row for endpoint in PRINT_ORDER for c in bench.args.connections
        for row in rows_of(endpoint.key, c)
    ]  # fmt: skip
    print()
    print(table([table_row(row, rounds) for row in ordered], HEADER))
    print(NOTES)
    print()
    print(
        "ratios of req/s:"
        + (f" the median of {rounds} rounds, then each round's (a round runs every row once)"
           if rounds > 1 else "")
    )  # fmt: skip
    comparisons = [
        ("project move via nginx / anchor move direct", "move-nginx", "move-anchor",
         f"target >= {TARGET_SHARE:.0f} %"),
        ("project move via nginx / anchor move via nginx", "move-nginx", "move-anchor-nginx",
         "the same proxy in front of each"),
        ("project move gunicorn / anchor move gunicorn", "move-direct", "move-anchor",
         "no proxy either"),
        ("project /health/live via nginx / anchor plain", "live-nginx", "live-anchor-nginx",
         "the same proxy in front of each"),
        ("project /health/live gunicorn / anchor plain", "live-direct", "live-anchor",
         "no proxy either"),
        ("project move via nginx / gunicorn direct", "move-nginx", "move-direct", "the proxy"),
        ("anchor move via nginx / gunicorn direct", "move-anchor-nginx", "move-anchor",
         "the proxy"),
    ]  # fmt: skip
    for c in bench.args.connections:
        for label, a, b, note in comparisons:
            pairs = list(zip(rows_of(a, c), rows_of(b, c), strict=False))
            shares = [100 * x.result.rate / y.result.rate for x, y in pairs if y.result.rate]
            flag = invalid_flag(pairs)
            print(f"  {c:>3} conns  {label:<48} {median_of(shares)} %   ({note}){flag}")
        for label, a, b in (
            ("project move via nginx / anchor move direct", "move-nginx", "move-anchor"),
            ("project move via nginx / anchor via nginx", "move-nginx", "move-anchor-nginx"),
        ):
            pairs = list(zip(rows_of(a, c), rows_of(b, c), strict=False))
            times = [x.result.p99 / y.result.p99 for x, y in pairs if y.result.p99 > 0]
            target = f"; target <= {TARGET_P99:g} x" if b == "move-anchor" else ""
            print(
                f"  {c:>3} conns  {'p99, ' + label:<48} {median_of(times)} x   "
                f"(project {median_of([x.result.p99 * 1000 for x, _ in pairs])} ms{target})"
                + invalid_flag(pairs)
            )
        print(f"  {c:>3} conns  CPU ms per request (server: its processes, nginx included;"
              " pg: every postgres process), the median of the rounds:")  # fmt: skip
        for endpoint in PRINT_ORDER:
            rows = rows_of(endpoint.key, c)
            if not rows:
                continue

            def per(part: str, rows: list[Row] = rows) -> float:
                values = [v for v in (r.per_request(part) for r in rows) if not math.isnan(v)]
                return statistics.median(values) if values else math.nan

            total = sum(v for v in (per("server"), per("postgres")) if not math.isnan(v))
            print(
                f"             {endpoint.label:<32} server {cell(per('server')):>6}"
                f"  of which nginx {cell(per('nginx')):>5}"
                f"  pg {cell(per('postgres')):>5}  sum {total:6.2f}"
            )
    for row in ordered:
        if row.errors_seen:
            print(
                f"\nnon-2xx bodies, {row.endpoint.label} at {row.connections} connections "
                "(sampled from a 2 s rerun with wrk_moves.lua's response hook):"
            )
            for body, count in row.errors_seen.most_common(12):
                print(f"  {body}" if body.startswith("(") else f"  {count:>5} x {body}")


def server_log_errors(*logs: Path) -> Counter[str]:
    """Django's request log (4xx as warnings, 5xx as errors), by status text and path."""
    seen: Counter[str] = Counter()
    pattern = re.compile(r"\b([A-Z][A-Za-z ]+): (/\S*)")
    for log in logs:
        with contextlib.suppress(OSError):
            for line in log.read_text(errors="replace").splitlines():
                if "supervisord" in line or "system " in line:
                    continue
                match = pattern.search(line)
                if match and match.group(1).split()[-1] in (
                    "Request", "Conflict", "Found", "Forbidden", "Unauthorized", "Error",
                    "Entity", "Requests", "Unavailable", "Allowed",
                ):  # fmt: skip
                    seen[f"{match.group(1)}: {UUID.sub('<id>', match.group(2))}"] += 1
    return seen


def tool_version(argv: list[str]) -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        text = (done.stdout + done.stderr).strip().splitlines()
        return text[0] if text else "?"
    return "?"


def versions(conn: Any, redis_url: str) -> list[str]:
    """What served: the project's .venv (which make serve and the anchor run), the servers."""
    probe = (
        "import sys, django, gunicorn, rest_framework, psycopg; "
        "print(sys.version.split()[0], django.get_version(), gunicorn.__version__, "
        "rest_framework.__version__, psycopg.__version__)"
    )
    done = subprocess.run(
        [str(VENV_BIN / "python"), "-c", probe], capture_output=True, text=True, timeout=60
    )
    python, django, gunicorn, drf, psycopg = (done.stdout.split() + ["?"] * 5)[:5]
    row = conn.execute("SHOW server_version").fetchone()
    redis_version = "?"
    with contextlib.suppress(Exception):
        import redis

        redis_version = str(redis.Redis.from_url(redis_url).info("server")["redis_version"])
    return [
        f"gunicorn {gunicorn}, Django {django}, DRF {drf}, psycopg {psycopg}, Python {python}",
        f"PostgreSQL {row[0] if row else '?'}, Redis {redis_version}, "
        f"{tool_version(['nginx', '-v']).replace('nginx version: ', '')}, "
        f"{tool_version(['wrk', '-v']).split(' Copyright')[0]}",
    ]


# --------------------------------------------------------------------------------------------------
# main


def connection_counts(text: str) -> list[int]:
    counts = [int(part) for part in text.split(",") if part.strip()]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("a comma-separated list of positive integers")
    return counts


# --smoke: every row once, at 2 connections, 1 s each, on a database of its own (one account).
SMOKE: dict[str, Any] = {
    "seconds": 1.0, "warmup": 1.0, "connections": [2], "workers": 2, "games_per_account": 32,
    "database_url": smoke_database(DEFAULT_DATABASE_URL),
}  # fmt: skip


def smoke_checks(checks: Checks, bench: Bench, logged: Counter[str]) -> None:
    """What must add up: every row answered with no error, and each move row's moves in the event
    log those wrk counted, plus at most one a connection (in flight when it stopped)."""
    for row in bench.rows:
        r = row.result
        what = f"{row.endpoint.label} at {row.connections} connections"
        checks.expect(
            r.requests > 0 and not r.non2xx and not r.socket_errors and not r.exhausted,
            f"{what}: {r.requests} requests, non-2xx {r.non2xx}, socket errors "
            f"{r.socket_errors}, threads out of games {r.exhausted}",
        )
        if row.committed is not None:
            answered = r.requests - r.non2xx
            most = answered + row.connections
            checks.expect(
                answered <= row.committed <= most,
                f"{what}: {row.committed} moves in the event log for {answered} answered "
                f"(between {answered} and {most})",
            )
    checks.expect(not logged, f"4xx/5xx in the servers' request logs: {sum(logged.values())}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="measured window per row")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured wrk run before each")
    parser.add_argument(
        "--connections", type=connection_counts, default=[16, 64], help="e.g. 16,64"
    )
    parser.add_argument("--workers", type=int, default=4, help="WEB_CONCURRENCY (both servers)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument(
        "--anchor-middleware",
        choices=("django", "none"),
        default="django",
        help="the anchor's middleware: Django's startproject list (default) or none",
    )
    parser.add_argument(
        "--anchor-statements",
        choices=("django", "prepared"),
        default="django",
        help="the anchor's statements: Django's default (bound by the client, planned at every"
        " run) or prepared as the project prepares its own (DB_PREPARE)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1,
        help="every row this many times, in turn (the ratios: the median of the rounds')",
    )  # fmt: skip
    parser.add_argument("--games-per-account", type=int, default=8)
    parser.add_argument(
        "--port", type=int, default=0,
        help="the first of five ports on 127.0.0.1 (make serve's three, the anchor, the anchor's"
        " nginx); default: free ones",
    )  # fmt: skip
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--keep-logs", action="store_true", help="keep the temporary directory")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    args = parse_args(parser, argv, SMOKE)
    if min(args.workers, args.threads, args.rounds) < 1 or args.seconds <= 0 or args.warmup < 0:
        parser.error("--seconds > 0, --warmup >= 0, --workers, --threads and --rounds >= 1")
    if not float(args.seconds).is_integer() or not float(args.warmup).is_integer():
        parser.error("--seconds and --warmup: whole seconds (wrk's unit)")
    checks = Checks(args.smoke)
    for tool in ("wrk", "make"):
        if shutil.which(tool) is None:
            raise SystemExit(f"bench/serve.py needs {tool}")
    if not (VENV_BIN / "gunicorn").exists():
        raise SystemExit("no .venv/bin/gunicorn: make install first")

    began = time.monotonic()
    subreaper = become_subreaper()
    tmp = Path(tempfile.mkdtemp(prefix="dice-bench-serve-"))
    database = BenchDatabase(args.database_url)
    env = bench_env(database.url, args.redis_url, LIVE_CHANNEL_PREFIX=LIVE_CHANNEL_PREFIX)
    for name in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS"):
        env.pop(name, None)
    bench = Bench(args, tmp)
    rows_time = (
        len(args.connections) * args.rounds * len(RUN_ORDER) * (args.seconds + args.warmup + 1.5)
    )
    print(
        f"serve: WEB_CONCURRENCY={args.workers} (project and anchor), connections "
        f"{','.join(map(str, args.connections))}, wrk -t {args.threads}, {args.warmup:g} s warm-up"
        f" + {args.seconds:g} s per row; about {rows_time / 60:.1f} min of runs after set-up"
    )
    print(f"  database: {database.url}; redis: {args.redis_url}")
    print(
        f"  anchor:   bench/anchor, middleware: {args.anchor_middleware}, raw SQL move, "
        f"statements: {args.anchor_statements}"
    )
    print(f"  machine:  {os.cpu_count()} cores, busy before start: {machine_busy():.2f} cores")
    if not subreaper:
        print("  note: not a child subreaper; a tier outliving supervisord is stopped by pid")
    try:
        with terminate_on_signals():
            database.create()
            flush_redis(args.redis_url)
            manage(env, "migrate", "--noinput", "-v", "0")
            bench.start(env)
            bench.prepare(database)
            assert bench.serve is not None and bench.pool is not None
            tiers = tier_roots(bench.serve)
            print(
                f"  make serve: nginx :{bench.ports['nginx']} -> "
                f"gunicorn :{bench.ports['gunicorn']}"
                f" (config.wsgi, {args.workers} sync workers), streams :{bench.ports['streams']};"
                f" anchor gunicorn :{bench.ports['anchor']}; tiers {sorted(tiers)}"
            )
            for line in versions(bench.conn, args.redis_url):
                print(f"  {line}")
            print(f"  set-up: {time.monotonic() - began:.1f} s")
            print()
            bench.run()
            pool = bench.pool
            print(
                f"\ngames: {len(pool.games)} project games on {len(pool.accounts)} accounts "
                f"(made in {pool.seconds:.1f} s, between runs), "
                f"{sum(g.left <= 0 for g in pool.games)} finished; anchor games: "
                f"{len(bench.anchor_ids)} rows"
            )
            report(bench)
            logged = server_log_errors(tmp / "serve.log", tmp / "anchor.log")
            if logged:
                print("\nserver logs (Django's request log, whole run, warm-ups included):")
                for line, count in logged.most_common(10):
                    print(f"  {count:>6} x {line}")
            print(
                f"\nWEB_CONCURRENCY={args.workers}; total {time.monotonic() - began:.0f} s "
                f"(set-up, {bench.wrk.runs} wrk runs, clean-up excluded)"
            )
            if checks.enabled:
                smoke_checks(checks, bench, logged)
            return checks.exit_code()
    except KeyboardInterrupt:
        print("\ninterrupted: cleaning up", file=sys.stderr)
        return 130
    finally:
        bench.stop()
        # anything this run started that is still there (subreaper: every descendant is ours)
        for pid in descendants(os.getpid()):
            if running(pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        reap()
        clean_up(database, args.redis_url, tmp, args.keep_logs, drop=not args.keep_db)


if __name__ == "__main__":
    sys.exit(main())
