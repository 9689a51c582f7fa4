"""``Idempotency-Key`` on every POST that writes, so that a client retrying after a lost answer
is never played twice: a 2xx answer is kept with the key and replayed (``Idempotent-Replayed``)
to the same request; another request with the key is refused; a refusal keeps nothing.

Race-safe: the key's row (unique per account and key) is inserted in the same transaction as what
the request creates, before it, so a second request with the key waits on its unique index (or
SQLite's write lock) and answers from it. The answer may hold a secret (a token): it is sealed
with a key stream drawn from ``SECRET_KEY`` and the request, so the table alone does not give it.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from config.vocabulary.refusals import Refusal
from players.models import IdempotencyKey

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
MAX_LENGTH = 255

Handler = Callable[..., Response]


def idempotent(handler: Handler) -> Handler:
    """Decorate an APIView's ``post`` that writes."""

    @functools.wraps(handler)
    def post(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = read_key(request)
        if key is None:
            return handler(view, request, *args, **kwargs)
        return _keyed(key, request, lambda: handler(view, request, *args, **kwargs))

    post._idempotent = True  # type: ignore[attr-defined]  # config.schema documents its refusals
    return post


def read_key(request: Request) -> str | None:
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    key = raw.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]  # a structured-field string, as the IETF draft writes it
    if not 0 < len(key) <= MAX_LENGTH or not all(" " <= char <= "~" for char in key):
        raise Refusal.INVALID_IDEMPOTENCY_KEY.error()
    return key


def _keyed(key: str, request: Request, run: Callable[[], Response]) -> Response:
    scope = f"player:{request.user.pk}" if request.user.is_authenticated else "anonymous"
    material = _material(scope, key, request)
    fingerprint = _mac(b"fingerprint", material).hex()
    now = timezone.now()
    with transaction.atomic():
        IdempotencyKey.objects.filter(scope=scope, key=key, expires_at__lte=now).delete()
        try:
            with transaction.atomic():
                row = IdempotencyKey.objects.create(
                    scope=scope,
                    key=key,
                    fingerprint=fingerprint,
                    expires_at=now + settings.IDEMPOTENCY_KEY_TTL,
                )
        except IntegrityError:
            first = IdempotencyKey.objects.get(scope=scope, key=key)
            return _replay(first, fingerprint, material)
        response = run()
        if not 200 <= response.status_code < 300:
            transaction.set_rollback(True)  # nothing is kept: a retry runs again
            return response
        plain = json.dumps(response.data, cls=JSONEncoder).encode()
        row.status = response.status_code
        row.body = _seal(plain, material)
        row.save(update_fields=["status", "body"])
    return response


def _replay(first: IdempotencyKey, fingerprint: str, material: bytes) -> Response:
    if not hmac.compare_digest(first.fingerprint, fingerprint):
        raise Refusal.IDEMPOTENCY_KEY_REUSED.error()
    body = json.loads(_seal(bytes(first.body), material))
    return Response(body, status=first.status, headers={REPLAYED: "true"})


def _material(scope: str, key: str, request: Request) -> bytes:
    data = request.data
    plain = dict(data.lists()) if hasattr(data, "lists") else data
    body = json.dumps(plain, sort_keys=True, separators=(",", ":"), cls=JSONEncoder)
    parts = (scope, key, request.method or "", request.get_full_path(), body)
    return "\x00".join(parts).encode()


def _mac(purpose: bytes, material: bytes) -> bytes:
    return hmac.new(settings.SECRET_KEY.encode(), purpose + b"\x00" + material, "sha256").digest()


def _seal(data: bytes, material: bytes) -> bytes:
    """XOR with a key stream of the request (SHAKE-256 of its MAC): sealing twice opens."""
    stream = hashlib.shake_256(_mac(b"seal", material)).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, stream, strict=True))
