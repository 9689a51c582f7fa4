"""Benchmark of the yatzy auto-confirm timer: how long after the last roll the server scores.

    .venv/bin/python bench/auto_confirm_lag.py [--phases idle,paced,flat-out,live] [--games 300]
        [--spread 10] [--live-games 500] [--think 6,18] [--decide 1,2.5] [--load-games 100]
        [--load-rate 20] [--load-clients 8] [--timers redis|celery]
        [--server serve|uvicorn|gunicorn]
        [--database-url postgres://postgres@127.0.0.1:5432/dice_bench_timers] [--sqlite]
        [--redis-url redis://127.0.0.1:6379/3] [--smoke]

DESIGN target: "Auto-confirm fires between 3.0 and 3.5 s after the last roll at p99 while hundreds
of games run." Prints figures; never asserts on time.

Set-up: a fresh database (PostgreSQL ``dice_bench_timers``, dropped and re-created; ``--sqlite``: a
temporary file), a dedicated Redis db (``/3``, flushed) as broker, cache and timer wheel, the web
tier as deployed, ``make serve`` (nginx in front of gunicorn and the stream tier, DEBUG off; its own
process group, ended with it), and the background processes as ``config/deploy/Procfile`` runs
them: the timers process (``manage.py run_timers``, the Redis sorted set of deadlines; ``--timers
celery``: the former path instead, ETA tasks on the ``timers`` queue and a Celery worker of their
own, ``--concurrency 1 --prefetch-multiplier 100``) and the default-queue worker with beat
(``--queues celery --concurrency 2 -B``, where the sweep runs), ``COMPUTER_MOVE_DELAY=0``, the
sweep at its production settings (``SWEEP_SECONDS=1``, ``SWEEP_GRACE_SECONDS=1``) unless told.

Each phase:

1. prepares ``--games`` one-seat yatzy games (auto-confirm ``--auto-confirm`` s, 3 by default),
   each rolled twice, directly through ``games.services`` in this process (set-up, not measured);
2. in the phases with load, starts other games (auto-confirm on, so each of their third rolls sets
   a timer that their score then beats) played through HTTP:
   - ``paced``: ``--load-games`` games by ``--load-clients`` threads at ``--load-rate`` moves/s in
     all, a whole turn at a time; ``flat-out``: the same as fast as the server answers;
   - ``live``: ``--live-games`` games (500) at a human pace, each on its own clock: a roll
     ``--think`` s (uniform, 6-18 s: 12 s on average) after the game's previous move, the score
     ``--decide`` s (1-2.5 s) after its third roll, so well inside the auto-confirm: a turn in
     38 s, a game in 8 min, one move per game every 9.4 s, 53 moves/s asked from 500 games (which
     this machine serves; ``--think 4,12``, 78 moves/s, saturates it); ``--live-clients`` threads
     (32) send them, each game's move when it is due;
3. sends each prepared game's third roll through HTTP (``POST .../moves/``), one every
   ``spread / games`` seconds, and then sends nothing more to those games;
4. waits until every one of them has been scored (or ``--wait`` s after the last roll) and reads
   the event log: lag = ``created_at`` of the automatic ``box_scored`` event - ``created_at`` of the
   third ``dice_rolled`` event.

It prints, per phase: games, how many were confirmed, min/p50/p90/p99/max lag, how many fired before
``auto-confirm`` s (must be 0) and after ``auto-confirm + 0.5`` s, games never confirmed; the load's
moves/s asked and achieved, its latency and how late its moves went out; what made the automatic
moves (the timers process or the Celery timer task, from its log, and the beat sweep, from the
default worker's log), how long a fire took; and CPU use by process.

``--smoke``: every phase with 4 games (a 1 s auto-confirm; 4 load games), checking per phase that
every game was confirmed, none early, each by the timers process or the sweep as their logs say
(their counts add up to the games confirmed), and no error in the logs.
"""

from __future__ import annotations

