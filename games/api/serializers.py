"""What the games API reads and writes. Inputs only parse; outputs only render.

The output serializers are the schema's documentation (drf-spectacular). The game and event
answers themselves are built by ``games.api.render`` as plain dicts, far cheaper;
``tests/api/test_render.py`` holds the two equal.
"""

from __future__ import annotations

from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api import schema_forms
from games.fairness.seeds import fairness_body
from games.kinds import KINDS, kind_for
from games.kinds.fields import KindChoiceField
from games.models import Game, GameEvent, Occupant, Seat
from games.presenters.common import Message
from games.seating import controlled_seats
from players.identity import display_name_clean
from players.models import Player

#: The most seats a new game's request may list, checked before any seat is read: above the
#: seats of every game (7), so that a request for a few too many is told ``invalid_seat_count``.
MAX_SEAT_ENTRIES = 16

SEED_HELP = _("Your seat's client seed for the fair dice: 1 to 64 printable ASCII characters")

SEAT_TYPES = [
    ("me", _("My own account")),
    ("open", _("Open to a registered player")),
    ("hotseat", _("A hot-seat player on my device")),
    ("computer", _("The computer")),
]


class SeatInput(serializers.Serializer[None]):
    type = serializers.ChoiceField(choices=SEAT_TYPES)
    name = serializers.CharField(max_length=40, required=False, default="", allow_blank=True)
    level = serializers.CharField(max_length=20, required=False, default="", allow_blank=True)
    client_seed = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        help_text=SEED_HELP,
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # A seat's name is shown to the other players as an account's display name is.
        attrs["name"] = display_name_clean(attrs["name"])
        if attrs["type"] == "hotseat" and not attrs["name"]:
            raise serializers.ValidationError(
                {"name": _("A hot-seat player needs a name.")}, code="name_required"
            )
        return attrs


class GameCreateInput(serializers.Serializer[None]):
    kind = KindChoiceField()
    options = serializers.DictField(required=False, default=dict)
    # What many=True makes, said outright: its max_length is checked before any seat is read
    # (config.web.bounded_lists).
    seats: serializers.ListSerializer[None] = serializers.ListSerializer(
        child=SeatInput(), allow_empty=False, max_length=MAX_SEAT_ENTRIES
    )
    assistance = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Hints and previews for the seat to move; on unless set false."),
    )
    turn_clock_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Seconds per move (15, 30, 60, 120 or 300); none: no clock."),
    )


class ResignInput(serializers.Serializer[None]):
    seat = serializers.IntegerField(
        required=False,
        min_value=0,
        allow_null=True,
        default=None,
        help_text=_("The seat that resigns, if you hold several (hot-seat games)"),
    )
    expected_version = serializers.IntegerField(
        required=False, min_value=0, allow_null=True, default=None
    )


class JoinInput(serializers.Serializer[None]):
    seat = serializers.IntegerField(required=False, min_value=0, allow_null=True, default=None)
    client_seed = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        help_text=SEED_HELP,
    )


# What a move of any kind may carry besides its type and its kind's own fields (and the schema's
# moves: games.api.schema_types). No docstring: it would describe every move.
class MoveFields(serializers.Serializer[None]):
    seat = serializers.IntegerField(
        required=False, help_text=_("Optional: the seat you mean to move for")
    )
    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text=_("The game version your move is based on; refused with 409 if stale."),
    )
    client_seed = serializers.CharField(
        required=False,
        trim_whitespace=False,
        help_text=_(
            "Optional: your seat's client seed for the fair dice (1 to 64 printable ASCII "
            "characters), until the seat's first roll; refused with 409 after it, unless the same"
        ),
    )


