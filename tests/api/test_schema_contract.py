"""The OpenAPI schema as a contract: every operation of the API has a summary, a description and
its refusals, one application/problem+json answer per status listing the codes (config.schema).
(Health and metrics, outside the API, are config.schema_plain_views'.)"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    ]


def test_every_operation_is_described_with_its_refusals(schema: dict[str, Any]) -> None:
    found = [(m, path, op) for m, path, op in operations(schema) if path.startswith("/api/v1/")]
    assert len(found) >= 25
    for method, path, operation in found:
        where = f"{method} {path}"
        assert operation.get("summary"), where
        assert operation.get("description"), where
        refusals = {s: r for s, r in operation["responses"].items() if s.startswith(("4", "5"))}
        assert refusals, where
        for status, response in refusals.items():
            assert list(response["content"]) == [PROBLEM], (where, status)
            assert response["content"][PROBLEM]["schema"] == {
                "$ref": "#/components/schemas/Problem"
            }
            assert response["description"].startswith("`"), (where, status)


def codes(schema: dict[str, Any], method: str, path: str, status: int) -> set[str]:
    response = schema["paths"][path][method]["responses"][str(status)]
    return {part.strip(" `") for part in response["description"].split(",")}


def test_a_move_lists_its_refusals_by_status(schema: dict[str, Any]) -> None:
    moves = "/api/v1/games/{game_id}/moves/"
    assert {"not_your_turn", "stale_version", "box_used", "nothing_to_bank"} <= codes(
        schema, "post", moves, 409
    )
    assert codes(schema, "post", moves, 412) == {"precondition_failed"}
    assert codes(schema, "post", moves, 403) == {"not_a_seat_holder"}
    assert {"not_authenticated", "authentication_failed"} == codes(schema, "post", moves, 401)
    assert "invalid_if_match" in codes(schema, "post", moves, 400)


def test_creating_operations_list_the_idempotency_refusals(schema: dict[str, Any]) -> None:
    for path in ("/api/v1/accounts/register/", "/api/v1/games/", "/api/v1/tournaments/"):
        assert codes(schema, "post", path, 422) == {"idempotency_key_reused"}
        assert "invalid_idempotency_key" in codes(schema, "post", path, 400)
    assert "403" in schema["paths"]["/api/v1/tournaments/"]["post"]["responses"]


def test_the_problem_is_described(schema: dict[str, Any]) -> None:
    problem = schema["components"]["schemas"]["Problem"]
    assert {"type", "title", "status", "detail", "code", "field"} <= set(problem["required"])
    assert {"params", "errors", "retry_after"} <= set(problem["properties"])


def test_the_streams_are_described(schema: dict[str, Any]) -> None:
    game = schema["paths"]["/api/v1/games/{game_id}/stream/"]["get"]
    assert game["responses"]["200"]["content"]["text/event-stream"]["schema"] == {
        "$ref": "#/components/schemas/GameEvent"
    }
    assert codes(schema, "get", "/api/v1/games/{game_id}/stream/", 404) == {"not_found"}
    mine = schema["paths"]["/api/v1/stream/"]["get"]
    notes = mine["responses"]["200"]["content"]["text/event-stream"]["schema"]
    assert set(notes["discriminator"]["mapping"]) == {
        "your_turn",
        "game_started",
        "game_finished",
        "tournament_round_started",
        "seek_paired",
        "rematch_offered",
        "rematch_started",
        "account_closed",
    }
    assert "token_in_url" in codes(schema, "get", "/api/v1/stream/", 400)
    your_turn = schema["components"]["schemas"]["YourTurnNote"]
    assert {"game", "seat", "version", "deadline"} <= set(your_turn["required"])


def test_every_throttled_answer_documents_its_budget(schema: dict[str, Any]) -> None:
    """Every operation of the API is throttled: each answer documents RateLimit and
    RateLimit-Policy (config.web.rate_limit), each 429 and 503 its Retry-After."""
    headers = schema["components"]["headers"]
    assert {"RateLimit", "RateLimit-Policy", "Retry-After"} <= set(headers)
    assert "draft-ietf-httpapi-ratelimit-headers" in headers["RateLimit-Policy"]["description"]
    assert headers["Retry-After"]["schema"]["type"] == "integer"
    streams = ("/api/v1/games/{game_id}/stream/", "/api/v1/stream/")  # the stream tier's own
    found = [
        (m, path, op)
        for m, path, op in operations(schema)
        if path.startswith("/api/v1/") and path not in streams
    ]
    for method, path, operation in found:
        for status, response in operation["responses"].items():
            documented = response.get("headers", {})
            assert documented["RateLimit"] == {"$ref": "#/components/headers/RateLimit"}, (
                method,
                path,
                status,
            )
            assert "RateLimit-Policy" in documented, (method, path, status)
            assert ("Retry-After" in documented) == (status in ("429", "503")), (path, status)
    for path in streams:
        assert "Retry-After" in schema["paths"][path]["get"]["responses"]["429"]["headers"]
    # not throttled: no budget
    assert "headers" not in schema["paths"]["/health/live"]["get"]["responses"]["200"]
