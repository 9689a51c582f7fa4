"""Checks of the native SSE reader (bench/sse_reader.c) against a scripted SSE server.

    .venv/bin/python bench/native_reader_check.py [--streams 60] [--python]
    .venv/bin/python bench/native_reader_check.py --load [--streams 500] [--events 200] [--python]
    .venv/bin/python bench/native_reader_check.py --smoke

Default: a fake server (asyncio, in a thread) answers each game id by a script: chunked bodies cut
at random places (inside messages, inside chunk heads), an identity body, duplicates, gaps, an
``id:`` disagreeing with the data, a stream the server ends, a 404, CRLF line ends, data over two
``data:`` lines, ``created_at`` with ``Z`` or an offset. The reader's figures must be the expected
ones exactly. ``--python`` runs bench/streams.py's reader too, on the games it can read (it splits
messages on LF LF only, so not the CRLF one).

``--load``: one game per 50 streams; once every stream is open the server sends ``--events`` events
to each stream, one every 20 ms, and the reader's CPU per delivered event is printed (from
/proc/PID/stat, between the end of the opening and the end of the drain).

``--smoke``: the checks with 14 streams, both readers, then a load of 50 streams and 20 events,
both readers, each of which must deliver every event once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import socket
import sys
import threading
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Checks, parse_args  # sibling modules: the benches are scripts, not a package
from native_reader import NativeReader

PLUS2 = timezone(timedelta(hours=2))
TIMESTAMPS = [True]
SMOKE: dict[str, Any] = {"streams": 14, "events": 20, "python": True}
SMOKE_LOAD_STREAMS = 50


def cpu_of(pid: int) -> float:
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def frame(
    seq: int, *, id_: int | None = None, crlf: bool = False, split: bool = False, pad: int = 0
) -> bytes:
    now = datetime.now(UTC)
    created = now.astimezone(PLUS2).isoformat() if seq % 2 else now.isoformat()
    created = created.replace("+00:00", "Z") if seq % 4 == 0 else created
    data = json.dumps(
        {
            "seq": seq,
            "type": "rolled",
            "data": {"seq": 999, "x": 'a}"]'},
            "created_at": created,
            "messages": ["{" + "x" * pad],
        },
        separators=(",", ":"),
    )
    lines = [f"id: {seq if id_ is None else id_}", "event: rolled"]
    if split:
        cut = data.index(',"created_at"') + 1
        lines += [f"data: {data[:cut]}", f"data:{data[cut:]}"]
    else:
        lines.append(f"data: {data}")
    end = "\r\n" if crlf else "\n"
    return (end.join(lines) + end + end).encode()


RETRY, KEEPALIVE = b"retry: 2000\n\n", b": keep-alive\n\n"
# game -> (final version, expected per stream: events, gaps, dups, keepalives, how it ends)
EXPECTED: dict[str, tuple[int, int, int, int, int, str | None]] = {
    "chunked": (10, 10, 0, 0, 2, None),
    "identity": (10, 10, 0, 0, 2, None),
    "faults": (5, 4, 2, 1, 0, None),
    "ends": (3, 3, 0, 0, 0, "EOFError: the server ended the stream"),
    "crlf": (3, 3, 0, 0, 1, None),
    "big": (3, 3, 0, 0, 0, None),
}
NOT_FOUND = '{"detail":"No game."}'


def cut_wire() -> bytes:
    """A chunked response (4 events, 2 keep-alives; LF and CRLF, 2 data lines, extensions) for
    the ``cuts`` streams, which each get it cut in three at two places of their own."""
    rng = random.Random(7)
    data = b"retry: 2000\n\n: keep-alive\r\n\r\n" + frame(1) + frame(2, crlf=True, split=True)
    data += frame(3, split=True) + b": k\n\n" + frame(4, crlf=True)
    wire = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\ntransfer-encoding: Chunked\r\n\r\n"
    )
    while data:
        cut = rng.randint(1, 120)
        piece, data = data[:cut], data[cut:]
        size = b"%x" % len(piece) if rng.random() < 0.5 else b"%X;ext=1" % len(piece)
        wire += size + b"\r\n" + piece + b"\r\n"
    return wire


CUT_WIRE = cut_wire()


class FakeServer:
    def __init__(self, load_events: int = 0) -> None:
        self.load_events = load_events
        self.loop = asyncio.new_event_loop()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.writers: list[asyncio.StreamWriter] = []
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self._serve(), self.loop).result()

    async def _serve(self) -> None:
        await asyncio.start_server(self._handle, sock=self.sock, backlog=4096)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            request = (await reader.readuntil(b"\r\n\r\n")).decode()
            game = request.split()[1].split("/")[4].split("-")[0]
            writer.transport.set_write_buffer_limits(0)  # type: ignore[union-attr]
            if game == "load":
                await self._load(writer)
            elif game == "cuts":
                a, b = map(int, request.split()[1].split("/")[4].split("-")[1:])
                for piece in (CUT_WIRE[:a], CUT_WIRE[a:b], CUT_WIRE[b:]):
                    writer.write(piece)
                    await writer.drain()
                    await asyncio.sleep(0.02)
            else:
                await self._script(game, writer)
            await reader.read()  # until the reader closes
        writer.close()

    async def _send(self, writer: asyncio.StreamWriter, data: bytes, chunked: bool) -> None:
        """``data`` as chunks cut at random, each written in pieces cut at random."""
        rng = random.Random()
        wire = b""
        while data:
            cut = rng.randint(1, max(1, len(data)))
            piece, data = data[:cut], data[cut:]
            wire += b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece
        while wire:
            cut = rng.randint(1, 40)
            writer.write(wire[:cut])
            wire = wire[cut:]
            await writer.drain()
            await asyncio.sleep(0.001 if rng.random() < 0.3 else 0)

    async def _script(self, game: str, writer: asyncio.StreamWriter) -> None:
        if game == "missing":
            writer.write(
                b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (len(NOT_FOUND), NOT_FOUND.encode())
            )
            return
        chunked = game != "identity"
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            + (b"Transfer-Encoding: chunked\r\n" if chunked else b"")
            + b"\r\n"
        )
        if game == "crlf":
            body = b"retry: 2000\r\n\r\n: keep-alive\r\n\r\n"
            body += b"".join(frame(s, crlf=True, split=s == 2) for s in (1, 2, 3))
            await self._send(writer, body, chunked)
            return
        if game == "big":  # messages of 300 KB: longer than the native reader's reads
            body = RETRY + b"".join(frame(s, pad=300_000) for s in (1, 2, 3))
            for piece in (body[:150_000], body[150_000:]):
                writer.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            return
        if game == "faults":
            body = RETRY + b"".join(frame(s) for s in (1, 2, 2, 4)) + frame(5, id_=6)
            await self._send(writer, body, chunked)
            return
        if game == "ends":
            await self._send(writer, RETRY + b"".join(frame(s) for s in (1, 2, 3)), chunked)
            writer.write(b"0\r\n\r\n")
            return
        await self._send(writer, RETRY + b"".join(frame(s) for s in range(1, 6)), chunked)
        await self._send(writer, KEEPALIVE, chunked)
        await asyncio.sleep(0.3)
        await self._send(writer, KEEPALIVE + b"".join(frame(s) for s in range(6, 11)), chunked)

    async def _load(self, writer: asyncio.StreamWriter) -> None:
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n" % (len(RETRY), RETRY)
        )
        self.writers.append(writer)

    def broadcast(self) -> None:
        """``load_events`` events to every load stream, one every 20 ms; one chunk each."""

        async def run() -> None:
            for seq in range(1, self.load_events + 1):
                body = frame(seq)
                wire = b"%x\r\n%s\r\n" % (len(body), body)
                for writer in self.writers:
                    writer.write(wire)
                await asyncio.sleep(0.02)

        asyncio.run_coroutine_threadsafe(run(), self.loop).result()


def python_reader(port: int, games: list[str], count: int) -> Any:
    """bench/streams.py's reader, in a process as streams.py starts it; (process, pipe)."""
    import streams

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    process = ctx.Process(
        target=streams.reader_process, args=(child, port, games, count, 65536), daemon=True
    )
    process.start()
    return process, parent