class MoveInput(MoveFields):
    """A move. ``type`` and its fields are read by the game's rules, which name what is wrong."""

    type = serializers.CharField()  # the schema's are the kinds' (games.api.schema_types)

    @classmethod
    def read(cls, data: Any) -> dict[str, Any]:
        """``to_internal_value`` of a usual move (a known type, a version that is a plain
        non-negative int) without building the serializer, which costs more than the rules'
        decision; anything else goes through the serializer, so every refusal is its own."""
        move_type = data.get("type") if isinstance(data, dict) else None
        # A type the envelope's CharField takes as it is (no blank, no NUL, no surrogate).
        if isinstance(move_type, str) and move_type.isascii() and move_type.isidentifier():
            version = data.get("expected_version")
            if "expected_version" not in data or (type(version) is int and version >= 0):
                command = {k: v for k, v in data.items() if k != "expected_version"}
                return {"command": command, "expected_version": version}
        serializer = cls(data=data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        # Only the envelope is checked here; the command itself goes to the rules untouched, so
        # a malformed ``hold`` gets the rules' own code rather than a generic one.
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                {"non_field_errors": [_("Send a JSON object.")]}, code="invalid"
            )
        envelope = {k: data[k] for k in ("type", "expected_version") if k in data}
        checked = super().to_internal_value(envelope)
        command = {k: v for k, v in data.items() if k != "expected_version"}
        return {"command": command, "expected_version": checked.get("expected_version")}


class PlayerRef(serializers.Serializer[Player]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField(source="public_name")


class FairSeatSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    client_seed = serializers.CharField(
        allow_blank=True, help_text=_("The seat's client seed; empty if it gave none")
    )
    fixed = serializers.BooleanField(
        help_text=_("The seat has rolled: its client seed can no longer change")
    )


class FairnessSerializer(serializers.Serializer[dict[str, Any]]):
    """A game's fair dice (README, "Fair dice"); null for a game of version 1 before its start
    (it draws its seed then)."""

    version = serializers.IntegerField(
        allow_null=True,
        help_text=_("Which formula the rolls follow: 1 or 2 (null for a game without a seed)"),
    )
    verifiable = serializers.BooleanField(
        help_text=_("False for a game started before fair dice: its rolls cannot be checked")
    )
    algorithm = serializers.CharField(allow_null=True)
    server_seed_hash = serializers.CharField(
        allow_null=True,
        help_text=_("SHA-256 of the server seed, published as soon as the seed is drawn"),
    )
    client_seed = serializers.CharField(
        allow_null=True,
        help_text=_("Version 1: the game's client seed, the seats' joined; null in version 2"),
    )
    seats = FairSeatSerializer(
        many=True,
        allow_null=True,
        help_text=_("Version 2: each seat's client seed; null in version 1"),
    )
    server_seed = serializers.CharField(
        allow_null=True, help_text=_("The server seed (hex), once the game is over")
    )


class SeatSerializer(serializers.ModelSerializer[Seat]):
    name = serializers.CharField(source="display_name")
    player = PlayerRef(allow_null=True)
    open = serializers.BooleanField(source="is_open")
    # A seat's kind and computer level are its ``occupant`` and ``level`` in code.
    kind = serializers.ChoiceField(source="occupant", choices=Occupant.choices)
    kind_name = serializers.CharField(source="get_occupant_display")
    ai_level = serializers.CharField(
        source="level",
        label=capfirst(_("computer level")),
        max_length=20,
        allow_blank=True,
        required=False,
    )

    class Meta:
        model = Seat
        fields = [
            "index", "kind", "kind_name", "name", "player", "open", "ai_level", "place",
            "final_total",
        ]  # fmt: skip


class GameSerializer(serializers.ModelSerializer[Game]):
    kind_name = serializers.CharField(source="get_kind_display")
    status_name = serializers.CharField(source="get_status_display")
    created_by = PlayerRef()
    seats = SeatSerializer(many=True)
    your_seats = serializers.SerializerMethodField()
    setup_label = serializers.SerializerMethodField()
    fairness = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id", "kind", "kind_name", "status", "status_name", "version", "options",
            "created_by", "created_at", "started_at", "finished_at", "turn_seat", "deadline_at",
            "rated", "assistance", "seats", "your_seats", "setup_label", "fairness", "state",
        ]  # fmt: skip
        extra_kwargs = {
            "deadline_at": {
                "help_text": _(
                    "When the server plays for the seat to move if it has not moved by then: the "
                    "auto-confirm of a turn left waiting (in the kinds that have one), or the end "
                    "of the turn clock, whichever comes first. Null when nothing is due (no "
                    "clock, a computer's turn, a game not in play)."
                )
            }
        }

    def get_your_seats(self, game: Game) -> list[int]:
        request = self.context.get("request")
        return sorted(controlled_seats(game, getattr(request, "user", None)))

    def get_setup_label(self, game: Game) -> str | None:
        occupants = [seat.occupant for seat in game.seats.all()]
        return kind_for(game.kind).presenter.setup_label(occupants)

    @extend_schema_field(FairnessSerializer(allow_null=True))
    def get_fairness(self, game: Game) -> dict[str, Any] | None:
        return fairness_body(game)

    @extend_schema_field(serializers.DictField(allow_null=True))  # null until the game starts
    def get_state(self, game: Game) -> dict[str, Any] | None:
        if game.state is None:
            return None
        return kind_for(game.kind).presenter.present(game.state)


