"""The address of the client behind a request, and the bucket its per-address counts key on.

``X-Forwarded-For`` is a list anyone can start: only the last ``TRUSTED_PROXIES`` entries, which
our own proxies appended, are true. With fewer entries than that (or none trusted), the socket's
peer is the client, so a client that rotates the header changes nothing. An IPv6 client holds a
whole /64 and would otherwise have 2^64 buckets: it counts by its first ``IPV6_BUCKET_PREFIX``
bits; an IPv4-mapped address counts as the IPv4 address it maps.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any

from django.conf import settings


def client_address(meta: Mapping[str, Any]) -> str:
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
    return address_bucket(client_address(meta))


def address_bucket(address: str) -> str:
    """IPv4 itself, IPv6 its network of ``IPV6_BUCKET_PREFIX`` bits, anything else as it is."""
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
