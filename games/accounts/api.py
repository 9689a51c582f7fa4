"""``accounts/me/``: the account of the token (``players.api``), and its deletion, which reaches
into its games (``games.accounts.deletion``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from config.schema import body_on_delete, refuses
from config.vocabulary.refusals import Refusal
from games.accounts.deletion import account_delete_own
from players import api
from players.auth import request_player


class PasswordInput(serializers.Serializer[None]):
    password = serializers.CharField(write_only=True, max_length=128)


class MeView(api.MeView):
    @property
    def throttle_scope(self) -> str | None:
        # Deleting takes the password: as few tries as signing in has.
        return "auth" if self.request.method == "DELETE" else None

    @extend_schema(
        summary="Delete my account",
        description=(
            "Deletes the account, given its password: it is anonymised, not erased. Its name "
            "becomes a placeholder everywhere (games, events, standings), its email is cleared, "
            "its tokens and sessions end, its games in play are resigned, the open games it is "
            "in are left or cancelled and its entries in tournaments not yet started are "
            "withdrawn. The client seeds it gave and the names of the hot seats in its games "
            "are blanked; every game it played keeps its whole log. Its former username is held "
            "for `DELETED_NAME_HOLD_DAYS` (no new account takes it, `username_held`). A wrong "
            "password changes nothing, and counts as a failed sign-in of the account."
        ),
        request=PasswordInput,
        responses={204: None},
        tags=["accounts"],
    )
    @body_on_delete
    @refuses(Refusal.WRONG_PASSWORD, Refusal.LOGIN_THROTTLED, Refusal.ACCOUNT_LOCKED)
    def delete(self, request: Request) -> Response:
        data = api.parse(PasswordInput, request.data)
        account_delete_own(
            player=request_player(request), password=data["password"], request=request._request
        )
        return Response(status=204)
