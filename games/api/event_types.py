"""Schema-only: each event's ``data`` typed, written from the rules' own event forms (the frozen
dataclasses every kind's ``engine.Event`` names), so that the schema follows the rules.

An event's ``data`` is its form's wire form (``WireForm.to_wire``: ``type`` first, then each
field). Two kinds may share an event type with different fields (``dice_rolled``); the schema of
``data`` is a ``oneOf`` of every distinct form, each closed (``schema_forms.close_forms``), so
exactly one matches any event. Identical forms of two kinds
(``game_finished``) are one schema.
"""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.api import schema_forms
from games.api import serializers as s
from games.kinds import KINDS
from games.rules.base import WireForm


def _type_field(value: str) -> serializers.CharField:
    """The event's type: a pattern rather than a one-value enum, whose enum component two kinds'
    forms of one type (``dice_rolled``) would both claim."""

    @extend_schema_field({"type": "string", "pattern": f"^{value}$", "example": value})
    class TypeField(serializers.CharField):
        pass

    return TypeField()


def _signature(form: type[WireForm]) -> str:
    """The form's type and fields: two kinds' forms with the same are one schema."""
    fields = sorted((name, repr(hint)) for name, hint in get_type_hints(form).items())
    return repr((getattr(form, "type", None), fields))


def _event_data() -> list[serializers.Serializer[Any] | schema_forms.Made]:
    by_signature: dict[str, schema_forms.Made] = {}
    for kind in KINDS.values():
        prefix = schema_forms.camel(kind.code)
        for form in get_args(getattr(kind.engine, "Event")):  # noqa: B009  (no Engine attribute)
            signature = _signature(form)
            if signature not in by_signature:
                type_field = _type_field(form.type)
                by_signature[signature] = schema_forms.serializer(form, prefix, type=type_field)
    return list(by_signature.values())


EVENT_DATA = PolymorphicProxySerializer(
    component_name="EventData",
    serializers=_event_data(),
    resource_type_field_name=None,
    many=False,
)


class TypedEventSerializer(s.GameEventSerializer):
    data = EVENT_DATA  # type: ignore[assignment]  # the JSON field, typed

    class Meta(s.GameEventSerializer.Meta):
        ref_name = "GameEvent"
