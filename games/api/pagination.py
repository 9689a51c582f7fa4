from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request

from config.vocabulary.refusals import Refusal


class GameCursorPagination(CursorPagination):
    ordering = "-created_at"
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def decode_cursor(self, request: Request) -> Cursor | None:
        # DRF answers a cursor it cannot read 404, as if the list were missing: it is a bad query.
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise Refusal.INVALID_QUERY.error(field=self.cursor_query_param) from None

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        # DRF's says OpenAPI 3.0's ``nullable``; the schema is 3.1.
        link = {"type": ["string", "null"], "format": "uri", "description": "null: no such page"}
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {"next": link, "previous": link, "results": schema},
        }