def run(
    label: str, server: FakeServer, games: list[str], count: int, native: bool, load: bool
) -> dict[str, Any]:
    if native:
        reader = pipe = NativeReader(server.port, games, count, timestamps=TIMESTAMPS[0])
        reader.start()
    else:
        reader, pipe = python_reader(server.port, games, count)
    try:
        assert pipe.poll(120), "no opening report"
        opened = pipe.recv()
        cpu0 = cpu_of(reader.pid)
        if load:
            server.broadcast()
        finals = {
            g: (server.load_events if load else EXPECTED[g.split("-")[0]][0])
            for g in games
            if not g.startswith("missing")
        }
        pipe.send({"do": "drain", "versions": finals, "seconds": 30.0})
        assert pipe.poll(120), "no drain report"
        report = pipe.recv()
        cpu = cpu_of(reader.pid) - cpu0
        pipe.send({"do": "close"})
        with contextlib.suppress(EOFError):
            pipe.poll(30) and pipe.recv()
    finally:
        reader.join(10)
        if reader.is_alive():
            reader.terminate()
    lat = sorted(x for _, x in report["latencies"])
    print(
        f"{label}: opened {opened['opened']}/{count} in {opened['seconds']:.2f} s, failed "
        f"{opened['failed']}; open now {report['open_now']}, events {report['events']}, gaps "
        f"{report['gaps']}, dups {report['dups']}, keep-alives {report['keepalives']}, behind "
        f"{report['behind']}, missing {report['missing']}, dropped {report['dropped']}"
    )
    if lat:
        print(
            f"  latency ms: p50 {lat[len(lat) // 2] * 1e3:.2f} p99 "
            f"{lat[int(len(lat) * 0.99)] * 1e3:.2f} max {lat[-1] * 1e3:.2f}; reader CPU "
            f"{cpu:.2f} s = {cpu / max(report['events'], 1) * 1e6:.1f} us per event"
        )
    if "cpu" in report:
        events = max(report["events"], 1)
        print(
            f"  reader's own report, whole run: user {report['cpu']['user'] / events * 1e6:.1f} "
            f"+ system {report['cpu']['system'] / events * 1e6:.1f} us per event"
        )
    lags = sorted(x for _, x in report.get("reader_lags", []))
    if lags:
        print(
            f"  reader lag ms (kernel receipt -> parsed): p50 {lags[len(lags) // 2] * 1e3:.3f}"
            f" p99 {lags[int(len(lags) * 0.99)] * 1e3:.3f} max {lags[-1] * 1e3:.3f}"
        )
    return {"opened": opened, "report": report, "cpu": cpu}