class GameSummarySerializer(GameSerializer):
    class Meta(GameSerializer.Meta):
        fields = [f for f in GameSerializer.Meta.fields if f != "state"]


MessageSerializer = schema_forms.serializer(Message)


class GameEventSerializer(serializers.ModelSerializer[GameEvent]):
    """An event; ``messages`` are what the app shows for it, in the request's language. Give the
    game's kind as ``context["kind"]``."""

    actor = serializers.CharField(source="actor.username", allow_null=True, default=None)
    messages = serializers.SerializerMethodField()

    class Meta:
        model = GameEvent
        fields = ["seq", "type", "data", "actor", "automatic", "created_at", "messages"]

    @extend_schema_field(MessageSerializer(many=True))
    def get_messages(self, event: GameEvent) -> list[dict[str, str]]:
        kind = KINDS.get(self.context.get("kind", ""))
        return [] if kind is None else kind.presenter.event_messages(event.type)


class KeepPreviewSerializer(serializers.Serializer[dict[str, Any]]):
    keep = serializers.ListField(child=serializers.IntegerField())
    valid = serializers.BooleanField(help_text=_("Whether these dice may be set aside together"))
    points = serializers.IntegerField()
    turn_points = serializers.IntegerField(help_text=_("The turn's points with this selection"))
    hot_dice = serializers.BooleanField()
    next_roll_dice = serializers.IntegerField()
    farkle_risk = serializers.FloatField(allow_null=True)


class AnalysisSeatSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    expected_start = serializers.FloatField(
        help_text=_(
            "The seat's value at the start, as the kind's analysis counts it (an empty sheet's "
            "expected score, or the expected points of its turns)"
        )
    )
    luck = serializers.FloatField()
    skill_loss = serializers.FloatField()
    value_now = serializers.FloatField(help_text=_("expected_start + luck - skill_loss"))
    final = serializers.IntegerField(allow_null=True)
    decisions = serializers.IntegerField()
    accuracy = serializers.FloatField(allow_null=True)


class AnalysisTurnSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    turn = serializers.IntegerField()
    expected = serializers.FloatField()
    luck = serializers.FloatField()
    skill_loss = serializers.FloatField()
    points = serializers.IntegerField(allow_null=True)
    win_before = serializers.FloatField(
        allow_null=True, help_text=_("Two seats: the seat's chance to win before the turn")
    )
    win_after = serializers.FloatField(allow_null=True)


class AnalysisDecisionSerializer(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    turn = serializers.IntegerField()
    move = serializers.DictField()
    best_move = serializers.DictField()
    value = serializers.FloatField()
    best_value = serializers.FloatField()
    loss = serializers.FloatField()
    win_loss = serializers.FloatField(allow_null=True)


class AnalysisRollSerializer(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    turn = serializers.IntegerField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    luck = serializers.FloatField()


class AnalysisSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.CharField()
    kind = serializers.CharField()
    finished = serializers.BooleanField()
    method = serializers.DictField(child=serializers.CharField())
    seats = AnalysisSeatSerializer(many=True)
    turns = AnalysisTurnSerializer(many=True)
    decisions = AnalysisDecisionSerializer(many=True)
    rolls = AnalysisRollSerializer(many=True)
