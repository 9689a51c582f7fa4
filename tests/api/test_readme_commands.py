"""The README's "A game with curl" runs as written against a live server: the block is read from
the README, only its address changed, and each curl is made to fail on an HTTP error (``-f``)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pytest_django.live_server_helper import LiveServer

README = Path(__file__).resolve().parents[2] / "README.md"
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl"),
]


def curl_block() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## A game with curl\n", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    return block.group(1)


def test_the_curl_walkthrough_plays_as_written(live_server: LiveServer) -> None:
    script = curl_block()
    assert "API=http://127.0.0.1:8000/api/v1" in script
    lines = []
    for line in script.splitlines():
        if "text/event-stream" in line:
            # The stream tier's (tests/streams); the live server here is the WSGI tier alone.
            continue
        lines.append(line.replace("curl -s ", "curl -sSf "))
    program = "set -euo pipefail\n" + "\n".join(lines) + '\necho "GAME=$GAME"\n'
    program = program.replace("http://127.0.0.1:8000", live_server.url)
    done = subprocess.run(
        ["bash", "-c", program], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr + done.stdout
    game_id = re.search(r"GAME=([0-9a-f-]{36})", done.stdout)
    assert game_id is not None

    from games.models import GameEvent

    types = list(
        GameEvent.objects.filter(game_id=game_id.group(1))
        .order_by("seq")
        .values_list("type", flat=True)
    )
    assert types[:4] == ["game_started", "dice_rolled", "dice_rolled", "box_scored"]
