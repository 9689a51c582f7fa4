"""When the server moves on a player's behalf: the yatzy auto-confirm deadline.

Seeds 000/001: once the player has used the last roll and not scored, the server scores the turn
itself after the game's delay (3 s by default; 0 turns it off).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from games.engines import WireEvent, WireState
from games.models import GameKind
from games.rules import yatzy


def deadline_after(
    *,
    kind: str,
    state: WireState,
    events: Sequence[WireEvent],
    previous: datetime | None,
    seat_is_computer: bool,
    now: datetime,
) -> datetime | None:
    """The deadline that holds once ``events`` are applied: set by the last roll, kept while the
    player only marks a box, cleared by anything else."""
    if kind != GameKind.YATZY or seat_is_computer:
        return None
    assert isinstance(state, yatzy.YatzyState)
    delay = state.options.auto_confirm_seconds
    if state.finished or delay <= 0 or state.rolls_left > 0 or not state.dice:
        return None
    if any(isinstance(event, yatzy.DiceRolled) for event in events) or previous is None:
        return now + timedelta(seconds=delay)
    return previous