def expect(result: dict[str, Any], games: list[str], count: int) -> list[str]:
    """What differs from the script's figures."""
    kinds = [games[i % len(games)].split("-")[0] for i in range(count)]
    want = {
        "opened": sum(k != "missing" for k in kinds),
        "failed": {f"RuntimeError: HTTP 404 {NOT_FOUND}": kinds.count("missing")}
        if "missing" in kinds
        else {},
        "events": sum(EXPECTED[k][1] for k in kinds if k in EXPECTED),
        "gaps": sum(EXPECTED[k][2] for k in kinds if k in EXPECTED),
        "dups": sum(EXPECTED[k][3] for k in kinds if k in EXPECTED),
        "keepalives": sum(EXPECTED[k][4] for k in kinds if k in EXPECTED),
        "open_now": sum(k in EXPECTED and EXPECTED[k][5] is None for k in kinds),
        "behind": 0,
        "missing": 0,
        "dropped": {"EOFError: the server ended the stream": kinds.count("ends")}
        if "ends" in kinds
        else {},
    }
    got = {**result["report"], **{k: result["opened"][k] for k in ("opened", "failed")}}
    wrong = [
        f"{key}: {got[key]!r}, expected {value!r}"
        for key, value in want.items()
        if got[key] != value
    ]
    lat = [x for _, x in result["report"]["latencies"]]
    if len(lat) != want["events"] or not all(0 <= x < 5 for x in lat):
        wrong.append(f"latencies: {len(lat)}, from {min(lat, default=0)} to {max(lat, default=0)}")
    return wrong


