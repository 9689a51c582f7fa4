"""The process's one Redis client, and a batch that sends several commands in one round trip, not a
transaction: a failure is logged, never raised (streams re-read the log, the sweep fires a lost
timer).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def redis_client() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


class CommandBatch:
    def __init__(self) -> None:
        self._commands: list[tuple[str, tuple[Any, ...]]] = []

    def add(self, on_failure: str, *command: Any) -> None:
        """Queue one command; ``on_failure`` is logged should it not run."""
        self._commands.append((on_failure, command))

    def send(self) -> None:
        commands, self._commands = self._commands, []
        if not commands:
            return
        try:
            pipe = redis_client().pipeline(transaction=False)
            for _failure, command in commands:
                pipe.execute_command(*command)
            results = pipe.execute(raise_on_error=False)
        except Exception as exc:
            for failure, _command in commands:
                log.warning("%s: %s", failure, exc)
            return
        for (failure, _command), result in zip(commands, results, strict=True):
            if isinstance(result, Exception):
                log.warning("%s: %s", failure, result)


@contextmanager
def redis_batch() -> Iterator[CommandBatch]:
    batch = CommandBatch()
    try:
        yield batch
    finally:
        batch.send()
