"""The pages' Content-Security-Policy (``/``, ``/play/``, the admin): scripts only from this
origin's files, so an injected name cannot run where the web client keeps its token or staff act.
Django's admin styles some elements inline: its styles may be inline, its scripts may not.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

_COMMON = (
    "default-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
_PAGE = f"{_COMMON}; style-src 'self'"
POLICIES = {"/play/": _PAGE, "/admin/": f"{_COMMON}; style-src 'self' 'unsafe-inline'"}
#: By the whole path: every path starts with "/".
EXACT_POLICIES = {"/": _PAGE}
#: Browser features no page of ours uses.
PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"


class PagePolicyMiddleware(MiddlewareMixin):
    """Sync and async: a sync-only middleware would make every open stream hold a thread."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        path = request.path
        policy = EXACT_POLICIES.get(path) or next(
            (p for prefix, p in POLICIES.items() if path.startswith(prefix)), None
        )
        if policy is not None:
            response.headers.setdefault("Content-Security-Policy", policy)
            response.headers.setdefault("Permissions-Policy", PERMISSIONS)
        return response
