"""The two writes of every move, built once per shape (``config.storage.orm_shortcuts``;
``ORM_SHORTCUTS=false`` takes the ORM's own): append its events, save the game's snapshot. Both
run in the move's transaction, on the locked game row.
"""

from __future__ import annotations

from collections.abc import Sequence

from config.storage.orm_shortcuts import fields_update, rows_insert
from games.models import Game, GameEvent

#: The columns of an event row the move path writes (the id is the database's).
EVENT_FIELDS = ("game", "seq", "type", "data", "actor", "automatic", "created_at")


def events_append(records: Sequence[GameEvent]) -> None:
    """Insert the event rows in one statement (``created_at`` must be set). Once stored,
    ``GameEvent.save`` refuses to write them again."""
    rows_insert(GameEvent, EVENT_FIELDS, records)


def snapshot_save(game: Game, names: Sequence[str]) -> None:
    """Write these fields of the game row, as ``game.save(update_fields=names)`` would."""
    fields_update(game, names)
