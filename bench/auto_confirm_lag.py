"""Benchmark of the yatzy auto-confirm timer: how long after the last roll the server scores.

    .venv/bin/python bench/auto_confirm_lag.py [--games 300] [--spread 10] [--load-games 100]
        [--load-rate 20] [--load-clients 8] [--phases idle,paced,flat-out]
        [--database-url postgres://postgres@127.0.0.1:5432/dice_bench_timers] [--sqlite]
        [--redis-url redis://127.0.0.1:6379/3]

DESIGN target: "Auto-confirm fires between 3.0 and 3.5 s after the last roll at p99 while hundreds
of games run." Prints figures; never asserts on time.

Set-up: a fresh database (PostgreSQL ``dice_bench_timers``, dropped and re-created; ``--sqlite``: a
temporary file), a dedicated Redis db (``/3``, flushed) as broker and cache, the web server as
``bench/http_moves.py`` starts it (``uvicorn config.asgi:application --workers 2``) and the Celery
workers as deployed: the timers worker with embedded beat (``celery -A config worker -B --queues
timers --concurrency 1``) and the default-queue worker (``--queues celery --concurrency 2``),
``COMPUTER_MOVE_DELAY=0``, the sweep at its production settings (``SWEEP_SECONDS=1``,
``SWEEP_GRACE_SECONDS=1``) unless told.

Each phase:

1. prepares ``--games`` one-seat yatzy games (auto-confirm ``--auto-confirm`` s, 3 by default),
   each rolled twice, directly through ``games.services`` in this process (set-up, not measured);
2. in the phases with load, starts ``--load-games`` other games (auto-confirm on, so each of their
   third rolls queues a timer that their score then makes stale) played through HTTP by
   ``--load-clients`` threads: ``paced`` at ``--load-rate`` moves/s in all, ``flat-out`` as fast as
   the server answers;
3. sends each prepared game's third roll through HTTP (``POST .../moves/``), one every
   ``spread / games`` seconds, and then sends nothing more to those games;
4. waits until every one of them has been scored (or ``--wait`` s after the last roll) and reads
   the event log: lag = ``created_at`` of the automatic ``box_scored`` event - ``created_at`` of the
   third ``dice_rolled`` event.

It prints, per phase: games, how many were confirmed, min/p50/p90/p99/max lag, how many fired before
``auto-confirm`` s (must be 0) and after ``auto-confirm + 0.5`` s, games never confirmed, the load's
moves/s and latency, what the worker's log says made the moves (the timer task or the beat sweep),
and CPU use by process.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import math
import os
import re
import secrets
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from http_moves import (  # a sibling script, not a package
    API,
    CPU_COLUMNS,
    BenchDatabase,
    CpuMeter,
    Http,
    Process,
    YatzyPlayer,
    add_server_arguments,
    bench_env,
    flush_redis,
    free_port,
    machine_busy,
    manage,
    ms,
    percentile,
    register_many,
    server_description,
    server_env,
    start_server,
    table,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_bench_timers"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/3"
PHASES = ("idle", "paced", "flat-out")
TASK_LINE = re.compile(
    r"^\[(?P<ts>[\d-]+ [\d:,]+): \w+/[\w-]+\] Task (?P<task>[\w.]+)\[(?P<id>[^\]]+)\] "
    r"(?:received|succeeded in (?P<runtime>[\d.e-]+)s: (?P<value>\S+))",
    re.MULTILINE,
)


# --------------------------------------------------------------------------------------------------
# the worker


def start_worker(
    env: dict[str, str], concurrency: int, tmp: Path, queues: str = "timers", beat: bool = True
) -> Process:
    """A worker as deployed (config/deploy/Procfile): timers on their own queue and worker (with
    the beat schedule here), everything else on the default queue."""
    argv = [
        sys.executable, "-m", "celery", "-A", "config", "worker", *(["-B"] if beat else []),
        "--queues", queues, "--concurrency", str(concurrency), "--loglevel", "INFO",
        # as in the Procfile: the timers worker holds many due-later messages at once
        *(["--prefetch-multiplier", "100"] if queues == "timers" else []),
        "--schedule", str(tmp / "beat-schedule"),
        "--hostname", f"bench-{queues}-{secrets.token_hex(3)}@%h",
    ]  # fmt: skip
    worker = Process(f"celery worker {queues}", argv, env, tmp / f"worker-{queues}.log")
    deadline = time.monotonic() + 60
    while "ready." not in worker.log_path.read_text(errors="replace"):
        worker.check()
        if time.monotonic() > deadline:
            worker.stop()
            raise SystemExit(f"the worker was not ready in 60 s:\n{worker.log_tail()}")
        time.sleep(0.2)
    return worker


class WorkerLog:
    """What the worker's log says about the tasks that finished since the last ``read``: which
    path scored (timer task or sweep), how long the tasks ran, and how many timer tasks reached
    the worker only when already due (the worker stops taking messages while its pool is full:
    late acks, prefetch 1)."""

    def __init__(self, path: Path, auto_confirm: float) -> None:
        self.path = path
        self.offset = 0
        self.auto_confirm = auto_confirm
        self.received: dict[str, float] = {}

    def read(self) -> dict[str, float]:
        with self.path.open("rb") as handle:
            handle.seek(self.offset)
            text = handle.read().decode(errors="replace")
            self.offset = handle.tell()
        found: Counter[str] = Counter()
        runtimes: list[float] = []
        for match in TASK_LINE.finditer(text):
            stamp = datetime.strptime(match["ts"], "%Y-%m-%d %H:%M:%S,%f").timestamp()
            if match["runtime"] is None:
                self.received[match["id"]] = stamp
                continue
            task, value = match["task"].rsplit(".", 1)[-1], match["value"]
            runtime = float(match["runtime"])
            found["busy seconds"] += runtime
            if task == "timeout":
                runtimes.append(runtime)
                if value == "True":
                    found["timer tasks that moved"] += 1
                    held = stamp - self.received.pop(match["id"], stamp)
                    # a timer task normally reaches the worker ~auto_confirm s before it is due
                    found["received when due"] += held < self.auto_confirm / 2
                else:
                    found["timer tasks, nothing due"] += 1
            elif task == "sweep_automatic_moves":
                found["sweeps"] += 1
                found["sweep moves"] += int(value) if value.isdigit() else 0
            else:
                found[f"{task} tasks"] += 1
        found["errors in log"] = len(re.findall(r"\b(ERROR|CRITICAL)\b", text))
        figures: dict[str, float] = dict(found)
        figures["timer task p50 ms"] = 1000 * percentile(runtimes, 50)
        figures["timer task p99 ms"] = 1000 * percentile(runtimes, 99)
        return figures


# --------------------------------------------------------------------------------------------------
# games


def django_setup(env: dict[str, str]) -> None:
    """This process prepares games with the services and reads the event log through the ORM."""
    for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "LOG_LEVEL"):
        if name in env:
            os.environ[name] = env[name]
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()


def prepare_games(usernames: list[str], count: int, auto_confirm: float) -> list[dict[str, Any]]:
    """``count`` one-seat yatzy games, started and rolled twice, owned round-robin by the accounts:
    set-up through the services (what the HTTP views call), not measured."""
    from games import services
    from games.models import Game
    from players.models import Player

    players = [Player.objects.get(username=name) for name in usernames]
    games = []
    for index in range(count):
        owner = index % len(players)
        game = services.game_create(
            creator=players[owner],
            kind="yatzy",
            seats=[services.SeatSpec(type="me")],
            options={"auto_confirm_seconds": auto_confirm},
        )
        services.game_start(game_id=game.pk, player=players[owner])
        for hold in ([], [0]):
            services.game_move(
                game_id=game.pk, command={"type": "roll", "hold": hold}, actor=players[owner]
            )
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        games.append({"id": str(game.pk), "owner": owner, "version": version})
    return games


def scored_events(game_ids: list[str]) -> dict[str, tuple[int, bool, datetime]]:
    """The first box_scored event of each game: (seq, automatic, created_at)."""
    from games.models import GameEvent

    rows = (
        GameEvent.objects.filter(game_id__in=game_ids, type="box_scored")
        .order_by("game_id", "seq")
        .values_list("game_id", "seq", "automatic", "created_at")
    )
    found: dict[str, tuple[int, bool, datetime]] = {}
    for game_id, seq, automatic, created in rows:
        found.setdefault(str(game_id), (seq, automatic, created))
    return found


def roll_times(keys: dict[str, int]) -> dict[str, datetime]:
    """created_at of the dice_rolled event at the given seq of each game."""
    from games.models import GameEvent

    rows = GameEvent.objects.filter(game_id__in=list(keys), type="dice_rolled").values_list(
        "game_id", "seq", "created_at"
    )
    return {str(g): created for g, seq, created in rows if keys.get(str(g)) == seq}


# --------------------------------------------------------------------------------------------------
# load


def mid_turn(player: YatzyPlayer) -> bool:
    game = player.game
    return bool(game and game["status"] == "active" and game["state"]["rolls_used"] > 0)


@dataclass
class Load:
    """``clients`` threads, each playing its share of the load games round-robin through HTTP;
    ``rate`` moves/s in all (0: as fast as the server answers)."""

    port: int
    tokens: list[str]
    games: int
    rate: float
    auto_confirm: float
    samples: list[list[tuple[float, float, str, bool]]] = field(default_factory=list)
    players: list[YatzyPlayer] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        clients = len(self.tokens)
        self.samples = [[] for _ in range(clients)]
        for index in range(clients):
            http = Http(self.port, self.tokens[index])
            mine = [
                YatzyPlayer(http, {"auto_confirm_seconds": self.auto_confirm})
                for _ in range(index, self.games, clients)
            ]
            self.players += mine
            thread = threading.Thread(
                target=self._loop, args=(index, mine), daemon=True, name=f"load-{index}"
            )
            self.threads.append(thread)
        for thread in self.threads:
            thread.start()

    def _loop(self, index: int, players: list[YatzyPlayer]) -> None:
        """A whole turn of one game (roll, roll, roll, score: well inside its auto-confirm delay,
        so its timer goes stale), then the next game's."""
        interval = len(self.tokens) / self.rate if self.rate else 0.0
        due = time.perf_counter()
        while not self.stop.is_set():
            for player in players:
                while not self.stop.is_set():
                    if interval:
                        due = max(due + interval, time.perf_counter() - interval)  # no burst
                        pause = due - time.perf_counter()
                        if pause > 0 and self.stop.wait(pause):
                            break
                    t0 = time.perf_counter()
                    category, ok = player.step()
                    self.samples[index].append((t0, time.perf_counter(), category, ok))
                    if not mid_turn(player):
                        break
        if players:
            players[0].http.close()

    def halt(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)

    def figures(self, start: float, end: float) -> dict[str, Any]:
        moves = [
            t1 - t0
            for rows in self.samples
            for t0, t1, category, ok in rows
            if ok and category == "move" and t0 >= start and t1 <= end
        ]
        errors: Counter[str] = Counter()
        for player in self.players:
            errors.update(player.errors)
        return {
            "moves": len(moves),
            "rate": len(moves) / (end - start) if end > start else math.nan,
            "p50": percentile(moves, 50),
            "p99": percentile(moves, 99),
            "errors": dict(errors),
        }


