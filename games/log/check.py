"""The check of a game's log against its row: what ``manage.py verify_log`` and the admin's
"check replay" action report. The log is the truth; the row's snapshot and version are derived
from it by the move path, and must equal it at every commit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.kinds import kind_for
from games.models import Game


def log_problems(game: Game) -> Iterator[str]:
    """What is wrong with this game's log or snapshot, in plain words: the seqs must run 1, 2,
    3... up to the row's version, and replaying the events must give the stored state."""
    rows = list(game.events.order_by("seq").values_list("seq", "data"))
    seqs = [seq for seq, _data in rows]
    expected = list(range(1, len(rows) + 1))
    if seqs != expected:
        missing = sorted(set(range(1, max(seqs, default=0) + 1)) - set(seqs))
        yield f"seq is not gap-free from 1 (missing {missing[:10]})"
    if game.version != (seqs[-1] if seqs else 0):
        yield f"version {game.version} but the last event is {seqs[-1] if seqs else 0}"
    try:
        replayed = _replay(game, [data for _seq, data in rows])
    except Exception as exc:  # a log the rules cannot fold is a finding, not a crash
        yield f"the log does not replay: {type(exc).__name__}: {exc}"
        return
    if replayed != game.state:
        yield "replaying the log does not give the stored snapshot"


def _replay(game: Game, events: list[Any]) -> dict[str, Any] | None:
    if not events:
        return None
    engine = kind_for(game.kind).engine
    return engine.replay(engine.event_from_wire(data) for data in events).to_wire()
