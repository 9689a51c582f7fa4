"""The ``classic`` computer of the seed: it banks once its turn points reach a threshold.

The threshold (points), for a seat ``behind`` points behind the leader of the others (0 when it
leads) that would throw ``dice_left`` dice next (6 after hot dice)::

    threshold = min(1000, 300 + 50 * (max(behind, 0) // 500)) - 50 * max(0, 3 - dice_left)

So 300 at base, 50 more per full 500 points behind (at most 1000), 50 less with two dice left
and 100 less with one: 300, 250, 200 when level; 500 when 2000 behind with 3+ dice.

A throw is answered so:

1. The best set-aside is the one that scores most (fewest dice on equal points): the rules
   library's first ``keep_options``. With it the turn would have ``turn_points + points``.
2. Bank with it when that reaches the threshold. In the last round the threshold is replaced by
   "ends strictly above the leader": it banks exactly when that is so, never short of it.
3. Otherwise throw on, setting aside fewer dice: all six if they all count (hot dice), else every
   die of a face that shows three or more times, else a single 1, else a single 5.

Deterministic, no tables: what the seed describes, played reasonably (about 492 points per turn
when level, against 495.5 for the best set-asides with a flat 300 and 551.55 at best).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.rules.ten_thousand_scoring import DICE, keep_options

__all__ = ["classic_move", "classic_threshold", "lean_keep"]

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
