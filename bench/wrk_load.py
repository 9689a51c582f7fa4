"""wrk, the benches' native load generator: its runs, bounded in time, and its figures.

A Python client on the same two cores as the server measures itself; wrk (C, epoll) costs a few
microseconds a request. Moves come from ``wrk_moves.lua``, which plays each game's next legal
yatzy move from a list of games per wrk thread (``write_lists``).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import ROOT  # a sibling module: the benches are scripts, not a package

LUA = Path(__file__).resolve().parent / "wrk_moves.lua"
INVALID_SHARE = 0.01  # non-2xx (or socket errors) above 1 % of the requests: the row is invalid
WRK_TIMEOUT = "10s"  # wrk's default 2 s would count a slow answer as an error, not a latency


def write_lists(prefix: Path, dealt: list[list[tuple[str, str, int]]]) -> None:
    """One file per wrk thread (wrk_moves.lua): "<path> <token or -> <moves made>" a line."""
    for index, games in enumerate(dealt):
        lines = [f"{path} {token} {made}\n" for path, token, made in games]
        Path(f"{prefix}.{index}").write_text("".join(lines))


UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
DURATION = r"([\d.]+)(us|ms|s|m|h)"


def seconds_of(value: str, unit: str) -> float:
    return float(value) * UNITS[unit]


@dataclass
class WrkResult:
    requests: int
    seconds: float
    rate: float
    p50: float
    p99: float
    non2xx: int
    socket_errors: int
    socket_detail: str
    exhausted: int
    output: str

    def invalid(self) -> list[str]:
        why = []
        if not self.requests:
            why.append("no request answered")
        elif self.non2xx > INVALID_SHARE * self.requests:
            why.append(f"non-2xx {100 * self.non2xx / self.requests:.1f} %")
        if self.requests and self.socket_errors > INVALID_SHARE * self.requests:
            why.append(f"socket errors {100 * self.socket_errors / self.requests:.1f} %")
        if self.exhausted:
            why.append(f"games ran out in {self.exhausted} wrk thread(s)")
        return why


def parse_wrk(output: str) -> WrkResult:
    done = re.search(rf"^\s*(\d+) requests in {DURATION}", output, re.M)
    rate = re.search(r"^Requests/sec:\s+([\d.]+)", output, re.M)
    percentiles = {
        int(q): seconds_of(v, u)
        for q, v, u in re.findall(rf"^\s+(\d+)%\s+{DURATION}\s*$", output, re.M)
    }
    if not done or not rate:
        raise SystemExit(f"could not read wrk's output:\n{output}")
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sockets = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    socket_counts = [int(x) for x in sockets.groups()] if sockets else [0, 0, 0, 0]
    detail = ", ".join(
        f"{name} {n}"
        for name, n in zip(("connect", "read", "write", "timeout"), socket_counts, strict=True)
        if n
    )
    exhausted = re.search(r"threads_exhausted (\d+)", output)
    return WrkResult(
        requests=int(done.group(1)),
        seconds=seconds_of(done.group(2), done.group(3)),
        rate=float(rate.group(1)),
        p50=percentiles.get(50, math.nan),
        p99=percentiles.get(99, math.nan),
        non2xx=int(non2xx.group(1)) if non2xx else 0,
        socket_errors=sum(socket_counts),
        socket_detail=detail,
        exhausted=int(exhausted.group(1)) if exhausted else 0,
        output=output,
    )


class Wrk:
    """wrk runs, one at a time, each in a session of its own and bounded in time."""

    def __init__(self, threads: int, log_dir: Path) -> None:
        self.threads = threads
        self.log_dir = log_dir
        self.current: subprocess.Popen[str] | None = None
        self.runs = 0

    def run(
        self,
        url: str,
        connections: int,
        seconds: float,
        script_args: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> WrkResult:
        threads = min(self.threads, connections)
        # wrk takes whole seconds (it refuses "0.5s"): a fraction is rounded up; its figures
        # (requests, rate) are over the time it ran, which its output says.
        duration = max(1, math.ceil(seconds))
        argv = [
            "wrk", "-t", str(threads), "-c", str(connections), "-d", f"{duration}s",
            "--latency", "--timeout", WRK_TIMEOUT,
        ]  # fmt: skip
        if script_args is not None:
            argv += ["-s", str(LUA), url, "--", *script_args]
        else:
            argv.append(url)
        self.current = subprocess.Popen(
            argv, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        try:
            output, _ = self.current.communicate(timeout=duration + 30)
        finally:
            self.stop()
        self.runs += 1
        (self.log_dir / f"wrk-{self.runs:02d}.txt").write_text(" ".join(argv) + "\n" + output)
        if self.current is not None and self.current.returncode:
            raise SystemExit(f"wrk failed ({self.current.returncode}): {' '.join(argv)}\n{output}")
        return parse_wrk(output)

    def stop(self) -> None:
        if self.current is not None and self.current.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.current.pid, signal.SIGKILL)
            self.current.wait(timeout=5)


def settle(conn: Any, game_ids: list[str], seconds: float = 20) -> None:
    """When wrk stops, the requests it left in flight, and those waiting in gunicorn's listen queue,
    are still served and commit. Wait until none of ``game_ids`` has moved and no session of the
    bench database has been busy for half a second, so that the moves read back are all."""
    deadline = time.monotonic() + seconds
    last: tuple[int, int] | None = None
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        row = conn.execute(
            "SELECT (SELECT coalesce(sum(version), 0) FROM games_game WHERE id = ANY(%s::uuid[])),"
            " (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction'))",
            (game_ids,),
        ).fetchone()
        now = (int(row[0]), int(row[1])) if row else (0, 0)
        if now != last or now[1]:
            last, quiet_since = now, time.monotonic()
        elif time.monotonic() - quiet_since >= 0.5:
            return
        time.sleep(0.1)
