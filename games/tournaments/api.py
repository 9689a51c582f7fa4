"""Tournament endpoints: list, detail, register/withdraw, standings, rounds. Admins create them
here too (or in the Django admin)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import django_filters
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import generics, serializers
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.schema import refuses
from config.vocabulary.refusals import Refusal
from config.web.bounded_lists import BoundedListField
from config.web.idempotency import idempotent
from games.api.pagination import GameCursorPagination
from games.api.schema_forms import OptionsField, serializer
from games.api.views import parse
from games.kinds.fields import KindChoiceField, KindFilter
from games.tournaments import selectors, services
from games.tournaments.models import Entrant, Tournament, TournamentFormat
from games.tournaments.standings import Standing
from players.auth import request_player


class EntrantSerializer(serializers.ModelSerializer[Entrant]):
    name = serializers.CharField(source="display_name")
    username = serializers.CharField(source="player.username", default=None)
    computer = serializers.BooleanField(source="is_computer")
    computer_level = serializers.CharField(
        source="level",
        label=capfirst(_("computer level")),
        max_length=20,
        allow_blank=True,
        required=False,
    )

    class Meta:
        model = Entrant
        fields = [
            "id", "name", "username", "computer", "computer_level", "seed_rating", "withdrawn_at",
        ]  # fmt: skip
        extra_kwargs = {
            "withdrawn_at": {
                "help_text": _(
                    "Null for an entry that stands. Set for an entry forfeited while the "
                    "tournament runs (its account was banned or deleted): it stays in the "
                    "pairing, and each of its later games ends as it starts."
                )
            }
        }


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    format_name = serializers.CharField(source="get_format_display", read_only=True)
    status_name = serializers.CharField(source="get_status_display", read_only=True)
    kind_name = serializers.CharField(source="get_kind_display", read_only=True)
    game_options = OptionsField(read_only=True)
    entrants = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "kind", "kind_name", "game_options", "format", "format_name",
            "rounds", "table_size", "registration_opens_at", "starts_at", "min_entrants",
            "max_entrants", "rated", "turn_clock_seconds", "recurrence", "status",
            "status_name", "cancel_reason", "paused_at", "current_round", "started_at",
            "finished_at", "entrants",
        ]  # fmt: skip
        read_only_fields = [
            "status", "cancel_reason", "paused_at", "current_round", "started_at", "finished_at",
        ]  # fmt: skip

    @extend_schema_field(EntrantSerializer(many=True))
    def get_entrants(self, tournament: Tournament) -> list[dict[str, Any]]:
        # Before the start, the entries that stand; from it, every entrant of the pairing (seeded),
        # forfeited ones included.
        if tournament.started_at is None:
            active = [e for e in tournament.entrants.all() if e.withdrawn_at is None]
        else:
            active = [e for e in tournament.entrants.all() if e.seed_rating is not None]
        # many=True makes a ListSerializer (a list); the stubs keep the class's own (a dict).
        return cast(list[dict[str, Any]], EntrantSerializer(active, many=True).data)


#: The most entrants of a tournament, and so of its computer entrants.
MAX_ENTRANTS = 1024


class TournamentCreateInput(serializers.Serializer[None]):
    name = serializers.CharField(max_length=100)
    kind = KindChoiceField()
    format = serializers.ChoiceField(choices=TournamentFormat.choices)
    starts_at = serializers.DateTimeField()
    rounds = serializers.IntegerField(min_value=1, max_value=50, required=False, allow_null=True)
    table_size = serializers.IntegerField(min_value=2, max_value=6, default=2)
    game_options = OptionsField(default=dict)
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    min_entrants = serializers.IntegerField(min_value=2, default=2)
    max_entrants = serializers.IntegerField(min_value=2, max_value=MAX_ENTRANTS, default=64)
    rated = serializers.BooleanField(default=True)
    turn_clock_seconds = serializers.IntegerField(min_value=0, max_value=3600, default=60)
    recurrence = serializers.CharField(max_length=100, default="", allow_blank=True)
    computers = BoundedListField(
        child=serializers.CharField(max_length=20),
        max_length=MAX_ENTRANTS,  # checked before any level is read
        default=list,
        help_text=_("Computer entrants to add, by level"),
    )

    def validate_starts_at(self, value: Any) -> Any:
        if value <= timezone.now():
            raise serializers.ValidationError(_("The start must be in the future."), code="past")
        return value


class TournamentFilter(django_filters.FilterSet):
    kind = KindFilter()
    upcoming = django_filters.BooleanFilter(method="filter_upcoming", label=_("Not started yet"))

    class Meta:
        model = Tournament
        fields = ["status", "kind", "upcoming"]

    def filter_upcoming(self, queryset: QuerySet[Tournament], name: str, value: bool) -> Any:
        upcoming = queryset.filter(status__in=services.OPEN_FOR_ENTRY)
        return upcoming if value else queryset.exclude(pk__in=upcoming)


class TournamentPagination(GameCursorPagination):
    ordering = "starts_at"


class MaySchedule(BasePermission):
    """Reads for anyone; scheduling for the accounts with ``tournaments.add_tournament`` (being
    staff lets an account into the admin, not more)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.has_perm("tournaments.add_tournament")
        )


