"""Every operation of the schema has an example request (where it takes a body) and an example of
each answer, and every JSON example is valid under its own schema (objects closed): the examples
(config.schema_examples, recorded by ``make examples``) cannot drift from the
contract unnoticed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
from rest_framework.test import APIClient

from config.schema_examples import problem_example
from tests.api.test_schema_types import strict

pytestmark = pytest.mark.django_db
METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def contents(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(operation, where, content) for every request body and answer of every operation."""
    found = []
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            where = f"{method.upper()} {path}"
            for media, content in operation.get("requestBody", {}).get("content", {}).items():
                found.append((where, f"request {media}", content))
            for status, response in operation["responses"].items():
                for media, content in response.get("content", {}).items():
                    found.append((where, f"{status} {media}", content))
    return found


def test_every_request_and_answer_has_an_example(schema: dict[str, Any]) -> None:
    found = contents(schema)
    assert len(found) > 150
    missing = [(where, what) for where, what, content in found if "examples" not in content]
    assert missing == []


def test_every_json_example_is_valid_under_its_schema(schema: dict[str, Any]) -> None:
    root = {"components": strict(schema["components"])}
    checked = 0
    for where, what, content in contents(schema):
        if "json" not in what or "schema" not in content:
            continue
        value = content["examples"]["example"]["value"]
        validator = jsonschema.Draft7Validator({**root, **strict(content["schema"])})
        errors = [error.message for error in validator.iter_errors(value)]
        assert errors == [], (where, what)
        checked += 1
    assert checked > 150


def test_a_problem_example_is_what_the_api_answers(anon: APIClient) -> None:
    """The refusals' examples come from the code that answers refusals: the same body as a real
    404 but for the origin."""
    answer = anon.get("/api/v1/no-such-page/")
    example = problem_example("not_found")
    real = answer.json()
    assert answer.status_code == example["status"] == 404
    assert {k: v for k, v in real.items() if k != "type"} == {
        k: v for k, v in example.items() if k != "type"
    }
    assert example["type"].endswith("/api/v1/errors/not_found/")


def test_a_recorded_example_is_a_real_answer(schema: dict[str, Any]) -> None:
    moves = schema["paths"]["/api/v1/games/{game_id}/moves/"]["post"]
    request = moves["requestBody"]["content"]["application/json"]["examples"]["example"]["value"]
    answer = moves["responses"]["201"]["content"]["application/json"]["examples"]["example"]
    assert request["type"] == "roll"
    assert answer["value"]["events"][0]["type"] == "dice_rolled"
    assert len(answer["value"]["events"][0]["data"]["dice"]) == 5


def test_the_recorder_records_every_operation_it_has_examples_for(tmp_path: Path) -> None:
    """``make examples`` (tests.contract.record_examples) still plays its scenario through
    today's API, and the committed examples cover what it records (re-run it after changing an
    answer's shape)."""
    import json

    from config.schema_examples import recorded
    from games.models import Game
    from tests.contract.record_examples import record

    output = tmp_path / "examples.json"
    assert record(output) == len(recorded())
    fresh = json.loads(output.read_text(encoding="utf-8"))
    assert sorted(fresh) == sorted(recorded())
    assert fresh["post /api/v1/games/"]["status"] == 201
    assert not Game.objects.exists()  # the scenario is rolled back
