"""Computer players of Dés 10 000 (RULES.md, Game 2). Pure Python + numpy, no Django import.

``best_move`` gives faces (the engine takes positions: ``ai.positions.faces_to_indices``).
Levels: ``classic`` (the seed's computer, banking at a threshold), ``expert`` (plays to win:
perfectly with two seats, ``exact``; else single-turn tables and a two-seat model, ``winmodel``)
and ``model``, no level of the server: the expert as it played two seats before the exact tables,
for comparisons (``bench/ten_thousand_ai.py``). Tables are made on first use, thread-safely, and
kept for the process (about a second for one target); ``warm_up`` makes them ahead.
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
    """The faces to set aside from ``roll`` (ascending, they score) and whether to bank then (else
    throw the rest, or six after hot dice). ``turn_points``: the turn's before this throw;
    ``last_round``: this is the seat's final turn. ``ValueError`` for what no game can give."""
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
    """Exact mean points of a fresh solitaire turn (one seat, nothing banked) at ``level``
    (``expert``, alone, plays for points: ``optimal_turn_value()``)."""
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
