"""An account's export: everything the server keeps of it, as one JSON document (its schema:
``ExportSerializer``), whose serializers also write it. It is written in pieces, a step each
(``export_files``): its head, then the games a batch at a time, then its tail.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from itertools import groupby
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet
from rest_framework import serializers

from games.followups import live
from games.models import Game, GameEvent
from games.presenters.common import iso_datetime
from players.models import Player


class ExportAccountSerializer(serializers.Serializer[Player]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField(allow_blank=True)
    language = serializers.CharField(allow_blank=True, help_text="Blank: the browser's")
    email = serializers.CharField(allow_blank=True)
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)


class ExportSeatSerializer(serializers.Serializer[dict[str, Any]]):
    index = serializers.IntegerField()
    kind = serializers.CharField(source="occupant", help_text="player, hotseat or computer")
    name = serializers.CharField(source="display_name", allow_blank=True)
    username = serializers.CharField(
        source="player.username", allow_null=True, help_text="The account at a player seat"
    )
    place = serializers.IntegerField(allow_null=True)
    final_total = serializers.IntegerField(allow_null=True)


class ExportEventSerializer(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    # The metaclass takes the field out of the class: Serializer.data stays what it is.
    data = serializers.DictField()  # type: ignore[assignment]
    actor = serializers.CharField(allow_null=True)
    automatic = serializers.BooleanField()
    created_at = serializers.DateTimeField()


# A game read from its row; its log is read apart, for a batch of games at once (a comment: a
# docstring would describe the subclass in the schema).
class ExportGameFieldsSerializer(serializers.Serializer[Game | QuerySet[Game]]):
    id = serializers.UUIDField()
    kind = serializers.CharField()
    status = serializers.CharField()
    options = serializers.DictField()
    rated = serializers.BooleanField()
    created_by = serializers.CharField(
        source="created_by.username", help_text="The creator's username"
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    seats = ExportSeatSerializer(many=True)


class ExportGameSerializer(ExportGameFieldsSerializer):
    events = ExportEventSerializer(many=True, help_text="The game's whole log, in order")


class ExportRatingChangeSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.UUIDField(source="game_id")
    kind = serializers.CharField()
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    deviation_after = serializers.FloatField()
    created_at = serializers.DateTimeField()


class ExportEntrySerializer(serializers.Serializer[dict[str, Any]]):
    tournament = serializers.IntegerField(source="tournament_id")
    name = serializers.CharField(source="tournament.name")
    kind = serializers.CharField(source="tournament.kind")
    status = serializers.CharField(source="tournament.status")
    registered_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)


class ExportSerializer(serializers.Serializer[dict[str, Any]]):
    """The schema of the document (written piece by piece)."""

    exported_at = serializers.DateTimeField()
    account = ExportAccountSerializer()
    games = ExportGameSerializer(many=True)
    rating_changes = ExportRatingChangeSerializer(many=True)
    tournament_entries = ExportEntrySerializer(many=True)


def dumps(value: Any) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)


def games_of(ids: list[Any]) -> Iterator[dict[str, Any]]:
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
    # One serializer for the batch: its fields are built once, not once per game.
    for game, fields in zip(games, ExportGameFieldsSerializer(games, many=True).data, strict=True):
        log = [
            live.event_wire(
                event.seq,
                event.type,
                event.data,
                event.actor.username if event.actor is not None else None,
                event.automatic,
                event.created_at,
            )
            for event in logs.get(game.pk, [])
        ]
        yield {**fields, "events": log}


def _array(serializer: type[serializers.Serializer[Any]], rows: QuerySet[Any]) -> str:
    """The rows as a JSON array, read a thousand at a time."""
    items = serializer(rows.iterator(chunk_size=1000), many=True).data
    return "[" + ",".join(dumps(item) for item in items) + "]"


def document_head(player: Player, exported_at: datetime) -> str:
    """The document up to its games: ``{"exported_at": ..., "account": {...}, "games": [``."""
    head = '{"exported_at":' + dumps(iso_datetime(exported_at))
    return head + ',"account":' + dumps(ExportAccountSerializer(player).data) + ',"games":['


def document_tail(player: Player) -> str:
    """The document after its games: ``], "rating_changes": [...], ...}``."""
    changes = _array(
        ExportRatingChangeSerializer, player.rating_changes.order_by("created_at", "id")
    )
    entries = _array(
        ExportEntrySerializer,
        player.tournament_entries.select_related("tournament").order_by("registered_at"),
    )
    return '],"rating_changes":' + changes + ',"tournament_entries":' + entries + "}"