import argparse
import functools
import heapq
import math
import os
import random
import re
import secrets
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # a sibling module: the benches are scripts, not a package
    API,
    CPU_COLUMNS,
    BenchDatabase,
    Checks,
    CpuMeter,
    Http,
    MakeServe,
    Process,
    YatzyPlayer,
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
    server_env,
    smoke_database,
    start_server,
    table,
    terminate_on_signals,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_bench_timers"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/3"
PHASES = ("idle", "paced", "flat-out", "live")
TASK_LINE = re.compile(
    r"^\[(?P<ts>[\d-]+ [\d:,]+): \w+/[\w-]+\] Task (?P<task>[\w.]+)\[(?P<id>[^\]]+)\] "
    r"(?:received|succeeded in (?P<runtime>[\d.e-]+)s: (?P<value>\S+))",
    re.MULTILINE,
)
# The timers process's line per fire, after the head of the text log format (time, level, logger,
# request context): "2026-12-04 03:36:00,745 DEBUG   games.timers.runner [id game=... task=timer]
# timer fired: game=... version=4 moved=True ms=53.5".
FIRE_LINE = re.compile(
    r"\btimer fired: game=(?P<game>\S+) version=\d+ moved=(?P<moved>\w+) ms=(?P<ms>[\d.]+)\s*$",
    re.MULTILINE,
)


# --------------------------------------------------------------------------------------------------
# the processes


