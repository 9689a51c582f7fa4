"""Examples in the OpenAPI schema (a drf-spectacular postprocessing hook): each operation's
request and success answer as recorded by ``make examples`` into ``config/schema_examples.json``,
and each refusal status's problem of its first listed code, in English.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.utils import translation

from config.vocabulary.errors import error_body
from config.vocabulary.problems import BY_CODE, PROBLEM_JSON, problem_head

EXAMPLES_FILE = Path(__file__).with_name("schema_examples.json")
ORIGIN = "http://localhost:8000"
_METHODS = ("get", "post", "put", "patch", "delete")


@cache
def recorded() -> dict[str, dict[str, Any]]:
    if not EXAMPLES_FILE.exists():
        return {}
    examples: dict[str, dict[str, Any]] = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))
    return examples


def problem_example(code: str) -> dict[str, Any]:
    refusal = BY_CODE[code]
    with translation.override("en"):
        body = error_body(refusal.error())
        return {**problem_head(code, refusal.status, ORIGIN), **body}


def _first_code(description: str) -> str | None:
    for part in description.split(","):
        code = part.strip().strip("`")
        if code in BY_CODE:
            return code
    return None


def _set_example(content: dict[str, Any], value: Any) -> None:
    content["examples"] = {"example": {"value": value}}


def add_examples(result: dict[str, Any], generator: Any, request: Any, public: bool) -> Any:
    examples = recorded()
    for path, item in result.get("paths", {}).items():
        for method in _METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            example = examples.get(f"{method} {path}")
            if example is not None:
                _add_recorded(operation, example)
            for response in operation.get("responses", {}).values():
                problem = response.get("content", {}).get(PROBLEM_JSON)
                code = _first_code(response.get("description", ""))
                if problem is not None and code is not None and "examples" not in problem:
                    _set_example(problem, problem_example(code))
    _add_made(result)
    return result


def _add_recorded(operation: dict[str, Any], example: dict[str, Any]) -> None:
    body = operation.get("requestBody", {}).get("content", {})
    if example.get("request") is not None:
        for content in body.values():
            _set_example(content, example["request"])
    response = operation.get("responses", {}).get(str(example["status"]))
    if response is None or example.get("response") is None:
        return
    # A success may be asked for as JSON or as problem+json (the same body): both get it.
    for content in response.get("content", {}).values():
        _set_example(content, example["response"])


def _made_by_hand() -> dict[str, dict[str, Any]]:
    """The operations outside the REST framework's views, which the recorder does not see."""
    events = recorded().get("get /api/v1/games/{game_id}/events/", {}).get("response") or {}
    event = (events.get("events") or [None])[0]
    game = recorded().get("get /api/v1/games/{game_id}/", {}).get("response") or {}
    checks = {"database": "ok", "redis": "ok"}
    ready = {"status": "ok", "checks": checks}
    failing = {"status": "error", "checks": {**checks, "redis": "error"}}
    deep = {"status": "ok", "checks": {**checks, "workers": "ok"}}
    your_turn = {
        "type": "your_turn",
        "game": game.get("id"),
        "kind": game.get("kind"),
        "version": game.get("version"),
        "seat": game.get("turn_seat"),
        "deadline": None,
    }
    return {
        "get /health/live": {"200": {"status": "ok"}},
        "get /health/ready": {"200": ready, "503": failing},
        "get /health/deep": {
            "200": deep,
            "503": {"status": "error", "checks": {**checks, "workers": "error"}},
        },
        "get /metrics": {
            "200": "# HELP dice_moves_total Moves recorded\n# TYPE dice_moves_total counter\n"
            f'dice_moves_total{{automatic="false",kind="{game.get("kind")}"}} 42.0\n'
        },
        "get /api-auth/login/": {"200": '<!DOCTYPE html><html>…<form method="post">…</html>'},
        "get /api/v1/games/{game_id}/stream/": {"200": event},
        "get /api/v1/stream/": {"200": your_turn},
    }


def _add_made(result: dict[str, Any]) -> None:
    for key, by_status in _made_by_hand().items():
        method, path = key.split(" ", 1)
        operation = result.get("paths", {}).get(path, {}).get(method)
        if operation is None:
            continue
        for status, value in by_status.items():
            response = operation["responses"].get(status, {})
            for content in response.get("content", {}).values():
                if value is not None and "examples" not in content:
                    _set_example(content, value)
