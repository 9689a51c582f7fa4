"""Token authentication in one query and one hash per request (knox's reads every token of the
account and hashes once per candidate), with knox's rules: an expired token is refused and deleted,
an inactive account refused, ``AUTO_REFRESH`` renews. Nothing is cached between requests.
"""

from __future__ import annotations

import binascii
from hmac import compare_digest
from typing import TYPE_CHECKING

from django.utils import timezone
from knox import auth as knox_auth
from knox.crypto import hash_token
from knox.models import AuthToken, get_token_model
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired

from config.storage.orm_shortcuts import PreparedSelect
from config.vocabulary.refusals import Refusal
from players.models import Player
from players.tokens import token_used

if TYPE_CHECKING:
    from django.http import HttpRequest
    from rest_framework.request import Request

_Token = get_token_model()
# A token's candidates (same key prefix) with their account: one query.
_BY_KEY = PreparedSelect(
    lambda key: _Token.objects.select_related("user").filter(token_key=key),
    _Token._meta.get_field("token_key"),
    "0" * CONSTANTS.TOKEN_KEY_LENGTH,
)


def request_player(request: Request | HttpRequest) -> Player:
    """The account of a request its view lets in only authenticated (for the type checker)."""
    user = request.user
    if not isinstance(user, Player):  # not reached behind those permissions
        raise Refusal.NOT_AUTHENTICATED.error()
    return user


def request_token(request: Request) -> AuthToken | None:
    """The token the request was made with (None for a browser session)."""
    return request.auth if isinstance(request.auth, AuthToken) else None


class TokenAuthentication(knox_auth.TokenAuthentication):
    """knox's header (``Authorization: Token <token>``), tokens and expiry rules."""

    if TYPE_CHECKING:
        # knox's, which it leaves unannotated: the token's account (refused if inactive).
        def validate_user(self, auth_token: AuthToken) -> tuple[Player, AuthToken]: ...

    def authenticate(self, request: Request) -> tuple[Player, AuthToken] | None:
        # knox's, which it leaves unannotated: the header read, then authenticate_credentials.
        found: tuple[Player, AuthToken] | None = super().authenticate(request)  # type: ignore[no-untyped-call]
        if found is not None:  # for the account's list of its tokens (players.tokens)
            token_used(request._request, found[1])
        return found

    def authenticate_credentials(self, token: bytes) -> tuple[Player, AuthToken]:
        try:
            raw = token.decode("utf-8")
            digest = hash_token(raw)
        except (UnicodeDecodeError, TypeError, ValueError, binascii.Error):
            raise Refusal.INVALID_TOKEN.error() from None
        if "\x00" in raw:  # PostgreSQL refuses NUL in text: no token has one
            raise Refusal.INVALID_TOKEN.error()
        for auth_token in _BY_KEY(raw[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry < timezone.now():
                username = auth_token.user.get_username()
                auth_token.delete()
                token_expired.send(sender=self.__class__, username=username, source="auth_token")
                break
            if knox_settings.AUTO_REFRESH and auth_token.expiry:
                self.renew_token(auth_token)
            return self.validate_user(auth_token)
        raise Refusal.INVALID_TOKEN.error()
