"""A list's query parameters: a filter's value it does not know is 400 ``invalid_input`` (with the
field), a cursor it cannot read 400 ``invalid_query`` (field ``cursor``; DRF's own answer is a 404,
as if the list were missing), and the schema says both."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

LISTS = ("/api/v1/games/", "/api/v1/tournaments/")


@pytest.mark.parametrize("path", LISTS)
def test_a_bad_filter_and_a_bad_cursor_are_bad_queries(path: str) -> None:
    client = APIClient()
    bad_filter = client.get(path, {"status": "bogus"})
    assert bad_filter.status_code == 400
    assert (bad_filter.json()["code"], bad_filter.json()["field"]) == ("invalid_input", "status")
    bad_cursor = client.get(path, {"cursor": "garbage"})
    assert bad_cursor.status_code == 400
    assert bad_cursor["Content-Type"] == "application/problem+json"
    assert (bad_cursor.json()["code"], bad_cursor.json()["field"]) == ("invalid_query", "cursor")
    # A cursor the list gave reads on.
    assert client.get(path, {"page_size": 1}).status_code == 200


def test_the_schema_documents_the_lists_bad_queries() -> None:
    served = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = served.json()
    for path in LISTS:
        bad = schema["paths"][path]["get"]["responses"]["400"]
        assert "`invalid_input`" in bad["description"] and "`invalid_query`" in bad["description"]
