"""The per-process fan-out: one feed per watched game, listeners per account.

A ``GameFeed`` learns from the bus that version N exists, reads the events it has not seen (one
read, whatever the number of listeners) and offers them to every listener. A listener's own
high-water mark drops a duplicate offer, and its writer fills a gap (a backlog still being read, a
note lost) from the database: each client gets every event once, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import defaultdict, deque
from collections.abc import Iterable
from typing import Any, TypeVar

from games.followups import live, notes
from games.streams import bus, reads
from games.streams.reads import EventRow

log = logging.getLogger(__name__)
T = TypeVar("T")
#: Events a feed keeps for listeners that join while it reads.
RECENT_EVENTS = 64
#: A client this far behind is cut off (it reconnects with Last-Event-ID and loses nothing).
QUEUE_LIMIT = 2000
#: A stream silent this long is sent a comment line (within 1.5 times it), so that proxies and
#: clients keep it open: one ticker per process (a timer per stream cost more than delivery).
KEEPALIVE_SECONDS = 15.0
KEEPALIVE = b": keep-alive\n\n"


class Overflow(Exception):
    """The client reads slower than its game moves."""


class Quiet:
    """What the keep-alive ticker needs of a listener: whether it was offered anything lately."""

    streaming = False  # a long-poll answers once, and is never kept alive
    busy = False
    queue: asyncio.Queue[Any]
    keepalive: Any = None  # what its queue holds for a keep-alive

    def keep_alive(self) -> None:
        """Called by the ticker: a stream offered nothing since the last tick is due a
        keep-alive, put on its queue like anything else it sends."""
        if self.streaming and not self.busy:
            with contextlib.suppress(asyncio.QueueFull):  # a full queue is not idle
                self.queue.put_nowait(self.keepalive)
        self.busy = False


class GameListener(Quiet):
    """One client waiting on a game: an SSE stream (``streaming``) or a long-poll."""

    def __init__(self, after: int, *, streaming: bool = False) -> None:
        self.streaming = streaming
        self.last = after  # the last seq taken off the queue by the writer
        self.offered = after  # the last seq put on the queue
        self.ready = False  # set once its backlog is read: before, offers would race it
        # None: a keep-alive is due (next_rows then sets keepalive_due).
        self.queue: asyncio.Queue[EventRow | None] = asyncio.Queue(QUEUE_LIMIT)
        self.keepalive_due = False
        self.overflowed = False

    def offer(self, rows: Iterable[EventRow]) -> None:
        self.busy = True
        for row in rows:
            if row.seq <= self.offered:
                continue
            try:
                self.queue.put_nowait(row)
            except asyncio.QueueFull:
                self.overflowed = True
                return
            self.offered = row.seq


class GameFeed:
    def __init__(self, game_id: str, kind: str) -> None:
        self.game_id = game_id
        self.kind = kind
        self.listeners: set[GameListener] = set()
        self.announced = 0
        self.fetched: int | None = None  # unknown until a listener has read the log
        self.recent: deque[EventRow] = deque(maxlen=RECENT_EVENTS)
        self._fetcher: asyncio.Task[None] | None = None

    def announce(self, version: int, events: list[dict[str, Any]] | None = None) -> None:
        self.announced = max(self.announced, version)
        idle = self._fetcher is None or self._fetcher.done()
        if events and idle and self.fetched is not None and events[0]["seq"] == self.fetched + 1:
            # The note carries the events that follow what this feed has: no read. Otherwise
            # (a note lost or out of order, a read under way) the log is read, in order.
            rows = [EventRow(seq=e["seq"], type=e["type"], kind=self.kind, body=e) for e in events]
            self.fetched = rows[-1].seq
            self._share(rows)
        self._kick()

    def seed(self, seq: int, rows: list[EventRow]) -> None:
        """A listener has read the log up to ``seq`` (``rows`` its last page): the feed knows the
        game is at least there, and shares what it has not seen yet."""
        if self.fetched is not None and seq <= self.fetched:
            return
        fresh = [row for row in rows if self.fetched is None or row.seq > self.fetched]
        self.fetched = seq
        self._share(fresh)
        self._kick()

    def _share(self, rows: list[EventRow]) -> None:
        if not rows:
            return
        self.recent.extend(rows)
        for listener in self.listeners:
            if listener.ready:
                listener.offer(rows)

    def _kick(self) -> None:
        behind = self.fetched is not None and self.announced > self.fetched
        if behind and (self._fetcher is None or self._fetcher.done()):
            self._fetcher = asyncio.create_task(self._fetch(), name=f"feed-{self.game_id}")

    async def _fetch(self) -> None:
        while self.fetched is not None and self.announced > self.fetched:
            try:
                rows = await reads.run(reads.events_after, self.game_id, self.kind, self.fetched)
            except Exception:
                log.warning("feed %s: could not read events", self.game_id, exc_info=True)
                return
            if not rows:
                return  # announced before visible to us: the next note retries
            self.fetched = rows[-1].seq
            self._share(rows)

    def close(self) -> None:
        if self._fetcher is not None:
            self._fetcher.cancel()


class PlayerListener(Quiet):
    """One account's stream: notes arrive already rendered, once per note for every listener."""

    streaming = True
    keepalive = KEEPALIVE

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(QUEUE_LIMIT)
        self.overflowed = False
        # The account was banned or deleted (games.moderation.actions): the stream ends after this
        # note.
        self.closed = False
        # Notes offered before the opening snapshot was read, which it must not repeat.
        self._early: set[tuple[str, int, str]] | None = set()

    def offer(self, note: dict[str, Any], frame: bytes) -> None:
        self.busy = True
        if note.get("type") == notes.AccountClosed.type:
            self.closed = True
        if self._early is not None:
            self._early.add(note_key(note))
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.overflowed = True

    def opening(self, notes: list[dict[str, Any]]) -> list[bytes]:
        """The frames of the opening snapshot that the bus has not already queued."""
        early, self._early = self._early or set(), None
        return [note_frame(note) for note in notes if note_key(note) not in early]


