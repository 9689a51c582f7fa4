"""Public reads on players: profiles with ratings, game and tournament history; leaderboards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.schema import refuses
from config.vocabulary.refusals import Refusal
from games.accounts.rating_service import leaderboard
from games.kinds import KINDS
from games.models import Seat
from players.models import Player, PlayerRating

HISTORY = 20


class RatingSerializer(serializers.ModelSerializer[PlayerRating]):
    provisional = serializers.SerializerMethodField(
        help_text=_(
            "The rating is still uncertain (its deviation is above the leaderboards' limit): "
            "it is not listed on the leaderboard."
        )
    )

    class Meta:
        model = PlayerRating
        fields = ["kind", "rating", "deviation", "provisional", "games", "updated_at"]

    def get_provisional(self, rating: PlayerRating) -> bool:
        return bool(rating.deviation > settings.LEADERBOARD_MAX_DEVIATION)


# Renders dicts: one, or a list of them with many=True.
class LeaderboardRowSerializer(serializers.Serializer[dict[str, Any] | Sequence[dict[str, Any]]]):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    games = serializers.IntegerField()


class LeaderboardView(APIView):
    @extend_schema(
        summary="A leaderboard",
        description="Glicko-2 ratings for one game kind, best first.",
        parameters=[OpenApiParameter("limit", int)],
        responses=LeaderboardRowSerializer(many=True),
        tags=["players"],
    )
    @refuses(Refusal.UNKNOWN_KIND, Refusal.INVALID_QUERY)
    def get(self, request: Request, kind: str) -> Response:
        if kind not in KINDS:
            raise Refusal.UNKNOWN_KIND.error()
        try:
            limit = max(1, min(int(request.query_params.get("limit", 50)), 200))
        except ValueError:
            raise Refusal.INVALID_QUERY.error(field="limit") from None
        rows = [
            {
                "rank": rank,
                "username": row.player.username,
                "name": row.player.public_name,
                "rating": round(row.rating, 1),
                "deviation": round(row.deviation, 1),
                "games": row.games,
            }
            for rank, row in enumerate(leaderboard(kind)[:limit], start=1)
        ]
        return Response(LeaderboardRowSerializer(rows, many=True).data)


class ProfileGameSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.UUIDField()
    kind = serializers.CharField()
    status = serializers.CharField()
    seat = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class ProfileEntrySerializer(serializers.Serializer[dict[str, Any]]):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    status = serializers.CharField()
    starts_at = serializers.DateTimeField()
    withdrawn = serializers.BooleanField()


class ProfileSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    name = serializers.CharField()
    date_joined = serializers.DateTimeField()
    ratings = RatingSerializer(many=True)
    games = ProfileGameSerializer(many=True)
    tournaments = ProfileEntrySerializer(many=True)


class ProfileView(APIView):
    @extend_schema(
        summary="A player's profile",
        description="Ratings and recent games of one account.",
        responses=ProfileSerializer,
        tags=["players"],
    )
    def get(self, request: Request, username: str) -> Response:
        player = get_object_or_404(Player, username=username, is_active=True)
        return Response(ProfileSerializer(profile(player)).data)


def profile(player: Player) -> dict[str, Any]:
    seats = (
        Seat.objects.filter(player=player)
        .select_related("game")
        .order_by("-game__created_at")[:HISTORY]
    )
    entries = player.tournament_entries.select_related("tournament").order_by(
        "-tournament__starts_at"
    )[:HISTORY]
    return {
        "username": player.username,
        "name": player.public_name,
        "date_joined": player.date_joined,
        "ratings": list(player.ratings.order_by("kind")),
        "games": [
            {
                "game": str(seat.game_id),
                "kind": seat.game.kind,
                "status": seat.game.status,
                "seat": seat.index,
                "place": seat.place,
                "total": seat.final_total,
                "created_at": seat.game.created_at,
            }
            for seat in seats
        ],
        "tournaments": [
            {
                "tournament": entry.tournament_id,
                "name": entry.tournament.name,
                "kind": entry.tournament.kind,
                "status": entry.tournament.status,
                "starts_at": entry.tournament.starts_at,
                "withdrawn": entry.withdrawn_at is not None,
            }
            for entry in entries
        ],
    }
