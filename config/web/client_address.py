"""The address of the client behind a request, and the bucket it is counted in: what throttles,
the sign-in guard and the stream caps key on.

``X-Forwarded-For`` is a list anyone can start: a client sends ``X-Forwarded-For: 1.2.3.4`` and
each proxy on the way appends the address it received the request from. Only the entries that our
own proxies appended are true, and there are exactly ``TRUSTED_PROXIES`` of them, at the end of the
list: with one proxy (``make serve``'s nginx) the client is the last entry; with a load balancer in
front of it, the one before. With no trusted proxy (``make run``: clients connect to the server
itself), the header is ignored and the socket's peer is the client. A request with fewer entries
than trusted proxies did not come through them all (it reached a loopback port directly): the
socket's peer is the client then too. So a client that rotates the header changes nothing.

Every per-address count keys on ``address_bucket``: an IPv4 address is its own bucket, but an
IPv6 client holds a whole /64 (one subnet, by the usual allocation, is one customer's), and
would otherwise have 2^64 buckets for every limit. So IPv6 addresses count by their first
``IPV6_BUCKET_PREFIX`` bits (64); an IPv4-mapped IPv6 address (``::ffff:192.0.2.1``, what a
dual-stack socket reports for an IPv4 peer) counts as the IPv4 address it maps.
"""

from __future__ import annotations

import ipaddress
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


def client_bucket(meta: Mapping[str, Any]) -> str:
    """The bucket of the client of a WSGI environ: what its per-address counts key on."""
    return address_bucket(client_address(meta))


def address_bucket(address: str) -> str:
    """The key an address is counted under: IPv4 itself, IPv6 its network of
    ``IPV6_BUCKET_PREFIX`` bits (``2001:db8:1:2::/64``), anything else (no address, a Unix socket's
    name) as it is."""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        prefix = int(settings.IPV6_BUCKET_PREFIX)
        network = ipaddress.IPv6Network((int(parsed) >> (128 - prefix) << (128 - prefix), prefix))
        return str(network)
    return str(parsed)
