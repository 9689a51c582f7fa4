"""The API's JSON parser: DRF's, bounded in depth (the decoder recurses once per level: a body of
a hundred thousand ``[`` would be a ``RecursionError``, which DRF does not catch).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework import parsers

from config.vocabulary.refusals import Refusal

MAX_DEPTH = 32


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise Refusal.JSON_TOO_DEEP.error() from None
        if depth(data) > MAX_DEPTH:
            raise Refusal.JSON_TOO_DEEP.error()
        return data


def depth(data: Any) -> int:
    """How deeply lists and objects nest in ``data`` (a scalar: 0), without recursion."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(data, 0)]
    while pending:
        value, level = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            deepest = max(deepest, level)
            continue
        deepest = max(deepest, level + 1)
        pending.extend((child, level + 1) for child in children)
    return deepest