def wait_for_log(process: Process, text: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while text not in process.log_path.read_text(errors="replace"):
        process.check()
        if time.monotonic() > deadline:
            process.stop()
            raise SystemExit(
                f"{process.name} was not ready in {seconds:.0f} s:\n{process.log_tail()}"
            )
        time.sleep(0.2)


def start_serve(env: dict[str, str], port: int, tmp: Path, concurrency: int) -> Process:
    """``make serve`` on ``port`` (nginx; gunicorn and the stream tier on two more free ports);
    returns once ``/health/live`` answers through nginx."""
    server = MakeServe(
        env, port, tmp / "server.log",
        {"API_PORT": free_port(), "STREAMS_PORT": free_port(), "NGINX_DIR": tmp / "nginx",
         "WEB_CONCURRENCY": concurrency},
    )  # fmt: skip
    server.wait_ready()
    return server


def start_worker(
    env: dict[str, str], concurrency: int, tmp: Path, queues: str = "timers", beat: bool = True
) -> Process:
    """A Celery worker as deployed (config/deploy/Procfile): the default queue (with the beat
    schedule here), or the former timers worker (``--timers celery``)."""
    argv = [
        sys.executable, "-m", "celery", "-A", "config", "worker", *(["-B"] if beat else []),
        "--queues", queues, "--concurrency", str(concurrency), "--loglevel", "INFO",
        # as the former Procfile line: the timers worker holds many due-later messages at once
        *(["--prefetch-multiplier", "100"] if queues == "timers" else []),
        "--schedule", str(tmp / "beat-schedule"),
        "--hostname", f"bench-{queues}-{secrets.token_hex(3)}@%h",
    ]  # fmt: skip
    worker = Process(f"celery worker {queues}", argv, env, tmp / f"worker-{queues}.log")
    wait_for_log(worker, "ready.")
    return worker


def start_timers(env: dict[str, str], tmp: Path, threads: int) -> Process:
    """The timers process as the Procfile runs it, logging one line per fire (DEBUG)."""
    argv = [sys.executable, "manage.py", "run_timers", "--threads", str(threads)]
    timers = Process("run_timers", argv, {**env, "LOG_LEVEL": "DEBUG"}, tmp / "timers.log")
    wait_for_log(timers, "ready.")
    return timers


class Log:
    """A process's log, read from where the last ``read`` stopped."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.offset = 0

    def new_text(self) -> str:
        if self.path is None:
            return ""
        with self.path.open("rb") as handle:
            handle.seek(self.offset)
            text = handle.read().decode(errors="replace")
            self.offset = handle.tell()
        return text


class RunnerLog(Log):
    """The timers process's fires since the last ``read``: moves, stale fires, run time; the
    games it moved (``moved``, by id) since the last read."""

    def __init__(self, path: Path | None) -> None:
        super().__init__(path)
        self.moved: Counter[str] = Counter()

    def read(self) -> dict[str, float]:
        text = self.new_text()
        runtimes: list[float] = []
        found: Counter[str] = Counter()
        self.moved = Counter()
        for match in FIRE_LINE.finditer(text):
            runtimes.append(float(match["ms"]) / 1000)
            found["timer moves" if match["moved"] == "True" else "timer stale"] += 1
            if match["moved"] == "True":
                self.moved[match["game"]] += 1
        found["errors in log"] = len(re.findall(r"\b(ERROR|CRITICAL|Traceback)\b", text))
        figures: dict[str, float] = dict(found)
        figures["busy seconds"] = sum(runtimes)
        figures["fire p50 ms"] = 1000 * percentile(runtimes, 50)
        figures["fire p99 ms"] = 1000 * percentile(runtimes, 99)
        return figures


class WorkerLog(Log):
    """What a Celery worker's log says about the tasks that finished since the last ``read``: the
    timer tasks that moved or found nothing due and how long they ran, how many reached the worker
    only when already due (``--timers celery``), and the sweeps' moves (the default worker)."""

    def __init__(self, path: Path | None, auto_confirm: float) -> None:
        super().__init__(path)
        self.auto_confirm = auto_confirm
        self.received: dict[str, float] = {}

    def read(self) -> dict[str, float]:
        text = self.new_text()
        found: Counter[str] = Counter()
        runtimes: list[float] = []
        for match in TASK_LINE.finditer(text):
            stamp = datetime.strptime(match["ts"], "%Y-%m-%d %H:%M:%S,%f").timestamp()
            if match["runtime"] is None:
                self.received[match["id"]] = stamp
                continue
            task, value = match["task"].rsplit(".", 1)[-1], match["value"]
            runtime = float(match["runtime"])
            if task == "timeout":
                found["busy seconds"] += runtime
                runtimes.append(runtime)
                if value == "True":
                    found["timer moves"] += 1
                    held = stamp - self.received.pop(match["id"], stamp)
                    # a timer task normally reaches the worker ~auto_confirm s before it is due
                    found["received when due"] += held < self.auto_confirm / 2
                else:
                    found["timer stale"] += 1
            elif task == "sweep_automatic_moves":
                found["sweeps"] += 1
                found["sweep moves"] += int(value) if value.isdigit() else 0
            else:
                found[f"{task} tasks"] += 1
        found["errors in log"] = len(re.findall(r"\b(ERROR|CRITICAL)\b", text))
        figures: dict[str, float] = dict(found)
        if runtimes:
            figures["fire p50 ms"] = 1000 * percentile(runtimes, 50)
            figures["fire p99 ms"] = 1000 * percentile(runtimes, 99)
        return figures


# --------------------------------------------------------------------------------------------------
# games


def django_setup(env: dict[str, str]) -> None:
    """This process prepares games with the services and reads the event log through the ORM."""
    names = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "LOG_LEVEL",
             "GAMES_TIMERS", "LIVE_CHANNEL_PREFIX", "COMPUTER_MOVE_DELAY")  # fmt: skip
    for name in names:
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


@dataclass(kw_only=True)
class ClientThreads:
    """Load games played through HTTP by ``len(tokens)`` threads (one keep-alive connection each),
    each going round its share of the ``games``; a subclass's ``_loop`` says when each moves."""

    port: int
    tokens: list[str]
    games: int
    auto_confirm: float
    samples: list[list[tuple[float, float, str, bool]]] = field(default_factory=list)
    players: list[YatzyPlayer] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)
    name: ClassVar[str] = "load"

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
                target=self._loop, args=(index, mine), daemon=True, name=f"{self.name}-{index}"
            )
            self.threads.append(thread)
        for thread in self.threads:
            thread.start()

    def _loop(self, index: int, players: list[YatzyPlayer]) -> None:
        raise NotImplementedError

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


