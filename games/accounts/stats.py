"""``GET players/{username}/stats/``: a player's record per game kind and their rating history.
Games, wins and the average score count every finished game; luck and accuracy average the
analyses (kept once computed) of the account's latest ``ANALYSED`` finished games of the kind.
"""

from __future__ import annotations

from statistics import mean
from typing import Any

from django.db.models import Avg, Count, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.analysis.reads import seat_summaries_of
from games.kinds import KINDS
from games.models import GameStatus, Seat
from players.models import Player, RatingChange

#: The latest finished games of each kind whose analysis the averages read.
ANALYSED = 50


class KindRecordSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text=_("First place in a game of two seats or more"))
    average_score = serializers.FloatField(allow_null=True)
    analysed_games = serializers.IntegerField(
        help_text=_("The latest finished games (at most 50) that the averages below read")
    )
    average_luck = serializers.FloatField(allow_null=True)
    average_skill_loss = serializers.FloatField(allow_null=True)
    average_accuracy = serializers.FloatField(allow_null=True)


class TenthField(serializers.FloatField):
    # Its stub says a FloatField renders a str: DRF's renders a float.
    def to_representation(self, value: float) -> float:  # type: ignore[override]
        return round(value, 1)


class RatingPointSerializer(serializers.Serializer[RatingChange]):
    kind = serializers.CharField()
    game = serializers.CharField(source="game_id")
    at = serializers.DateTimeField(source="created_at")
    rating_before = TenthField()
    rating_after = TenthField()
    deviation_after = TenthField()


class StatsSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    name = serializers.CharField()
    kinds = KindRecordSerializer(many=True)
    rating_history = RatingPointSerializer(many=True)


def _mean(values: list[float], digits: int = 2) -> float | None:
    return round(mean(values), digits) if values else None


def _record(player: Player, kind: str) -> dict[str, Any]:
    seats = Seat.objects.filter(player=player, game__kind=kind, game__status=GameStatus.FINISHED)
    totals = seats.annotate(seated=Count("game__seats")).aggregate(
        games=Count("id"),
        # A win: first place (shared or not) in a game of two seats or more.
        wins=Count("id", filter=Q(place=1, seated__gte=2)),
        average_score=Avg("final_total"),
    )
    latest = list(seats.select_related("game").order_by("-game__finished_at")[:ANALYSED])
    by_game = seat_summaries_of([seat.game for seat in latest])
    analysed = [by_game[seat.game_id][seat.index] for seat in latest if seat.game_id in by_game]
    average = totals["average_score"]
    return {
        "kind": kind,
        "games": totals["games"],
        "wins": totals["wins"],
        "average_score": None if average is None else round(average, 2),
        "analysed_games": len(analysed),
        "average_luck": _mean([float(a["luck"] or 0) for a in analysed]),
        "average_skill_loss": _mean([float(a["skill_loss"] or 0) for a in analysed]),
        "average_accuracy": _mean(
            [float(a["accuracy"]) for a in analysed if a["accuracy"] is not None], 4
        ),
    }


def player_stats(player: Player) -> dict[str, Any]:
    changes = RatingChange.objects.filter(player=player, voided_at__isnull=True)
    stats = {
        "username": player.username,
        "name": player.public_name,
        "kinds": [_record(player, kind) for kind in KINDS],
        "rating_history": changes.order_by("created_at", "id"),
    }
    return StatsSerializer(stats).data


class StatsView(APIView):
    # It reads up to fifty games' analyses per kind (each folded once, then kept).
    throttle_scope = "expensive"

    @extend_schema(
        summary="A player's statistics",
        description=(
            "Per game kind: games, wins, average score, and average luck, skill loss and "
            "accuracy over the latest finished games; the rating history. Throttled by the "
            "`expensive` rate."
        ),
        responses=StatsSerializer,
        tags=["players"],
    )
    def get(self, request: Request, username: str) -> Response:
        player = get_object_or_404(Player, username=username, is_active=True)
        return Response(player_stats(player))
