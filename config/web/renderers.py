"""The API's JSON renderers (REST_FRAMEWORK's DEFAULT_RENDERER_CLASSES); apart from
config.vocabulary.problems so that the stream tier, which sends problems too, never imports DRF's
renderers.

``JSONRenderer`` writes the bytes DRF's writes, with orjson: a move's answer (some 6 KB) costs
about a tenth of a millisecond through the standard library's encoder and DRF's, a tenth of that
here. Two differences: a float under a ten-thousandth in its shortest form (``1e-7`` where the
standard library writes ``1e-07``, the same number), and a NaN or infinity written ``null``
where DRF's strict JSON would fail the request (no answer of the API holds one). What orjson
leaves to others goes to DRF's encoder (``default``: dates and times, which DRF writes with
``Z``, lazy translations, decimals) or to DRF's renderer itself: an indented answer
(``Accept: application/json; indent=2``) and anything orjson refuses (an integer past 64 bits).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

from config.vocabulary.problems import PROBLEM_JSON

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
_DEFAULT = JSONEncoder().default
# DRF escapes the two line separators that JavaScript source cannot hold raw.
_SEPARATORS = ((b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        context = renderer_context or {}
        if data is None or self.get_indent(accepted_media_type or "", context) is not None:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            body = orjson.dumps(data, default=_DEFAULT, option=_OPTIONS)
        except orjson.JSONEncodeError:
            return super().render(data, accepted_media_type, renderer_context)
        for raw, escaped in _SEPARATORS:
            if raw in body:
                body = body.replace(raw, escaped)
        return body


class ProblemJSONRenderer(JSONRenderer):
    """JSON for a client that asks for ``application/problem+json`` alone."""

    media_type = PROBLEM_JSON
    format = "json"  # one format for ?format=: DRF picks the first, JSONRenderer
