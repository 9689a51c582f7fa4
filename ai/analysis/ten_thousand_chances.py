"""Dés 10 000, two seats: each seat's chance to win between turns, from the expert's model
(``ai.ten_thousand.winmodel``: both seats playing to win; a tie counts half)."""

from __future__ import annotations

from ai.ten_thousand.rolls import UNIT
from ai.ten_thousand.winmodel import MAX_MODEL_UNITS, last_chance, win_model
from games.rules.ten_thousand import TenThousandState


def modelled(state: TenThousandState) -> bool:
    """The model covers this game: two seats and a target it has a table for."""
    return state.seats == 2 and -(-state.target // UNIT) <= MAX_MODEL_UNITS


def chance_to_win(state: TenThousandState, seat: int) -> float:
    """``seat``'s chance to win from ``state``, between two turns (or at the end)."""
    if state.finished:
        first = [s for s in range(state.seats) if state.places[s] == 1]
        return 0.0 if seat not in first else 1.0 / len(first)
    mover = state.turn_seat
    a, b = state.totals[mover] // UNIT, state.totals[1 - mover] // UNIT
    if state.last_round:  # the mover's last turn: it must pass the other's lead
        chance = last_chance(b - a)
    else:
        chance = float(win_model(-(-state.target // UNIT)).win[a, b])
    return chance if seat == mover else 1.0 - chance
