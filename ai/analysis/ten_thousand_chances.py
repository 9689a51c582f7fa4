"""Dés 10 000, two seats: each seat's chance to win between turns, and what a decision gives
away of it, from the exact solution of the game (``ai.ten_thousand.exact``: both seats playing to
win, a tie counting half, the other seat's last turn after a seat reaches the target)."""

from __future__ import annotations

from ai.ten_thousand import exact_tables
from ai.ten_thousand.exact import last_chances
from ai.ten_thousand.rolls import DICE, OUTCOMES, UNIT
from ai.ten_thousand.tables import OFFSET, REACH, reach_table
from games.rules.ten_thousand import TenThousandState
from games.rules.ten_thousand_scoring import keep_options


def modelled(state: TenThousandState) -> bool:
    """The exact game covers this one: two seats and a target with a table."""
    return state.seats == 2 and state.target in exact_tables.TARGETS


def chance_to_win(state: TenThousandState, seat: int) -> float:
    """``seat``'s chance to win from ``state``, between two turns (or at the end)."""
    if state.finished:
        first = [s for s in range(state.seats) if state.places[s] == 1]
        return 0.0 if seat not in first else 1.0 / len(first)
    mover = state.turn_seat
    a, b = state.totals[mover] // UNIT, state.totals[1 - mover] // UNIT
    if state.last_round:  # the mover's last turn: it must pass the other's lead
        chance = float(last_chances()[min(b - a, len(last_chances()) - 1)])
    else:
        win = exact_tables.load(state.target)
        assert win is not None
        chance = float(win[a, b])
    return chance if seat == mover else 1.0 - chance


def last_turn_worth(need: int, left: int, bank: bool) -> float:
    """In the last turn, ``need`` units short of a win (1: of a tie), ``left`` dice to throw."""
    if bank:
        return 1.0 if need <= 0 else 0.5 if need == 1 else 0.0
    if need <= 0:  # one more scoring throw, then bank
        return 1.0 - OUTCOMES[left].farkle
    return float(reach_table(0.5).cont[need + OFFSET, left]) if need <= REACH else 0.0


def decision_loss(before: TenThousandState, points: int, left: int, bank: bool) -> float | None:
    """The chance to win the mover gives away by setting aside from ``before.roll`` up to
    ``points`` turn points, leaving ``left`` dice, then banking (``bank``) or throwing on: the
    best choice's chance minus this one's. None where the exact game does not cover the game."""
    if not modelled(before):
        return None
    mover = before.turn_seat
    a, b = before.totals[mover] // UNIT, before.totals[1 - mover] // UNIT
    t, n = before.turn_points // UNIT, len(before.roll)
    sets = [(t + p // UNIT, n - len(faces) or DICE) for faces, p in keep_options(before.roll)]
    if before.last_round:
        need = b - a + 1

        def worth(u: int, m: int, banks: bool) -> float:
            return last_turn_worth(need - u, m, banks)
    else:
        turn = exact_tables.turn(before.target, a, b)
        assert turn is not None

        def worth(u: int, m: int, banks: bool) -> float:
            return turn.worth(a + u, m, banks=banks)

    best = max(worth(u, m, banks) for u, m in sets for banks in (True, False))
    return max(0.0, best - worth(points // UNIT, left, bank))