def note_key(note: dict[str, Any]) -> tuple[str, int, str]:
    return str(note.get("game")), int(note.get("version") or 0), str(note.get("type"))


def note_frame(note: dict[str, Any]) -> bytes:
    return f"event: {note['type']}\ndata: {json.dumps(note, separators=(',', ':'))}\n\n".encode()


class Hub:
    def __init__(self) -> None:
        self.feeds: dict[str, GameFeed] = {}
        self.players: dict[int, set[PlayerListener]] = defaultdict(set)
        self._subscriber: bus.Subscriber | None = None
        self._starting: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Subscribe (once; concurrent callers wait for the same start)."""
        if self._starting is None:
            self._subscriber = bus.subscriber(self.deliver, self._resync)
            self._starting = asyncio.create_task(self._subscriber.start())
            self._ticker = asyncio.create_task(self._keep_alive(), name="keep-alive")
        await asyncio.shield(self._starting)

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        if self._subscriber is not None:
            await self._subscriber.stop()
        for feed in self.feeds.values():
            feed.close()

    async def _keep_alive(self) -> None:
        while True:
            await asyncio.sleep(KEEPALIVE_SECONDS / 2)
            for feed in self.feeds.values():
                for game_listener in feed.listeners:
                    game_listener.keep_alive()
            for listeners in self.players.values():
                for player_listener in listeners:
                    player_listener.keep_alive()

    def deliver(self, topic: str, payload: dict[str, Any]) -> None:
        try:
            if topic == live.GAMES:
                feed = self.feeds.get(payload["game"])
                if feed is not None:
                    feed.announce(int(payload["version"]), payload.get("events"))
            elif topic == live.PLAYERS:
                listeners = self.players.get(int(payload["player"]))
                if listeners:
                    note = payload["note"]
                    frame = note_frame(note)
                    for listener in listeners:
                        listener.offer(note, frame)
        except (KeyError, TypeError, ValueError):
            log.warning("live bus: malformed note %r on %s", payload, topic)

    def _resync(self) -> None:
        """Notes may have been lost while the bus was away: every feed re-reads the log."""
        for feed in self.feeds.values():
            if feed.fetched is not None:
                feed.announce(feed.fetched + 1)


async def join(feed: GameFeed, listener: GameListener, version: int) -> list[EventRow]:
    """Bring a new listener up to date: its backlog from the database (returned, to send first),
    then live from the feed. It was registered with the feed before this read, so an event
    committed meanwhile reaches it either way (and only once). ``version`` is the game's version
    read before the backlog."""
    backlog: list[EventRow] = []
    page: list[EventRow] = []
    while True:
        page = await reads.run(reads.events_after, feed.game_id, feed.kind, listener.last)
        backlog += page
        if page:
            listener.last = listener.offered = page[-1].seq
        if len(page) < reads.MAX_EVENTS:
            break
    # An empty last page says the log ends at or before ``last`` (which a client may set past
    # the end): the version read before it is what the feed can be sure of.
    feed.seed(page[-1].seq if page else min(listener.last, version), page)
    listener.ready = True
    listener.offer([row for row in feed.recent if row.seq > listener.last])
    return backlog


async def next_rows(feed: GameFeed, listener: GameListener) -> list[EventRow]:
    """Wait for the listener's next events, in order, gaps filled from the database; none when
    only a keep-alive was due."""
    if listener.overflowed:
        raise Overflow()
    out: list[EventRow] = []
    for row in await drained(listener.queue):
        if row is None:
            listener.keepalive_due = True
            continue
        if row.seq <= listener.last:
            continue
        if row.seq > listener.last + 1:
            missing = await reads.run(
                reads.events_after, feed.game_id, feed.kind, listener.last, row.seq - listener.last
            )
            out += [gap for gap in missing if gap.seq < row.seq]
        out.append(row)
        listener.last = row.seq
    return out


async def drained(queue: asyncio.Queue[T]) -> list[T]:
    items = [await queue.get()]
    while not queue.empty():
        items.append(queue.get_nowait())
    return items


@contextlib.contextmanager
def watching_game(hub: Hub, game_id: str, kind: str, listener: GameListener) -> Any:
    feed = hub.feeds.get(game_id)
    if feed is None:
        feed = hub.feeds[game_id] = GameFeed(game_id, kind)
    feed.listeners.add(listener)
    try:
        yield feed
    finally:
        feed.listeners.discard(listener)
        if not feed.listeners and hub.feeds.get(game_id) is feed:
            feed.close()
            del hub.feeds[game_id]


@contextlib.contextmanager
def watching_player(hub: Hub, player_id: int, listener: PlayerListener) -> Any:
    hub.players[player_id].add(listener)
    try:
        yield
    finally:
        listeners = hub.players[player_id]
        listeners.discard(listener)
        if not listeners:
            del hub.players[player_id]
