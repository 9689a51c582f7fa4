"""Account endpoints: register, tokens, ``me``. Views parse, call one service, and render."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from knox.models import AuthToken
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.schema import refuses
from config.vocabulary.refusals import Refusal
from config.web.idempotency import idempotent
from config.web.throttling import RateThrottle
from players import services
from players.auth import TokenAuthentication, request_player, request_token
from players.identity import username_normalise
from players.models import Player
from players.stream_tickets import stream_ticket_create

LANGUAGE_HELP = (
    "The language the account's clients speak to it in: a code the server speaks, or blank for "
    "the browser's. The server answers in the request's language (`?lang=`, else "
    "`Accept-Language`): a client signed in sends this one."
)


@extend_schema_field(
    {"type": "string", "enum": ["", *(code for code, _name in settings.LANGUAGES)]}
)
class LanguageField(serializers.CharField):
    """A code of ``settings.LANGUAGES`` or blank (checked by ``services.player_update``)."""


class PlayerSerializer(serializers.ModelSerializer[Player]):
    name = serializers.CharField(source="public_name", read_only=True)
    language = LanguageField(read_only=True, help_text=LANGUAGE_HELP)

    class Meta:
        model = Player
        fields = ["id", "username", "display_name", "name", "language", "date_joined"]
        read_only_fields = fields


class UsernameField(serializers.CharField):
    """A username as it is stored: NFKC-normalised before its length and characters are checked."""

    def to_internal_value(self, data: Any) -> str:
        return username_normalise(super().to_internal_value(data))


class RegisterInput(serializers.Serializer[None]):
    username = UsernameField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(write_only=True, max_length=128)
    display_name = serializers.CharField(
        max_length=40, required=False, default="", allow_blank=True
    )


class CredentialsInput(serializers.Serializer[None]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)


TokenOutput = inline_serializer(
    "TokenOutput",
    fields={
        "token": serializers.CharField(),
        "expiry": serializers.DateTimeField(allow_null=True),
        "player": PlayerSerializer(),
    },
)


class MeUpdateInput(serializers.Serializer[None]):
    display_name = serializers.CharField(
        max_length=40,
        required=False,
        allow_blank=True,
        help_text="The name other players see; blank: the username",
    )
    language = LanguageField(required=False, allow_blank=True, help_text=LANGUAGE_HELP)


def _token_body(instance: AuthToken, raw: str) -> dict[str, Any]:
    return {"token": raw, "expiry": instance.expiry, "player": PlayerSerializer(instance.user).data}


def parse(serializer_class: type[serializers.Serializer[None]], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class SignInView(APIView):
    """Anyone may try, as few times as the ``auth`` rate allows; no credentials are read."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [RateThrottle]
    throttle_scope = "auth"


class RegisterView(SignInView):
    @extend_schema(
        summary="Create an account",
        description=(
            "Creates the account and returns its first token. Takes an `Idempotency-Key`."
        ),
        request=RegisterInput,
        responses={201: TokenOutput},
        tags=["accounts"],
    )
    @idempotent
    @refuses(
        Refusal.WEAK_PASSWORD,
        Refusal.USERNAME_TAKEN,
        Refusal.USERNAME_CONFUSABLE,
        Refusal.USERNAME_RESERVED,
        Refusal.NAME_RESERVED,
        Refusal.USERNAME_HELD,
        Refusal.DISPLAY_NAME_TAKEN,
    )
    def post(self, request: Request) -> Response:
        data = parse(RegisterInput, request.data)
        player = services.player_register(**data)
        instance, raw = services.token_create(
            username=player.username, password=data["password"], request=request._request
        )
        return Response(_token_body(instance, raw), status=201)


class TokenObtainView(SignInView):
    @extend_schema(
        summary="Log in",
        description="A new token for these credentials.",
        request=CredentialsInput,
        responses={201: TokenOutput},
        tags=["accounts"],
    )
    @refuses(Refusal.INVALID_CREDENTIALS)
    def post(self, request: Request) -> Response:
        data = parse(CredentialsInput, request.data)
        instance, raw = services.token_create(**data, request=request._request)
        return Response(_token_body(instance, raw), status=201)


class TokenRevokeView(APIView):
    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Revoke a token",
        description=(
            "Revokes the token the request is made with, or every token of the "
            "account with `?all=true`."
        ),
        request=None,
        responses={204: None},
        tags=["accounts"],
    )
    @refuses(Refusal.TOKEN_REQUIRED)
    def post(self, request: Request) -> Response:
        token = request_token(request)
        if request.query_params.get("all", "").lower() in {"1", "true", "yes"}:
            services.token_revoke_all(player=request_player(request))
        elif token is None:
            raise Refusal.TOKEN_REQUIRED.error()
        else:
            services.token_revoke(token=token)
        return Response(status=204)


StreamTicketOutput = inline_serializer(
    "StreamTicketOutput",
    fields={"ticket": serializers.CharField(), "expires_in": serializers.IntegerField()},
)


class StreamTicketView(APIView):
    """A ticket that opens the account stream once (``GET stream/?ticket=...``), within
    ``expires_in`` seconds: what a browser's ``EventSource`` puts in its URL instead of a token."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="A ticket for the account stream",
        request=None,
        responses={201: StreamTicketOutput},
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        ticket, seconds = stream_ticket_create(player_id=request_player(request).pk)
        return Response({"ticket": ticket, "expires_in": seconds}, status=201)


class MeView(APIView):
    """``accounts/me/``: the account of the token (its deletion, which reaches its games, is
    ``games.accounts.api.MeView``'s, which the URL names)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Who am I",
        description="The account of the token.",
        responses=PlayerSerializer,
        tags=["accounts"],
    )
    def get(self, request: Request) -> Response:
        return Response(PlayerSerializer(request_player(request)).data)

    @extend_schema(
        summary="Change my name or language",
        description=(
            "Sets the fields given, leaves the others: `display_name` (what other players see "
            "on seats, standings and leaderboards; blank shows the username), checked as at "
            "registration (409 `display_name_taken` if it looks like another account's "
            "username), and `language` (400 `unknown_language` if the server does not speak "
            "it; blank: the browser's). The server keeps answering in the request's language "
            "(`?lang=`, else `Accept-Language`): a client signed in sends the account's. It sets "
            "values, so a retry changes nothing more: it takes no `Idempotency-Key`."
        ),
        request=MeUpdateInput,
        responses=PlayerSerializer,
        tags=["accounts"],
    )
    @refuses(Refusal.NAME_RESERVED, Refusal.DISPLAY_NAME_TAKEN, Refusal.UNKNOWN_LANGUAGE)
    def patch(self, request: Request) -> Response:
        data = parse(MeUpdateInput, request.data)
        player = services.player_update(player=request_player(request), **data)
        return Response(PlayerSerializer(player).data)
