"""Behind PgBouncer in transaction pooling (``DB_PGBOUNCER=true``): the tests that hold the move
path, the event store's concurrency and the stream tier's reads pass through a real PgBouncer.

A nested pytest run against a PgBouncer started here (a handful of server connections, so that
transactions of different clients do share them). Needs PostgreSQL and the pgbouncer binary
(CI installs it); skipped where either is missing.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = [
    "tests/reliability/test_event_store.py",
    "tests/api/test_yatzy_games.py",
    "tests/streams/test_streams.py",
]
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(shutil.which("pgbouncer") is None, reason="needs pgbouncer"),
    pytest.mark.skipif(os.environ.get("DICE_NESTED_RUN") == "1", reason="no run inside the run"),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """PgBouncer refuses to run as root: as root, it runs as the ``postgres`` user, which must
    read its configuration and write its log (pytest's own temporary folders are private)."""
    folder = Path(tempfile.mkdtemp(prefix="dice-pgbouncer-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_move_path_and_the_streams_work_behind_pgbouncer(shared_dir: Path) -> None:
    tmp_path = shared_dir
    server = psycopg.conninfo.conninfo_to_dict(
        os.environ["DATABASE_URL"].replace("postgres://", "postgresql://", 1)
    )
    host, port, user = server.get("host", "127.0.0.1"), server.get("port", "5432"), server["user"]
    # Named after this run's own database: runs of other checkouts on the machine keep theirs.
    name = f"{server.get('dbname') or 'dice'}_pgbouncer"
    admin = f"host={host} port={port} user={user} dbname=postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS test_{name} WITH (FORCE)")

    listen = free_port()
    (tmp_path / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host={host} port={port}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {listen}\n"
        f"unix_socket_dir =\nauth_type = trust\nauth_file = {tmp_path / 'users.txt'}\n"
        "pool_mode = transaction\ndefault_pool_size = 4\nmax_client_conn = 500\n"
        "ignore_startup_parameters = extra_float_digits,options\n"
        f"logfile = {tmp_path / 'pgbouncer.log'}\npidfile = {tmp_path / 'pgbouncer.pid'}\n"
    )
    (tmp_path / "users.txt").write_text(f'"{user}" ""\n')
    for written in tmp_path.iterdir():
        written.chmod(0o644)
    bouncer = subprocess.Popen(
        ["pgbouncer", str(tmp_path / "pgbouncer.ini")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        user="postgres" if os.geteuid() == 0 else None,
    )
    try:
        for _ in range(50):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", listen)) == 0:
                    break
            assert bouncer.poll() is None, (tmp_path / "pgbouncer.log").read_text()
            time.sleep(0.1)
        env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{user}@127.0.0.1:{listen}/{name}",
            "DB_PGBOUNCER": "true",
            "DICE_NESTED_RUN": "1",
        }
        nested = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "--reuse-db",
                *MODULES,
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        report = nested.stdout[-4000:] + nested.stderr[-2000:]
        assert nested.returncode == 0, report
        assert " passed" in nested.stdout and " failed" not in nested.stdout, report
    finally:
        os.killpg(bouncer.pid, signal.SIGTERM)
        bouncer.wait(timeout=10)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS test_{name} WITH (FORCE)")
