"""The optimal strategy vectorised over players, for simulations: ``Strategy.best`` (what the
server calls) would take minutes over hundreds of thousands of games, so ``OptimalTurn`` computes a
batch's within-turn values in one pass of the solver's kernel, then answers with array lookups.
Same rule: hold the best keeper unless scoring now is as good; the best legal box, first on ties.
"""

from __future__ import annotations

import numpy as np

from ai.yatzy.dice import KEEPER_OFFSET, NDICE, NKEEPERS, NROLLS, SUBKEEPERS_PADDED
from ai.yatzy.scoring import (
    NBOXES,
    NUPPER,
    RULES,
    UPPER_CAP,
    YATZY,
    Floats,
    Ints,
    Rules,
    points_matrix,
)
from ai.yatzy.solver import Table, turn_values

_BITS = (1 << np.arange(NBOXES, dtype=np.int64))[:, None]
_UPPER_ROWS = (np.arange(NBOXES) < 6)[:, None]


def box_values(
    table: Table, rolls: Ints, masks: Ints, uppers: Ints, jokers: Ints, rules: Rules = RULES
) -> Floats:
    """``values[b, i]``: points + bonuses + ``V`` of the next state when box b takes roll i of
    player i (``-inf`` where b is not legal)."""
    pts, bonus = points_matrix(masks, jokers, rolls, rules)
    legal = pts >= 0
    gain = np.where(legal, pts, 0)
    new_upper = np.where(_UPPER_ROWS, uppers + gain, uppers)
    crossed = _UPPER_ROWS & (uppers < rules.upper_threshold) & (new_upper >= rules.upper_threshold)
    new_joker = np.where(np.arange(NBOXES)[:, None] == YATZY, gain > 0, jokers).astype(np.int64)
    after = table[masks | _BITS, np.minimum(new_upper, UPPER_CAP), new_joker]
    values = gain + bonus + rules.upper_bonus * crossed + after.astype(np.float64)
    return np.where(legal, values, -np.inf)


class OptimalTurn:
    """The within-turn values of a batch of players at the start of a turn, for ``moves``."""

    def __init__(
        self,
        table: Table,
        masks: Ints,
        uppers: Ints,
        jokers: Ints,
        rules: Rules = RULES,
        block: int = 512,
    ) -> None:
        self.table, self.rules = table, rules
        self.masks, self.uppers, self.jokers = masks, np.minimum(uppers, UPPER_CAP), jokers
        key = (masks * NUPPER + self.uppers) * 2 + jokers
        states, self.column = np.unique(key, return_inverse=True)
        n = states.size
        # players' states in rows, rolls/keepers in columns: one player's options are contiguous
        self.r0 = np.empty((n, NROLLS))
        self.keepers = (np.empty((n, NKEEPERS)), np.empty((n, NKEEPERS)))
        for i in range(0, n, block):  # blocks of columns keep the kernel's arrays in cache
            s = states[i : i + block]
            r0, k1, k2 = turn_values(table, s // (2 * NUPPER), s // 2 % NUPPER, s % 2, rules)
            self.r0[i : i + block] = r0.T
            self.keepers[0][i : i + block] = k1.T
            self.keepers[1][i : i + block] = k2.T

    def moves(self, players: Ints, rolls: Ints, rolls_left: int) -> tuple[Ints, Ints]:
        """``(box, keeper)`` for these players showing these rolls: a box index, or -1 and the flat
        keeper index to hold (never all five dice)."""
        ms, us, js = self.masks[players], self.uppers[players], self.jokers[players]
        boxes: Ints = box_values(self.table, rolls, ms, us, js, self.rules).argmax(axis=0)
        if rolls_left == 0:
            return boxes, np.full_like(boxes, -1)
        col = self.column[players]
        subs = SUBKEEPERS_PADDED[rolls]
        values = self.keepers[rolls_left - 1][col[:, None], subs]
        values[subs == (KEEPER_OFFSET[NDICE] + rolls)[:, None]] = -np.inf  # "keep all" = score
        best = values.argmax(axis=1)
        rows = np.arange(rolls.size)
        hold = values[rows, best] > self.r0[col, rolls] + 1e-9
        return np.where(hold, -1, boxes), np.where(hold, subs[rows, best], -1)