@dataclass(kw_only=True)
class Load(ClientThreads):
    """``rate`` moves/s in all (0: as fast as the server answers), round-robin."""

    rate: float

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


@dataclass(kw_only=True)
class HumanLoad(ClientThreads):
    """``games`` games played at a human pace, each on its own clock: a roll ``think`` s (uniform
    between the two bounds) after the game's previous move was answered, the score ``decide`` s
    after its third roll. Each thread sends each of its games' moves when it is due; when it cannot
    keep up, moves go out late, and the figures say by how much."""

    think: tuple[float, float]
    decide: tuple[float, float]
    start_spread: float = 5.0
    lateness: list[list[tuple[float, float]]] = field(default_factory=list)
    name: ClassVar[str] = "live"

    @property
    def asked(self) -> float:
        """Moves/s asked once every game is under way: a turn is three rolls, each after a think,
        and a score after a decide."""
        turn = 3 * sum(self.think) / 2 + sum(self.decide) / 2
        return self.games * 4 / turn

    def start(self) -> None:
        self.lateness = [[] for _ in self.tokens]
        super().start()

    def _pause(self, rng: random.Random, player: YatzyPlayer, category: str) -> float:
        game = player.game
        if game is None or category == "create":
            return 0.05  # then start it
        if category == "start":
            return rng.uniform(0, self.think[1])  # the first rolls spread over a whole think
        state = game["state"]
        if state["rolls_used"] > 0 and state["rolls_left"] == 0:
            return rng.uniform(*self.decide)
        return rng.uniform(*self.think)

    def _loop(self, index: int, players: list[YatzyPlayer]) -> None:
        rng = random.Random(index)
        began = time.perf_counter()
        heap = [(began + rng.uniform(0, self.start_spread), i) for i in range(len(players))]
        heapq.heapify(heap)
        while heap and not self.stop.is_set():
            due, i = heap[0]
            pause = due - time.perf_counter()
            if pause > 0:
                self.stop.wait(min(pause, 0.5))
                continue
            heapq.heappop(heap)
            player = players[i]
            t0 = time.perf_counter()
            category, ok = player.step()
            t1 = time.perf_counter()
            self.samples[index].append((t0, t1, category, ok))
            if category == "move":
                self.lateness[index].append((t0, t0 - due))
            heapq.heappush(heap, (t1 + self._pause(rng, player, category), i))
        if players:
            players[0].http.close()

    def figures(self, start: float, end: float) -> dict[str, Any]:
        late = [lag for rows in self.lateness for t0, lag in rows if start <= t0 <= end]
        return {
            **super().figures(start, end),
            "asked": self.asked,
            "late p99": percentile(late, 99),
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
    timers: dict[str, float]  # what fired (timers log) and the sweep moves (default worker log)
    cpu: dict[str, float]
    seconds: float
    # of the phase's games, how many the timers process scored (its log names them; None with
    # --timers celery, whose log does not), and the errors in the default worker's log
    timer_moved_games: int | None = None
    worker_errors: int = 0

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
    live_tokens: list[str],
    args: argparse.Namespace,
    trees: dict[str, list[int]],
    timer_log: RunnerLog | WorkerLog,
    sweep_log: WorkerLog,
    count: int | None = None,
    spread: float | None = None,
) -> PhaseReport:
    count = args.games if count is None else count
    spread = args.spread if spread is None else spread
    games = prepare_games(driver_users, count, args.auto_confirm)

    load: ClientThreads | None = None
    warmup = args.load_warmup
    if name in ("paced", "flat-out"):
        load = Load(
            port=port,
            tokens=load_tokens,
            games=args.load_games,
            rate=args.load_rate if name == "paced" else 0.0,
            auto_confirm=args.auto_confirm,
        )
    elif name == "live":
        load = HumanLoad(
            port=port,
            tokens=live_tokens,
            games=args.live_games,
            auto_confirm=args.auto_confirm,
            think=args.think,
            decide=args.decide,
        )
        # until every game has had its first roll: the pace is then steady
        warmup = max(warmup, args.think[1])
    if load is not None:
        load.start()
        # until every load game is created and started, and a little more
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and any(
            p.game is None or p.game["status"] == "open" for p in load.players
        ):
            time.sleep(0.2)
        time.sleep(warmup)

    timer_log.read()  # forget what came before
    sweep_log.read()
    meter = CpuMeter(trees)
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
        load_figures = load.figures(began, ended)
        load.halt()
    time.sleep(1.5)  # let the processes log the last fires
    sweeps = sweep_log.read()
    timers = {**timer_log.read(), "sweep moves": sweeps.get("sweep moves", 0.0)}
    timer_moved_games = (
        sum(timer_log.moved[g] for g in rolled) if isinstance(timer_log, RunnerLog) else None
    )

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
        timers=timers,
        cpu=cpu,
        seconds=ended - began,
        timer_moved_games=timer_moved_games,
        worker_errors=int(sweeps.get("errors in log", 0)),
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
        "load games", "load moves/s asked", "done", "load p50 ms", "load p99 ms",
        "load late p99 ms", "load errors",
    ]  # fmt: skip
    rows = []
    for p in phases:
        load = p.load or {}
        games = {"live": args.live_games, "paced": args.load_games, "flat-out": args.load_games}
        asked = load.get("asked", args.load_rate if p.name == "paced" else math.nan)
        rows.append([
            p.name, f"{p.games / args.spread:.1f}", f"{p.drive.rate:.1f}",
            ms(percentile(p.drive.latency, 50)), ms(percentile(p.drive.latency, 99)),
            ms(percentile(p.drive.lateness, 99)), str(games.get(p.name, 0)),
            "-" if math.isnan(asked) else f"{asked:.1f}",
            f"{load['rate']:.1f}" if load else "-", ms(load.get("p50", math.nan)),
            ms(load.get("p99", math.nan)), ms(load.get("late p99", math.nan)),
            str(sum(load.get("errors", {}).values())) if load else "-",
        ])  # fmt: skip
    print(table(rows, header))
    print(
        "  load late: how long after its due time a live game's move went out (the client threads\n"
        "  were busy); a load error is a refused move, e.g. a score that lost to its auto-confirm"
    )
    for p in phases:
        if p.load and p.load["errors"]:
            print(f"  {p.name} load errors: {p.load['errors']}")
        if p.drive.refused:
            print(f"  {p.name} third rolls refused: {dict(p.drive.refused)}")
        if p.never:
            print(f"  {p.name} never confirmed (first 5): {p.never[:5]}")

    print()
    source = "run_timers" if args.timers == "redis" else "the timers worker"
    print(f"Timers (from the logs: {source}, and the default worker for the sweep)")
    keys = ["timer moves", "timer stale", "sweep moves"]
    if args.timers == "celery":
        keys.insert(1, "received when due")
    header = ["phase", *keys, "fire p50 ms", "fire p99 ms", "busy", "errors in log"]
    rows = []
    for p in phases:
        busy = p.timers.get("busy seconds", 0.0) / p.seconds
        rows.append([
            p.name, *[f"{p.timers.get(k, 0):.0f}" for k in keys],
            f"{p.timers.get('fire p50 ms', math.nan):.1f}",
            f"{p.timers.get('fire p99 ms', math.nan):.1f}", f"{100 * busy:.0f}%",
            f"{p.timers.get('errors in log', 0):.0f}",
        ])  # fmt: skip
    print(table(rows, header))
    if args.timers == "celery":
        print(
            "  timer moves: the timer task scored; received when due: of those, how many reached\n"
            "  the worker only when due; stale: timer tasks that found nothing due (the load\n"
            "  games', or a game already scored)"
        )
    else:
        print(
            "  timer moves: fires that scored; stale: fires that found the game moved on (a timer\n"
            "  the player beat is removed by the move itself, so the load games' rarely reach it)"
        )
    print(
        f"  sweep moves: scored by the beat sweep (every game), >= {args.sweep_grace:.1f} s after "
        "the deadline;\n  fire: the time of one fire (load, move, commit); busy: fire time over "
        "phase time"
    )

    print()
    print("CPU (cores used during the phase)")
    cpu_columns = ("server", "timers", "worker", *[c for c in CPU_COLUMNS if c != "server"])
    rows = [[p.name, *[f"{p.cpu.get(c, math.nan):.2f}" for c in cpu_columns]] for p in phases]
    print(table(rows, ["phase", *cpu_columns]))
    print(
        "  server: make serve (nginx, gunicorn, the stream tier); timers: run_timers (or the\n"
        "  timers worker); worker: the default worker and beat; client: this bench (drivers,\n"
        "  load); other: everything else on the machine (Redis, other users' jobs)"
    )


