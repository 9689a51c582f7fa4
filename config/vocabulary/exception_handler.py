"""The one handler that renders every refusal of the API as an RFC 9457 problem (REST_FRAMEWORK's
EXCEPTION_HANDLER); validation errors add ``errors``, one entry per field at fault.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler

from config.vocabulary.errors import error_body
from config.vocabulary.problems import PROBLEM_JSON, origin_of, problem_head
from config.vocabulary.refusals import Refusal
from config.web.outage import out_of_reach, unavailable


def _validation_body(exc: exceptions.ValidationError) -> dict[str, Any]:
    errors = _flatten(exc.detail)
    first = errors[0] if errors else {"field": None, "code": "invalid", "detail": ""}
    return {
        "code": Refusal.INVALID_INPUT.code,
        "detail": first["detail"] or str(Refusal.INVALID_INPUT.message),
        "field": first["field"],
        "errors": errors,
    }


def _flatten(detail: Any, prefix: str = "") -> list[dict[str, Any]]:
    """Turn DRF's nested validation detail into a flat list of {field, code, detail}."""
    if isinstance(detail, dict):
        out: list[dict[str, Any]] = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            out.extend(_flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name))
        return out
    if isinstance(detail, list):
        if all(isinstance(item, exceptions.ErrorDetail) for item in detail):
            return [
                {"field": prefix or None, "code": item.code, "detail": str(item)} for item in detail
            ]
        out = []
        for index, item in enumerate(detail):
            out.extend(_flatten(item, f"{prefix}.{index}" if prefix else str(index)))
        return out
    code = getattr(detail, "code", "invalid")
    return [{"field": prefix or None, "code": code, "detail": str(detail)}]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if out_of_reach(exc):  # the database stopped or restarting: 503 and Retry-After, not a 500
        exc = unavailable(exc)
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, Http404):
        exc = Refusal.NOT_FOUND.error()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = Refusal.PERMISSION_DENIED.error()
    elif isinstance(exc, RequestDataTooBig):  # a body without a length, read past the limit
        exc = Refusal.REQUEST_TOO_LARGE.error(params={"limit": settings.MAX_REQUEST_BODY_BYTES})

    response = exception_handler(exc, context)
    if response is None:
        return None  # an unexpected failure: Django logs it and answers 500

    assert isinstance(exc, exceptions.APIException)
    invalid = exc if isinstance(exc, exceptions.ValidationError) else None
    body = error_body(exc) if invalid is None else _validation_body(invalid)
    request = context["request"]
    response.data = {**problem_head(body["code"], response.status_code, origin_of(request)), **body}
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is None or renderer.format == "json":
        response.content_type = PROBLEM_JSON
    return response
