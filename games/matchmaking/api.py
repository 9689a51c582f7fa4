"""Matchmaking endpoints: seeks (list yours, make one, read one, withdraw it) and rematches."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.schema import refuses
from config.vocabulary.refusals import Refusal
from config.web.idempotency import idempotent
from games.api.schema_forms import OptionsField
from games.api.views import parse
from games.kinds.fields import KindChoiceField
from games.matchmaking import rematch, seeks
from games.matchmaking.models import Seek
from players.auth import request_player


class SeekInput(serializers.Serializer[None]):
    kind = KindChoiceField()
    options = OptionsField(default=dict)
    rated = serializers.BooleanField(default=False)
    turn_clock_seconds = serializers.IntegerField(
        allow_null=True,
        default=None,
        help_text=_("Seconds per move (15, 30, 60, 120 or 300); none: no clock."),
    )
    rating_min = serializers.IntegerField(
        allow_null=True,
        default=None,
        min_value=0,
        max_value=5000,
        help_text=_("The lowest rating of an opponent you accept; none: no bound."),
    )
    rating_max = serializers.IntegerField(
        allow_null=True,
        default=None,
        min_value=0,
        max_value=5000,
        help_text=_("The highest rating of an opponent you accept; none: no bound."),
    )
    client_seed = serializers.CharField(
        default="",
        allow_blank=True,
        trim_whitespace=False,
        help_text=_(
            "Your seat's client seed for the fair dice once paired: 1 to 64 printable ASCII "
            "characters (or give it with your first move, after the game's hash is shown)"
        ),
    )


class SeekSerializer(serializers.ModelSerializer[Seek]):
    game = serializers.UUIDField(source="game_id", allow_null=True, read_only=True)
    options = OptionsField(read_only=True)

    class Meta:
        model = Seek
        fields = [
            "id", "kind", "options", "rated", "turn_clock_seconds", "rating_min", "rating_max",
            "status", "game", "created_at", "expires_at",
        ]  # fmt: skip
        read_only_fields = fields


class RematchSerializer(serializers.Serializer[rematch.RematchState]):
    game = serializers.UUIDField(source="game.pk", help_text=_("The finished game"))
    offered_seats = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("The seats whose players have offered")
    )
    rematch = serializers.UUIDField(
        source="rematch.pk",
        allow_null=True,
        default=None,
        help_text=_("The new game, once every player has offered"),
    )


@extend_schema(tags=["matchmaking"])
class SeekListCreateView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Your open seeks",
        description="The seeks you made that still wait for an opponent, oldest first.",
        responses={200: SeekSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        mine = seeks.seeks_open(player=request_player(request))
        return Response(SeekSerializer(mine, many=True).data)

    @extend_schema(
        summary="Seek an opponent",
        description=(
            "Wait for a game of `kind` with these `options`, `rated` or not (rated needs a"
            " `turn_clock_seconds`), against an opponent rated between `rating_min` and"
            " `rating_max`. If another player's seek fits (the same kind, options, clock and"
            " rated flag, each inside the other's range), the game starts at once: the answer"
            " is `paired` with its `game`, and both players' streams get `seek_paired`. Else"
            " the seek is `open` until paired, withdrawn or `SEEK_TTL_MINUTES` pass."
            " Takes an `Idempotency-Key`."
        ),
        request=SeekInput,
        responses={201: SeekSerializer},
    )
    @idempotent
    @refuses(
        Refusal.INVALID_OPTION,
        Refusal.INVALID_TURN_CLOCK,
        Refusal.RATED_SEEK_NEEDS_CLOCK,
        Refusal.RATED_OPTION_NOT_ALLOWED,
        Refusal.RATED_NEEDS_FINISHED_GAMES,
        Refusal.TOO_MANY_ABORTS,
        Refusal.INVALID_RATING_RANGE,
        Refusal.INVALID_CLIENT_SEED,
        Refusal.TOO_MANY_OPEN_SEEKS,
    )
    def post(self, request: Request) -> Response:
        data = parse(SeekInput, request.data)
        seek = seeks.seek_create(player=request_player(request), **data)
        return Response(SeekSerializer(seek).data, status=201)


@extend_schema(tags=["matchmaking"])
class SeekDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="One of your seeks",
        description=(
            "One of your seeks, whatever became of it: `open`, `paired` with its `game`,"
            " `withdrawn` or `expired` (past its `expires_at`, even before the sweep marks it)."
            " A client whose stream dropped reads it to learn whether the seek paired, the"
            " stream's `seek_paired` having gone by. Another account's seek is not found."
        ),
        responses={200: SeekSerializer},
    )
    @refuses(Refusal.SEEK_NOT_FOUND)
    def get(self, request: Request, seek_id: int) -> Response:
        seek = seeks.seek_get(seek_id=seek_id, player=request_player(request))
        return Response(SeekSerializer(seek).data)

    @extend_schema(
        summary="Withdraw a seek",
        description="Take back one of your open seeks.",
        request=None,
        responses={204: None},
    )
    @refuses(Refusal.SEEK_NOT_FOUND, Refusal.SEEK_NOT_OPEN)
    def delete(self, request: Request, seek_id: int) -> Response:
        seeks.seek_withdraw(seek_id=seek_id, player=request_player(request))
        return Response(status=204)


class GameRematchView(APIView):
    def get_permissions(self) -> list[Any]:
        # Like the game itself, its offers are for anyone to read; offering needs a seat.
        return [AllowAny() if self.request.method == "GET" else IsAuthenticated()]

    @extend_schema(
        summary="The rematch offers",
        description=(
            "The seats whose players have offered to play this game again (none while it is"
            " in play), and `rematch`, the new game, once every player has. A page opened after"
            " an offer reads them here: the stream's `rematch_offered` reached only the pages"
            " open at the time."
        ),
        responses={200: RematchSerializer},
    )
    @refuses(Refusal.GAME_NOT_FOUND)
    def get(self, request: Request, game_id: uuid.UUID) -> Response:
        return Response(RematchSerializer(rematch.rematch_offers(game_id=game_id)).data)

    @extend_schema(
        summary="Offer a rematch",
        description=(
            "A player seated at a finished game offers to play it again; the other players'"
            " streams get `rematch_offered`. With the last player's offer a new game starts"
            " with the same kind, options, clock and seats, turned one place (the second seat"
            " plays first): `rematch` names it and every player's stream gets"
            " `rematch_started`."
        ),
        request=None,
        responses={201: RematchSerializer},
    )
    @idempotent
    @refuses(
        Refusal.GAME_NOT_FOUND,
        Refusal.NOT_A_SEAT_HOLDER,
        Refusal.GAME_NOT_FINISHED,
        Refusal.REMATCH_ALREADY_OFFERED,
        Refusal.REMATCH_UNAVAILABLE,
        Refusal.TOURNAMENT_REMATCH,
    )
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        state = rematch.game_rematch(game_id=game_id, player=request_player(request))
        return Response(RematchSerializer(state).data, status=201)
