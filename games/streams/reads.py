"""The stream tier's database reads, and the rendered form of an event. Django's ORM is synchronous:
each read runs on a small thread pool (``STREAMS_DB_THREADS``) and gives its connection back at
once, so thousands of open streams share a few threads and connections, only while they read.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import translation

from config.web.outage import out_of_reach, unavailable
from games.followups import live
from games.kinds import kind_for

T = TypeVar("T")
MAX_EVENTS = 500


@functools.cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(settings.STREAMS_DB_THREADS, thread_name_prefix="streams-db")


def _borrowing(read: Callable[..., T], *args: Any) -> T:
    close_old_connections()
    try:
        return read(*args)
    finally:
        connection.close()


async def run(read: Callable[..., T], *args: Any) -> T:
    """Run a sync database read on the pool, holding a connection only while it runs. The
    database out of reach is refused as the API refuses it: 503 ``service_unavailable``."""
    try:
        return await asyncio.get_running_loop().run_in_executor(_pool(), _borrowing, read, *args)
    except Exception as exc:
        if out_of_reach(exc):
            raise unavailable(exc) from exc
        raise


@dataclass(slots=True, eq=False)
class EventRow:
    """One event as clients receive it. Everything but ``messages`` is the same in every
    language; the SSE frame is rendered once per language and shared by every stream."""

    seq: int
    type: str
    kind: str
    body: Mapping[str, Any]
    frames: dict[str, bytes] = field(default_factory=dict)

    def as_dict(self, language: str) -> dict[str, Any]:
        with translation.override(language):
            messages = kind_for(self.kind).presenter.event_messages(self.type)
            return {**self.body, "messages": messages}

    def frame(self, language: str) -> bytes:
        rendered = self.frames.get(language)
        if rendered is None:
            data = json.dumps(self.as_dict(language), separators=(",", ":"))
            rendered = f"id: {self.seq}\nevent: {self.type}\ndata: {data}\n\n".encode()
            self.frames[language] = rendered
        return rendered


@dataclass(frozen=True, slots=True)
class GameHeader:
    kind: str
    version: int


def game_header(game_id: str) -> GameHeader | None:
    from games.models import Game

    row = Game.objects.filter(pk=game_id).values_list("kind", "version").first()
    return None if row is None else GameHeader(kind=row[0], version=row[1])


def events_after(game_id: str, kind: str, after: int, limit: int = MAX_EVENTS) -> list[EventRow]:
    from games.models import GameEvent

    rows = (
        GameEvent.objects.filter(game_id=game_id, seq__gt=after)
        .order_by("seq")
        .values_list("seq", "type", "data", "actor__username", "automatic", "created_at")[:limit]
    )
    return [
        EventRow(
            seq=seq,
            type=type_,
            kind=kind,
            body=live.event_wire(seq, type_, data, actor, automatic, created_at),
        )
        for seq, type_, data, actor, automatic, created_at in rows
    ]


def account_for_token(raw: str) -> int | None:
    """The active account a knox token belongs to, or None (expired, revoked, unknown)."""
    from rest_framework.exceptions import AuthenticationFailed

    from players.auth import TokenAuthentication  # the API's: one query, one hash

    try:
        user, _token = TokenAuthentication().authenticate_credentials(raw.encode())
    except AuthenticationFailed:
        return None
    return int(user.pk)


def account_active(player_id: int) -> bool:
    """Whether the account may still stream (not banned, not deleted)."""
    from players.models import Player

    return Player.objects.filter(pk=player_id, is_active=True).exists()


def account_for_session(session_key: str) -> int | None:
    """The account logged in to a Django session (the browsable API, the admin), or None: Django's
    own check (backend, session hash), on a request that has only its session."""
    from types import SimpleNamespace

    from django.contrib.auth import get_user

    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    # get_user reads nothing of the request but its session: a namespace holding one stands in
    # for the HttpRequest that the stream tier does not build, and the stubs ask for.
    user = get_user(SimpleNamespace(session=session))  # type: ignore[arg-type]
    return int(user.pk) if user.is_authenticated and user.is_active else None


def your_turns(player_id: int) -> list[dict[str, Any]]:
    """The games where it is this account's turn now: sent when its stream opens, so a bot that
    reconnects knows where to play without any note it missed."""
    from django.db.models import Q

    from games.followups.notes import YourTurn, table_notes
    from games.models import Game, GameStatus, Occupant
    from games.seating import TableFacts

    mine = Q(seats__player_id=player_id) | Q(
        created_by_id=player_id, seats__occupant=Occupant.HOTSEAT
    )
    games = Game.objects.filter(mine, status=GameStatus.ACTIVE).distinct()
    return [
        note.to_wire()
        for game in games.prefetch_related("seats")
        for owner, note in table_notes(TableFacts.of(game, finished=False))
        if owner == player_id and isinstance(note, YourTurn)
    ]


def notes_after(last_id: int, limit: int = 1000) -> list[tuple[int, str, dict[str, Any]]]:
    """The embedded bus: notes stored after ``last_id``."""
    from games.models import LiveNote

    rows = LiveNote.objects.filter(pk__gt=last_id).order_by("pk")
    return list(rows.values_list("pk", "topic", "payload")[:limit])


def last_note_id() -> int:
    from games.models import LiveNote

    return LiveNote.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
