"""Whole stacks of the service's processes, as one machine runs them, for the serving tests.

A stack is the web tier as `make serve` starts it (nginx in front of gunicorn and the stream tier,
on PORT, PORT+1 and PORT+2) and the three other processes of ``config/deploy/Procfile`` (the
Celery worker, the timers process, beat), run with the Procfile's own command lines: only the
worker's node name and beat's schedule file are made the stack's own, as two machines would have
them. Every process writes its output to a file of the test's folder.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from config.deploy import supervise

ROOT = Path(__file__).resolve().parents[2]
PROCFILE = ROOT / "config" / "deploy" / "Procfile"


def procfile(path: Path = PROCFILE) -> dict[str, str]:
    """The Procfile's commands by process name, read as `make run` and `make serve` read it."""
    return supervise.procfile(path.read_text())


def free_base_ports(count: int, first: int = 8600, last: int = 8700) -> list[int]:
    """``count`` ports P, each with P, P+1 and P+2 free (a web tier's proxy, gunicorn, streams)."""
    found: list[int] = []
    for base in range(first, last - 2, 10):
        try:
            for port in (base, base + 1, base + 2):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        found.append(base)
        if len(found) == count:
            return found
    raise RuntimeError(f"not {count} free groups of ports in {first}-{last}")


def family(root: int) -> list[int]:
    """``root`` and every process below it, from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    found = [root]
    for pid in found:
        found += [child for child, parent in parents.items() if parent == pid]
    return found


class Process:
    """One command in a session of its own (so that it and all it forks stop together)."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.log = log
        self.popen = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        """As a machine dies: no clean shutdown, nothing given back."""
        for pid in family(self.popen.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM to its group; whatever outlives it (supervisor starts each of its processes in
        a group of its own) is killed by pid."""
        descendants = family(self.popen.pid)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=20)
        for pid in descendants:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)


class Stack:
    """One machine's processes: ``web`` on ``port`` (and the next two), ``worker``, ``timers``
    and ``beat``; ``extra_env`` by process name on top of ``env``."""

    def __init__(
        self,
        name: str,
        port: int,
        env: dict[str, str],
        folder: Path,
        extra_env: dict[str, dict[str, str]] | None = None,
    ) -> None:
        self.name = name
        self.port = port
        self.env = env
        self.folder = folder
        self.extra_env = extra_env or {}
        self.processes: dict[str, Process] = {}
        self.requests = 0
        self._count = threading.Lock()

    def commands(self) -> dict[str, list[str]]:
        lines = procfile()
        worker = lines["worker"].replace("worker@%h", f"worker-{self.name}@%h")
        beat = lines["beat"].replace("var/celerybeat-schedule", str(self.folder / "beat-schedule"))
        return {
            "web": ["make", "serve", f"PORT={self.port}"],
            "worker": shlex.split(worker),
            "timers": shlex.split(lines["timers"]),
            "beat": shlex.split(beat),
        }

    def start(self) -> None:
        # The Procfile's commands name the virtualenv's programs (python, celery) by name.
        path = f"{Path(sys.executable).parent}{os.pathsep}{self.env.get('PATH', '')}"
        for process, command in self.commands().items():
            env = {**self.env, "PATH": path, **self.extra_env.get(process, {})}
            log = self.folder / f"{self.name}-{process}.log"
            self.processes[process] = Process(f"{self.name}-{process}", command, env, log)

    def wait_ready(self, seconds: float = 120) -> None:
        """Until the web tier answers and the worker and the timers process say they are ready."""
        deadline = time.monotonic() + seconds
        waiting = {"web", "worker", "timers"}
        while waiting and time.monotonic() < deadline:
            for process in self.processes.values():
                if not process.alive():
                    raise AssertionError(f"{process.name} exited:\n{process.text()[-3000:]}")
            if "web" in waiting:
                with contextlib.suppress(OSError, ValueError):
                    if self.request("GET", "/health/live", count=False)[0] == 200:
                        waiting.discard("web")
            for name in ("worker", "timers"):
                if name in waiting and "ready" in self.processes[name].text():
                    waiting.discard(name)
            time.sleep(0.3)
        if waiting:
            raise AssertionError(f"{self.name}: {sorted(waiting)} never ready\n{self.logs()}")

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str = "",
        timeout: float = 30,
        count: bool = True,
    ) -> tuple[int, Any]:
        if count:
            with self._count:
                self.requests += 1
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        try:
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        return response.status, json.loads(data) if data else None

    def logs(self, tail: int = 2000) -> str:
        return "\n".join(
            f"--- {process.name} ---\n{process.text()[-tail:]}"
            for process in self.processes.values()
        )

    def stop(self) -> None:
        for process in self.processes.values():
            process.stop()