@extend_schema_view(
    get=extend_schema(
        summary="List tournaments",
        description="Cursor pages by start time; filter by `status`, `kind`, `upcoming=true`.",
    )
)
class TournamentListCreateView(generics.ListAPIView[Tournament]):
    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter
    pagination_class = TournamentPagination
    permission_classes = [MaySchedule]
    queryset = selectors.tournament_queryset()

    @refuses(Refusal.INVALID_INPUT, Refusal.INVALID_QUERY)  # a filter's value, the cursor
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.list(request, *args, **kwargs)

    @extend_schema(
        summary="Schedule a tournament",
        description="Staff only. Takes an `Idempotency-Key`.",
        request=TournamentCreateInput,
        responses={201: TournamentSerializer},
    )
    @idempotent
    @refuses(
        Refusal.PERMISSION_DENIED,
        Refusal.ROUNDS_REQUIRED,
        Refusal.INVALID_TABLE_SIZE,
        Refusal.INVALID_ENTRANT_BOUNDS,
        Refusal.INVALID_RECURRENCE,
        Refusal.UNKNOWN_LEVEL,
        Refusal.INVALID_OPTION,
    )
    def post(self, request: Request) -> Response:
        data = parse(TournamentCreateInput, request.data)
        tournament = services.tournament_create(created_by=request_player(request), **data)
        fresh = selectors.tournament_get(tournament.pk)
        return Response(TournamentSerializer(fresh).data, status=201)


class TournamentDetailView(APIView):
    @extend_schema(
        summary="A tournament",
        description="Its format, schedule and entrants.",
        responses=TournamentSerializer,
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(TournamentSerializer(selectors.tournament_get(tournament_id)).data)


class EntryInput(serializers.Serializer[None]):
    client_seed = serializers.CharField(
        default="",
        allow_blank=True,
        trim_whitespace=False,
        help_text=_(
            "Your seat's client seed for the fair dice at each of your tables: 1 to 64 printable "
            "ASCII characters (or give it with your first move of each game, after its hash is "
            "shown)"
        ),
    )


class TournamentRegisterView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Enter a tournament",
        description=(
            "Before the start, while registration is open; the body may be empty. Takes an "
            "`Idempotency-Key`."
        ),
        request=EntryInput,
        responses={201: EntrantSerializer},
    )
    @idempotent
    @refuses(
        Refusal.REGISTRATION_CLOSED,
        Refusal.REGISTRATION_NOT_OPEN,
        Refusal.ALREADY_REGISTERED,
        Refusal.TOURNAMENT_FULL,
        Refusal.INVALID_CLIENT_SEED,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        entrant = services.tournament_register(
            tournament_id=tournament_id,
            player=request_player(request),
            **parse(EntryInput, request.data),
        )
        return Response(EntrantSerializer(entrant).data, status=201)


class TournamentWithdrawView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Leave a tournament",
        description="Before the start.",
        request=None,
        responses={204: None},
    )
    @refuses(Refusal.REGISTRATION_CLOSED, Refusal.NOT_REGISTERED)
    def post(self, request: Request, tournament_id: int) -> Response:
        services.tournament_withdraw(tournament_id=tournament_id, player=request_player(request))
        return Response(status=204)


#: A row of the standings (``standings.Standing``), its entrant in full.
StandingSerializer = serializer(Standing, entrant=EntrantSerializer)


class TournamentStandingsView(APIView):
    @extend_schema(
        summary="Standings",
        description="Ranked with the format's tie-breaks.",
        responses=StandingSerializer(many=True),
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        rows = selectors.tournament_standings(selectors.tournament_get(tournament_id))
        return Response(StandingSerializer(rows, many=True).data)


class RoundSeatSerializer(serializers.Serializer[dict[str, Any]]):
    entrant = serializers.IntegerField()
    name = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(allow_null=True)


class RoundGameSerializer(serializers.Serializer[dict[str, Any]]):
    table = serializers.IntegerField()
    replay = serializers.IntegerField()
    game = serializers.UUIDField()
    status = serializers.CharField()
    seats = RoundSeatSerializer(many=True)


class RoundSerializer(serializers.Serializer[dict[str, Any] | Sequence[dict[str, Any]]]):
    number = serializers.IntegerField()
    finished = serializers.BooleanField()
    byes = EntrantSerializer(many=True)
    games = RoundGameSerializer(many=True)


class TournamentRoundsView(APIView):
    @extend_schema(
        summary="Rounds",
        description="Each round's tables and their games.",
        responses=RoundSerializer(many=True),
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        rounds = selectors.tournament_rounds(selectors.tournament_get(tournament_id))
        return Response(RoundSerializer(rounds, many=True).data)
