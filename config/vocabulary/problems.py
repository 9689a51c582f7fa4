"""Every refusal as an RFC 9457 problem (``application/problem+json``): ``error_body`` with
``type`` (the code's page, ``GET /api/v1/errors/{code}/``), ``title`` and ``status`` in front.
Both tiers and ``ApiProblemMiddleware`` (Django's own answers under ``/api/v1/``) answer so.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from rest_framework import exceptions

from config.vocabulary.errors import ApiError, error_body
from config.vocabulary.refusals import Refusal

PROBLEM_JSON = "application/problem+json"
API_PREFIX = "/api/v1/"
ERRORS_PATH = f"{API_PREFIX}errors/"


def _canonical() -> dict[str, Refusal]:
    """The entry that names each code: DRF's own words where it has them, else its first entry."""
    chosen: dict[str, Refusal] = {}
    for refusal in Refusal:
        if refusal.code not in chosen or refusal.value.drf_words:
            chosen[refusal.code] = refusal
    return chosen


BY_CODE = _canonical()


def type_url(code: str, origin: str) -> str:
    return f"{origin}{ERRORS_PATH}{code}/"


def problem_body(exc: exceptions.APIException, origin: str) -> dict[str, Any]:
    body = error_body(exc)
    return {**problem_head(body["code"], exc.status_code, origin), **body}


def problem_head(code: str, status: int, origin: str) -> dict[str, Any]:
    refusal = BY_CODE.get(code)
    title = str(refusal.message) if refusal is not None else HTTPStatus(status).phrase
    return {"type": type_url(code, origin), "title": title, "status": status}


def origin_of(request: HttpRequest) -> str:
    """The scheme and host the request came to; none (a relative ``type``) for a foreign host."""
    try:
        return f"{request.scheme}://{request.get_host()}"
    except DisallowedHost:
        return ""


def problem_response(request: HttpRequest, exc: ApiError) -> HttpResponse:
    response = JsonResponse(problem_body(exc, origin_of(request)), status=exc.status_code)
    response["Content-Type"] = PROBLEM_JSON
    return response


# Django's own answers under /api/v1/, by status: the refusal that says the same.
_DJANGO_STATUSES = {
    400: Refusal.INVALID_INPUT,
    401: Refusal.NOT_AUTHENTICATED,
    403: Refusal.PERMISSION_DENIED,
    404: Refusal.NOT_FOUND,
    405: Refusal.METHOD_NOT_ALLOWED,
    406: Refusal.NOT_ACCEPTABLE,
    413: Refusal.REQUEST_TOO_LARGE,
    415: Refusal.UNSUPPORTED_MEDIA_TYPE,
    429: Refusal.THROTTLED,
    503: Refusal.SERVICE_UNAVAILABLE,
}


class ApiProblemMiddleware(MiddlewareMixin):
    """Under ``/api/v1/``: any error Django answers itself (an HTML page) becomes the problem of
    its status."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        status = response.status_code
        if not request.path.startswith(API_PREFIX) or status < 400 or response.streaming:
            return response
        if response.get("Content-Type", "").startswith(("application/json", PROBLEM_JSON)):
            return response
        refusal = _DJANGO_STATUSES.get(status, Refusal.SERVER_ERROR)
        if status == 400 and not origin_of(request):  # Django's DisallowedHost, as the streams'
            refusal = Refusal.DISALLOWED_HOST
        words = None
        if refusal is Refusal.METHOD_NOT_ALLOWED:
            words = refusal.message.format(method=request.method)
        error = refusal.error(detail=words)
        error.status_code = status
        problem = problem_response(request, error)
        for header in ("Allow", "Retry-After"):
            if header in response:
                problem[header] = response[header]
        return problem
