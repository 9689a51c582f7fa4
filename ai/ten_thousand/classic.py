"""The ``classic`` computer of the seed: it banks once its turn points reach a threshold.

The threshold is 300 points, 50 more per full 500 behind the leader (at most 1000), 50 less with
two dice left to throw and 100 less with one. It sets aside the rules' first ``keep_options``
(most points, fewest dice) and banks when the turn reaches the threshold (in the last round:
exactly when it ends strictly above the leader); else it throws on keeping fewer dice
(``lean_keep``). Deterministic, no tables: about 492 points per turn when level, against 495.5 for
the best set-asides at a flat 300 and 551.55 at best.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.rules.ten_thousand_scoring import DICE, keep_options

BASE = 300
STEP = 50
PER_BEHIND = 500
CEILING = 1000
FEW_DICE = 3


def classic_threshold(behind: int, dice_left: int) -> int:
    """Turn points from which ``classic`` banks (see the module docstring)."""
    raised = min(CEILING, BASE + STEP * (max(behind, 0) // PER_BEHIND))
    return raised - STEP * max(0, FEW_DICE - dice_left)


def lean_keep(key: tuple[int, ...], best: tuple[int, ...]) -> tuple[int, ...]:
    """The dice ``classic`` sets aside when it throws on (``key`` sorted, ``best`` its best)."""
    if len(best) == len(key):
        return best
    counts = Counter(key)
    alike = tuple(face for face in key if counts[face] >= 3)
    if alike:
        return alike
    return (1,) if counts[1] else (5,)


def classic_move(
    key: tuple[int, ...],
    turn_points: int,
    totals: Sequence[int],
    me: int,
    last_round: bool,
) -> tuple[tuple[int, ...], bool]:
    """``best_move`` for ``classic``, the throw given as sorted faces with a scoring die."""
    best, points = keep_options(key)[0]
    reached = turn_points + points
    others = [total for seat, total in enumerate(totals) if seat != me]
    leader = max(others, default=0)
    if last_round and others:
        bank = totals[me] + reached > leader
    else:
        left = len(key) - len(best) or DICE
        bank = reached >= classic_threshold(leader - totals[me], left)
    return (best, True) if bank else (lean_keep(key, best), False)
