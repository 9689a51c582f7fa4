"""An account's API tokens as it lists and revokes them. A token's public id is the start of the
SHA-256 of knox's digest: it tells nothing of the secret. When a token was last used is noted in
the cache (not its row), with the request's throttle count, at most once a minute per process.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import knox_settings

from config.vocabulary.refusals import Refusal
from config.web.throttling import carry
from players.models import Player

ID_LENGTH = 16  # hex digits: 64 bits
USE_NOTED_EVERY = 60.0
# Per process: when each token's use was last noted (monotonic seconds), by id.
_noted: dict[str, float] = {}
_NOTED_KEPT = 10_000


def token_id(token: AuthToken) -> str:
    return hashlib.sha256(token.digest.encode("ascii")).hexdigest()[:ID_LENGTH]


def _used_key(public_id: str) -> str:
    return f"token:used:{public_id}"


def token_used(request: HttpRequest, token: AuthToken) -> None:
    """Note that ``request`` was made with ``token`` (at most once a minute per process)."""
    public_id = token_id(token)
    now = time.monotonic()
    if now - _noted.get(public_id, float("-inf")) < USE_NOTED_EVERY:
        return
    if len(_noted) >= _NOTED_KEPT:
        _noted.clear()
    _noted[public_id] = now
    if token.expiry is not None:
        seconds = (token.expiry - timezone.now()).total_seconds()
    else:
        ttl = knox_settings.TOKEN_TTL
        seconds = ttl.total_seconds() if isinstance(ttl, timedelta) else 30 * 86400.0
    carry(request, _used_key(public_id), int(time.time()), int(seconds) + 1)


@dataclass(frozen=True)
class TokenRow:
    id: str
    created: datetime
    expiry: datetime | None
    last_used: datetime | None
    current: bool


def _live(player: Player) -> list[AuthToken]:
    alive = Q(expiry__isnull=True) | Q(expiry__gt=timezone.now())
    return list(AuthToken.objects.filter(alive, user=player).order_by("-created", "-pk"))


def tokens_list(*, player: Player, current: AuthToken | None) -> list[TokenRow]:
    tokens = _live(player)
    ids = [token_id(token) for token in tokens]
    used = cache.get_many([_used_key(public_id) for public_id in ids])
    rows = []
    for token, public_id in zip(tokens, ids, strict=True):
        noted = used.get(_used_key(public_id))
        rows.append(
            TokenRow(
                id=public_id,
                created=token.created,
                expiry=token.expiry,
                last_used=datetime.fromtimestamp(noted, tz=UTC) if noted else None,
                current=current is not None and token.pk == current.pk,
            )
        )
    return rows


@transaction.atomic
def token_revoke_by_id(*, player: Player, public_id: str) -> None:
    """Revoke the account's token of this id (another account's is not found either)."""
    for token in _live(player):
        if token_id(token) == public_id:
            token.delete()  # its note of use expires with the time the token had left
            return
    raise Refusal.TOKEN_NOT_FOUND.error()