# --------------------------------------------------------------------------------------------------


def pair(text: str) -> tuple[float, float]:
    low, high = (float(part) for part in text.split(","))
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError(f"want LOW,HIGH seconds: {text}")
    return low, high


# --smoke: every phase, tiny (a 1 s auto-confirm, 4 games measured and 4 of load, a quick live pace
# whose scores still beat their timers), on a database of its own.
SMOKE: dict[str, Any] = {
    "games": 4, "spread": 1.0, "auto_confirm": 1.0, "warmup_games": 1, "wait": 20.0,
    "load_games": 4, "load_clients": 2, "load_rate": 8.0, "load_warmup": 0.5, "live_games": 4,
    "live_clients": 2, "think": (0.2, 0.6), "decide": (0.1, 0.3), "drivers": 4, "accounts": 2,
    "web_concurrency": 2, "database_url": smoke_database(DEFAULT_DATABASE_URL),
}  # fmt: skip


def smoke_checks(checks: Checks, phases: list[PhaseReport], args: argparse.Namespace) -> None:
    """What must add up in each phase: every game confirmed, none early, and each confirmation
    made by the timers process or the sweep, as their logs say."""
    for index, p in enumerate(phases):
        checks.expect(
            len(p.lags) == p.games and not p.never and not p.not_automatic and not p.drive.refused,
            f"{p.name}: {len(p.lags)} of {p.games} games confirmed automatically (never "
            f"{len(p.never)}, scored otherwise {p.not_automatic}, third rolls refused "
            f"{sum(p.drive.refused.values())})",
        )
        checks.expect(
            p.early == 0,
            f"{p.name}: {p.early} confirmed before {args.auto_confirm:g} s (must be 0)",
        )
        timer, sweep = int(p.timers.get("timer moves", 0)), int(p.timers.get("sweep moves", 0))
        confirmed = len(p.lags)
        if p.timer_moved_games is not None:
            # Fires name their game: those of the phase's games, and the sweep for the others
            # (its log gives a count only; under load it may also score a load game).
            mine = p.timer_moved_games
            checks.expect(
                mine <= confirmed <= mine + sweep,
                f"{p.name}: {confirmed} confirmed = {mine} by the timers process (of {timer} "
                f"timer moves) + {confirmed - mine} by the sweep (of {sweep} sweep moves)",
            )
        else:  # --timers celery: the worker's log does not name the games
            checks.expect(
                confirmed <= timer + sweep,
                f"{p.name}: {confirmed} confirmed, of {timer} timer moves + {sweep} sweep moves",
            )
        if not any(q.load for q in phases[: index + 1]):
            # no load ran yet (none of its timers left): every automatic move was the phase's
            checks.expect(
                timer + sweep == confirmed,
                f"{p.name}: timer moves {timer} + sweep moves {sweep} = {confirmed} confirmed",
            )
        else:
            checks.expect(p.load["moves"] > 0, f"{p.name}: load moves {p.load['moves']}")
        errors = int(p.timers.get("errors in log", 0)) + p.worker_errors
        checks.expect(errors == 0, f"{p.name}: errors in the timers' and worker's logs: {errors}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300, help="timed games per phase")
    parser.add_argument("--spread", type=float, default=10.0, help="seconds over which to roll")
    parser.add_argument("--auto-confirm", type=float, default=3.0, help="the games' option")
    parser.add_argument("--phases", default=",".join(PHASES), help=f"some of {','.join(PHASES)}")
    parser.add_argument("--load-games", type=int, default=100, help="paced and flat-out phases")
    parser.add_argument("--load-clients", type=int, default=8)
    parser.add_argument("--load-rate", type=float, default=20.0, help="paced phase: moves/s")
    parser.add_argument("--load-warmup", type=float, default=2.0)
    parser.add_argument("--live-games", type=int, default=500, help="live phase: games at once")
    parser.add_argument("--live-clients", type=int, default=32, help="live phase: threads")
    parser.add_argument(
        "--think", type=pair, default=(6.0, 18.0), help="live phase: s before each roll (LOW,HIGH)"
    )
    parser.add_argument(
        "--decide", type=pair, default=(1.0, 2.5), help="live phase: s before the score (LOW,HIGH)"
    )
    parser.add_argument("--drivers", type=int, default=16, help="threads sending the 3rd rolls")
    parser.add_argument("--accounts", type=int, default=4, help="accounts owning the timed games")
    parser.add_argument("--wait", type=float, default=15.0, help="seconds past the last deadline")
    parser.add_argument("--warmup-games", type=int, default=6)
    parser.add_argument("--sweep-seconds", default="1.0")
    parser.add_argument("--sweep-grace", type=float, default=1.0)
    parser.add_argument(
        "--timers",
        choices=("redis", "celery"),
        default="redis",
        help="redis: manage.py run_timers (as deployed); celery: the former ETA tasks and worker",
    )
    parser.add_argument("--timer-threads", type=int, default=2, help="run_timers --threads")
    parser.add_argument(
        "--concurrency", type=int, default=2, help="processes of the default-queue worker"
    )
    parser.add_argument(
        "--timer-concurrency", type=int, default=1, help="--timers celery: its worker's processes"
    )
    parser.add_argument(
        "--worker-conn-max-age", default="60", help="the workers' DB_CONN_MAX_AGE (settings: 60)"
    )
    parser.add_argument(
        "--server",
        choices=("serve", "uvicorn", "gunicorn"),
        default="serve",
        help="serve: make serve, as deployed; uvicorn/gunicorn: the former single-tier servers",
    )
    parser.add_argument(
        "--web-concurrency", type=int, default=0, help="make serve's gunicorn workers (0: its own)"
    )
    parser.add_argument("--workers", type=int, default=2, help="uvicorn/gunicorn: processes")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn only: threads per worker")
    parser.add_argument("--conn-max-age", default=None, help="uvicorn/gunicorn: DB_CONN_MAX_AGE")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="flushed at start and end")
    parser.add_argument("--keep-logs", action="store_true", help="keep the temporary directory")
    args = parse_args(parser, argv, SMOKE)
    phases = [p for p in args.phases.split(",") if p]
    if unknown := set(phases) - set(PHASES):
        parser.error(f"unknown phases: {sorted(unknown)}")
    if not args.redis_url:
        parser.error("a Redis broker is needed: --redis-url")
    with terminate_on_signals():
        return run(args, phases)


