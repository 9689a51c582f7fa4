"""The stream tier's endpoints in the OpenAPI schema (a drf-spectacular postprocessing hook): they
are served by ``games.streams``, a plain ASGI application drf-spectacular cannot see. A game's
stream sends ``GameEvent``s, the account stream the notes of ``games.followups.notes``; refusals
are the API's problems, from the one vocabulary.
"""

from __future__ import annotations

import dataclasses
import inspect
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from config.schema import HEADERS
from config.vocabulary.problems import PROBLEM_JSON
from config.vocabulary.refusals import Refusal
from games.followups import notes

EVENT_STREAM = "text/event-stream"
_PROBLEM = {"$ref": "#/components/schemas/Problem"}
RETRY_AFTER = "Retry-After"


_TYPES = {int: {"type": "integer"}, str: {"type": "string"}}


def _property(hint: Any, metadata: Any) -> dict[str, Any]:
    nullable = get_origin(hint) in (UnionType, Union) and type(None) in get_args(hint)
    base = next(arm for arm in get_args(hint) if arm is not type(None)) if nullable else hint
    typed = {"type": [_TYPES[base]["type"], "null"]} if nullable else _TYPES[base]
    return {**typed, **metadata}


def _note_schema(note: type[notes.Note]) -> dict[str, Any]:
    hints = get_type_hints(note)
    fields = {"type": {"type": "string", "enum": [note.type]}}
    fields |= {f.name: _property(hints[f.name], f.metadata) for f in dataclasses.fields(note)}
    return {
        "type": "object",
        "description": " ".join(inspect.cleandoc(note.__doc__ or "").split()),
        "properties": fields,
        "required": sorted(fields),
    }


#: The notes' schemas, made from ``games.followups.notes`` (``YourTurn`` is ``YourTurnNote``).
NOTES = {f"{note.__name__}Note": _note_schema(note) for note in notes.NOTES}
_NOTE_REFS = {note.type: f"#/components/schemas/{note.__name__}Note" for note in notes.NOTES}


def _refusals(*refusals: Refusal) -> dict[str, Any]:
    by_status: dict[int, set[str]] = {}
    for refusal in refusals:
        by_status.setdefault(refusal.status, set()).add(refusal.code)
    answers: dict[str, Any] = {
        str(status): {
            "description": ", ".join(f"`{code}`" for code in sorted(codes)),
            "content": {PROBLEM_JSON: {"schema": _PROBLEM}},
        }
        for status, codes in sorted(by_status.items())
    }
    if "429" in answers:  # the stream tier's throttled refusals say when to retry, as the API's
        answers["429"]["headers"] = {RETRY_AFTER: {"$ref": f"#/components/headers/{RETRY_AFTER}"}}
    return answers


def _parameter(name: str, where: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": where, "description": description, "schema": schema}


GAME_STREAM = {
    "operationId": "games_stream",
    "summary": "A game's events, live (Server-Sent Events)",
    "description": "Every event after `after` (or `Last-Event-ID`, which wins: a browser's "
    "`EventSource` reconnects with it), then each new one as it is played, once and in order. "
    "Each SSE frame: `id:` the event's seq, `event:` its type, `data:` the event as JSON (the "
    "schema below). A comment every 15 s keeps the connection alive. Served by the stream tier; "
    "`games/{game_id}/events/` with `Accept: text/event-stream` is the same stream.",
    "tags": ["streams"],
    "parameters": [
        _parameter("game_id", "path", "The game", type="string", format="uuid")
        | {"required": True},
        _parameter("after", "query", "Only events with a greater seq", type="integer"),
        _parameter("Last-Event-ID", "header", "Resume after this seq", type="integer"),
    ],
    "responses": {
        "200": {
            "description": "An event stream; each frame's `data` is a `GameEvent`.",
            "content": {EVENT_STREAM: {"schema": {"$ref": "#/components/schemas/GameEvent"}}},
        },
        **_refusals(
            Refusal.INVALID_QUERY,
            Refusal.GAME_NOT_FOUND,
            Refusal.THROTTLED,
            Refusal.TOO_MANY_STREAMS,
        ),
    },
}

ACCOUNT_STREAM = {
    "operationId": "stream",
    "summary": "Your account's notes, live (Server-Sent Events)",
    "description": "Opens with `your_turn` for every game where you are to move, then one note "
    "per change that concerns you. Each SSE frame: `event:` the note's type, `data:` the note "
    "as JSON. Signed in with a ticket (`POST stream/tickets/`, then `?ticket=`: for "
    "`EventSource`, which cannot set headers), a token in `Authorization`, or the session; "
    "never a token in the URL.",
    "tags": ["streams"],
    "parameters": [_parameter("ticket", "query", "A single-use stream ticket", type="string")],
    "responses": {
        "200": {
            "description": "An event stream of notes.",
            "content": {
                EVENT_STREAM: {
                    "schema": {
                        "oneOf": [{"$ref": ref} for ref in _NOTE_REFS.values()],
                        "discriminator": {"propertyName": "type", "mapping": _NOTE_REFS},
                    }
                }
            },
        },
        **_refusals(
            Refusal.TOKEN_IN_URL,
            Refusal.INVALID_TICKET,
            Refusal.NOT_AUTHENTICATED,
            Refusal.THROTTLED,
            Refusal.TOO_MANY_STREAMS,
        ),
    },
}


def add_streams(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: the stream tier's two endpoints and their notes."""
    result.setdefault("paths", {})["/api/v1/games/{game_id}/stream/"] = {"get": GAME_STREAM}
    result["paths"]["/api/v1/stream/"] = {"get": ACCOUNT_STREAM}
    result.setdefault("components", {}).setdefault("schemas", {}).update(NOTES)
    result["components"].setdefault("headers", {}).setdefault(RETRY_AFTER, HEADERS[RETRY_AFTER])
    return result
