"""Fixtures of the operations tests: log lines as the deployed handler writes them."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from config.observability import logs

JsonLines = Callable[[], list[dict[str, Any]]]


@pytest.fixture
def json_lines() -> Iterator[JsonLines]:
    """Every record written meanwhile, through settings.LOGGING's filter and JSON formatter,
    parsed back line by line; the access log on."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.ContextFilter())
    handler.setFormatter(logs.JsonFormatter())
    root = logging.getLogger()
    access = logging.getLogger("dice.access")
    levels = root.level, access.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    access.setLevel(logging.INFO)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)
        root.setLevel(levels[0])
        access.setLevel(levels[1])
