"""Schema-only: each event's ``data`` typed, written from the rules' own event forms (the frozen
dataclasses every kind's ``engine.Event`` names), so that the schema follows the rules.

An event's ``data`` is its form's wire form (``WireForm.to_wire``: ``type`` first, then each
field). Two kinds may share an event type with different fields (``dice_rolled``); the schema of
``data`` is a ``oneOf`` of every distinct form, each closed (``additionalProperties: false``,
``close_event_data``), so exactly one matches any event. Identical forms of two kinds
(``game_finished``) are one schema.
"""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING
from typing import Annotated, Any, TypeVar, get_args, get_origin, get_type_hints

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.api import serializers as s
from games.kinds import KINDS
from games.rules.base import WireForm

#: The component names of the closed schemas (``close_event_data`` closes them).
CLOSED: set[str] = set()
F = TypeVar("F", bound=serializers.Field[Any, Any, Any, Any])


def _field(hint: Any, name: str) -> serializers.Field[Any, Any, Any, Any]:
    origin = get_origin(hint)
    if origin is Annotated:
        return _field(get_args(hint)[0], name)
    if origin in (typing.Union, types.UnionType):
        present = [arg for arg in get_args(hint) if arg is not type(None)]
        return _with(_field(present[0], name), allow_null=True)
    if origin is tuple:
        return serializers.ListField(child=_field(get_args(hint)[0], name))
    simple: dict[Any, type[serializers.Field[Any, Any, Any, Any]]] = {
        int: serializers.IntegerField,
        float: serializers.FloatField,
        bool: serializers.BooleanField,
        str: serializers.CharField,
    }
    if hint in simple:
        return simple[hint]()
    if isinstance(hint, type) and issubclass(hint, WireForm):
        return _serializer(hint, "")()
    return serializers.JSONField()


def _with(field: F, **options: Any) -> F:
    """``field`` made again with ``options``: DRF copies a serializer's declared fields from
    their constructor's arguments, so an attribute set afterwards would be lost."""
    made: F = type(field)(*field._args, **{**field._kwargs, **options})  # type: ignore[attr-defined]
    return made


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


_MADE: dict[str, type[serializers.Serializer[Any]]] = {}


def _serializer(form: type[WireForm], prefix: str) -> type[serializers.Serializer[Any]]:
    """A serializer of ``form``'s wire form, named ``prefix`` + the form's name."""
    name = f"{prefix}{form.__name__}"
    if name in _MADE:
        return _MADE[name]
    attrs: dict[str, Any] = {}
    event_type = getattr(form, "type", None)
    if isinstance(event_type, str):
        attrs["type"] = _type_field(event_type)
    for field_name, hint in get_type_hints(form, include_extras=True).items():
        if field_name != "type" and field_name in form.__dataclass_fields__:
            field = _field(hint, field_name)
            declared = form.__dataclass_fields__[field_name]
            # A field with a default may be left off the wire (the revealed seed until the end).
            if declared.default is not MISSING or declared.default_factory is not MISSING:
                field = _with(field, required=False)
            attrs[field_name] = field
    made = type(f"{name}Serializer", (serializers.Serializer,), attrs)
    CLOSED.add(name)
    _MADE[name] = made
    return made


def _event_data() -> list[type[serializers.Serializer[Any]]]:
    by_signature: dict[str, type[serializers.Serializer[Any]]] = {}
    for kind in KINDS.values():
        prefix = "".join(part.capitalize() for part in kind.code.split("_"))
        for form in get_args(getattr(kind.engine, "Event")):  # noqa: B009  (no Engine attribute)
            signature = _signature(form)
            if signature not in by_signature:
                by_signature[signature] = _serializer(form, prefix)
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


def close_event_data(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: the event forms' schemas closed."""
    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if name in CLOSED and schema.get("type") == "object":
            schema["additionalProperties"] = False
    return result
