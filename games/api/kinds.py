"""``GET kinds/``: what a client needs to offer each game kind (its seats, computer levels, options
as a JSON Schema, analysis endpoints), read from the registry, so that no client keeps a copy.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, TypedDict, cast, get_args, get_origin, get_type_hints

from django.conf import settings
from django.utils.decorators import method_decorator
from django.views.decorators.cache import cache_control
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import kinds
from games.api import schema_forms
from games.rules.base import Doc

_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string"}


def options_schema(kind: kinds.Kind) -> dict[str, Any]:
    """The JSON Schema of the options a new game of ``kind`` takes (every one may be left out)."""
    form = type(kind.engine.options_from_wire({}))
    hints = get_type_hints(form, include_extras=True)
    properties: dict[str, Any] = {}
    for field in dataclasses.fields(form):
        hint, said = hints[field.name], Doc()
        if get_origin(hint) is Annotated:
            hint, *extras = get_args(hint)
            said = next((extra for extra in extras if isinstance(extra, Doc)), said)
        schema: dict[str, Any] = {"type": _JSON_TYPES[hint], "default": field.default}
        if field.name in kind.option_labels:
            schema["title"] = str(kind.option_labels[field.name])
        if said.values:
            schema["enum"] = list(said.values)
        if said.minimum is not None:
            schema["minimum"] = said.minimum
        if said.maximum is not None:
            schema["maximum"] = said.maximum
        if field.name in kind.rated_presets:
            schema["x-rated"] = list(kind.rated_presets[field.name])
        properties[field.name] = schema
    return {"type": "object", "properties": properties, "additionalProperties": False}


class KindSeats(TypedDict):
    least: int
    most: int
    most_computers: Annotated[int | None, Doc("null: no limit")]
    most_people: Annotated[int | None, Doc("null: no limit")]


class KindLevel(TypedDict):
    level: Annotated[str, Doc("As a computer seat's `level` sends it")]
    name: Annotated[str, Doc("In the request's language")]
    rating: Annotated[float, Doc("What a computer seat of it counts as")]


class Kind(TypedDict):
    kind: Annotated[str, Doc("As a game's `kind`")]
    name: Annotated[str, Doc("In the request's language")]
    seats: KindSeats
    levels: Annotated[list[KindLevel], Doc("The computer's, strongest first")]
    default_level: str
    options: Annotated[
        dict[str, Any],
        Doc("A JSON Schema of `Options`, with `title`s and rated values (`x-rated`)"),
    ]
    auto_confirm: Annotated[bool, Doc("The server ends a turn left waiting after its last roll")]
    preview: Annotated[bool, Doc("`games/{id}/preview/` answers")]
    analysis: Annotated[bool, Doc("`games/{id}/analysis/` answers")]
    max_events: Annotated[int, Doc("A game ends at this many events")]
    dice: Annotated[int, Doc("How many dice it plays with")]


class Kinds(TypedDict):
    kinds: Annotated[list[Kind], Doc("In the order to offer them")]
    turn_clocks: Annotated[
        list[int], Doc("The turn clocks a casual game or a seek may choose (seconds per move)")
    ]


def kind_body(kind: kinds.Kind) -> Kind:
    return {
        "kind": kind.code,
        "name": str(kind.label),
        "seats": cast(KindSeats, dataclasses.asdict(kind.seats)),
        "levels": [
            {"level": level.name, "name": str(level.label), "rating": level.rating}
            for level in kind.levels.values()
        ],
        "default_level": kind.default_level,
        "options": options_schema(kind),
        "auto_confirm": kind.auto_confirm is not None,
        "preview": kind.preview is not None,
        "analysis": kind.analyst is not None,
        "max_events": kind.max_events,
        "dice": kind.dice,
    }


@method_decorator(cache_control(public=True, max_age=300), name="get")
class KindListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="kinds_list",
        summary="The game kinds",
        description="Every game kind this server plays, with what a client needs to offer it: "
        "its seats, computer levels and options (with their ranges and labels).",
        responses=schema_forms.serializer(Kinds),
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        answer: Kinds = {
            "kinds": [kind_body(kind) for kind in kinds.KINDS.values()],
            "turn_clocks": list(settings.TURN_CLOCK_CHOICES),
        }
        return Response(answer)
