"""One machine's processes, each started on its own so that a fault test can kill one and start
it again, as a supervisor would.

`make serve` runs the web tier's three processes (config/deploy/Procfile.serve: the proxy, the
WSGI tier, the stream tier) under honcho, which stops them all when one dies: here each is its own
process, with the command line of that Procfile and the environment `make serve` gives it. The
Celery worker, the timers process and beat come from config/deploy/Procfile, as
tests/serving/stacks.py runs them. ``Machine`` is that module's ``Stack`` with these processes
and ``kill``/``restart``; every run of a process writes a log file of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

from django.db import connection

from tests.serving.stacks import PROCFILE, ROOT, Process, Stack, procfile

PROCFILE_SERVE = PROCFILE.with_name("Procfile.serve")
WEB = ("proxy", "api", "streams")


def server_env(run: str, **overrides: str) -> dict[str, str]:
    """The environment of every process of a test machine, on the test's database: this run's
    own live bus, timers, lease and queue, so that nothing another run left (or another test on
    the same Redis) is read, fired, held or taken."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "SECRET_KEY": "reliability-test-secret-key-0123456789-abcdefghijklmnop",
        "DEBUG": "false",
        "LOG_FORMAT": "json",
        "THROTTLE_ANON": "1000000/s",
        "THROTTLE_USER": "1000000/s",
        "STREAM_OPENS_PER_MINUTE": "1000000",
        "STREAMS_PER_ADDRESS": "1000",
        "STREAMS_PER_ACCOUNT": "100",
        "WEB_CONCURRENCY": "2",
        "STREAM_WORKERS": "1",
        "DB_POOL_MAX": "4",
        "LIVE_CHANNEL_PREFIX": f"test-reliability:{run}",
        "TIMERS_KEY": f"test-reliability:{run}:timers",
        "BEAT_LEASE_KEY": f"test-reliability:{run}:beat",
        "CELERY_QUEUE": f"test-reliability-{run}",
        **overrides,
    }
    for name in ("METRICS_PORT", "CELERY_BROKER_URL"):
        env.pop(name, None)
    return env


def new_run() -> str:
    return uuid.uuid4().hex[:8]


class Machine(Stack):
    """A ``Stack`` whose web tier is its three processes (``proxy``, ``api``, ``streams``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.runs: dict[str, list[Process]] = {}
        self.nginx_dir = self.folder / f"nginx-{self.name}"

    def web_env(self) -> dict[str, str]:
        """What `make serve` adds to the environment of the web tier's processes."""
        port = self.port
        return {
            "TRUSTED_PROXIES": self.env.get("TRUSTED_PROXIES", "1"),
            "PROMETHEUS_MULTIPROC_DIR": str(self.folder / f"prometheus-{self.name}"),
            "LISTEN": f"127.0.0.1:{port}",
            "API_BIND": f"127.0.0.1:{port + 1}",
            "API_UPSTREAM": f"127.0.0.1:{port + 1}",
            "STREAMS_PORT": str(port + 2),
            "STREAMS_UPSTREAM": f"127.0.0.1:{port + 2}",
            "STATIC_ROOT": str(ROOT / "var" / "static"),
            "NGINX_WORKERS": "1",
            "NGINX_DIR": str(self.nginx_dir),
        }

    def commands(self) -> dict[str, list[str]]:
        serve = procfile(PROCFILE_SERVE)
        others = procfile()
        queue = self.env.get("CELERY_QUEUE", "celery")
        worker = others["worker"].replace("worker@%h", f"worker-{self.name}@%h")
        worker = worker.replace("--queues celery", f"--queues {queue}")
        beat = others["beat"].replace("var/celerybeat-schedule", str(self.folder / "beat-schedule"))
        # As honcho runs a Procfile's line: by the shell, which fills in ${NAME:-default}.
        return {
            **{name: ["sh", "-c", f"exec {serve[name]}"] for name in WEB},
            "worker": ["sh", "-c", f"exec {worker}"],
            "timers": ["sh", "-c", f"exec {others['timers']}"],
            "beat": ["sh", "-c", f"exec {beat}"],
        }

    def env_of(self, name: str) -> dict[str, str]:
        path = f"{Path(sys.executable).parent}{os.pathsep}{self.env.get('PATH', '')}"
        web = self.web_env() if name in WEB else {}
        return {**self.env, **web, "PATH": path, **self.extra_env.get(name, {})}

    def start(self) -> None:
        # `make serve`'s preparation: the proxy's files, an empty metrics folder.
        web = self.env_of("proxy")
        Path(web["PROMETHEUS_MULTIPROC_DIR"]).mkdir(parents=True, exist_ok=True)
        script = ROOT / "config" / "deploy" / "render_nginx.py"
        subprocess.run(
            [sys.executable, str(script), str(self.nginx_dir)], cwd=ROOT, env=web, check=True
        )
        for name in self.commands():
            self.launch(name)

    def launch(self, name: str) -> Process:
        """Start ``name`` (again): its n-th run logs to ``<machine>-<name>.<n>.log``."""
        runs = self.runs.setdefault(name, [])
        log = self.folder / f"{self.name}-{name}.{len(runs) + 1}.log"
        process = Process(f"{self.name}-{name}", self.commands()[name], self.env_of(name), log)
        runs.append(process)
        self.processes[name] = process
        return process

    def kill(self, *names: str) -> None:
        """SIGKILL each of ``names`` and all it forked, as when a machine dies."""
        for name in names:
            self.processes[name].kill()

    def restart(self, *names: str) -> None:
        """Start each of ``names`` again, dead, with its command: as a supervisor would."""
        for name in names:
            assert not self.processes[name].alive(), name
            self.launch(name)

    def text(self, name: str) -> str:
        """The logs of every run of ``name``, oldest first."""
        return "".join(process.text() for process in self.runs.get(name, []))
