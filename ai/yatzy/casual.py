"""The "casual" level: a simple, human-like player, deterministic given the position, that looks
neither at probabilities nor at the strategy table.

1. **Scoring**: the legal box of best *worth* (``casual_worth``): its points, an upper box judged
   against "par" (three of its face), with a price for a 0 so that ``ones`` go first.
2. **Stopping early**: with rolls left it scores a made ``yatzy``, ``large_straight`` or
   ``full_house``, a ``small_straight`` once the large one is used, or a joker.
3. **Holding**: three or more alike (the higher face); else a run of four when a straight box is
   free; else two pairs when ``full_house`` is free; else its higher pair; else a run of three when
   a straight box is free; else its highest die.

``casual_moves`` is vectorised over positions, for the benchmark's many games at once.
"""

from __future__ import annotations

import numpy as np

from ai.yatzy.dice import FLAT_KEEPER_INDEX, KEEPER_OFFSET, NDICE, NKEEPERS, ROLLS
from ai.yatzy.scoring import (
    CHANCE,
    FOUR_KIND,
    FULL_HOUSE,
    LARGE_STRAIGHT,
    NBOXES,
    NUPPER,
    RULES,
    SMALL_STRAIGHT,
    THREE_KIND,
    YATZY,
    Floats,
    Ints,
    Rules,
    joker_columns,
    points_matrix,
)

#: What a casual player feels it loses by putting a 0 in each box.
SCRATCH_COST = {
    "three_of_a_kind": 10.0,
    "four_of_a_kind": 5.0,
    "full_house": 9.0,
    "small_straight": 11.0,
    "large_straight": 7.0,
    "chance": 20.0,
    "yatzy": 8.0,
}
CHANCE_RESERVE = 15.0
ON_PACE = 10.0  # an upper box at or above par while the bonus is still open
KIND_DISCOUNT = 3.0  # three/four of a kind: better used for high dice
_SCRATCH = np.array([0.0] * 6 + list(SCRATCH_COST.values()))
_PAR = np.array([3.0 * (b + 1) for b in range(6)] + [0.0] * 7)
_IS_UPPER = np.arange(NBOXES) < 6


def _run(faces: set[int], length: int) -> tuple[int, ...] | None:
    """The highest run of ``length`` consecutive faces among ``faces``."""
    for low in range(7 - length, 0, -1):
        run = tuple(range(low, low + length))
        if set(run) <= faces:
            return run
    return None


def _holds(roll: tuple[int, ...]) -> tuple[int, int, int, int, int, int]:
    """Per roll: (top count, keep top face, run of 4 or -1, two pairs or -1, run of 3 or -1,
    highest die) as flat keeper indices."""
    counts = {f: roll.count(f) for f in set(roll)}
    top = max(counts, key=lambda f: (counts[f], f))
    pairs = sorted(f for f, c in counts.items() if c == 2)
    run4 = _run(set(roll), 4)
    run3 = _run(set(roll), 3)

    def index(keep: tuple[int, ...] | None) -> int:
        return -1 if keep is None else FLAT_KEEPER_INDEX[tuple(sorted(keep))]

    return (
        counts[top],
        index((top,) * counts[top]),
        index(run4),
        index(tuple(pairs * 2)) if len(pairs) == 2 else -1,
        index(run3),
        index((max(roll),)),
    )


_FEATURES = np.array([_holds(r) for r in ROLLS], dtype=np.int64)
TOP_COUNT, KEEP_TOP, KEEP_RUN4, KEEP_PAIRS, KEEP_RUN3, KEEP_HIGH = _FEATURES.T
assert (_FEATURES[:, 1:] < NKEEPERS).all()


def casual_worth(points: Ints, uppers: Ints, rules: Rules = RULES) -> Floats:
    """How good each box looks (``points`` from ``points_matrix``; illegal boxes -inf): an upper
    box's points minus par, plus ``ON_PACE`` at par while the bonus is open and the bonus itself
    when reached now; ``KIND_DISCOUNT`` and ``CHANCE_RESERVE`` off; a lower 0 costs its scratch."""
    pts = points.astype(np.float64)
    upper = _IS_UPPER[:, None]
    open_bonus = uppers < rules.upper_threshold
    worth: Floats = pts + (pts - _PAR[:, None]) * upper
    worth += ON_PACE * (upper & open_bonus & (pts > 0) & (pts >= _PAR[:, None]))
    worth += rules.upper_bonus * (upper & open_bonus & (uppers + pts >= rules.upper_threshold))
    worth[CHANCE] -= CHANCE_RESERVE
    worth[[THREE_KIND, FOUR_KIND]] -= KIND_DISCOUNT
    lower_zero = (pts == 0) & ~_IS_UPPER[:, None]
    worth[lower_zero] = -np.broadcast_to(_SCRATCH[:, None], pts.shape)[lower_zero]
    worth[points < 0] = -np.inf
    return worth


def casual_moves(
    rolls: Ints, masks: Ints, uppers: Ints, jokers: Ints, rolls_left: int, rules: Rules = RULES
) -> tuple[Ints, Ints]:
    """The casual player's moves for a batch of positions: ``(box, keeper)`` per position, box an
    index into ``BOXES`` (or -1 for a hold) and keeper a flat keeper index (or -1 for a box)."""
    points, _ = points_matrix(masks, jokers, rolls, rules)
    worth = casual_worth(points, np.minimum(uppers, NUPPER - 1), rules)
    box = worth.argmax(axis=0)
    if rolls_left == 0:
        return box, np.full_like(box, -1)
    cols = np.arange(rolls.size)
    made = points[box, cols] > 0
    free = points >= 0
    stop = joker_columns(masks, jokers, rolls, rules) | (
        made & np.isin(box, (YATZY, LARGE_STRAIGHT, FULL_HOUSE))
    )
    stop |= made & (box == SMALL_STRAIGHT) & ~free[LARGE_STRAIGHT]
    straights = free[SMALL_STRAIGHT] | free[LARGE_STRAIGHT]
    count = TOP_COUNT[rolls]
    keep = np.where(count >= 3, KEEP_TOP[rolls], -1)
    for choice, ok in (
        (KEEP_RUN4[rolls], straights),
        (KEEP_PAIRS[rolls], free[FULL_HOUSE]),
        (np.where(count == 2, KEEP_TOP[rolls], -1), True),
        (KEEP_RUN3[rolls], straights),
        (KEEP_HIGH[rolls], True),
    ):
        keep = np.where((keep < 0) & (choice >= 0) & ok, choice, keep)
    stop |= keep >= KEEPER_OFFSET[NDICE]  # holding all five: nothing to throw, so score
    return np.where(stop, box, -1), np.where(stop, -1, keep)
