"""The schema of what the presenters and the rules read and write, derived from every kind
(``games.kinds.KINDS``) by ``schema_forms``; ``tests/api/test_schema_types.py`` validates real
answers of every kind and status against it: ``GAME`` (a ``oneOf`` on ``kind``, its state typed),
``MOVE`` (a ``oneOf`` on ``type``, each field described by the kinds that read it) and
``EVENT_DATA`` (on ``type``; where two kinds' forms of a type differ, a ``oneOf`` of closed forms,
so exactly one matches any event).
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import deepcopy
from functools import cache, partial
from typing import Annotated, Any, get_args, get_type_hints

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.api import render, schema_forms
from games.api import serializers as s
from games.kinds import KINDS, Kind
from games.kinds.fields import KindChoiceField
from games.rules import ending
from games.rules.base import Choices


@cache
def _state(code: str) -> schema_forms.Made:
    return schema_forms.serializer(get_type_hints(KINDS[code].presenter.present_rules)["return"])


@cache
def _game(code: str) -> schema_forms.Made:
    return schema_forms.serializer(
        render.Game,
        schema_forms.camel(code),
        kind=lambda: serializers.ChoiceField(choices=[code]),
        options=lambda: schema_forms.options(code)(),
        state=lambda: _state(code)(allow_null=True, help_text="null until the game starts"),
    )


GAME = schema_forms.KindsProxy(
    component_name="Game",
    make=lambda codes: {code: _game(code) for code in codes},
    resource_type_field_name="kind",
    many=False,
)


def _move(move_type: str, forms: list[tuple[Kind, Any]]) -> schema_forms.Made:
    """A move of ``move_type``: every field a kind's command of that type reads, required where
    every kind requires it, described as each kind that reads it describes it."""
    read = [(kind, schema_forms.form_fields(form)) for kind, form in forms]
    attrs: dict[str, Any] = {"type": serializers.ChoiceField(choices=[move_type])}
    for name in dict.fromkeys(key for _kind, fields in read for key in fields):
        readers = [(kind, *fields[name]) for kind, fields in read if name in fields]
        words = [
            format_lazy("{}: {}", kind.label, schema_forms.doc(hint))
            for kind, hint, _need in readers
        ]
        attrs[name] = schema_forms.field(
            readers[0][1],
            help_text=format_lazy("; ".join("{}" for _word in words), *words),
            required=len(readers) == len(read) and all(need for _kind, _hint, need in readers),
        )
    return type(f"{schema_forms.camel(move_type)}MoveSerializer", (s.MoveFields,), attrs)


@cache
def _moves(codes: tuple[str, ...]) -> dict[str, serializers.Serializer[Any] | schema_forms.Made]:
    by_type: dict[str, list[tuple[Kind, Any]]] = {}
    for kind in map(KINDS.__getitem__, codes):
        for form in get_args(getattr(kind.engine, "Command")):  # noqa: B009  (no Engine attribute)
            if form.type not in ending.TYPES:  # the seat's moves, not the endpoints' or the staff's
                by_type.setdefault(form.type, []).append((kind, form))
    return {move_type: _move(move_type, forms) for move_type, forms in by_type.items()}


MOVE = schema_forms.KindsProxy(
    component_name="Move", make=_moves, resource_type_field_name="type", many=False
)


def _signature(form: Any) -> str:
    """The form's type and fields: two kinds' forms with the same are one schema."""
    fields = sorted((name, repr(hint)) for name, hint in get_type_hints(form).items())
    return repr((getattr(form, "type", None), fields))


def _events(codes: tuple[str, ...]) -> Iterator[tuple[Kind, Any]]:
    for kind in map(KINDS.__getitem__, codes):
        for form in get_args(getattr(kind.engine, "Event")):  # noqa: B009  (no Engine attribute)
            yield kind, form


@cache
def _event_data(codes: tuple[str, ...]) -> dict[str, Any]:
    """Each event type's data: its form, or where kinds' forms of one type differ
    (``dice_rolled``), a ``oneOf`` of them, each closed, so exactly one matches any event."""
    by_type: dict[str, dict[str, schema_forms.Made]] = {}
    for kind, form in _events(codes):
        forms = by_type.setdefault(form.type, {})
        if (signature := _signature(form)) not in forms:
            tag = Annotated[str, Choices(f"{schema_forms.camel(form.type)}EventType", (form.type,))]
            made = partial(schema_forms.field, tag)
            forms[signature] = schema_forms.serializer(
                form, schema_forms.camel(kind.code), type=made
            )
    return {
        name: next(iter(forms.values()))
        if len(forms) == 1
        else PolymorphicProxySerializer(
            component_name=f"{schema_forms.camel(name)}EventData",
            serializers=list(forms.values()),
            resource_type_field_name=None,
            many=False,
        )
        for name, forms in by_type.items()
    }


#: An event's ``data``, discriminated by its ``type``, each type's tag an enum of one value.
EVENT_DATA = schema_forms.KindsProxy(
    component_name="EventData", make=_event_data, resource_type_field_name="type", many=False
)


def name_event_types(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: ``EventType``, every type of the kinds' events."""
    names = sorted({form.type for _kind, form in _events(tuple(KINDS))})
    result["components"]["schemas"]["EventType"] = {"type": "string", "enum": names}
    return result


PREVIEW = schema_forms.KindsProxy(
    component_name="Preview",
    make=lambda codes: [
        schema_forms.serializer(get_type_hints(KINDS[code].preview)["return"])
        for code in codes
        if KINDS[code].preview is not None
    ],
    resource_type_field_name=None,
    many=False,
)
GAME_SUMMARY = schema_forms.serializer(render.GameSummary, kind=KindChoiceField)


TypedEventSerializer = schema_forms.serializer(render.GameEvent, data=lambda: deepcopy(EVENT_DATA))


MoveResultSerializer = schema_forms.serializer(render.MoveResult, game=lambda: GAME)
EventPageSerializer = schema_forms.serializer(render.EventPage)
ReplaySerializer = schema_forms.serializer(
    render.Replay,
    state=lambda: schema_forms.KindsProxy(
        component_name="GameState",
        make=lambda codes: [_state(code) for code in codes],
        resource_type_field_name=None,
        many=False,
        allow_null=True,
    ),
)


class HintOptionSerializer(serializers.Serializer[dict[str, Any]]):
    move = MOVE
    expected_value = serializers.FloatField()


class HintSerializer(serializers.Serializer[dict[str, Any]]):
    move = MOVE
    expected_value = serializers.FloatField(
        allow_null=True,
        help_text=_(
            "The expected value of the position after that move, as the kind's computer "
            "counts it (null where it counts none)"
        ),
    )
    options = HintOptionSerializer(many=True, required=False)
