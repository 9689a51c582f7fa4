"""The OpenAPI description of players.auth: the same security scheme as knox's own class."""

from __future__ import annotations

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme


class TokenScheme(KnoxTokenScheme):
    target_class = "players.auth.TokenAuthentication"
