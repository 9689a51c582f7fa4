"""When the server moves on a player's behalf: a game's timer.

- Auto-confirm, where the game's kind has one (``games.kinds``; yatzy, seeds 000/001: once the
  player has used the last roll and not scored, the server scores the turn itself after the game's
  delay, 3 s by default; 0 turns it off).
- The turn clock of tournament games: a seat idle for the clock loses its turn to the kind's
  stand-in computer, which then plays that turn move by move at its usual pace.

Both are one timer per game, due at the game row's ``deadline_at``, recomputed by every move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from games.kinds import WireEvent, WireState, kind_for


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
        if context.automatic and not context.turn_passed:
            # The clock ran out: the computer is playing out this turn at its own pace.
            candidates.append(now + timedelta(seconds=context.computer_delay))
        else:
            candidates.append(now + timedelta(seconds=context.turn_clock_seconds))
    return min(candidates) if candidates else None
