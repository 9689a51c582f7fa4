"""When the server moves on a player's behalf: a game's timer, one per game, due at the row's
``deadline_at`` and recomputed by every move.

- Auto-confirm, where the kind has one (``Kind.auto_confirm``): a turn the player left waiting is
  ended by the server after the game's delay.
- The turn clock: each move restarts it for the seat to play, but a move that buys no time (a mark:
  ``Kind.clock_kept_by``); an idle seat's turn is played by the stand-in (``time_out``, the rules'
  weakest turn), and in a rated game a second timed-out turn in a row makes the seat leave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from games.kinds import WireEvent, WireState, kind_for
from games.rules import ending


@dataclass(frozen=True)
class MoveContext:
    kind: str
    seat_is_computer: bool
    turn_passed: bool
    turn_clock_seconds: int | None


def deadline_after(
    *,
    state: WireState,
    events: Sequence[WireEvent],
    previous: datetime | None,
    context: MoveContext,
    now: datetime,
) -> datetime | None:
    """When the game's timer is due once ``events`` are applied (None: it has none)."""
    if state.finished or context.seat_is_computer:
        return None
    candidates = []
    auto_confirm = kind_for(context.kind).auto_confirm
    if auto_confirm is not None and (seconds := auto_confirm.seconds(state)):
        # Set by the move that made it due (the last roll); later moves (marking a box) keep it.
        if previous is None or auto_confirm.restarted_by(events):
            candidates.append(now + timedelta(seconds=seconds))
        else:
            candidates.append(previous)
    if context.turn_clock_seconds:
        kind = kind_for(context.kind)
        # Another seat leaving the game buys the seat to play no time either.
        moves = [event for event in events if event.type != ending.SeatLeft.type]
        if previous is not None and not context.turn_passed and not kind.restarts_clock(moves):
            # A move that buys no time (marking a box): the clock runs on as it was.
            candidates.append(previous)
        else:
            candidates.append(now + timedelta(seconds=context.turn_clock_seconds))
    return min(candidates) if candidates else None
