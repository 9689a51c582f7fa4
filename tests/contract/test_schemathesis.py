"""The API against its own OpenAPI schema, with schemathesis: for every operation, requests made up
from the schema (valid and not) must get no server error and answers the schema describes.

Run in process on the WSGI application, as an account with a token that has a game in play. The
number of cases run is printed at the end of the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.factories import account, new_game, token

application = get_wsgi_application()
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
CASES: dict[str, int] = {}


@pytest.fixture(autouse=True)
def _keep_the_tests_connection() -> Iterator[None]:
    """As Django's test client does: the WSGI handler's start and end of a request would close
    the test's connection inside its transaction (with PostgreSQL's pool: "Cannot open a new
    connection in an atomic block")."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def auth(db: None) -> dict[str, str]:
    ann = account("ann")
    new_game(ann, "yatzy", ("me", "computer"))
    return {"Authorization": f"Token {token(ann)}"}


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_server_error_and_every_answer_as_documented(case: Any, auth: dict[str, str]) -> None:
    CASES[case.operation.label] = CASES.get(case.operation.label, 0) + 1
    case.call_and_validate(headers=auth, checks=[not_a_server_error, response_schema_conformance])
