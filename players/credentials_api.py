"""An account's own credentials: its password and its API tokens."""

from __future__ import annotations

from collections.abc import Sequence

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.schema import refuses
from config.vocabulary.refusals import Refusal
from players.api import parse
from players.auth import request_player, request_token
from players.services import password_change
from players.tokens import TokenRow, token_revoke_by_id, tokens_list


class PasswordChangeInput(serializers.Serializer[None]):
    current_password = serializers.CharField(write_only=True, max_length=128)
    new_password = serializers.CharField(write_only=True, max_length=128)


class PasswordView(APIView):
    permission_classes = [IsAuthenticated]
    # It takes the password: as few tries as signing in has.
    throttle_scope = "auth"

    @extend_schema(
        summary="Change my password",
        description=(
            "Sets `new_password` (checked by the server's password rules: 400 `weak_password` "
            "on `new_password`), given `current_password`: a wrong one is 403 `wrong_password` "
            "on `current_password` and counts as a failed sign-in of the account (its guard: "
            "429 `login_throttled`, `account_locked`). The token the request is made with "
            "keeps working; every other token of the account and every browser session end. "
            "A refused change changes nothing."
        ),
        request=PasswordChangeInput,
        responses={204: None},
        tags=["accounts"],
    )
    @refuses(
        Refusal.WRONG_PASSWORD,
        Refusal.WEAK_PASSWORD,
        Refusal.LOGIN_THROTTLED,
        Refusal.ACCOUNT_LOCKED,
    )
    def post(self, request: Request) -> Response:
        data = parse(PasswordChangeInput, request.data)
        password_change(
            player=request_player(request),
            current_password=data["current_password"],
            new_password=data["new_password"],
            request=request._request,
            keep_token=request_token(request),
        )
        return Response(status=204)


class TokenSerializer(serializers.Serializer[TokenRow | Sequence[TokenRow]]):
    id = serializers.CharField(help_text="The token's id (not its secret): DELETE it to revoke it")
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True, help_text="When it stops working")
    last_used = serializers.DateTimeField(
        allow_null=True, help_text="Its latest request, to the minute; null if none is known"
    )
    current = serializers.BooleanField(help_text="This request was made with it")


class TokenListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="My tokens",
        description=(
            "The account's API tokens that still work, newest first: each one's id, when it "
            "was made, when it expires (`TOKEN_TTL_HOURS` after), when it was last used (if "
            "known) and whether it is the one this request is made with. Never a token's "
            "secret."
        ),
        responses={200: TokenSerializer(many=True)},
        tags=["accounts"],
    )
    def get(self, request: Request) -> Response:
        rows = tokens_list(player=request_player(request), current=request_token(request))
        return Response(TokenSerializer(rows, many=True).data)


class TokenDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Revoke one of my tokens",
        description=(
            "Revokes the token of this id: it is refused from the next request on. Revoking the "
            "token the request is made with signs this client out. Another account's token is "
            "not found."
        ),
        request=None,
        responses={204: None},
        tags=["accounts"],
    )
    @refuses(Refusal.TOKEN_NOT_FOUND)
    def delete(self, request: Request, token_id: str) -> Response:
        token_revoke_by_id(player=request_player(request), public_id=token_id)
        return Response(status=204)
