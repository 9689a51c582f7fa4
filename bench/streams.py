"""Benchmark of the event streams: thousands of open SSE streams while moves go on.

    .venv/bin/python bench/streams.py [--streams 500] [--games 50] [--seconds 30] [--movers 8]
        [--load wrk|python] [--reader native|python] [--workers 1] [--web 4] [--seats 6]
        [--warmup 2] [--pairs 2] [--redis-url redis://127.0.0.1:6379/5] [--keep-logs]
        [--database-url postgres://postgres@127.0.0.1:5432/dice_bench_streams] [--smoke]

Issue: "A benchmark in bench/ holds at least 500 open streams on this machine while moves go on,
and prints the delivery latency (p50, p99) from commit to client, and the move throughput beside
it." Prints figures; never asserts on time.

1. creates a fresh PostgreSQL database (``dice_bench_streams``, dropped and re-created), migrates
   it, flushes a dedicated Redis db (``/5``, as cache and broker; ``http_moves.py`` uses ``/4``;
   the pub/sub channels, which Redis does not scope by db, are named by game id);
2. starts ``make serve`` (nginx in front of gunicorn and the stream tier, as deployed; ``--workers``
   stream-tier processes, ``--web`` gunicorn workers), DEBUG off, throttles out of the way, its
   open-file limit raised;
3. registers ``--games`` accounts; each creates two yatzy games (``auto_confirm_seconds`` 0, one
   ``me`` seat and ``--seats``-1 hot seats, so that a game lasts 60 x seats moves and none ends
   during the run) and starts them: one game for the streams phase, one for the baseline;
4. baseline: ``--movers`` movers play moves on the baseline games for ``--seconds``/2 after a
   warm-up, with no stream open: wrk (``--load wrk``, the default: ``bench/wrk_moves.lua``, each
   of its 2 threads going round its own games, every request the next legal move) or Python threads
   (``--load python``: roll/roll/roll/score with ``expected_version``, which also time each move's
   response against its events' ``created_at``);
5. the stream reader opens ``--streams`` SSE streams, ``GET /api/v1/games/{id}/events/?after=0``
   with ``Accept: text/event-stream``, spread evenly over the stream games: ``bench/sse_reader.c``
   (``--reader native``, the default: C, one thread, epoll, a few microseconds of CPU an event) or
   a Python process (``--reader python``: asyncio on uvloop); a stream counts as open when its
   first chunk (``retry:``) arrives, which the server sends after subscribing to Redis;
6. with every stream open, the same movers play the stream games for ``--seconds``; the reader
   checks each stream's ``seq`` goes up by exactly 1 (gaps, duplicates), notes streams that end;
   then ``--pairs`` pairs of windows of ``--seconds``/2, the streams still open: moves on the
   baseline games (which no stream watches), then on the watched ones. The machine's speed drifts
   over minutes, so the ratio of each pair, measured side by side, is the one to read;
7. the movers stop; the reader waits (up to 15 s) for every open stream to reach its game's final
   version, then reports.

``--smoke``: 16 streams over 8 games, 2 movers, 2 s windows, one pair; it checks that every
stream opened and stayed open, every event committed in the window reached each of its game's
streams (no gap, no duplicate, none missing after the drain), the moves made as many events as
wrk counted, and no move failed.

Latency = the reader's clock when the event's SSE message is parsed - the event's ``created_at``
(same machine, same clock). ``created_at`` is set (``auto_now_add``) as the event rows are
inserted, inside the move's transaction, which then updates the game row and commits (a WAL
flush): the commit follows ``created_at`` by a millisecond or a few, so the figure is
commit-to-client plus that. The movers' own HTTP response - ``created_at`` (after the commit and
the Redis publish, plus the response) is printed beside it, as a bound from the other side.
Only events created inside the measured window count.

Everything runs on one machine: the server, PostgreSQL, Redis, the movers and the stream reader
share its cores; the cores each used are printed. Native load (wrk and sse_reader.c) keeps the
load generators' share small: a Python client on the same two cores measures itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import http.client
import json
import math
import multiprocessing
import os
import re
import secrets
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # a sibling module: the benches are scripts, not a package
    API,
    HIGH_RATE,
    BenchDatabase,
    Checks,
    CpuMeter,
    Http,
    MakeServe,
    bench_env,
    clean_up,
    free_ports,
    manage,
    ms,
    parse_args,
    percentile,
    raise_nofile,
    redis_call,
    register,
    smoke_database,
    terminate_on_signals,
    yatzy_command,
)
from native_reader import NativeReader
from wrk_load import Wrk, WrkResult, settle, write_lists

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/dice_bench_streams"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"
WRK_THREADS = 2
DRAIN_SECONDS = 15.0
OPEN_SECONDS = 180.0  # at most, to open every stream (a stream not open by then counts as failed)


# --------------------------------------------------------------------------------------------------
# figures


def spread(values: list[float]) -> str:
    cells = [f"p{q} {ms(percentile(values, q))}" for q in (50, 90, 99)]
    return "  ".join([*cells, f"max {ms(max(values) if values else math.nan)} ms"])


def parse_time(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def cpu_line(cpu: dict[str, float]) -> str:
    """Cores by part; the server's processes (master, workers) by pid in brackets."""
    order = ("server", "postgres", "reader", "movers", "other", "machine")
    per = " ".join(f"{k.split(':')[1]}: {v:.2f}" for k, v in cpu.items() if k.startswith("server:"))
    line = "  ".join(f"{k} {cpu[k]:.2f}" for k in order if k in cpu)
    return f"{line}   [server by pid {per}]" if per else line


