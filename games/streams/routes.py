"""Which requests the stream tier serves. ``config/deploy/nginx.conf.template`` routes by the same
rule, and ``config.asgi`` (one process for ``make run``) too: keep the three in step."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

PREFIX = "/api/v1/"
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
PLAYER_STREAM = re.compile(rf"^{PREFIX}stream/$")
GAME_PATH = re.compile(rf"^{PREFIX}games/(?P<game>{_UUID})/(?P<what>stream|events)/$")


def wants_event_stream(headers: dict[str, str]) -> bool:
    return "text/event-stream" in headers.get("accept", "")


def is_stream_request(path: str, query_string: bytes, headers: dict[str, str]) -> bool:
    if PLAYER_STREAM.match(path):
        return True
    match = GAME_PATH.match(path)
    if match is None:
        return False
    if match["what"] == "stream" or wants_event_stream(headers):
        return True
    # A long-poll: ``wait`` given and not zero (a bad value is this tier's 400 to give).
    wait = (parse_qs(query_string.decode("latin-1")).get("wait") or [""])[-1].strip()
    return wait not in ("", "0", "0.0")