def load_runs(count: int, events: int, python: bool, checks: Checks) -> None:
    """``--load``: one game per 50 streams, ``events`` events to each stream; with ``checks``
    enabled (a smoke run), each reader must have delivered every event once."""
    games = [f"load-{i}" for i in range(max(1, count // 50))]
    for native in [True, *([False] if python else [])]:
        server = FakeServer(load_events=events)
        label = "native" if native else "python"
        result = run(label, server, games, count, native, load=True)
        report = result["report"]
        checks.expect(
            result["opened"]["opened"] == count
            and report["events"] == count * events
            and not any(report[k] for k in ("gaps", "dups", "behind", "missing", "dropped")),
            f"{label} load: {result['opened']['opened']} of {count} streams, {report['events']}"
            f" events of {count * events}, gaps {report['gaps']}, dups {report['dups']}, "
            f"behind {report['behind']}",
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--streams", type=int, default=None)
    parser.add_argument("--events", type=int, default=200, help="--load: events per stream")
    parser.add_argument("--load", action="store_true")
    parser.add_argument("--python", action="store_true", help="bench/streams.py's reader too")
    parser.add_argument("--no-timestamps", action="store_true", help="native: no SO_TIMESTAMPNS")
    args = parse_args(parser, argv, SMOKE)
    checks = Checks(args.smoke)
    TIMESTAMPS[0] = not args.no_timestamps
    if args.load:
        load_runs(args.streams or 500, args.events, args.python, checks)
        return checks.exit_code()
    failures = 0
    everything = ["chunked-a", "identity-a", "faults-a", "ends-a", "missing-a", "crlf-a", "big-a"]
    for native in [True, *([False] if args.python else [])]:
        games = everything if native else [g for g in everything if not g.startswith("crlf")]
        count = args.streams or 10 * len(games)
        result = run("native" if native else "python", FakeServer(), games, count, native, False)
        wrong = expect(result, games, count)
        for line in wrong:
            print(f"  WRONG {line}")
        failures += bool(wrong)
    # the native reader on every place of the response cut, at once with the next, the one after
    # and the seventh
    size = len(CUT_WIRE)
    games = [f"cuts-{a}-{min(a + d, size)}" for a in range(1, size) for d in (1, 2, 7)]
    with NativeReader(FakeServer().port, games, len(games), batch=500) as reader:
        opened = reader.opened()
        report = reader.drain({game: 4 for game in games}, 30.0)
    got = {k: report[k] for k in ("open_now", "events", "keepalives", "gaps", "dups", "behind")}
    want = {"open_now": len(games), "events": 4 * len(games), "keepalives": 2 * len(games)}
    want |= {"gaps": 0, "dups": 0, "behind": 0}
    print(
        f"cuts: {len(games)} streams, each with the response cut at 2 places: opened "
        f"{opened['opened']}, {got}"
    )
    if got != want or opened["opened"] != len(games):
        print(f"  WRONG expected {want}")
        failures += 1
    print("ok" if not failures else "FAILED")
    if checks.enabled:
        checks.expect(not failures, f"the scripted streams' figures: {failures} runs WRONG")
        load_runs(SMOKE_LOAD_STREAMS, args.events, args.python, checks)
        return checks.exit_code()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
