"""`make run` and `make serve` supervise their processes (config/deploy/supervise.py): every line
of both Procfiles is a program supervisor restarts; a process killed is started again, alone; one
that cannot start stops them all with exit status 1; a SIGTERM stops them all.

The live tests run supervise.py on Procfiles of their own (a sleeping python, sh), in a second
or two each, and kill only the processes they started."""

from __future__ import annotations

import configparser
import contextlib
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from config.deploy import supervise

DEPLOY = Path(supervise.__file__).resolve().parent
SCRIPT = DEPLOY / "supervise.py"
UP = re.compile(r"sleeper up (\d+)\n")


def programs(text: str) -> dict[str, configparser.SectionProxy]:
    config = configparser.RawConfigParser()
    config.read_string(text)
    return {
        name.removeprefix("program:"): config[name]
        for name in config.sections()
        if name.startswith("program:")
    }


@pytest.mark.parametrize("name", ["Procfile", "Procfile.serve"])
def test_every_process_of_the_procfile_is_supervised(name: str, tmp_path: Path) -> None:
    lines = supervise.procfile((DEPLOY / name).read_text())
    assert lines
    found = programs(supervise.render(lines, tmp_path))
    assert set(found) == set(lines)
    for program, line in lines.items():
        section = found[program]
        # supervisord reads %% as %; sh then runs the line as the Procfile wrote it.
        command = shlex.split(section["command"].replace("%%", "%"))
        assert command == ["/bin/sh", "-c", f"exec {line}"]
        assert section["autorestart"] == "true"
        assert section["stopasgroup"] == section["killasgroup"] == "true"
        assert section["stdout_logfile"] == "/dev/stdout"


def wait_for(predicate: Callable[[], bool], polls: int = 300) -> None:
    """Every 0.1 s until ``predicate()`` holds; ``polls`` of them is the time-out."""
    for _poll in range(polls):
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("never happened")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError):
        return stat.read_text().split(") ")[1][0] != "Z"  # a zombie is gone, unreaped
    return False


class Supervised:
    """supervise.py on ``procfile``, its output (both streams) in a file opened as a test's
    Process opens its log: without O_APPEND."""

    def __init__(self, procfile: str, folder: Path) -> None:
        (folder / "Procfile").write_text(procfile)
        self.log = folder / "output.log"
        env = {**os.environ, "SUPERVISE_TEST": "from-the-environment"}
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        with self.log.open("wb") as out:
            self.popen = subprocess.Popen(
                [sys.executable, str(SCRIPT), str(folder / "Procfile"), str(folder / "run")],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def sleepers(self) -> list[int]:
        return [int(pid) for pid in UP.findall(self.text())]

    def end(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Supervised]:
    procfile = (
        "# one sleeping python, and a line with a literal % and a ${NAME:-default}\n"
        "sleeper: python -c \"import os, time; print('sleeper up', os.getpid(), flush=True); "
        'time.sleep(600)"\n'
        "literal: sh -c 'echo \"at 100% ${SUPERVISE_TEST:-unset}\"; exec sleep 600'\n"
    )
    started = Supervised(procfile, tmp_path)
    try:
        yield started
    finally:
        started.end()


@pytest.mark.slow
def test_a_process_killed_is_started_again_and_sigterm_stops_all(stack: Supervised) -> None:
    wait_for(lambda: len(stack.sleepers()) == 1)
    first = stack.sleepers()[0]
    os.kill(first, signal.SIGKILL)  # a process of the test's own making

    wait_for(lambda: len(stack.sleepers()) == 2)
    second = stack.sleepers()[1]
    assert second != first and alive(second)
    text = stack.text()
    assert "exited: sleeper (terminated by SIGKILL; not expected)" in text
    assert "at 100% from-the-environment" in text
    assert text.count("spawned: 'literal'") == 1  # the other process was left alone

    os.kill(stack.popen.pid, signal.SIGTERM)
    assert stack.popen.wait(timeout=30) == 0
    assert not alive(second)


@pytest.mark.slow
def test_a_process_that_cannot_start_stops_the_stack_loudly(tmp_path: Path) -> None:
    procfile = "steady: sleep 600\nbroken: sh -c 'echo broken on start; exit 3'\n"
    stack = Supervised(procfile, tmp_path)
    try:
        status = stack.popen.wait(timeout=120)
        text = stack.text()
    finally:
        stack.end()
    assert status == 1
    assert text.count("broken on start") == 1 + supervise.START_RETRIES
    assert "supervise: broken could not start; stopping every process" in text
    assert "stopped: steady" in text
