"""Endpoints for the operators only (``/metrics``, ``/health/deep``): with ``Authorization: Bearer
<INTERNAL_TOKEN>``, or, when no token is set, from a loopback client address (not the proxy's hop).
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
        if admitted_as(request.headers.get("Authorization", ""), client_address(request.META)):
            return view(request)
        refusal = Refusal.INTERNAL_ONLY.error()
        return JsonResponse(error_body(refusal), status=refusal.status_code)

    return guarded


def admitted_as(authorization: str, address: str) -> bool:
    """The rule (the stream tier's ``/metrics`` asks it too)."""
    token = str(getattr(settings, "INTERNAL_TOKEN", "") or "")
    if token:
        return compare_digest(authorization.encode(), f"Bearer {token}".encode())
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
