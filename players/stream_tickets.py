"""Stream tickets: a browser's ``EventSource`` cannot set headers, and a URL ends up in logs, so a
ticket goes there instead of the token, good for one stream. The cache keeps only its hash; only
the delete that removed the key wins, so two streams racing with one ticket cannot both open.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.core.cache import cache

PREFIX = "stream:ticket:"


def _key(raw: str) -> str:
    return PREFIX + hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def stream_ticket_create(*, player_id: int) -> tuple[str, int]:
    """A new ticket for this account's stream, and the seconds it is good for."""
    raw = secrets.token_urlsafe(32)
    seconds = int(settings.STREAM_TICKET_SECONDS)
    cache.set(_key(raw), player_id, timeout=seconds)
    return raw, seconds


def stream_ticket_redeem(raw: str) -> int | None:
    """The account of a ticket, which is then spent; None for one unknown, expired or spent."""
    key = _key(raw)
    player_id = cache.get(key)
    if player_id is None or not cache.delete(key):
        return None
    return int(player_id)
