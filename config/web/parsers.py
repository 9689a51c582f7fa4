"""The API's JSON parser: DRF's, bounded in depth.

Python's JSON decoder recurses once per nesting level: a body of a hundred thousand ``[`` ends in
a ``RecursionError``, which DRF does not catch (a 500). No request of this API nests more than a
few levels (a move is ``{"type": ..., "hold": [...]}``), so anything past ``MAX_DEPTH`` is refused
as malformed, and so is anything the decoder gives up on.
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
