"""Everything that follows a committed move, in one place and in order. ``game_move`` (and
``game_start``) capture an ``Advance`` inside their transaction, from the rows they hold, and hand
``after_commit`` to ``transaction.on_commit``: nothing runs for a move that rolled back, nothing
reads the database, and each step is keyed by the game's new version (stale work does nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from config.storage.redis_client import redis_batch
from games.followups import jobs, live, notes
from games.models import Game, GameEvent
from games.seating import TableFacts


@dataclass(frozen=True)
class Advance:
    """A game's new version as the move's transaction left it: plain values, no model rows."""

    table: TableFacts
    computer_to_play: bool
    # The move's events ride on the note to the streams, which then need not read them back.
    events: tuple[live.EventWire, ...] = ()

    @classmethod
    def capture(
        cls,
        game: Game,
        *,
        finished: bool,
        computer_to_play: bool,
        records: Sequence[GameEvent] = (),
    ) -> Advance:
        return cls(
            table=TableFacts.of(game, finished=finished),
            computer_to_play=computer_to_play,
            events=tuple(
                live.event_wire(
                    record.seq,
                    record.type,
                    record.data,
                    record.actor.username if record.actor is not None else None,
                    record.automatic,
                    record.created_at,
                )
                for record in records
            ),
        )


def after_commit(advance: Advance) -> None:
    """What a committed move sets going, in order: the notes to the game's streams and players;
    the server's own next move (the computer's turn, or the game's timer), in one Redis round trip
    with the notes; a finished tournament game's round may end (``jobs.game_finished``)."""
    table = advance.table
    with redis_batch() as batch:
        live.on_game_advanced(
            game_id=table.game_id,
            version=table.version,
            player_notes=notes.table_notes(table),
            events=advance.events,
            batch=batch,
        )
        jobs.schedule_followups(
            game_id=table.game_id,
            version=table.version,
            computer_to_play=advance.computer_to_play,
            deadline_at=table.deadline_at,
            batch=batch,
        )
    if table.finished:
        jobs.game_finished(game_id=table.game_id)
