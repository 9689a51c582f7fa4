"""What the games API reads, and the schema of the answers built as plain dicts elsewhere (the
games and their events: ``games.api.render``'s ``TypedDict``s)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.api import schema_forms
from games.kinds.fields import KindChoiceField
from players.identity import display_name_clean

#: The most seats a new game's request may list, checked before any seat is read: above the
#: seats of every game (7), so that a request for a few too many is told ``invalid_seat_count``.
MAX_SEAT_ENTRIES = 16


def _seed_field() -> serializers.CharField:
    return serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        help_text=_(
            "Your seat's client seed for the fair dice: 1 to 64 printable ASCII characters"
        ),
    )


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
    client_seed = _seed_field()

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
    options = schema_forms.OptionsField(required=False, default=dict)
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
    client_seed = _seed_field()


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
