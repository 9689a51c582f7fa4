"""An account's export: everything the server keeps of it as one JSON document (its schema:
``Export``), written in pieces that ``export_files`` stores and joins in order: the head, the
games a batch at a time (their events in one query per batch), the tail.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from itertools import groupby
from typing import Annotated, Any, TypedDict

from django.core.serializers.json import DjangoJSONEncoder

from games.followups import live
from games.models import Game, GameEvent
from games.presenters.common import Instant, iso_datetime
from games.rules.base import Doc
from players.models import Player


class ExportAccount(TypedDict):
    id: int
    username: str
    display_name: str
    language: Annotated[str, Doc("Blank: the browser's")]
    email: str
    date_joined: Instant
    last_login: Instant | None


class ExportSeat(TypedDict):
    index: int
    kind: Annotated[str, Doc("player, hotseat or computer")]
    name: str
    username: Annotated[str | None, Doc("The account at a player seat")]
    place: int | None
    final_total: int | None


class ExportGame(TypedDict):
    id: Annotated[str, Doc(format="uuid")]
    kind: str
    status: str
    options: Annotated[dict[str, Any], Doc(ref="Options")]
    rated: bool
    created_by: Annotated[str, Doc("The creator's username")]
    created_at: Instant
    started_at: Instant | None
    finished_at: Instant | None
    version: int
    seats: list[ExportSeat]
    events: Annotated[list[live.EventWire], Doc("The game's whole log, in order")]


class ExportRatingChange(TypedDict):
    game: Annotated[str, Doc(format="uuid")]
    kind: str
    rating_before: float
    rating_after: float
    deviation_after: float
    created_at: Instant


class ExportEntry(TypedDict):
    tournament: int
    name: str
    kind: str
    status: str
    registered_at: Instant
    withdrawn_at: Instant | None


class Export(TypedDict):
    """The document (written piece by piece)."""

    exported_at: Instant
    account: ExportAccount
    games: list[ExportGame]
    rating_changes: list[ExportRatingChange]
    tournament_entries: list[ExportEntry]


def dumps(value: Any) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)


def _account(player: Player) -> ExportAccount:
    return {
        "id": player.pk,
        "username": player.username,
        "display_name": player.display_name,
        "language": player.language,
        "email": player.email,
        "date_joined": iso_datetime(player.date_joined),
        "last_login": iso_datetime(player.last_login),
    }


def _game(game: Game, events: list[GameEvent]) -> ExportGame:
    return {
        "id": str(game.pk),
        "kind": game.kind,
        "status": game.status,
        "options": game.options,
        "rated": game.rated,
        "created_by": game.created_by.username,
        "created_at": iso_datetime(game.created_at),
        "started_at": iso_datetime(game.started_at),
        "finished_at": iso_datetime(game.finished_at),
        "version": game.version,
        "seats": [
            {
                "index": seat.index,
                "kind": seat.occupant,
                "name": seat.display_name,
                "username": seat.player.username if seat.player is not None else None,
                "place": seat.place,
                "final_total": seat.final_total,
            }
            for seat in game.seats.all()
        ],
        "events": [
            live.event_wire(
                event.seq,
                event.type,
                event.data,
                event.actor.username if event.actor is not None else None,
                event.automatic,
                event.created_at,
            )
            for event in events
        ],
    }


def games_of(ids: list[Any]) -> Iterator[ExportGame]:
    """The games of ``ids`` with their logs, oldest first: a few queries, however many."""
    games = (
        Game.objects.filter(pk__in=ids)
        .select_related("created_by")
        .prefetch_related("seats__player")
        .order_by("created_at", "id")
    )
    events = (
        GameEvent.objects.filter(game_id__in=ids).select_related("actor").order_by("game_id", "seq")
    )
    logs = {game_id: list(rows) for game_id, rows in groupby(events, key=lambda e: e.game_id)}
    for game in games:
        yield _game(game, logs.get(game.pk, []))


def _rating_changes(player: Player) -> Iterator[ExportRatingChange]:
    for change in player.rating_changes.order_by("created_at", "id").iterator(chunk_size=1000):
        yield {
            "game": str(change.game_id),
            "kind": change.kind,
            "rating_before": change.rating_before,
            "rating_after": change.rating_after,
            "deviation_after": change.deviation_after,
            "created_at": iso_datetime(change.created_at),
        }


def _entries(player: Player) -> Iterator[ExportEntry]:
    entries = player.tournament_entries.select_related("tournament").order_by("registered_at")
    for entry in entries.iterator(chunk_size=1000):
        yield {
            "tournament": entry.tournament_id,
            "name": entry.tournament.name,
            "kind": entry.tournament.kind,
            "status": entry.tournament.status,
            "registered_at": iso_datetime(entry.registered_at),
            "withdrawn_at": iso_datetime(entry.withdrawn_at),
        }


def _array(items: Iterable[Mapping[str, Any]]) -> str:
    return "[" + ",".join(dumps(item) for item in items) + "]"


def document_head(player: Player, exported_at: datetime) -> str:
    """The document up to its games: ``{"exported_at": ..., "account": {...}, "games": [``."""
    head = '{"exported_at":' + dumps(iso_datetime(exported_at))
    return head + ',"account":' + dumps(_account(player)) + ',"games":['


def document_tail(player: Player) -> str:
    """The document after its games: ``], "rating_changes": [...], ...}``."""
    changes, entries = _array(_rating_changes(player)), _array(_entries(player))
    return '],"rating_changes":' + changes + ',"tournament_entries":' + entries + "}"
