"""A whole server for the browser tests, as `make run` starts it: the web process (uvicorn,
config.asgi: the API, the streams and the static files on one port), a Celery worker (computer
moves) and the timers process (the yatzy auto-confirm), on a fresh SQLite database of its own.

The broker is the environment's Redis when REDIS_URL is set (a live bus and timers' key of this
server's own), else files under var/broker, as `make run`. Either way its tasks go to a queue of
this server's own (CELERY_QUEUE), which only its worker reads: another worker on the same Redis
database (or `make run`'s, on the same files) cannot take its tasks, nor it theirs, and tasks
left over from an earlier run are not delivered to it. The queue is deleted when it stops.

Run by hand to try the client: `.venv/bin/python -m tests.webclient.live 8700`.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(Path(sys.executable))
BIN = Path(sys.executable).parent


class LiveServer:
    def __init__(self, port: int, workdir: Path) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.workdir = workdir
        name = uuid.uuid4().hex[:8]
        self.env = {
            **os.environ,
            "DEBUG": "true",
            "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
            "LIVE_CHANNEL_PREFIX": f"webclient-{name}",
            "TIMERS_KEY": f"webclient:{name}:timers",
            "CELERY_QUEUE": f"webclient-{name}",
            "THROTTLE_ANON": "1000000/min",
            "THROTTLE_USER": "1000000/min",
            "THROTTLE_AUTH": "1000000/min",
            # Slow enough that a watcher sees the computer's dice, fast enough for a whole game.
            "COMPUTER_MOVE_DELAY": "0.2",
            # Its new accounts seek rated games at once (the minimum of finished games a rated
            # seek asks for is tests/api/test_rated_play.py's).
            "RATED_MIN_FINISHED_GAMES": "0",
            # A player rated after one game is on the leaderboard (its names link to their pages).
            "LEADERBOARD_MAX_DEVIATION": "350",
            # The replay stepped through position by position (the analysis page).
            "THROTTLE_EXPENSIVE": "1000000/min",
            "LOG_FORMAT": "text",
        }
        self.env.pop("CELERY_BROKER_URL", None)
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self) -> None:
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )
        subprocess.run([PYTHON, "manage.py", "build_ai_tables"], cwd=ROOT, env=self.env, check=True)
        commands = {
            "web": [
                str(BIN / "uvicorn"),
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            "worker": [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--queues",
                self.env["CELERY_QUEUE"],
                "--pool",
                "solo",
                "--loglevel",
                "WARNING",
                "--hostname",
                f"webclient-{self.port}@%h",
            ],
            "timers": [PYTHON, "manage.py", "run_timers"],
        }
        for name, command in commands.items():
            log = (self.workdir / f"{name}.log").open("wb")
            self.processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"a server process exited: {self.logs()}")
            with contextlib.suppress(OSError):
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/health/live")
                if conn.getresponse().status == 200:
                    return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer: {self.logs()}")

    def manage(self, *args: str) -> str:
        """A management command against this server's database; its output."""
        done = subprocess.run(
            [PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, check=True, capture_output=True
        )
        return done.stdout.decode()

    def logs(self) -> str:
        return "\n".join(
            f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}"
            for log in sorted(self.workdir.glob("*.log"))
        )

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        self._drop_queue()

    def _drop_queue(self) -> None:
        """Delete this server's queue from Redis (its list, kombu's priority lists and binding),
        so that runs leave nothing behind in a shared database."""
        url = self.env.get("REDIS_URL")
        if not url:
            return
        import redis

        queue = self.env["CELERY_QUEUE"]
        with contextlib.suppress(redis.RedisError), redis.Redis.from_url(url) as client:
            keys = [*client.scan_iter(match=f"{queue}*"), f"_kombu.binding.{queue}"]
            client.delete(*keys)


if __name__ == "__main__":
    server = LiveServer(int(sys.argv[1]), Path(tempfile.mkdtemp(prefix="webclient-")))
    # Background jobs ignore SIGINT: stop on SIGTERM too, through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server.start()
    print(server.url, server.workdir, flush=True)
    try:
        signal.pause()
    finally:
        server.stop()
