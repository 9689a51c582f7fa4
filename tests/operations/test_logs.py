"""Logs: one JSON line per record (time, level, logger, message, request id, user, game), the
request id from ``X-Request-ID`` or made and echoed, carried into the tasks a request queues.

tests/operations/test_worker_logs.py finds one request's id in a real worker's lines.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import Any

import pytest
from celery import signals
from pytest_django import Settings

from config.celery_app import app
from config.observability import logs
from tests.doubles import QueuedTasks
from tests.factories import api_client, api_game, game_url
from tests.operations.conftest import JsonLines

log = logging.getLogger("tests.operations")
MADE_ID = re.compile(r"^[0-9a-f]{32}$")


def test_a_record_is_one_json_line_with_its_context(json_lines: JsonLines) -> None:
    log.info("outside %s", "anything")
    with logs.bound(request_id="req-1", game_id="g-1", user_id=7):
        log.warning("inside", extra={"box": "chance"})
        try:
            raise ValueError("no")
        except ValueError:
            log.exception("failed")
    outside, inside, failed = json_lines()
    assert list(outside) == ["time", "level", "logger", "message", "request_id"]
    assert outside["message"] == "outside anything" and outside["request_id"] is None
    assert datetime.fromisoformat(outside["time"]).utcoffset() is not None
    assert inside == {
        "time": inside["time"],
        "level": "WARNING",
        "logger": "tests.operations",
        "message": "inside",
        "request_id": "req-1",
        "user_id": 7,
        "game_id": "g-1",
        "box": "chance",
    }
    assert failed["level"] == "ERROR" and "ValueError: no" in failed["exc_info"]
    assert logs.current_request_id() is None  # unbound on leaving


def test_the_text_format_for_people() -> None:
    record = logging.LogRecord("dice.x", logging.INFO, __file__, 1, "hello %s", ("you",), None)
    with logs.bound(request_id="req-2", game_id="g-2"):
        logs.ContextFilter().filter(record)
    line = logs.TextFormatter().format(record)
    assert line.endswith(" INFO    dice.x [req-2 game=g-2] hello you")


def test_log_format_is_json_or_text() -> None:
    assert (
        logs.logging_config(log_format="json", level="INFO")["handlers"]["console"]["formatter"]
        == "json"
    )
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        logs.logging_config(log_format="xml", level="INFO")


@pytest.mark.django_db
def test_the_request_id_is_the_clients_or_a_new_one_and_is_echoed() -> None:
    client = api_client()
    given = client.get("/health/live", HTTP_X_REQUEST_ID="client-id-42")
    assert given["X-Request-ID"] == "client-id-42"
    made = client.get("/health/live")
    assert MADE_ID.match(made["X-Request-ID"])
    # An id nobody should have to escape in a log is replaced.
    odd = client.get("/health/live", HTTP_X_REQUEST_ID='"}\n{"injected": 1')
    assert MADE_ID.match(odd["X-Request-ID"])
    assert MADE_ID.match(client.get("/health/live", HTTP_X_REQUEST_ID="x" * 200)["X-Request-ID"])


@pytest.mark.django_db
def test_a_requests_lines_carry_its_id_user_and_game(json_lines: JsonLines) -> None:
    client = api_client()
    game = api_game(client)
    url = game_url(game["id"], "moves/")
    stale = {"type": "roll", "expected_version": 0}
    response = client.post(url, stale, format="json", HTTP_X_REQUEST_ID="move-1")
    assert response.status_code == 409
    lines = [line for line in json_lines() if line["request_id"] == "move-1"]
    # django.request's warning (written after the middleware returned) and the access line.
    assert {line["logger"] for line in lines} == {"django.request", "dice.access"}
    user_id = client.get("/api/v1/accounts/me/").json()["id"]
    for line in lines:
        assert line["user_id"] == user_id and line["game_id"] == game["id"], line
    access = next(line for line in lines if line["logger"] == "dice.access")
    assert access["route"] == "game-moves" and access["status"] == 409
    assert access["message"].startswith(f"POST {url} 409 ")


@pytest.mark.django_db
def test_a_refused_host_is_no_error_line(json_lines: JsonLines) -> None:
    response = api_client().get("/api/v1/games/", HTTP_HOST="evil.example", HTTP_X_REQUEST_ID="h")
    assert response.status_code == 400 and response.json()["code"] == "disallowed_host"
    lines = [line for line in json_lines() if line["request_id"] == "h"]
    assert lines, "the refusal is logged"
    assert all(line["level"] != "ERROR" for line in lines), lines


@pytest.mark.django_db(transaction=True)
def test_tasks_a_request_queues_carry_its_id(settings: Settings) -> None:
    settings.GAMES_TIMERS = "database"
    worker = QueuedTasks(app)
    client = api_client()
    game = api_game(client, seats=[{"type": "computer"}, "me"], start=False)
    seen: list[logs.LogContext] = []

    def record(**_: Any) -> None:
        seen.append(logs.current())

    signals.task_prerun.connect(record)
    try:
        start = client.post(game_url(game["id"], "start/"), HTTP_X_REQUEST_ID="start-req-9")
        assert start.status_code == 200
        assert worker.run() > 0
    finally:
        signals.task_prerun.disconnect(record)
    # The computer's first move, and the ones it queued in turn, under the start's id.
    assert seen and all(context.request_id == "start-req-9" for context in seen)
    assert {context.task for context in seen} == {"games.tasks.play_computer_move"}
    assert {context.game_id for context in seen} == {game["id"]}
    assert logs.current_request_id() is None
