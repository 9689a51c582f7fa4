"""The native SSE stream reader (``bench/sse_reader.c``), spoken to as bench/streams.py speaks to
its Python reader: one object is both the reader process and its end of the pipe.

    reader = NativeReader(port, game_ids, count)   # or NativeReader(..., host=, batch=, ...)
    reader.start()                           # compiles once into var/bench/, starts the process
    opened = reader.recv()                   # {"opened", "failed", "seconds", "open_now", ...}
    reader.send({"do": "status"}); reader.recv()              # {"open_now", "events", "cpu"}
    reader.send({"do": "drain", "versions": {game_id: final_version}, "seconds": 15.0})
    report = reader.recv()   # {"open_now", "behind", "missing", "events", "keepalives", "gaps",
                             #  "dups", "dropped", "latencies": [(created_at, latency)], ...}
    reader.send({"do": "close"}); reader.recv()               # {"closed": True, "cpu"}
    reader.join(5); reader.cpu_seconds()

``poll(timeout)``, ``is_alive``, ``join``, ``terminate`` and ``pid`` are those of
``multiprocessing`` (``pid`` is the reader's own process: its CPU is counted in it alone). The
methods ``opened``, ``status``, ``drain`` and ``close`` do one exchange each. The drain's answer
also has ``reader_lags``: (created_at, seconds between the kernel's receipt of the event and the
reader's parsing of it), the part of each latency spent waiting for the reader itself.
"""

from __future__ import annotations

import array
import contextlib
import json
import math
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(__file__).resolve().with_name("sse_reader.c")
CACHE = ROOT / "var" / "bench"
OPEN_SECONDS = 180.0  # as bench/streams.py: a stream not open by then counts as failed


def build(cache: Path = CACHE) -> Path:
    """The reader's binary in ``cache``, compiled (``$CC``, else ``cc``) if the source is newer."""
    binary = cache / "sse_reader"
    if binary.exists() and binary.stat().st_mtime >= SOURCE.stat().st_mtime:
        return binary
    cache.mkdir(parents=True, exist_ok=True)
    partial = cache / f".sse_reader.{os.getpid()}"
    compiler = os.environ.get("CC", "cc")
    done = subprocess.run(
        [compiler, "-O2", "-o", str(partial), str(SOURCE)], capture_output=True, text=True
    )
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"{compiler} {SOURCE} failed:\n{done.stderr.strip()}")
    os.replace(partial, binary)  # atomic: two benches building at once both end with a binary
    return binary


class NativeReader:
    def __init__(
        self,
        port: int,
        games: Iterable[str],
        count: int,
        nofile: int | None = None,  # the reader raises its own limit: accepted, not needed
        *,
        host: str = "127.0.0.1",
        batch: int = 50,
        open_seconds: float = OPEN_SECONDS,
        timestamps: bool = True,
    ) -> None:
        self.where = [host, str(port)]
        self.count = count
        self.options = ["--batch", str(batch), "--open-seconds", str(open_seconds)]
        self.options += [] if timestamps else ["--no-timestamps"]
        self.games = list(games)
        self.dir: Path | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.eof = False
        self.drains = 0
        self.last_cpu = 0.0  # from the reader's last answer, for after it has exited

    # -- the process ---------------------------------------------------------------------------

    def start(self) -> None:
        binary = build()
        self.dir = Path(tempfile.mkdtemp(prefix="sse-reader-"))
        games_file = self.dir / "games"
        games_file.write_text("".join(f"{game}\n" for game in self.games))
        argv = [str(binary), *self.where, str(games_file), str(self.count), *self.options]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def is_alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def join(self, timeout: float | None = None) -> None:
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout)
            if self.proc.poll() is not None:
                self._cleanup()

    def terminate(self) -> None:
        if self.is_alive():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        if self.is_alive():
            assert self.proc is not None
            self.proc.kill()

    def cpu_seconds(self) -> float:
        """The reader's CPU (user + system seconds): from /proc while it runs, else as it last
        reported."""
        with contextlib.suppress(OSError, ValueError, TypeError):
            raw = Path(f"/proc/{self.pid}/stat").read_text()
            fields = raw[raw.rindex(")") + 2 :].split()
            self.last_cpu = max(
                self.last_cpu, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            )
        return self.last_cpu

    def _cleanup(self) -> None:
        if self.proc is not None:
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    # -- the pipe ------------------------------------------------------------------------------

    def send(self, command: dict[str, Any]) -> None:
        """``{"do": "status" | "drain" | "close"}``, as the Python reader's pipe takes them."""
        assert self.proc is not None and self.proc.stdin is not None and self.dir is not None
        do = command["do"]
        if do == "drain":
            self.drains += 1
            versions = self.dir / f"versions.{self.drains}"
            lines = [f"{game} {int(version)}\n" for game, version in command["versions"].items()]
            versions.write_text("".join(lines))
            latencies = self.dir / f"latencies.{self.drains}"
            line = f"drain {float(command['seconds'])} {versions} {latencies}\n"
        elif do in ("status", "close"):
            line = f"{do}\n"
        else:
            raise ValueError(f"unknown command: {do}")
        self.proc.stdin.write(line.encode())
        self.proc.stdin.flush()

    def poll(self, timeout: float | None = 0.0) -> bool:
        """True when an answer (or the end of the reader) is there to ``recv``."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer and not self.eof:
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return False
            chunk = os.read(fd, 1 << 16)
            self.buffer += chunk
            self.eof = not chunk
        return True

    def recv(self) -> dict[str, Any]:
        self.poll(None)
        if b"\n" not in self.buffer:
            code = self.proc.wait() if self.proc is not None else None
            raise EOFError(f"the native reader exited (status {code})")
        line, self.buffer = self.buffer.split(b"\n", 1)
        answer: dict[str, Any] = json.loads(line)
        if "cpu" in answer:
            self.last_cpu = answer["cpu"]["user"] + answer["cpu"]["system"]
        if "latencies_file" in answer:
            path = Path(answer.pop("latencies_file"))
            values = array.array("d")
            with contextlib.suppress(FileNotFoundError):
                values.frombytes(path.read_bytes())
                path.unlink()
            created, latency, lag = values[0::3], values[1::3], values[2::3]
            answer["latencies"] = list(zip(created, latency, strict=True))
            answer["reader_lags"] = [
                (c, x) for c, x in zip(created, lag, strict=True) if not math.isnan(x)
            ]
        return answer

    # -- one exchange each ---------------------------------------------------------------------

    def opened(self, timeout: float = OPEN_SECONDS + 60) -> dict[str, Any]:
        if self.proc is None:
            self.start()
        if not self.poll(timeout):
            raise TimeoutError(f"the native reader did not report in {timeout:.0f} s")
        return self.recv()

    def status(self) -> dict[str, Any]:
        self.send({"do": "status"})
        return self.recv()

    def drain(self, versions: dict[str, int], seconds: float) -> dict[str, Any]:
        self.send({"do": "drain", "versions": versions, "seconds": seconds})
        return self.recv()

    def close(self, timeout: float = 30.0) -> dict[str, Any]:
        """Closes every stream; the reader exits."""
        answer: dict[str, Any] = {}
        with contextlib.suppress(OSError, EOFError, AssertionError):
            self.send({"do": "close"})
            if self.poll(timeout):
                answer = self.recv()
        self.join(timeout)
        if self.is_alive():
            self.kill()
            self.join(5)
        return answer

    def __enter__(self) -> NativeReader:
        return self

    def __exit__(self, *_: object) -> None:
        if self.is_alive():
            self.close()
        self._cleanup()