def process_figures(pids: list[int]) -> dict[str, Any]:
    """RSS (MiB), threads and open descriptors of some processes, per process and in all."""
    rows = []
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            fds = len(os.listdir(f"/proc/{pid}/fd"))
        except OSError:
            continue
        values = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        rss = int(values.get("VmRSS", "0 kB").split()[0]) / 1024
        rows.append((pid, rss, int(values["Threads"]), fds))
    return {
        "rows": rows,
        "rss": sum(r[1] for r in rows),
        "threads": sum(r[2] for r in rows),
        "fds": sum(r[3] for r in rows),
    }


def tiers_figures(server: Any) -> dict[str, Any]:
    """Memory and threads per tier of ``make serve``, and in all."""
    figures = {name: process_figures(server.tier(name)) for name in ("streams", "api", "proxy")}
    total = process_figures([pid for name in figures for pid, *_ in figures[name]["rows"]])
    return {**total, "tiers": figures}


def nofile_limit(pid: int) -> str:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return line.split()[3]
    return "?"


# --------------------------------------------------------------------------------------------------
# database, Redis, server


# --------------------------------------------------------------------------------------------------
# the movers (threads, http.client keep-alive)


def setup_games(port: int, count: int, seats: int) -> tuple[list[dict], list[dict]]:
    """``count`` accounts, each with two started games: (stream games, baseline games)."""
    from concurrent.futures import ThreadPoolExecutor

    prefix = f"bstream{secrets.token_hex(3)}_"
    seat_specs = [{"type": "me"}] + [{"type": "hotseat", "name": f"H{i}"} for i in range(1, seats)]

    def one(index: int) -> list[dict]:
        token = register(port, f"{prefix}{index}")
        client = Http(port, token)
        try:
            games = []
            for _ in range(2):
                body = client.expect(
                    201, "POST", f"{API}/games/",
                    {"kind": "yatzy", "seats": seat_specs, "options": {"auto_confirm_seconds": 0}},
                )  # fmt: skip
                body = client.expect(200, "POST", f"{API}/games/{body['id']}/start/")
                games.append({"token": token, "id": body["id"], "game": body})
            return games
        finally:
            client.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        pairs = list(pool.map(one, range(count)))
    return [p[0] for p in pairs], [p[1] for p in pairs]


class MoverResult:
    def __init__(self) -> None:
        self.samples: list[tuple[float, float, bool]] = []  # (t0, t1) perf_counter, ok
        self.response_lags: list[tuple[float, float]] = []  # (created_at, response - created_at)
        self.errors: Counter[str] = Counter()
        self.events: list[tuple[str, float]] = []  # (game, created_at) of every event appended
        self.finished = 0
        self.lock = threading.Lock()


def run_movers(
    port: int, games: list[dict], movers: int, warmup: float, seconds: float
) -> tuple[MoverResult, float, float, float, float]:
    """``movers`` threads; thread i goes round games i, i+movers, ... one move each. Returns the
    result and the measured window (perf_counter start, end; wall start, end)."""
    result = MoverResult()
    stop = threading.Event()
    barrier = threading.Barrier(movers + 1)

    def loop(mine: list[dict]) -> None:
        client = Http(port)
        samples: list[tuple[float, float, bool]] = []
        lags: list[tuple[float, float]] = []
        events: list[tuple[str, float]] = []
        errors: Counter[str] = Counter()
        barrier.wait()
        try:
            while not stop.is_set():
                live = [g for g in mine if g["game"]["status"] == "active"]
                if not live:
                    break
                for entry in live:
                    if stop.is_set():
                        break
                    game = entry["game"]
                    command = {**yatzy_command(game["state"]), "expected_version": game["version"]}
                    path = f"{API}/games/{entry['id']}/moves/"
                    t0 = time.perf_counter()
                    try:
                        status, body = client.request("POST", path, command, token=entry["token"])
                    except (OSError, http.client.HTTPException) as exc:
                        status, body = -1, type(exc).__name__
                        client.close()
                    t1 = time.perf_counter()
                    now = time.time()
                    ok = status == 201
                    samples.append((t0, t1, ok))
                    if ok:
                        entry["game"] = body["game"]
                        for event in body["events"]:
                            created = parse_time(event["created_at"])
                            events.append((entry["id"], created))
                        lags.append((created, now - created))
                        if body["game"]["status"] == "finished":
                            result.finished += 1
                        continue
                    code = body.get("code") if isinstance(body, dict) else str(body)[:80]
                    errors[f"{status} {code}"] += 1
                    with contextlib.suppress(OSError, http.client.HTTPException):
                        status, body = client.request(
                            "GET", f"{API}/games/{entry['id']}/", token=entry["token"]
                        )
                        if status == 200:
                            entry["game"] = body
        finally:
            client.close()
            with result.lock:
                result.samples.extend(samples)
                result.response_lags.extend(lags)
                result.events.extend(events)
                result.errors.update(errors)

    threads = [
        threading.Thread(target=loop, args=(games[i::movers],), daemon=True, name=f"mover-{i}")
        for i in range(movers)
    ]
    for thread in threads:
        thread.start()
    barrier.wait()
    time.sleep(warmup)
    start, wall_start = time.perf_counter(), time.time()
    stop.wait(seconds)
    end, wall_end = time.perf_counter(), time.time()
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
    return result, start, end, wall_start, wall_end


