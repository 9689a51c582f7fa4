"""Run the processes of a Procfile under supervisor, for `make run` and `make serve`: a process
that dies is started again; one that cannot start at all (``START_RETRIES`` quick exits) stops the
whole stack with exit status 1. Each line runs under ``sh -c`` for its ``${NAME:-default}``.

Usage: ``python config/deploy/supervise.py PROCFILE FOLDER``; ``--listen FOLDER`` is the event
listener that stops the stack when a process goes FATAL.
"""

from __future__ import annotations

import fcntl
import os
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 2  # a quicker exit is a failed start
START_RETRIES = 3  # failed starts in a row before a process is FATAL: then all stop
STOP_SECONDS = 10  # after SIGTERM, before the process's group is killed
FATAL_MARK = "fatal"


def procfile(text: str) -> dict[str, str]:
    lines = (line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {name.strip(): cmd.strip() for name, cmd in lines if not name.lstrip().startswith("#")}


def _escaped(text: str) -> str:
    # supervisord fills in %(name)s expansions in its values: a literal % is written %%.
    return text.replace("%", "%%")


def render(processes: dict[str, str], folder: Path, python: str = sys.executable) -> str:
    """supervisord.conf for ``processes`` (name: command line), its files in ``folder``."""
    out = ["/dev/stdout", "0"]  # a log file that is this process's output, never rotated
    sections = [
        "[supervisord]",
        "nodaemon=true",
        "silent=true",
        f"user={os.getuid()}",
        f"logfile={out[0]}",
        f"logfile_maxbytes={out[1]}",
        f"pidfile={_escaped(str(folder / 'supervisord.pid'))}",
        f"childlogdir={_escaped(str(folder))}",
        "loglevel=info",
        "",
    ]
    for name, command in processes.items():
        sections += [
            f"[program:{name}]",
            f"command=/bin/sh -c {_escaped(shlex.quote('exec ' + command))}",
            f"directory={_escaped(str(ROOT))}",
            "autorestart=true",
            f"startsecs={START_SECONDS}",
            f"startretries={START_RETRIES}",
            f"stopwaitsecs={STOP_SECONDS}",
            "stopasgroup=true",
            "killasgroup=true",
            "redirect_stderr=true",
            f"stdout_logfile={out[0]}",
            f"stdout_logfile_maxbytes={out[1]}",
            "",
        ]
    listener = [python, str(Path(__file__).resolve()), "--listen", str(folder)]
    sections += [
        "[eventlistener:stop-on-fatal]",
        f"command={_escaped(shlex.join(listener))}",
        "events=PROCESS_STATE_FATAL",
        # Its standard output is the protocol's channel.
        "stderr_logfile=/dev/stderr",
        "stderr_logfile_maxbytes=0",
        "",
    ]
    return "\n".join(sections)


def listen(folder: Path, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
    """supervisor's event listener: at the first FATAL process, mark it and stop supervisord."""
    while True:
        stdout.write("READY\n")
        stdout.flush()
        header_line = stdin.readline()
        if not header_line:
            return
        header = dict(item.split(":", 1) for item in header_line.split())
        payload = stdin.read(int(header["len"]))
        fields = dict(item.split(":", 1) for item in payload.split("\n", 1)[0].split())
        stdout.write("RESULT 2\nOK")
        stdout.flush()
        if header.get("eventname") == "PROCESS_STATE_FATAL":
            name = fields.get("processname", "?")
            print(f"supervise: {name} could not start; stopping every process", file=sys.stderr)
            (folder / FATAL_MARK).write_text(name)
            os.kill(os.getppid(), signal.SIGTERM)


def run(procfile_path: Path, folder: Path) -> int:
    """supervisord on the Procfile, until it stops; 1 if a process could not start."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / FATAL_MARK).unlink(missing_ok=True)
    conf = folder / "supervisord.conf"
    conf.write_text(render(procfile(procfile_path.read_text()), folder.resolve()))
    supervisord = shutil.which("supervisord") or str(Path(sys.executable).parent / "supervisord")
    # supervisord writes through its own opening of /dev/stdout and through the inherited one: on
    # a file opened without O_APPEND their offsets would differ and each write over the others.
    for fd in (sys.stdout.fileno(), sys.stderr.fileno()):
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
    child = subprocess.Popen([supervisord, "-c", str(conf)])

    # A signal to this process alone is passed on; a hang-up stops too (to supervisord it would
    # mean "read your file again").
    def forward(signum: int, _frame: object) -> None:
        child.send_signal(signal.SIGINT if signum == signal.SIGINT else signal.SIGTERM)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)
    status = child.wait()
    return 1 if (folder / FATAL_MARK).exists() else status


if __name__ == "__main__":
    if sys.argv[1] == "--listen":
        listen(Path(sys.argv[2]))
    else:
        sys.exit(run(Path(sys.argv[1]), Path(sys.argv[2])))
