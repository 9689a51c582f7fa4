from typing import Any

from rest_framework.pagination import CursorPagination


class GameCursorPagination(CursorPagination):
    ordering = "-created_at"
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        # DRF's says OpenAPI 3.0's ``nullable``; the schema is 3.1.
        link = {"type": ["string", "null"], "format": "uri", "description": "null: no such page"}
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {"next": link, "previous": link, "results": schema},
        }