# The moves each game has made, from its snapshot: 4 per box scored at any seat, plus the rolls of
# the turn under way (wrk_moves.lua plays the next one from there).
MOVES_MADE = """
SELECT id::text, coalesce((state->>'rolls_used')::int, 0) + 4 * (
    SELECT count(*) FROM jsonb_array_elements(state->'sheets') AS sheet, jsonb_each(sheet) AS box
    WHERE box.value <> 'null'::jsonb)
FROM games_game WHERE id = ANY(%s::uuid[])
"""
EVENTS_BETWEEN = """
SELECT game_id::text, count(*) FROM games_gameevent
WHERE game_id = ANY(%s::uuid[]) AND created_at BETWEEN to_timestamp(%s) AND to_timestamp(%s)
GROUP BY game_id
"""


class WrkMoves:
    """The movers as wrk: ``connections`` connections over 2 threads, each thread going round its
    own games (wrk_moves.lua), every request the next legal move of its game."""

    def __init__(self, port: int, database: BenchDatabase, seats: int, tmp: Path) -> None:
        self.port = port
        self.conn = database.connect()
        self.conn.autocommit = True
        self.seats = seats
        self.tmp = tmp
        self.wrk = Wrk(WRK_THREADS, tmp)

    @staticmethod
    def games_needed(connections: int) -> int:
        """The fewest games a run can share out: each wrk thread keeps more games than its
        connections (``floor``), or it stops at once (wrk_moves.lua: out of games)."""
        threads = min(WRK_THREADS, connections)
        return threads * WrkMoves.floor(connections)

    @staticmethod
    def floor(connections: int) -> int:
        threads = min(WRK_THREADS, connections)
        return -(-connections // threads) + 1

    def run(
        self, games: list[dict], connections: int, seconds: float
    ) -> tuple[WrkResult, float, float]:
        """One run; returns wrk's figures and the run's wall-clock start and end."""
        ids = [g["id"] for g in games]
        settle(self.conn, ids)  # the last run's moves in flight when wrk stopped, committed
        made = dict(self.conn.execute(MOVES_MADE, (ids,)).fetchall())
        threads = min(self.wrk.threads, connections)  # as many lists as wrk runs threads
        dealt = [
            [(f"{API}/games/{g['id']}/moves/", g["token"], made[g["id"]]) for g in mine]
            for mine in (games[i::threads] for i in range(threads))
        ]
        write_lists(self.tmp / "games", dealt)
        # More games than connections in every thread: no game gets two moves at once.
        script = [str(self.tmp / "games"), "project", str(self.floor(connections)), str(self.seats)]
        start = time.time()
        result = self.wrk.run(f"http://127.0.0.1:{self.port}", connections, seconds, script)
        return result, start, time.time()

    def events_between(self, games: list[dict], start: float, end: float) -> Counter[str]:
        """The events created between ``start`` and ``end`` (wall clock), by game, once the
        moves in flight when wrk stopped have committed (their events are stamped before the
        commit, inside the window, and the streams deliver them)."""
        ids = [g["id"] for g in games]
        settle(self.conn, ids)
        rows = self.conn.execute(EVENTS_BETWEEN, (ids, start, end)).fetchall()
        return Counter({game: int(count) for game, count in rows})

    def stop(self) -> None:
        self.wrk.stop()
        self.conn.close()


@dataclass
class Phase:
    """A phase's moves, whoever made them."""

    who: str
    seconds: float
    moves: int
    failed: int
    errors: dict[str, int]
    latency: str
    wall: tuple[float, float]  # the measured window, wall clock
    by_game: Counter[str]  # events created in the window, by game (the phase's games)
    response_lag: str = ""  # the Python movers only: response - created_at
    finished: int = 0  # games finished in the window (their last move made one event more)
    invalid: list[str] = field(default_factory=list)  # why its figures are not the moves'

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def committed(self) -> int:
        return sum(self.by_game.values())

    def summary(self) -> str:
        flag = f"  INVALID: {'; '.join(self.invalid)}" if self.invalid else ""
        return (
            f"moves/s: {self.rate:.1f} ({self.moves} moves, {self.failed} failed: "
            f"{self.errors or 0}); move latency {self.latency}{flag}"
        )


def run_phase(
    port: int, games: list[dict], args: argparse.Namespace, wrk: WrkMoves | None, seconds: float
) -> Phase:
    if wrk is not None:
        wrk.run(games, args.movers, args.warmup)
        result, start, end = wrk.run(games, args.movers, seconds)
        ok = result.requests - result.non2xx
        finished = re.search(r"games_finished (\d+)", result.output)
        return Phase(
            who=f"wrk ({args.movers} connections)",
            seconds=result.seconds,
            moves=ok,
            failed=result.non2xx + result.socket_errors,
            errors={"non-2xx": result.non2xx} if result.non2xx else {},
            latency=f"p50 {ms(result.p50)}  p99 {ms(result.p99)}",
            wall=(start, end),
            by_game=wrk.events_between(games, start, end),
            finished=int(finished.group(1)) if finished else 0,
            # games that ran out stop their thread: its figures would not be the moves'
            invalid=result.invalid(),
        )
    done, m0, m1, w0, w1 = run_movers(port, games, args.movers, args.warmup, seconds)
    latencies, failed = window_moves(done, m0, m1)
    return Phase(
        who=f"Python threads ({args.movers})",
        seconds=m1 - m0,
        moves=len(latencies),
        failed=failed,
        errors=dict(done.errors),
        latency=spread(latencies),
        wall=(w0, w1),
        by_game=Counter(game for game, created in done.events if w0 <= created <= w1),
        response_lag=spread([lag for created, lag in done.response_lags if w0 <= created <= w1]),
        finished=done.finished,
    )


def window_moves(result: MoverResult, start: float, end: float) -> tuple[list[float], int]:
    """Latencies of the successful moves inside the window, and the failed ones."""
    inside = [(t0, t1, ok) for t0, t1, ok in result.samples if t0 >= start and t1 <= end]
    return [t1 - t0 for t0, t1, ok in inside if ok], sum(1 for *_, ok in inside if not ok)


# --------------------------------------------------------------------------------------------------
# the stream reader: a separate process, asyncio, raw HTTP/1.1


class Stream:
    __slots__ = ("dups", "ended", "events", "game", "gaps", "keepalives", "last", "opened",
                 "task", "writer")  # fmt: skip

    def __init__(self, game: str) -> None:
        self.game = game
        self.last = 0
        self.events = 0
        self.keepalives = 0
        self.gaps = 0
        self.dups = 0
        self.opened = False
        self.ended: str | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.task: asyncio.Task | None = None


async def _read_stream(port: int, stream: Stream, latencies: list, ready: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    stream.writer = writer
    writer.write(
        f"GET {API}/games/{stream.game}/events/?after=0 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n".encode()
    )
    await writer.drain()
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    status_line, *header_lines = head.split("\r\n")
    status = int(status_line.split()[1])
    headers = {}
    for line in header_lines:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    if status != 200:
        body = b""
        with contextlib.suppress(Exception):
            length = int(headers.get("content-length", "0"))
            body = await asyncio.wait_for(reader.readexactly(length), 5) if length else b""
        raise RuntimeError(f"HTTP {status} {body[:120].decode(errors='replace')}")
    chunked = headers.get("transfer-encoding", "").lower() == "chunked"
    buffer = ""
    while True:
        if chunked:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                raise EOFError("the server ended the stream")
            data = (await reader.readexactly(size + 2))[:-2]
        else:
            data = await reader.read(65536)
            if not data:
                raise EOFError("the server closed the connection")
        received = time.time()
        buffer += data.decode()
        while "\n\n" in buffer:
            message, buffer = buffer.split("\n\n", 1)
            fields: dict[str, str] = {}
            comment = False
            for line in message.split("\n"):
                if line.startswith(":"):
                    comment = True
                    continue
                name, _, value = line.partition(":")
                fields[name] = fields.get(name, "") + value.removeprefix(" ")
            if "retry" in fields and not stream.opened:
                stream.opened = True
                ready.set()
            if comment and not fields:
                stream.keepalives += 1
            if "data" not in fields:
                continue
            event = json.loads(fields["data"])
            seq = int(event["seq"])
            if "id" in fields and int(fields["id"]) != seq:
                stream.gaps += 1  # an id line that disagrees with the data: counted as a fault
            if seq <= stream.last:
                stream.dups += 1
                continue
            if seq != stream.last + 1:
                stream.gaps += 1
            stream.last = seq
            stream.events += 1
            created = parse_time(event["created_at"])
            latencies.append((created, received - created))


async def _run_stream(port: int, stream: Stream, latencies: list, ready: asyncio.Event) -> None:
    try:
        await _read_stream(port, stream, latencies, ready)
    except asyncio.CancelledError:
        stream.ended = stream.ended or "closed by the bench"
        raise
    except Exception as exc:  # any end of a stream is a figure, not a crash of the bench
        stream.ended = f"{type(exc).__name__}: {str(exc)[:120]}"
    finally:
        ready.set()
        if stream.writer is not None:
            stream.writer.close()


async def _reader_main(conn: Any, port: int, games: list[str], count: int, batch: int) -> None:
    loop = asyncio.get_running_loop()
    latencies: list[tuple[float, float]] = []
    streams = [Stream(games[i % len(games)]) for i in range(count)]
    began = time.monotonic()
    for offset in range(0, count, batch):
        group = streams[offset : offset + batch]
        readies = []
        for stream in group:
            ready = asyncio.Event()
            readies.append(ready)
            stream.task = asyncio.create_task(_run_stream(port, stream, latencies, ready))
        left = OPEN_SECONDS - (time.monotonic() - began)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), max(left, 0.1))
    opened = sum(s.opened for s in streams)
    failures = Counter(s.ended for s in streams if not s.opened and s.ended)
    pending = sum(1 for s in streams if not s.opened and not s.ended)
    if pending:
        failures[f"not open after {OPEN_SECONDS:.0f} s"] = pending
    conn.send({"opened": opened, "failed": dict(failures), "seconds": time.monotonic() - began,
               "open_now": sum(s.opened and not s.ended for s in streams)})  # fmt: skip

    while True:
        command = await loop.run_in_executor(None, conn.recv)
        if command["do"] == "status":
            conn.send({"open_now": sum(s.opened and not s.ended for s in streams)})
        elif command["do"] == "drain":
            final: dict[str, int] = command["versions"]
            deadline = time.monotonic() + command["seconds"]
            while time.monotonic() < deadline:
                behind = [s for s in streams if not s.ended and s.last < final.get(s.game, 0)]
                if not behind:
                    break
                await asyncio.sleep(0.1)
            conn.send(
                {
                    "open_now": sum(s.opened and not s.ended for s in streams),
                    "behind": sum(1 for s in streams if s.last < final.get(s.game, 0)),
                    "missing": sum(
                        max(final.get(s.game, 0) - s.last, 0) for s in streams if s.opened
                    ),
                    "events": sum(s.events for s in streams),
                    "keepalives": sum(s.keepalives for s in streams),
                    "gaps": sum(s.gaps for s in streams),
                    "dups": sum(s.dups for s in streams),
                    "dropped": dict(Counter(s.ended for s in streams if s.opened and s.ended)),
                    "latencies": latencies,
                }
            )
        elif command["do"] == "close":
            for stream in streams:
                if stream.task is not None:
                    stream.task.cancel()
            await asyncio.gather(*(s.task for s in streams if s.task), return_exceptions=True)
            conn.send({"closed": True})
            return