# --------------------------------------------------------------------------------------------------
# a phase


@dataclass
class PhaseReport:
    name: str
    games: int
    lag: dict[str, float]  # game id -> seconds, automatic scores only
    early: int
    late: int
    never: list[str]
    not_automatic: int
    drive: Drive
    load: dict[str, Any] | None
    worker: dict[str, float]
    cpu: dict[str, float]
    seconds: float

    @property
    def lags(self) -> list[float]:
        return list(self.lag.values())

    def late_sends(self, above: float) -> str:
        """When the games that fired late had their third roll sent (s into the phase)."""
        times = sorted(self.drive.sent[g] for g, lag in self.lag.items() if lag > above)
        if not times:
            return ""
        middle = percentile(times, 50)
        return f"{len(times)}, sent at {times[0]:.1f}..{times[-1]:.1f} s (p50 {middle:.1f})"


@dataclass
class Drive:
    """The third rolls as sent: per game its seq and when it was sent (s after the first due time),
    the lateness and latency of every request, the refusals."""

    seqs: dict[str, int] = field(default_factory=dict)
    sent: dict[str, float] = field(default_factory=dict)
    lateness: list[float] = field(default_factory=list)
    latency: list[float] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    start: float = 0.0

    @property
    def last(self) -> float:
        return self.start + max(self.sent.values(), default=0.0)

    @property
    def rate(self) -> float:
        span = max(self.sent.values(), default=0.0) - min(self.sent.values(), default=0.0)
        return len(self.sent) / span if span > 0 else math.nan


