"""The address of the client behind a request: what throttles, login lockouts and stream caps key
on.

``X-Forwarded-For`` is a list anyone can start: a client sends ``X-Forwarded-For: 1.2.3.4`` and
each proxy on the way appends the address it received the request from. Only the entries that our
own proxies appended are true, and there are exactly ``TRUSTED_PROXIES`` of them, at the end of the
list: with one proxy (``make serve``'s nginx) the client is the last entry; with a load balancer in
front of it, the one before. With no trusted proxy (``make run``: clients connect to the server
itself), the header is ignored and the socket's peer is the client. A request with fewer entries
than trusted proxies did not come through them all (it reached a loopback port directly): the
socket's peer is the client then too. So a client that rotates the header changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings


def client_address(meta: Mapping[str, Any]) -> str:
    """The client's address, from a WSGI environ (``request.META``)."""
    return address_behind_proxies(
        str(meta.get("REMOTE_ADDR") or ""), meta.get("HTTP_X_FORWARDED_FOR"), trusted_proxies()
    )


def trusted_proxies() -> int:
    return int(getattr(settings, "TRUSTED_PROXIES", 0))


def address_behind_proxies(peer: str, forwarded_for: str | None, proxies: int) -> str:
    """The entry ``proxies`` from the end of ``forwarded_for`` (comma-separated), else ``peer``."""
    if proxies <= 0 or not forwarded_for:
        return peer
    entries = [entry.strip() for entry in forwarded_for.split(",")]
    if len(entries) < proxies or not entries[-proxies]:
        return peer
    return entries[-proxies]