def reader_process(conn: Any, port: int, games: list[str], count: int, nofile: int) -> None:
    raise_nofile(nofile)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends the run
    # uvloop and the collector's settings of the stream tier (config/streams.py): the reader
    # holds as many connections as the server, and its own pauses would count as latency.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    uvloop.run(_reader_main(conn, port, games, count, batch=50))


class Watch:
    """Every 0.25 s while a phase runs: PostgreSQL connections to the bench db and in all, Redis
    clients (maxima); once, ``at`` seconds in, the server's RSS, threads and descriptors."""

    def __init__(self, database: BenchDatabase, server: Any, redis_url: str, at: float | None):
        self.pg_max = self.pg_all_max = self.redis_max = 0
        self.proc: dict[str, Any] | None = None
        self.done = threading.Event()
        self.sessions = 0
        self.sessions_start = database.sessions()
        self.database = database
        began = time.monotonic()

        def run() -> None:
            while not self.done.wait(0.25):
                with contextlib.suppress(Exception):
                    self.pg_max = max(self.pg_max, database.connections())
                    self.pg_all_max = max(self.pg_all_max, database.all_connections())
                    self.redis_max = max(self.redis_max, redis_call(redis_url, "clients"))
                if at is not None and self.proc is None and time.monotonic() - began >= at:
                    self.proc = tiers_figures(server)

        self.thread = threading.Thread(target=run, daemon=True, name="watch")
        self.thread.start()

    def stop(self) -> None:
        self.done.set()
        self.thread.join(timeout=10)
        time.sleep(0.6)  # backends report their session counts to the statistics within ~0.5 s
        self.sessions = self.database.sessions() - self.sessions_start


