"""Live updates: after a move commits, a note goes to Redis pub/sub for the game's streams and for
the players concerned. A note says only "version N exists": streams read the events themselves
from the database, so a lost or repeated note can delay nothing and duplicate nothing.

Without Redis (the embedded defaults) nothing is published and the streams poll the database.
"""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)


def game_channel(game_id: object) -> str:
    return f"dice:game:{game_id}"


def player_channel(player_id: object) -> str:
    return f"dice:player:{player_id}"


@lru_cache(maxsize=1)
def _client() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)


def publish(channel: str, payload: dict[str, Any]) -> None:
    if not settings.REDIS_URL:
        return
    try:
        _client().publish(channel, json.dumps(payload, default=str))
    except Exception:  # a client misses a push, not a move: streams re-read the database
        log.warning("could not publish to %s", channel, exc_info=True)


def on_game_advanced(
    *, game_id: object, version: int, player_notes: dict[int, dict[str, Any]], **_: object
) -> None:
    """Receiver of ``games.signals.game_advanced``: tell the game's streams and its players."""
    publish(game_channel(game_id), {"game": str(game_id), "version": version})
    for player_id, note in player_notes.items():
        publish(player_channel(player_id), note)


def player_notes(game: Any, version: int, finished: bool) -> dict[int, dict[str, Any]]:
    """What each account at the table should hear about this version of the game."""
    from games.models import SeatKind

    seats = list(game.seats.all())
    notes: dict[int, dict[str, Any]] = {}
    base = {"game": str(game.pk), "kind": game.kind, "version": version}
    if finished:
        for seat in seats:
            if seat.player_id is not None:
                notes[seat.player_id] = {**base, "type": "game_finished", "seat": seat.index}
        return notes
    if version == 1:
        for seat in seats:
            if seat.player_id is not None:
                notes[seat.player_id] = {**base, "type": "game_started", "seat": seat.index}
    turn = next((seat for seat in seats if seat.index == game.turn_seat), None)
    if turn is None or turn.kind == SeatKind.COMPUTER:
        return notes
    owner = turn.player_id if turn.kind == SeatKind.PLAYER else game.created_by_id
    if owner is not None:
        notes[owner] = {
            **base,
            "type": "your_turn",
            "seat": turn.index,
            "deadline": game.deadline_at.isoformat() if game.deadline_at else None,
        }
    return notes