def third_rolls(port: int, tokens: list[str], games: list[dict[str, Any]], spread: float) -> Drive:
    """Send each game's third roll at its time in ``spread`` seconds, one thread per driver."""
    drive = Drive(start=time.perf_counter() + 0.2)
    step = spread / max(len(games), 1)
    lock = threading.Lock()

    def run(owner: int) -> None:
        http = Http(port, tokens[owner])
        try:
            for index, game in enumerate(games):
                if game["owner"] != owner:
                    continue
                due = drive.start + index * step
                pause = due - time.perf_counter()
                if pause > 0:
                    time.sleep(pause)
                sent = time.perf_counter()
                status, body = http.request(
                    "POST",
                    f"{API}/games/{game['id']}/moves/",
                    {"type": "roll", "hold": [0], "expected_version": game["version"]},
                )
                done = time.perf_counter()
                with lock:
                    drive.lateness.append(sent - due)
                    drive.latency.append(done - sent)
                    drive.sent[game["id"]] = sent - drive.start
                    if status == 201:
                        rolled = [e for e in body["events"] if e["type"] == "dice_rolled"]
                        drive.seqs[game["id"]] = rolled[-1]["seq"]
                    else:
                        code = body.get("code") if isinstance(body, dict) else None
                        drive.refused[f"{status} {code}"] += 1
        finally:
            http.close()

    threads = [threading.Thread(target=run, args=(o,), daemon=True) for o in range(len(tokens))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return drive


def run_phase(
    name: str,
    *,
    port: int,
    driver_users: list[str],
    driver_tokens: list[str],
    load_tokens: list[str],
    args: argparse.Namespace,
    worker: Process,
    server: Process,
    worker_log: WorkerLog,
    count: int | None = None,
    spread: float | None = None,
) -> PhaseReport:
    count = args.games if count is None else count
    spread = args.spread if spread is None else spread
    games = prepare_games(driver_users, count, args.auto_confirm)

    load: Load | None = None
    if name in ("paced", "flat-out"):
        load = Load(
            port=port,
            tokens=load_tokens,
            games=args.load_games,
            rate=args.load_rate if name == "paced" else 0.0,
            auto_confirm=args.auto_confirm,
        )
        load.start()
        # until every load game is created and started, and a little more
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(
            p.game is None or p.game["status"] == "open" for p in load.players
        ):
            time.sleep(0.2)
        time.sleep(args.load_warmup)

    worker_log.read()  # forget what came before
    meter = CpuMeter({"server": [server.pid], "worker": [worker.pid]})
    began = time.perf_counter()
    drive = third_rolls(port, driver_tokens, games, spread)
    seqs = drive.seqs

    rolled = list(seqs)
    scored: dict[str, tuple[int, bool, datetime]] = {}
    give_up = drive.last + args.auto_confirm + args.wait
    while time.perf_counter() < give_up:
        scored = scored_events(rolled)
        if len(scored) == len(rolled):
            break
        time.sleep(0.5)
    ended = time.perf_counter()
    cpu = meter.read()
    load_figures = None
    if load is not None:
        load.halt()
        load_figures = load.figures(began, ended)
    time.sleep(1.5)  # let the worker log the last tasks
    worker_figures = worker_log.read()

    rolls = roll_times(seqs)
    lag: dict[str, float] = {}
    not_automatic = 0
    for game_id, (seq, automatic, created) in scored.items():
        if seq != seqs[game_id] + 1 or game_id not in rolls:
            continue
        if not automatic:
            not_automatic += 1
            continue
        lag[game_id] = (created - rolls[game_id]).total_seconds()
    low, high = args.auto_confirm, args.auto_confirm + 0.5
    return PhaseReport(
        name=name,
        games=len(games),
        lag=lag,
        early=sum(value < low for value in lag.values()),
        late=sum(value > high for value in lag.values()),
        never=[g for g in rolled if g not in scored],
        not_automatic=not_automatic,
        drive=drive,
        load=load_figures,
        worker=worker_figures,
        cpu=cpu,
        seconds=ended - began,
    )


# --------------------------------------------------------------------------------------------------
# report


def seconds3(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.3f}"


def report(phases: list[PhaseReport], args: argparse.Namespace) -> None:
    low, high = args.auto_confirm, args.auto_confirm + 0.5
    print()
    print(f"Auto-confirm lag (s) = automatic box_scored.created_at - 3rd dice_rolled.created_at; "
          f"target [{low:.1f}, {high:.1f}] at p99")  # fmt: skip
    header = [
        "phase", "games", "confirmed", "min", "p50", "p90", "p99", "max",
        f"<{low:.1f}s", f">{high:.1f}s", "never", "other",
    ]  # fmt: skip
    rows = []
    for p in phases:
        rows.append([
            p.name, str(p.games), str(len(p.lags)),
            seconds3(min(p.lags) if p.lags else math.nan), seconds3(percentile(p.lags, 50)),
            seconds3(percentile(p.lags, 90)), seconds3(percentile(p.lags, 99)),
            seconds3(max(p.lags) if p.lags else math.nan), str(p.early), str(p.late),
            str(len(p.never)), str(p.not_automatic + sum(p.drive.refused.values())),
        ])  # fmt: skip
    print(table(rows, header))
    print(
        "  never: rolled but not scored by the end of the wait; other: third roll refused, or the "
        "turn scored by someone else"
    )
    for p in phases:
        if late := p.late_sends(high):
            print(f"  {p.name}: the games confirmed after {high:.1f} s: {late}")

    print()
    print("Load and driving")
    header = [
        "phase", "3rd rolls/s asked", "sent", "roll p50 ms", "roll p99 ms", "send late p99 ms",
        "load moves/s", "load p50 ms", "load p99 ms", "load errors",
    ]  # fmt: skip
    rows = []
    for p in phases:
        load = p.load or {}
        rows.append([
            p.name, f"{p.games / args.spread:.1f}", f"{p.drive.rate:.1f}",
            ms(percentile(p.drive.latency, 50)), ms(percentile(p.drive.latency, 99)),
            ms(percentile(p.drive.lateness, 99)),
            f"{load['rate']:.1f}" if load else "-", ms(load.get("p50", math.nan)),
            ms(load.get("p99", math.nan)),
            str(sum(load.get("errors", {}).values())) if load else "-",
        ])  # fmt: skip
    print(table(rows, header))
    for p in phases:
        if p.load and p.load["errors"]:
            print(f"  {p.name} load errors: {p.load['errors']}")
        if p.drive.refused:
            print(f"  {p.name} third rolls refused: {dict(p.drive.refused)}")
        if p.never:
            print(f"  {p.name} never confirmed (first 5): {p.never[:5]}")

    print()
    print("Worker (from its log: the tasks that finished during the phase)")
    keys = [
        "timer tasks that moved",
        "received when due",
        "sweep moves",
        "timer tasks, nothing due",
    ]
    header = ["phase", *keys, "timer task p50 ms", "p99 ms", "pool busy", "errors in log"]
    rows = []
    for p in phases:
        busy = p.worker.get("busy seconds", 0.0) / (p.seconds * args.timer_concurrency)
        rows.append([
            p.name, *[f"{p.worker.get(k, 0):.0f}" for k in keys],
            f"{p.worker.get('timer task p50 ms', math.nan):.1f}",
            f"{p.worker.get('timer task p99 ms', math.nan):.1f}", f"{100 * busy:.0f}%",
            f"{p.worker.get('errors in log', 0):.0f}",
        ])  # fmt: skip
    print(table(rows, header))
    print(
        "  moved: the timer task scored; received when due: of those, how many reached the worker\n"
        "  only when due (it takes no message while its pool is busy: late acks, prefetch 1);\n"
        f"  sweep moves: scored by the beat sweep, >= {args.sweep_grace:.1f} s after the deadline; "
        "nothing due: stale timers\n"
        "  (the load games', or a game already scored); pool busy: task run time over phase time x "
        "concurrency"
    )

    print()
    print("CPU (cores used during the phase)")
    cpu_columns = ("server", "worker", *[c for c in CPU_COLUMNS if c != "server"])
    rows = [[p.name, *[f"{p.cpu.get(c, math.nan):.2f}" for c in cpu_columns]] for p in phases]
    print(table(rows, ["phase", *cpu_columns]))
    print("  other: everything else on the machine (Redis, other users' jobs)")


# --------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300, help="timed games per phase")
    parser.add_argument("--spread", type=float, default=10.0, help="seconds over which to roll")
    parser.add_argument("--auto-confirm", type=float, default=3.0, help="the games' option")
    parser.add_argument("--phases", default=",".join(PHASES), help=f"some of {','.join(PHASES)}")
    parser.add_argument("--load-games", type=int, default=100)
    parser.add_argument("--load-clients", type=int, default=8)
    parser.add_argument("--load-rate", type=float, default=20.0, help="paced phase: moves/s")
    parser.add_argument("--load-warmup", type=float, default=2.0)
    parser.add_argument("--drivers", type=int, default=16, help="threads sending the 3rd rolls")
    parser.add_argument("--accounts", type=int, default=4, help="accounts owning the timed games")
    parser.add_argument("--wait", type=float, default=15.0, help="seconds past the last deadline")
    parser.add_argument("--warmup-games", type=int, default=6)
    parser.add_argument("--sweep-seconds", default="1.0")
    parser.add_argument("--sweep-grace", type=float, default=1.0)
    parser.add_argument(
        "--concurrency", type=int, default=2, help="processes of the default-queue worker"
    )
    parser.add_argument(
        "--timer-concurrency", type=int, default=1, help="processes of the timers worker"
    )
    parser.add_argument(
        "--worker-conn-max-age", default="60", help="the worker's DB_CONN_MAX_AGE (settings: 60)"
    )
    add_server_arguments(parser)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="flushed at start and end")
    parser.add_argument("--keep-logs", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)
    phases = [p for p in args.phases.split(",") if p]
    if unknown := set(phases) - set(PHASES):
        parser.error(f"unknown phases: {sorted(unknown)}")
    if not args.redis_url:
        parser.error("a Redis broker is needed: --redis-url")

    tmp = Path(tempfile.mkdtemp(prefix="dice-bench-timers-"))
    database = BenchDatabase(args.database_url, args.sqlite, tmp)
    env = bench_env(
        database.url,
        args.redis_url,
        COMPUTER_MOVE_DELAY="0",
        SWEEP_SECONDS=str(args.sweep_seconds),
        SWEEP_GRACE_SECONDS=str(args.sweep_grace),
        LOG_LEVEL="INFO",
        DB_CONN_MAX_AGE=str(args.worker_conn_max_age),
    )
    # the web server's own setting (none under ASGI); the worker keeps persistent connections:
    # opening one per task makes every timer task pay for a new PostgreSQL backend
    web_env = {**env, **server_env(args)}
    server: Process | None = None
    worker: Process | None = None
    general: Process | None = None
    print(f"auto_confirm_lag: python {sys.version.split()[0]}; {os.cpu_count()} cores")
    print(f"  database: {database.describe()}")
    print(f"  broker:   {args.redis_url}")
    print(f"  web:      {server_description(args)}, DEBUG off")
    print(f"  workers:  celery -A config worker -B --queues timers --concurrency "
          f"{args.timer_concurrency}, and --queues celery --concurrency {args.concurrency}; "
          f"SWEEP_SECONDS={args.sweep_seconds} SWEEP_GRACE_SECONDS={args.sweep_grace} "
          f"COMPUTER_MOVE_DELAY=0 DB_CONN_MAX_AGE={args.worker_conn_max_age}")  # fmt: skip
    print(f"  games:    {args.games} per phase, third rolls over {args.spread:.1f} s, auto-confirm "
          f"{args.auto_confirm:.1f} s; load {args.load_games} games, {args.load_clients} clients, "
          f"paced at {args.load_rate:.0f} moves/s")  # fmt: skip
    print(f"  machine busy before start: {machine_busy():.2f} cores (of {os.cpu_count()})")
    try:
        began = time.monotonic()
        database.create()
        flush_redis(args.redis_url)
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "build_ai_tables")
        port = free_port()
        server = start_server(web_env, port, args, tmp / "server.log")
        worker = start_worker(env, args.timer_concurrency, tmp)
        general = start_worker(env, args.concurrency, tmp, queues="celery", beat=False)
        worker_log = WorkerLog(worker.log_path, args.auto_confirm)
        prefix = f"timer{secrets.token_hex(3)}_"
        # a few accounts (registration hashes passwords: slow); threads share them, one token each
        accounts = max(1, min(args.accounts, args.drivers))
        tokens = register_many(port, accounts + 1, prefix, parallel=1 if args.sqlite else 4)
        driver_users = [f"{prefix}{i % accounts}" for i in range(args.drivers)]
        driver_tokens = [tokens[i % accounts] for i in range(args.drivers)]
        load_tokens = [tokens[accounts]] * args.load_clients
        django_setup(env)
        print(f"  setup:    {time.monotonic() - began:.1f} s (database, migrate, AI table, web, "
              f"worker, {len(tokens)} accounts)")  # fmt: skip

        common = functools.partial(
            run_phase,
            port=port,
            driver_users=driver_users,
            driver_tokens=driver_tokens,
            load_tokens=load_tokens,
            args=args,
            worker=worker,
            server=server,
            worker_log=worker_log,
        )
        if args.warmup_games:
            warm = common("warm-up", count=args.warmup_games, spread=0.5)
            lags = ", ".join(f"{lag:.3f}" for lag in sorted(warm.lags))
            print(
                f"  warm-up:  {len(warm.lags)}/{warm.games} confirmed, lags {lags} s (not counted)"
            )
        results = []
        for phase in phases:
            t0 = time.monotonic()
            results.append(common(phase))
            print(f"  phase {phase}: done in {time.monotonic() - t0:.1f} s "
                  f"(set-up of {args.games} games included)")  # fmt: skip
        report(results, args)
        return 0
    finally:
        for process in (worker, general, server):
            if process is not None:
                process.stop()
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
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