# --------------------------------------------------------------------------------------------------
# main

# --smoke: tiny sizes, every phase of a full run (and its own database, never a full run's).
SMOKE: dict[str, Any] = {
    "streams": 16, "games": 8, "seconds": 2.0, "movers": 2, "pairs": 1, "warmup": 1.0, "web": 2,
    "database_url": smoke_database(DEFAULT_DATABASE_URL),
}  # fmt: skip


def smoke_checks(
    checks: Checks,
    args: argparse.Namespace,
    opened: dict[str, Any],
    report: dict[str, Any],
    phases: list[Phase],
    live: Phase,
    delivered: int,
    expected: int,
) -> None:
    """What must add up in a run: the streams, the deliveries, the moves against their events."""
    checks.expect(
        opened["opened"] == args.streams and not opened["failed"],
        f"streams opened: {opened['opened']} of {args.streams} (failed: {opened['failed']})",
    )
    checks.expect(
        report["open_now"] == args.streams and not report["dropped"],
        f"streams open at the end: {report['open_now']} of {args.streams} "
        f"(dropped: {report['dropped']})",
    )
    for phase in phases:
        checks.expect(
            phase.moves > 0 and not phase.failed and not phase.invalid,
            f"{phase.who} on {len(phase.by_game)} games: {phase.moves} moves, {phase.failed} "
            f"failed{', INVALID: ' + '; '.join(phase.invalid) if phase.invalid else ''}",
        )
        # Every move answered in the window appended its event in it; the requests still in
        # flight when the window closed (one a connection at most) may have added theirs, and a
        # game's last move its game_finished.
        most = phase.moves + args.movers + phase.finished
        checks.expect(
            phase.moves <= phase.committed <= most,
            f"events committed in the window: {phase.committed}, for {phase.moves} moves "
            f"answered (between {phase.moves} and {most})",
        )
    checks.expect(live.committed > 0, f"events committed in the streams phase: {live.committed}")
    checks.expect(
        delivered == expected,
        f"deliveries of the streams phase's events: {delivered} of {expected} expected",
    )
    for key in ("gaps", "dups", "behind", "missing"):
        checks.expect(report[key] == 0, f"streams' {key}: {report[key]} (must be 0)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--streams", type=int, default=500, help="SSE streams to hold open")
    parser.add_argument("--games", type=int, default=50, help="games the streams watch")
    parser.add_argument("--seconds", type=float, default=30.0, help="moves window with streams")
    parser.add_argument(
        "--movers", type=int, default=8, help="concurrent movers (wrk connections or threads)"
    )
    parser.add_argument(
        "--load",
        choices=("wrk", "python"),
        default="wrk",
        help="who makes the moves: wrk (native, wrk_moves.lua) or Python threads",
    )
    parser.add_argument(
        "--reader",
        choices=("native", "python"),
        default="native",
        help="who holds the streams: sse_reader.c (native) or a Python (uvloop) process",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=2,
        help="after the streams phase, this many pairs of windows (--seconds/2 each): moves on"
        " the baseline games, then on the watched ones, the streams open throughout",
    )
    parser.add_argument("--workers", type=int, default=1, help="stream tier processes")
    parser.add_argument("--web", type=int, default=4, help="gunicorn workers (WEB_CONCURRENCY)")
    parser.add_argument("--seats", type=int, default=6, help="seats per game (1 me + hot seats)")
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="unmeasured seconds of moves before each window"
    )
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--keep-logs", action="store_true", help="keep the temporary directory")
    args = parse_args(parser, argv, SMOKE)
    if not 1 <= args.seats <= 6:
        parser.error("--seats: yatzy has 1 to 6 seats")
    if args.load == "wrk" and args.games < WrkMoves.games_needed(args.movers):
        parser.error(
            f"--games: at least {WrkMoves.games_needed(args.movers)} for {args.movers} movers "
            f"(each of wrk's threads keeps more games than connections)"
        )
    with terminate_on_signals():
        return run(args, Checks(args.smoke))


