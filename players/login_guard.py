"""The sign-in guard: every way in goes through Django's ``authenticate``, so through
``GuardedModelBackend``, which asks this guard before it hashes a password. Per client address
bucket, every attempt counts against the ``auth`` rate; per account, ``LOGIN_FAILURES_PER_ACCOUNT``
failures in ``LOGIN_LOCKOUT_SECONDS`` lock it, but never from an address it signed in from
before, so an attacker elsewhere cannot lock the owner out. A refused attempt hashes nothing.
"""

from __future__ import annotations

import time
import unicodedata
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied

from config.vocabulary.errors import ApiError
from config.vocabulary.refusals import Refusal
from config.web.client_address import client_bucket
from config.web.throttling import hit, rate
from players.models import Player

if TYPE_CHECKING:
    from django.http import HttpRequest

#: Set on the request when the guard refused its sign-in.
REFUSAL_ATTRIBUTE = "login_refusal"


class LoginGuard:
    def __init__(self, request: HttpRequest | None, username: str) -> None:
        # An owner whose IPv6 address changes within its /64 stays known.
        self.address = client_bucket(request.META) if request is not None else ""
        self._failures_key, self._locked_key, self._known_key = _keys(username)

    def refusal(self) -> ApiError | None:
        """Why this attempt may not be made, or None; counts it against the address."""
        now = time.time()
        if self.address:
            limit, seconds = rate("auth")
            if limit is not None:
                count, left = hit(f"login:address:{self.address}", seconds)
                if count > limit:
                    return _waiting(Refusal.LOGIN_THROTTLED.error(), left)
        found = cache.get_many([self._locked_key, self._known_key])
        until = found.get(self._locked_key)
        known = self.address and (found.get(self._known_key) or {}).get(self.address, 0.0) > now
        if until is not None and until > now and not known:
            return _waiting(Refusal.ACCOUNT_LOCKED.error(), until - now)
        return None

    def failed(self) -> None:
        window = int(settings.LOGIN_LOCKOUT_SECONDS)
        count, left = hit(self._failures_key, window)
        if count >= int(settings.LOGIN_FAILURES_PER_ACCOUNT):
            cache.add(self._locked_key, time.time() + left, timeout=max(int(left + 0.999), 1))

    def succeeded(self) -> None:
        """Remember the address (of two sign-ins at once one may be lost: it counts as new)."""
        if not self.address:
            return
        seconds = int(settings.LOGIN_KNOWN_ADDRESS_DAYS) * 86400
        now = time.time()
        stored: dict[str, float] = cache.get(self._known_key) or {}
        known = {address: until for address, until in stored.items() if until > now}
        known.pop(self.address, None)
        known[self.address] = now + seconds
        kept = dict(sorted(known.items(), key=lambda item: item[1])[-KNOWN_ADDRESSES_KEPT:])
        cache.set(self._known_key, kept, timeout=seconds)


KNOWN_ADDRESSES_KEPT = 32


def _keys(username: str) -> tuple[str, str, str]:
    account = unicodedata.normalize("NFKC", username).casefold()
    return f"login:failures:{account}", f"login:locked:{account}", f"login:known:{account}"


def guard_forget(username: str) -> None:
    failures, locked, known = _keys(username)
    cache.delete_many([failures, f"{failures}:opened", locked, known])


def _waiting(error: ApiError, seconds: float) -> ApiError:
    error.wait = max(seconds, 0.001)
    return error


class GuardedModelBackend(ModelBackend):
    """Django's username and password backend, behind the guard."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Player | None:
        if username is None:
            username = kwargs.get(Player.USERNAME_FIELD)
        if not isinstance(username, str) or password is None:
            return None
        guard = LoginGuard(request, username)
        refusal = guard.refusal()
        if refusal is not None:
            if request is not None:
                setattr(request, REFUSAL_ATTRIBUTE, refusal)
            # Stops authenticate() at once: no other backend tries, no password is hashed.
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            guard.failed()
        else:
            guard.succeeded()
        return user


def refusal_of(request: HttpRequest | None) -> ApiError | None:
    return getattr(request, REFUSAL_ATTRIBUTE, None) if request is not None else None
