"""CORS on the stream tier, by the WSGI tier's django-cors-headers settings (``corsheaders.conf``):
a page on an allowed origin may open ``EventSource`` (or a long-poll) on the streams as it calls
the API. Every answer varies on ``Origin``.
"""

from __future__ import annotations

from corsheaders.conf import conf

Headers = list[tuple[bytes, bytes]]


def allowed(origin: str | None) -> bool:
    if not origin:
        return False
    return conf.CORS_ALLOW_ALL_ORIGINS or origin in conf.CORS_ALLOWED_ORIGINS


def answer_headers(headers: dict[str, str]) -> Headers:
    origin = headers.get("origin")
    if not allowed(origin):
        return []
    assert origin is not None
    found: Headers = [(b"access-control-allow-origin", origin.encode("latin-1"))]
    if conf.CORS_EXPOSE_HEADERS:
        exposed = ", ".join(conf.CORS_EXPOSE_HEADERS).encode()
        found.append((b"access-control-expose-headers", exposed))
    if conf.CORS_ALLOW_CREDENTIALS:
        found.append((b"access-control-allow-credentials", b"true"))
    return found


def is_preflight(method: str, headers: dict[str, str]) -> bool:
    return method == "OPTIONS" and "access-control-request-method" in headers


def preflight_headers(headers: dict[str, str]) -> Headers:
    found = answer_headers(headers)
    if not found:
        return []
    return [
        *found,
        (b"access-control-allow-methods", b"GET, OPTIONS"),
        (b"access-control-allow-headers", ", ".join(conf.CORS_ALLOW_HEADERS).encode()),
        (b"access-control-max-age", str(conf.CORS_PREFLIGHT_MAX_AGE).encode()),
    ]