def run(args: argparse.Namespace, checks: Checks) -> int:
    nofile = max(8192, 4 * args.streams + 1024)
    client_nofile = raise_nofile(nofile)
    tmp = Path(tempfile.mkdtemp(prefix="dice-bench-streams-"))
    database = BenchDatabase(args.database_url)
    try:
        redis_call(args.redis_url, "ping")
    except Exception as exc:
        raise SystemExit(f"Redis does not answer at {args.redis_url}: {exc}") from None
    env = bench_env(database.url, args.redis_url, COMPUTER_MOVE_DELAY="0")
    server: MakeServe | None = None
    wrk_moves: WrkMoves | None = None
    reader: Any = None
    parent_conn: Any = None
    print(
        f"streams: {args.streams} SSE streams over {args.games} games, {args.movers} movers, "
        f"{args.seconds:.0f} s; python {sys.version.split()[0]}; {os.cpu_count()} cores"
    )
    meter = CpuMeter({}, own="movers")
    time.sleep(1.0)
    busy = meter.read()
    print(
        f"  machine busy before start: {busy['machine']:.2f} cores of {os.cpu_count()}; "
        f"PostgreSQL client connections already open: {database.all_connections()}"
    )
    try:
        began = time.monotonic()
        database.create()
        redis_call(args.redis_url, "flush")
        manage(env, "migrate", "--noinput", "-v", "0")
        port = free_ports(3)
        server = MakeServe(
            env, port, tmp / "server.log",
            {"STREAM_WORKERS": args.workers, "WEB_CONCURRENCY": args.web}, nofile=nofile,
        )  # fmt: skip
        server.wait_ready(ready=lambda: len(server.tier("streams")) >= args.workers)
        streams_pids = server.tier("streams")
        print(
            f"  server:   make serve: nginx, gunicorn x {args.web} (WSGI), stream tier x "
            f"{args.workers} (uvicorn config.streams); DEBUG off, throttles {HIGH_RATE}; "
            f"open-file limit: stream tier {nofile_limit(streams_pids[-1])}, bench {client_nofile}"
        )
        max_connections = database.max_connections()
        pool = (
            "no pool (DB_POOL off)"
            if env.get("DB_POOL", "true").lower() in {"0", "false", "no", "off"}
            else f"psycopg pool of at most {env.get('DB_POOL_MAX', '8')} per process"
        )
        print(
            f"  database: PostgreSQL {database.url} (max_connections {max_connections}); "
            f"server: {pool}"
        )
        print(f"  redis:    {args.redis_url} (cache, broker, pub/sub)")
        stream_games, base_games = setup_games(port, args.games, args.seats)
        print(
            f"  setup:    {time.monotonic() - began:.1f} s ({args.games} accounts, "
            f"{2 * args.games} started games of {args.seats} seats)"
        )

        # -- baseline: no stream open --------------------------------------------------------
        idle = tiers_figures(server)
        base_seconds = args.seconds / 2
        wrk_moves = WrkMoves(port, database, args.seats, tmp) if args.load == "wrk" else None
        meter = CpuMeter({"server": [server.pid]}, own="movers", by_pid=True)
        base_watch = Watch(database, server, args.redis_url, None)
        base = run_phase(port, base_games, args, wrk_moves, base_seconds)
        base_watch.stop()
        base_cpu = meter.read()  # includes the warm-up: a close enough figure for the cores

        # -- open the streams -------------------------------------------------------------
        stream_ids = [g["id"] for g in stream_games]
        if args.reader == "native":
            reader = parent_conn = NativeReader(port, stream_ids, args.streams)
        else:
            ctx = multiprocessing.get_context("spawn")
            parent_conn, child_conn = ctx.Pipe()
            reader = ctx.Process(
                target=reader_process,
                args=(child_conn, port, stream_ids, args.streams, nofile),
                daemon=True,
            )
        reader.start()
        if not parent_conn.poll(OPEN_SECONDS + 60):
            raise SystemExit(f"the stream reader did not report in {OPEN_SECONDS + 60:.0f} s")
        opened = parent_conn.recv()
        time.sleep(1.0)
        held = tiers_figures(server)
        pg_held = database.connections()
        redis_held = redis_call(args.redis_url, "clients")
        print(
            f"  opened:   {opened['opened']} of {args.streams} streams in {opened['seconds']:.1f} s"
            f"; open now {opened['open_now']}"
            + (f"; failed to open: {opened['failed']}" if opened["failed"] else "")
        )

        # -- moves with every stream open ----------------------------------------------------
        meter = CpuMeter(
            {"server": [server.pid], "reader": [reader.pid]}, own="movers", by_pid=True
        )
        at = args.warmup + args.seconds * 0.8
        live_watch = Watch(database, server, args.redis_url, at)
        live = run_phase(port, stream_games, args, wrk_moves, args.seconds)
        live_watch.stop()
        live_cpu = meter.read()
        w0, w1 = live.wall

        # -- pairs: the two kinds of games in turn, the streams open throughout ---------------
        # The machine's speed drifts over minutes: a baseline measured a minute before the
        # streams phase can be off by more than the effect measured. Side by side, in turn,
        # each pair sees the same machine (the baseline games have no stream of their own).
        pairs: list[tuple[Phase, Phase]] = []
        for _ in range(args.pairs):
            plain = run_phase(port, base_games, args, wrk_moves, args.seconds / 2)
            watched = run_phase(port, stream_games, args, wrk_moves, args.seconds / 2)
            pairs.append((plain, watched))

        # -- drain, then the reader's report --------------------------------------------------
        versions: dict[str, int] = {}
        client = Http(port)
        for entry in stream_games:
            status, body = client.request(
                "GET", f"{API}/games/{entry['id']}/", token=entry["token"]
            )
            versions[entry["id"]] = body["version"] if status == 200 else 0
        client.close()
        parent_conn.send({"do": "drain", "versions": versions, "seconds": DRAIN_SECONDS})
        if not parent_conn.poll(DRAIN_SECONDS + 120):
            raise SystemExit("the stream reader did not report after the drain")
        report = parent_conn.recv()
        after = tiers_figures(server)

        windows = [(w0, w1)] + [watched.wall for _, watched in pairs]
        in_window = [
            lat
            for created, lat in report["latencies"]
            if any(start <= created <= end for start, end in windows)
        ]
        in_window_count = sum(1 for created, _ in report["latencies"] if w0 <= created <= w1)
        committed = live.committed
        watchers = Counter(stream_games[i % len(stream_games)]["id"] for i in range(args.streams))
        # every event of a game reaches each of the streams open on it
        expected = sum(count * watchers[game] for game, count in live.by_game.items())

        print()
        print(f"Streams phase: {live.seconds:.1f} s measured after {args.warmup:g} s warm-up; "
              f"{min(watchers.values())}-{max(watchers.values())} streams per game; "
              f"moves by {live.who}, streams held by the {args.reader} reader")  # fmt: skip
        print(f"  streams open: {opened['opened']} opened, {report['open_now']} still open at the "
              f"end; dropped: {report['dropped'] or 0}")  # fmt: skip
        print(f"  {live.summary()}")
        print(
            f"  events committed in the window: {committed}; deliveries to streams: "
            f"{in_window_count} of {expected} expected ({in_window_count / live.seconds:.0f}/s)"
        )
        print(
            f"  delivery latency, created_at -> client (this phase and the pairs' watched "
            f"windows, {len(in_window)} deliveries): {spread(in_window)}"
        )
        if live.response_lag:
            print(f"  (beside it: the mover's own response - created_at: {live.response_lag})")
        print(
            f"  gaps {report['gaps']}, duplicates {report['dups']} (must be 0); after the "
            f"movers stopped, {report['behind']} streams short of their game's last event "
            f"({report['missing']} events missing) after up to {DRAIN_SECONDS:.0f} s; "
            f"{report['events']} events delivered in all, {report['keepalives']} keep-alives"
        )
        print(f"  cores: {cpu_line(live_cpu)}")
        print()
        print(f"Baseline, no stream open: {base.seconds:.1f} s measured after "
              f"{args.warmup:g} s warm-up, same movers on other games")  # fmt: skip
        print(f"  {base.summary()}")
        if base.response_lag:
            print(f"  (mover's response - created_at: {base.response_lag})")
        print(f"  cores: {cpu_line(base_cpu)}")
        if base.rate:
            print(f"  move throughput with {report['open_now']} streams open / without: "
                  f"{live.rate / base.rate:.2f}x (a minute apart)")  # fmt: skip
        if pairs:
            print()
            print(f"Pairs, side by side, the streams open throughout ({args.seconds / 2:.0f} s "
                  f"windows, each after a {args.warmup:g} s warm-up):")  # fmt: skip
            for index, (plain, watched) in enumerate(pairs, 1):
                ratio = watched.rate / plain.rate if plain.rate else math.nan
                flags = "; ".join(plain.invalid + watched.invalid)
                print(
                    f"  pair {index}: {plain.rate:.1f} moves/s on games no stream watches, "
                    f"{watched.rate:.1f} on the watched ones: {ratio:.2f}x"
                    + (f"  INVALID: {flags}" if flags else "")
                )
            plain_rate = sum(p.moves for p, _ in pairs) / sum(p.seconds for p, _ in pairs)
            watched_rate = sum(w.moves for _, w in pairs) / sum(w.seconds for _, w in pairs)
            print(
                f"  in all: {watched_rate:.1f} against {plain_rate:.1f} moves/s: move throughput "
                f"with {report['open_now']} streams on the games played / without: "
                f"{watched_rate / plain_rate:.2f}x"
            )
        print()
        mid = live_watch.proc or after
        print("Server by tier (make serve): RSS MiB / threads / open fds")
        for label, figures in (("before the streams", idle), ("streams open, idle", held),
                               ("streams open, moves (80% in)", mid),
                               ("after the drain", after)):  # fmt: skip
            per = "; ".join(
                f"{name} {tier['rss']:.0f} MiB/{tier['threads']}/{tier['fds']}"
                for name, tier in figures["tiers"].items()
            )
            print(f"  {label:<29} {figures['rss']:.0f} MiB in all   [{per}]")
        print(
            f"PostgreSQL connections to the bench db: {pg_held} with the streams open and idle; "
            f"during the moves: max {live_watch.pg_max} (streams phase), {base_watch.pg_max} "
            f"(baseline); client backends on the whole server at most {live_watch.pg_all_max} "
            f"(max_connections {max_connections})"
        )
        print(
            f"PostgreSQL connections opened (pg_stat_database.sessions): {live_watch.sessions} "
            f"in the streams phase ({live.moves} moves), {base_watch.sessions} in the "
            f"baseline ({base.moves} moves)"
        )
        print(f"Redis connected clients (whole server): {redis_held} with the streams open, "
              f"at most {live_watch.redis_max} during the moves")  # fmt: skip
        log = server.log_tail(10**7)
        faults = Counter(
            line.split(":")[0] + ": " + line.split(":", 1)[1][:110].strip()
            for line in log.splitlines()
            if ":" in line
            and not line.startswith((" ", "Traceback", "The above", "During"))
            and ("Error" in line.split(":")[0] or "Exception" in line.split(":")[0])
        )
        if faults:
            print("Server log, errors by kind:")
            for line, count in faults.most_common(8):
                print(f"  {count:>6}  {line}")
        if live.finished or base.finished:
            print(f"note: {live.finished + base.finished} games finished during the run")
        if args.reader == "native":
            print(f"stream reader (sse_reader.c): {reader.cpu_seconds():.2f} s of CPU in all")
        parent_conn.send({"do": "close"})
        with contextlib.suppress(EOFError):
            if parent_conn.poll(30):
                parent_conn.recv()
        if checks.enabled:
            smoke_checks(checks, args, opened, report, [base, live, *sum(pairs, ())], live,
                         in_window_count, expected)  # fmt: skip
        return checks.exit_code()
    finally:
        if reader is not None:
            reader.join(timeout=5)
            if reader.is_alive():
                reader.terminate()
                reader.join(timeout=5)
        if wrk_moves is not None:
            wrk_moves.stop()
        if server is not None:
            server.stop()
        clean_up(database, args.redis_url, tmp, args.keep_logs)


if __name__ == "__main__":
    sys.exit(main())
