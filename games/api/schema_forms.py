"""The API schema of a typed structure, derived from its type: a rules wire form (a frozen
dataclass, ``games.rules.base.WireForm``) or a presenter's view (a ``TypedDict``), as a serializer
drf-spectacular describes; ``Annotated`` marks (``Doc``, ``Choices``) give the rest. A wire form's
schema is closed (``close_forms``): the rules write exactly its fields.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING
from typing import Annotated, Any, get_args, get_origin, get_type_hints, is_typeddict

from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.kinds import KINDS
from games.rules.base import Choices, Doc, Wire, WireForm

Field = serializers.Field[Any, Any, Any, Any]
Made = type[serializers.Serializer[Any]]

#: The component names of the closed schemas (``close_forms`` closes them).
CLOSED: set[str] = set()
_MADE: dict[str, Made] = {}
_SIMPLE: dict[Any, type[Field]] = {
    int: serializers.IntegerField,
    float: serializers.FloatField,
    bool: serializers.BooleanField,
    str: serializers.CharField,
}
_FORMATS: dict[str, type[Field]] = {
    "date-time": serializers.DateTimeField,
    "uuid": serializers.UUIDField,
}


def camel(code: str) -> str:
    """A kind's or a move's code as a component name's part: ``a_kind``, ``AKind``."""
    return "".join(part.capitalize() for part in code.split("_"))


def field(hint: Any, choices: Choices | None = None, form: str = "", **options: Any) -> Field:
    """The DRF field of a value of type ``hint`` as JSON, made with ``options`` (which take the
    place of its ``Doc``'s); ``form``: a string's format (``Doc.format``)."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        for mark in hint.__metadata__:
            if isinstance(mark, Choices):
                choices = mark
            elif isinstance(mark, Doc):
                given: dict[str, Any] = {"help_text": mark.text, "max_length": mark.max_items}
                if int in (args[0], *get_args(args[0])):
                    given["min_value"] = mark.minimum
                said = {key: value for key, value in given.items() if value not in (None, "")}
                options = {**said, **options}
                form = mark.format or form
                if mark.ref:
                    return _ref(mark.ref)(**options)
        return field(args[0], choices, form, **options)
    if origin in (typing.Union, types.UnionType):
        (present,) = (arg for arg in args if arg is not type(None))
        return field(present, choices, form, **{**options, "allow_null": True})
    if origin in (tuple, list):
        return serializers.ListField(child=field(args[0], choices), **options)
    if origin is dict:
        return serializers.DictField(child=field(args[1]), **options)
    if choices is not None:
        return _enum(choices)(**options)
    if hint is str and form:
        return _FORMATS[form](**options)
    if hint in _SIMPLE:
        return _SIMPLE[hint](**options)
    if is_typeddict(hint) or (isinstance(hint, type) and issubclass(hint, WireForm)):
        return serializer(hint)(**options)
    return serializers.JSONField(**options)


def doc(hint: Any) -> str:
    """The words of ``hint``'s ``Doc``, if it has one."""
    marks = getattr(hint, "__metadata__", ())
    return next((mark.text for mark in marks if isinstance(mark, Doc)), "")


def form_fields(form: type[Any]) -> dict[str, tuple[Any, bool]]:
    """The type of each field of ``form`` on the wire (a command's seat is not), and whether it
    is required (a wire form takes a missing field's default)."""
    hints = get_type_hints(form, include_extras=True)
    if is_typeddict(form):
        return {key: (hint, key in form.__required_keys__) for key, hint in hints.items()}
    found = {}
    for declared in dataclasses.fields(form):
        hint = hints[declared.name]
        if all(m.carried for m in getattr(hint, "__metadata__", ()) if isinstance(m, Wire)):
            needed = declared.default is MISSING and declared.default_factory is MISSING
            found[declared.name] = (hint, needed)
    return found


def serializer(form: type[Any], prefix: str = "", **given: Callable[[], Field]) -> Made:
    """The serializer of ``form`` (a wire form or a ``TypedDict``), named ``prefix`` + its name.
    ``given`` makes a field in place of the one its type would give (a game's ``kind``, one kind's
    ``state``), or before the form's own if the form has none of that name (an event's ``type``).
    """
    name = f"{prefix}{form.__name__}"
    if name not in _MADE:
        attrs: dict[str, Any] = {"__doc__": form.__doc__ if is_typeddict(form) else None}
        fields = form_fields(form)
        attrs |= {key: make() for key, make in given.items() if key not in fields}
        for key, (hint, required) in fields.items():
            attrs[key] = given[key]() if key in given else field(hint, required=required)
        if not is_typeddict(form):
            CLOSED.add(name)
        _MADE[name] = type(f"{name}Serializer", (serializers.Serializer,), attrs)
    return _MADE[name]


@functools.cache
def _ref(name: str) -> type[Field]:
    @extend_schema_field({"$ref": f"#/components/schemas/{name}"})
    class Named(serializers.JSONField):
        pass

    return Named


@functools.cache
def _enum(choices: Choices) -> type[serializers.ChoiceField]:
    """The field of one of ``choices``: their enum one component, whichever fields use it."""

    meanings = "\n".join(map("* `{}` - {}".format, choices.values, choices.labels))
    schema = {"type": "string", "enum": list(choices.values)}

    @extend_schema_field(
        {**schema, "description": meanings} if meanings else schema, component_name=choices.name
    )
    class Named(serializers.ChoiceField):
        def __init__(self, **options: Any) -> None:
            super().__init__(choices.values, **options)

    return Named


def close_forms(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: the wire forms' schemas closed."""
    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if name.removesuffix("Request") in CLOSED and schema.get("type") == "object":
            schema["additionalProperties"] = False
        if name.removesuffix("Request") in ANY_OF:
            schema["anyOf"] = schema.pop("oneOf")
    return result


class KindsProxy(PolymorphicProxySerializer):
    """A ``oneOf`` over the kinds registered when the schema is built (not when this module was
    imported: a kind a test registers shows too), each kind's serializers made once."""

    def __init__(self, *, make: Callable[[tuple[str, ...]], Any], **kwargs: Any) -> None:
        self.make = make
        super().__init__(serializers=lambda: make(tuple(KINDS)), **kwargs)

    @property
    def serializers(self) -> Any:
        return self.make(tuple(KINDS))

    @serializers.setter
    def serializers(self, value: Any) -> None:
        pass


class KindsProxyExtension(PolymorphicProxySerializerExtension):
    """drf-spectacular maps a proxy by its exact class: this one maps ``KindsProxy`` as its own."""

    target_class = "games.api.schema_forms.KindsProxy"


@functools.cache
def options(code: str) -> Made:
    """The options form of the kind ``code`` (what its rules read a game's options as)."""
    return serializer(type(KINDS[code].engine.options_from_wire({})))


#: A game's options: its kind's form. Any of the kinds' (nothing in them names the kind, and
#: ``{}`` is every kind's defaults), so an ``anyOf`` (``close_forms``).
OPTIONS = KindsProxy(
    component_name="Options",
    make=lambda codes: [options(code) for code in codes],
    resource_type_field_name=None,
    many=False,
)
ANY_OF = {"Options"}


@extend_schema_field(OPTIONS)
class OptionsField(serializers.DictField):
    """A game's options (a request's, or as kept): its kind's rules read and check them."""
