"""A PostgreSQL server of a test's own, to stop and start under a running stack: never the
machine's shared one. Made with the machine's server programs (Debian's
``/usr/lib/postgresql/<version>/bin``) in a folder of its own, trust authentication, on a free
port of 5440-5449 on loopback; run as the ``postgres`` account when the test runs as root (the
server refuses root).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

PORTS = range(5440, 5450)
OWNER = "postgres"


def server_programs() -> Path | None:
    """The newest server's ``bin`` folder, or None where no server is installed."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=_version)
    return found[-1].parent if found else None


def _version(pg_ctl: Path) -> tuple[int, ...]:
    name = pg_ctl.parent.parent.name
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def missing() -> str | None:
    """Why a private server cannot be made here, or None."""
    if server_programs() is None:
        return "needs PostgreSQL's server programs (apt-get install postgresql)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "needs runuser to run the server as postgres"
    return None


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


class PrivateServer:
    """One cluster: ``start``, ``stop`` (a mode of ``pg_ctl stop``), ``url`` of a database."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.log = folder / "server.log"
        self.port = port
        programs = server_programs()
        assert programs is not None
        self.bin = programs

    def _run(self, program: str, *args: str, timeout: float = 120) -> None:
        command = [str(self.bin / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", OWNER, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=timeout)

    def create(self) -> None:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def start(self) -> None:
        """Start and wait until it accepts connections."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> None:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)


@contextlib.contextmanager
def private_server() -> Iterator[PrivateServer]:
    """A new cluster, started; stopped at once and removed after."""
    # Not under pytest's tmp_path: that is root's alone, and the server runs as postgres.
    folder = Path(tempfile.mkdtemp(prefix="dice-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, OWNER, OWNER)
    server = PrivateServer(folder, free_port())
    try:
        server.create()
        server.start()
        yield server
    finally:
        with contextlib.suppress(subprocess.SubprocessError):
            server.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)
