"""When the server moves on a player's behalf: a game's timer.

- Auto-confirm, where the game's kind has one (``Kind.auto_confirm``: a turn the player left
  waiting, which the server ends itself after the game's delay; the game's options may turn it
  off).
- The turn clock (tournament games, and casual games that chose one): each move gives the seat to
  play the clock afresh, but a move that buys no time (a mark: ``Kind.clock_kept_by``);
  a seat idle that long has its turn played by the stand-in at once (``time_out``, the rules'
  weakest turn: ``games.rules.ending``), and in a rated game a second timed-out turn in a row
  makes the seat leave the game.

Both are one timer per game, due at the game row's ``deadline_at``, recomputed by every move.
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
    automatic: bool
    turn_passed: bool
    turn_clock_seconds: int | None
    computer_delay: float


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
