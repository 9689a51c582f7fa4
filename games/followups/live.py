"""Live updates, the publishing side: after a move commits, notes go out on the bus.

Two topics, as lila-ws does it: ``games`` carries ``{"game", "version", "events"}`` and ``players``
carries ``{"player", "note"}``; each stream process subscribes to both and fans notes out to its
streams. Notes are hints: a stream sends each seq once and in order and reads any gap from the
log, so a lost or repeated note delays or duplicates nothing. The bus is Redis pub/sub with
``REDIS_URL``, else the ``LiveNote`` table (polled by each stream process).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from datetime import datetime, timedelta
from typing import Annotated, Any, TypedDict

import orjson
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.storage.redis_client import CommandBatch, redis_batch
from games.followups import notes
from games.presenters.common import Instant, iso_datetime
from games.rules.base import Doc

log = logging.getLogger(__name__)

GAMES = "games"
PLAYERS = "players"
TOPICS = (GAMES, PLAYERS)
#: How long the embedded bus keeps a note: far longer than a stream process's poll interval.
NOTE_LIFETIME = timedelta(minutes=2)
# A note on Redis as json.dumps(payload, default=str) wrote it, for a tenth of the CPU: dates
# through str() (the stream tier reads it back).
_AS_JSON_DUMPS = orjson.OPT_PASSTHROUGH_DATETIME

Note = tuple[str, dict[str, Any]]


def channel(topic: str) -> str:
    """The Redis channel of a topic. Pub/sub is not scoped by Redis's db number, so the prefix
    (settings) keeps two deployments, or test runs, on one Redis server apart."""
    return f"{settings.LIVE_CHANNEL_PREFIX}:{topic}"


#: At most this many events ride on a note (a longer move is read from the log).
NOTE_EVENTS = 16


def game_note(game_id: object, version: int, events: Sequence[EventWire] = ()) -> Note:
    """ "Game G is at version N", with the events that got it there when they are few and end
    at N: a stream process that has every event before them shares them without a read."""
    payload: dict[str, Any] = {"game": str(game_id), "version": version}
    if events and len(events) <= NOTE_EVENTS and events[-1]["seq"] == version:
        payload["events"] = list(events)
    return GAMES, payload


class EventWire(TypedDict):
    seq: Annotated[int, Doc("The event's place in the game's log, 1 first", minimum=1)]
    type: Annotated[str, Doc(ref="EventType")]
    data: Annotated[dict[str, Any], Doc("The event's own fields, by its type", ref="EventData")]
    actor: Annotated[str | None, Doc("The username of the account that moved, if one did")]
    automatic: Annotated[bool, Doc("Played by the server for the seat (a clock, a computer)")]
    created_at: Instant


def event_wire(
    seq: int, type_: str, data: Any, actor: str | None, automatic: bool, created_at: datetime
) -> EventWire:
    """An event as every client receives it (the API's pages, the streams), less its messages,
    which depend on the language."""
    return {
        "seq": seq,
        "type": type_,
        "data": data,
        "actor": actor,
        "automatic": automatic,
        "created_at": iso_datetime(created_at),
    }


def player_note(player_id: int, note: notes.Note) -> Note:
    return PLAYERS, {"player": player_id, "note": note.to_wire()}


def publish_on_commit(told: Iterable[notes.PlayerNote]) -> None:
    """Each account's note on its player stream once the caller's transaction commits: a note
    sent before would tell of a write that may yet roll back."""
    batch = [player_note(player_id, note) for player_id, note in told]
    transaction.on_commit(lambda: publish(batch))


def publish(notes: Iterable[Note], batch: CommandBatch | None = None) -> None:
    """Send notes, with ``batch`` on Redis (else in a round trip of their own); never raises (a
    client misses a push, not a move: streams re-read the log)."""
    pending = list(notes)
    if not pending:
        return
    if settings.LIVE_BUS == "redis":
        with nullcontext(batch) if batch is not None else redis_batch() as sending:
            for topic, payload in pending:
                try:
                    text = orjson.dumps(payload, default=str, option=_AS_JSON_DUMPS)
                except orjson.JSONEncodeError:  # a lone surrogate, say: that note is lost
                    log.warning("could not write a %s note", topic, exc_info=True)
                    continue
                sending.add(f"could not publish a {topic} note", "PUBLISH", channel(topic), text)
        return
    try:
        _store(pending)
    except Exception:
        log.warning("could not publish %d live notes", len(pending), exc_info=True)


def _store(batch: list[Note]) -> None:
    from games.models import LiveNote

    created = LiveNote.objects.bulk_create(
        [LiveNote(topic=topic, payload=payload) for topic, payload in batch]
    )
    last = created[-1].pk
    if last is not None and last % 256 == 0:  # now and then, forget what every poller has read
        LiveNote.objects.filter(created_at__lt=timezone.now() - NOTE_LIFETIME).delete()


def on_game_advanced(
    *,
    game_id: object,
    version: int,
    player_notes: Iterable[notes.PlayerNote],
    events: Sequence[EventWire] = (),
    batch: CommandBatch | None = None,
) -> None:
    """After a move commits: tell the game's streams (with its events) and the players."""
    told = [player_note(player, note) for player, note in player_notes]
    publish([game_note(game_id, version, events), *told], batch)
