"""Celery tasks in the logs and the metrics: a task carries the request id it was queued under in
its headers, and the worker binds it, with the task's name and game, and times the task.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from contextvars import Token
from typing import Any

from celery import signals

from config.observability import logs
from config.observability.metrics import TASK_FAILURES, TASK_SECONDS, TASKS

HEADER = "request_id"
# Per task id, in the worker process that runs it: its start and its log context's token.
_running: dict[str, tuple[float, Token[logs.LogContext]]] = {}


@signals.before_task_publish.connect
def _carry_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    request_id = logs.current_request_id()
    if request_id is not None and headers is not None:
        headers.setdefault(HEADER, request_id)


def _game_of(args: Any) -> str | None:
    # The games' tasks take the game's id first (games.followups.jobs).
    if args and isinstance(args[0], str):
        try:
            return str(uuid.UUID(args[0]))
        except ValueError:
            return None
    return None


@signals.task_prerun.connect
def _task_started(task_id: str | None = None, task: Any = None, args: Any = None, **_: Any) -> None:
    if task_id is None or task is None:
        return
    request_id = getattr(task.request, HEADER, None) or (task.request.headers or {}).get(HEADER)
    token = logs.bind(
        request_id=request_id or logs.new_request_id(),
        task=task.name,
        game_id=_game_of(args),
        request=None,
    )
    _running[task_id] = (time.perf_counter(), token)


@signals.task_postrun.connect
def _task_ended(
    task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any
) -> None:
    if task_id is None or task is None:
        return
    started = _running.pop(task_id, None)
    if started is None:
        return
    begun, token = started
    TASK_SECONDS.labels(task.name).observe(time.perf_counter() - begun)
    TASKS.labels(task.name, state or "UNKNOWN").inc()
    # ValueError: bound in another context (an eager task run from another thread).
    with contextlib.suppress(ValueError):
        logs.unbind(token)


@signals.task_failure.connect
def _task_failed(sender: Any = None, **_: Any) -> None:
    TASK_FAILURES.labels(getattr(sender, "name", "unknown")).inc()
