"""bench/wrk_moves.lua, the moves wrk plays for serve.py and streams.py: each game's moves in
order from its count, from the first request wrk sends to the last of the game, against a server
that records them.

wrk 4.1 calls thread 0's ``request()`` once before the run, to check what it returns, and never
sends that: the script must not count it as a move (it did, and thread 0's first game then ran a
move ahead of its counter, its rolls refused whenever it stood at its third roll).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "wrk_moves.lua"
BOXES = [
    "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
    "full_house", "small_straight", "large_straight", "chance", "yatzy",
]  # fmt: skip

pytestmark = pytest.mark.skipif(shutil.which("wrk") is None, reason="needs wrk (apt-get wrk)")


class Recorder(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.moves: dict[str, list[dict[str, Any]]] = {}
        self.lock = threading.Lock()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # wrk drops its connections when its time is up: only another error is worth a trace
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the servers wrk plays against
    disable_nagle_algorithm = True  # an answer in two writes would wait for the delayed ACK
    server: Recorder

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.server.lock:
            self.server.moves.setdefault(self.path, []).append(body)
        self.answer(201)

    def do_GET(self) -> None:
        self.answer(200)

    def answer(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    server = Recorder()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def expected(made: int) -> list[dict[str, Any]]:
    """A one-seat game's moves from its ``made``-th to its last: roll, roll, roll, score the
    turn's box, in sheet order."""
    return [
        {"type": "score", "box": BOXES[c // 4]} if c % 4 == 3 else {"type": "roll"}
        for c in range(made, 4 * len(BOXES))
    ]


@pytest.mark.parametrize("threads", [1, 2])
def test_every_game_gets_its_moves_in_order_from_the_first(
    recorder: Recorder, tmp_path: Path, threads: int
) -> None:
    made = {"/g/a/": 0, "/g/b/": 5, "/g/c/": 3, "/g/d/": 50}
    paths = list(made)
    for thread in range(threads):
        mine = paths[thread::threads]
        (tmp_path / f"games.{thread}").write_text("".join(f"{p} - {made[p]}\n" for p in mine))
    port = recorder.server_address[1]
    done = subprocess.run(
        ["wrk", "-t", str(threads), "-c", str(threads), "-d", "3s", "-s", str(SCRIPT),
         f"http://127.0.0.1:{port}", "--", str(tmp_path / "games"), "project", "1"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    for path, count in made.items():
        assert recorder.moves.get(path) == expected(count), path
    # every game played to its end, then each thread, out of games, stopped
    total = sum(len(expected(count)) for count in made.values())
    assert f"moves: sent {total} games_finished 4 threads_exhausted {threads}" in done.stdout
