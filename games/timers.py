"""When the server moves on a player's behalf.

- Yatzy auto-confirm (seeds 000/001): once the player has used the last roll and not scored, the
  server scores the turn itself after the game's delay (3 s by default; 0 turns it off).
- The turn clock of tournament games: a seat idle for the clock loses its turn to the computer,
  which then plays that turn move by move at its usual pace.

Both are one deadline on the game row, recomputed by every move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from games.engines import WireEvent, WireState
from games.rules import yatzy


@dataclass(frozen=True)
class MoveContext:
    kind: str
    seat_is_computer: bool
    automatic: bool
    turn_passed: bool
    turn_clock_seconds: int | None
    computer_delay: float


def auto_confirm_due(state: WireState) -> bool:
    """The yatzy position where the timer confirms: last roll used, no box chosen yet."""
    return (
        isinstance(state, yatzy.YatzyState)
        and not state.finished
        and state.options.auto_confirm_seconds > 0
        and state.rolls_left == 0
        and bool(state.dice)
    )


def deadline_after(
    *,
    state: WireState,
    events: Sequence[WireEvent],
    previous: datetime | None,
    context: MoveContext,
    now: datetime,
) -> datetime | None:
    """The deadline that holds once ``events`` are applied."""
    if state.finished or context.seat_is_computer:
        return None
    candidates = []
    if auto_confirm_due(state):
        assert isinstance(state, yatzy.YatzyState)
        rolled = any(isinstance(event, yatzy.DiceRolled) for event in events)
        # Set by the last roll; marking a box keeps it (it buys no time).
        if rolled or previous is None:
            candidates.append(now + timedelta(seconds=state.options.auto_confirm_seconds))
        else:
            candidates.append(previous)
    if context.turn_clock_seconds:
        if context.automatic and not context.turn_passed:
            # The clock ran out: the computer is playing out this turn at its own pace.
            candidates.append(now + timedelta(seconds=context.computer_delay))
        else:
            candidates.append(now + timedelta(seconds=context.turn_clock_seconds))
    return min(candidates) if candidates else None
