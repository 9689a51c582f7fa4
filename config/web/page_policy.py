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
#: By path prefix.
POLICIES = {
    "/play/": _PAGE,
    "/admin/": f"{_COMMON}; style-src 'self' 'unsafe-inline'",
}
#: By the whole path: every path starts with "/", the greeting's.
EXACT_POLICIES = {"/": _PAGE}
#: Browser features no page of ours uses, refused to whatever runs in them.
PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"


class PagePolicyMiddleware(MiddlewareMixin):
    """Both sync and async (MiddlewareMixin): a sync-only middleware would make every open
    stream hold a thread under ASGI."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        policy = policy_for(request.path)
        if policy is not None:
            response.headers.setdefault("Content-Security-Policy", policy)
            response.headers.setdefault("Permissions-Policy", PERMISSIONS)
        return response


def policy_for(path: str) -> str | None:
    """The policy of the page at ``path``; None for the API and the rest."""
    if path in EXACT_POLICIES:
        return EXACT_POLICIES[path]
    return next((p for prefix, p in POLICIES.items() if path.startswith(prefix)), None)
