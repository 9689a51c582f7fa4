"""Endpoints for the operators only (``/metrics``, ``/health/deep``): they say how the service is
built and what it is doing, and the deep check makes work for every worker.

A request may reach them with ``Authorization: Bearer <INTERNAL_TOKEN>``, or, when no token is
set, from this machine only: its client address (``config.web.client_address``, so a request through
the proxy is judged by where it came from, not by the proxy's loopback hop) is a loopback one.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import wraps
from hmac import compare_digest

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.vocabulary.errors import error_body
from config.vocabulary.refusals import Refusal
from config.web.client_address import client_address

View = Callable[[HttpRequest], HttpResponse]


def internal_only(view: View) -> View:
    @wraps(view)
    def guarded(request: HttpRequest) -> HttpResponse:
        if admitted(request):
            return view(request)
        refusal = Refusal.INTERNAL_ONLY.error()
        return JsonResponse(error_body(refusal), status=refusal.status_code)

    return guarded


def admitted(request: HttpRequest) -> bool:
    return admitted_as(request.headers.get("Authorization", ""), client_address(request.META))


def admitted_as(authorization: str, address: str) -> bool:
    """The rule for a request with this ``Authorization`` header from this client address (the
    stream tier's ``/metrics`` asks it too)."""
    token = str(getattr(settings, "INTERNAL_TOKEN", "") or "")
    if token:
        return compare_digest(authorization.encode(), f"Bearer {token}".encode())
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
