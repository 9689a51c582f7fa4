"""Computer players of Dés 10 000 (RULES.md, Game 2). Pure Python + numpy, no Django import.

``best_move(roll, turn_points, totals, me, target, last_round, level) -> (faces, bank)``: the
faces to set aside from ``roll`` (a sub-multiset of it that scores) and whether to bank after
setting them aside (else throw the remaining dice, or all six after hot dice). The engine takes
positions, not faces: ``ai.positions.faces_to_indices(roll, faces)`` converts.

Levels:

- ``classic`` (``classic.py``): the seed's computer, banking at a threshold of 300 points,
  raised when behind and lowered when few dice remain; its formula is in ``classic.py``.
- ``expert`` (``expert.py``): plays to win. With two seats, perfectly: the exact solution of
  the two-seat game (``exact.py``; its tables are shipped, ``exact_tables.py``). Otherwise from
  exact single-turn dynamic programs (``tables.py``: 551.55 points per turn at best) and a
  two-seat model of the chance to win (``winmodel.py``).
- ``model`` (not a level of the server): the expert as it played two seats before the exact
  tables, for comparisons (``bench/ten_thousand_ai.py``).

Tables are built (or read) on first use, thread-safely, and kept for the process (about a second
in all for one target); ``warm_up`` makes them ahead.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.ten_thousand import exact_tables
from ai.ten_thousand.classic import classic_move, classic_threshold
from ai.ten_thousand.expert import expert_move, model_move
from ai.ten_thousand.rolls import DICE, UNIT, choices, roll_key
from ai.ten_thousand.tables import (
    policy_turn_value,
    score_table,
    threshold_turn_value,
)
from ai.ten_thousand.winmodel import MAX_MODEL_UNITS, win_model

__all__ = [
    "LEVELS",
    "MODEL",
    "best_move",
    "classic_threshold",
    "expected_turn_value",
    "optimal_turn_value",
    "threshold_turn_value",
    "warm_up",
]

LEVELS = ("classic", "expert")
MODEL = "model"


def best_move(
    roll: Sequence[int],
    turn_points: int,
    totals: Sequence[int],
    me: int,
    target: int,
    last_round: bool,
    level: str,
) -> tuple[tuple[int, ...], bool]:
    """The computer's answer to ``roll``: (faces set aside, ascending; bank or not).

    ``roll``: the current throw (1-6 dice, at least one scoring); ``turn_points``: points of the
    turn before this throw; ``totals``: every seat's banked total; ``me``: this seat's index;
    ``target``: the game's target; ``last_round``: someone reached the target and this is the
    seat's final turn. ``ValueError`` for arguments that cannot come from a game.
    """
    if level not in (*LEVELS, MODEL):
        raise ValueError(f"unknown level {level!r}; expected one of {LEVELS}")
    key = roll_key(roll)
    if not 1 <= len(key) <= DICE or not all(isinstance(f, int) and 1 <= f <= 6 for f in key):
        raise ValueError(f"a throw is 1 to {DICE} faces from 1 to 6, got {tuple(roll)!r}")
    if not choices(key):
        raise ValueError(f"nothing in {tuple(roll)!r} can be set aside: the turn is lost")
    if not 0 <= me < len(totals):
        raise ValueError(f"seat {me} is not among {len(totals)} seats")
    if turn_points < 0 or target <= 0 or any(total < 0 for total in totals):
        raise ValueError("points, totals and target must be non-negative (target positive)")
    if level == "classic":
        return classic_move(key, turn_points, totals, me, last_round)
    if level == MODEL:
        return model_move(key, turn_points, totals, me, target, last_round)
    return expert_move(key, turn_points, totals, me, target, last_round)


def optimal_turn_value() -> float:
    """The most points a fresh turn banks on average (exact): 551.55."""
    return float(score_table(None).value[0, DICE])


def expected_turn_value(level: str) -> float:
    """Exact mean points of a fresh solitaire turn (one seat, nothing banked) at ``level``.

    ``expert`` alone plays for points: ``optimal_turn_value()``. ``classic`` banks at 300 (250,
    200 with two, one dice left) with its own set-asides.
    """
    if level == "expert":
        return optimal_turn_value()
    if level == "classic":
        return policy_turn_value(lambda key, points: classic_move(key, points, (0,), 0, False))
    raise ValueError(f"unknown level {level!r}; expected one of {LEVELS}")


def warm_up(target: int = 10000) -> None:
    """Make the expert's tables for ``target`` now rather than at its first move."""
    score_table(None)
    exact_tables.load(target)
    units = -(-target // UNIT)
    if units <= MAX_MODEL_UNITS:
        win_model(units)