def run(args: argparse.Namespace, phases: list[str]) -> int:
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
        GAMES_TIMERS=args.timers,
        # pub/sub is not scoped by the Redis db: stay apart from any other run on this Redis
        LIVE_CHANNEL_PREFIX=f"bench-timers-{secrets.token_hex(4)}",
    )
    processes: dict[str, Process] = {}
    if args.server == "serve":
        concurrency = args.web_concurrency or 2 * (os.cpu_count() or 1)
        web = f"make serve (nginx; gunicorn WEB_CONCURRENCY={concurrency}; stream tier), DEBUG off"
    else:
        web_env_extra = server_env(args)
        web = f"{args.server} --workers {args.workers}, DB_CONN_MAX_AGE={args.conn_max_age}"
    timers_line = (
        f"manage.py run_timers --threads {args.timer_threads}"
        if args.timers == "redis"
        else f"celery worker --queues timers --concurrency {args.timer_concurrency} "
        "--prefetch-multiplier 100"
    )
    print(f"auto_confirm_lag: python {sys.version.split()[0]}; {os.cpu_count()} cores")
    print(f"  database: {database.describe()}")
    print(f"  redis:    {args.redis_url} (broker, cache, timers)")
    print(f"  web:      {web}")
    print(f"  timers:   {timers_line}")
    print(f"  workers:  celery worker -B --queues celery --concurrency {args.concurrency}; "
          f"SWEEP_SECONDS={args.sweep_seconds} SWEEP_GRACE_SECONDS={args.sweep_grace} "
          f"COMPUTER_MOVE_DELAY=0 DB_CONN_MAX_AGE={args.worker_conn_max_age}")  # fmt: skip
    print(f"  games:    {args.games} per phase, third rolls over {args.spread:.1f} s, auto-confirm "
          f"{args.auto_confirm:.1f} s")  # fmt: skip
    print(f"  load:     paced/flat-out {args.load_games} games, {args.load_clients} clients, paced "
          f"at {args.load_rate:.0f} moves/s; live {args.live_games} games, {args.live_clients} "
          f"clients, a roll {args.think[0]:g}-{args.think[1]:g} s after the previous move, the "
          f"score {args.decide[0]:g}-{args.decide[1]:g} s after the 3rd roll")  # fmt: skip
    print(f"  machine busy before start: {machine_busy():.2f} cores (of {os.cpu_count()})")
    checks = Checks(args.smoke)
    try:
        began = time.monotonic()
        database.create()
        flush_redis(args.redis_url)
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "build_ai_tables")
        port = free_port()
        if args.server == "serve":
            processes["server"] = start_serve(env, port, tmp, concurrency)
        else:
            web_env = {**env, **web_env_extra}
            processes["server"] = start_server(web_env, port, args, tmp / "server.log")
        if args.timers == "redis":
            processes["timers"] = start_timers(env, tmp, args.timer_threads)
            timer_log: RunnerLog | WorkerLog = RunnerLog(processes["timers"].log_path)
        else:
            processes["timers"] = start_worker(env, args.timer_concurrency, tmp, beat=False)
            timer_log = WorkerLog(processes["timers"].log_path, args.auto_confirm)
        processes["worker"] = start_worker(env, args.concurrency, tmp, queues="celery", beat=True)
        sweep_log = WorkerLog(processes["worker"].log_path, args.auto_confirm)
        prefix = f"timer{secrets.token_hex(3)}_"
        # a few accounts (registration hashes passwords: slow); threads share them, one token each
        accounts = max(1, min(args.accounts, args.drivers))
        tokens = register_many(port, accounts + 1, prefix, parallel=1 if args.sqlite else 4)
        driver_users = [f"{prefix}{i % accounts}" for i in range(args.drivers)]
        driver_tokens = [tokens[i % accounts] for i in range(args.drivers)]
        load_tokens = [tokens[accounts]] * args.load_clients
        live_tokens = [tokens[accounts]] * args.live_clients
        django_setup(env)
        print(f"  setup:    {time.monotonic() - began:.1f} s (database, migrate, AI table, web, "
              f"timers, worker, {len(tokens)} accounts)")  # fmt: skip

        common = functools.partial(
            run_phase,
            port=port,
            driver_users=driver_users,
            driver_tokens=driver_tokens,
            load_tokens=load_tokens,
            live_tokens=live_tokens,
            args=args,
            trees={name: [process.pid] for name, process in processes.items()},
            timer_log=timer_log,
            sweep_log=sweep_log,
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
        if checks.enabled:
            smoke_checks(checks, results, args)
        return checks.exit_code()
    finally:
        for process in processes.values():
            process.stop()
        clean_up(database, args.redis_url, tmp, args.keep_logs)


if __name__ == "__main__":
    sys.exit(main())
