"""A Redis server of a test's own, which the test may kill and start again: the machine's shared
Redis is never stopped or flushed. It keeps nothing on disk, so a restart is a Redis that comes
back empty, as one without persistence does after a crash."""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

PORTS = range(6390, 6400)


def available() -> bool:
    return shutil.which("redis-server") is not None


def free_port(ports: range = PORTS) -> int:
    for port in ports:
        with socket.socket() as probe:
            # As redis-server binds: a port whose last connections wait out TIME_WAIT is free.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port for a Redis server in {ports.start}-{ports.stop - 1}")


class RedisServer:
    """``redis-server`` on ``port`` of loopback, without persistence."""

    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self, seconds: float = 10) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited:\n{self.log.read_text()[-2000:]}")
            time.sleep(0.05)
        raise RuntimeError(f"redis-server never listened on {self.port}")

    def kill(self) -> None:
        """As a machine dies: SIGKILL, nothing written anywhere."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None


@contextlib.contextmanager
def private_redis(folder: Path) -> Iterator[RedisServer]:
    server = RedisServer(free_port(), folder / "redis-server.log")
    server.start()
    try:
        yield server
    finally:
        server.kill()
