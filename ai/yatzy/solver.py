"""The optimal expected-score strategy: backward induction over the states between turns.

``V[mask, upper, joker]`` (see ``ai.yatzy.scoring`` for the state) is the expected number of
points still to come from the start of a turn in that state, under optimal play: the boxes yet to
be filled, the upper bonus if not yet earned, and future Yatzy bonuses. ``V`` of the full sheet is
0; a state's value depends only on states with one more box used, so the table is filled one
popcount level at a time, from 12 used boxes down to the empty sheet. Only the upper totals a
sheet can actually show are computed (68 % of the entries); the others stay 0 and are never read,
since ``sheet_state`` refuses upper points no dice can give.

Within a turn (the usual "widget", vectorised over a batch of state columns): ``R0 =
final_values``, ``R1 = best_keep(keeper_values(R0))``, ``R2`` likewise from R1, and the turn's
value is the mean of R2 over the first throw.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from ai.yatzy.dice import (
    CHILD,
    KEEPER_OFFSET,
    NDICE,
    NKEEPERS,
    NROLLS,
    PARENT_GROUPS,
    ROLL_COUNTS,
    ROLL_PROB,
)
from ai.yatzy.scoring import (
    ALL_USED,
    BOXES_SCORE,
    IS_YATZY,
    JOKER_LOWER,
    LOWER,
    LOWER_BITS,
    NBOXES,
    NMASKS,
    NUPPER,
    RULES,
    UPPER_CAP,
    YATZY,
    YATZY_BIT,
    YATZY_ROLLS,
    Rules,
)

Table = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
DTYPE = np.float64  # float32 here drifts by 2e-4 over the 13 turns; the table is stored as float32
Floats = npt.NDArray[np.float64]
TABLE_SHAPE = (NMASKS, NUPPER, 2)
NEG = -1e9  # "illegal box": far below any value, still finite
_COUNT_POINTS = np.arange(NDICE + 1)
_YATZY_ROW = IS_YATZY.astype(np.intp)


def _lookup(table: Table, masks: Ints, uppers: Ints, jokers: Ints) -> Floats:
    return table[masks, uppers, jokers].astype(DTYPE)


def final_values(
    table: Table, masks: Ints, uppers: Ints, jokers: Ints, rules: Rules = RULES
) -> Floats:
    """``R[roll, column]``: the value of scoring each roll now in the best legal box, for each
    state column ``(masks[i], uppers[i], jokers[i])``: the box's points + bonuses + ``V`` of the
    next state."""
    n = masks.shape[0]
    out = np.full((NROLLS, n), NEG, dtype=DTYPE)
    for b in range(NBOXES):
        used = (masks >> b & 1).astype(bool)
        if used.all():
            continue
        nxt = masks | (1 << b)
        if b < 6:
            face = b + 1
            pts = face * _COUNT_POINTS[:, None]  # (6, 1): c dice of the face
            new_upper = uppers[None, :] + pts
            crossed = (uppers[None, :] < rules.upper_threshold) & (
                new_upper >= rules.upper_threshold
            )
            w = pts + rules.upper_bonus * crossed
            w = w + _lookup(table, nxt[None, :], np.minimum(new_upper, UPPER_CAP), jokers[None, :])
            w[:, used] = NEG
            np.maximum(out, w[ROLL_COUNTS[:, b]], out=out)
        elif b == YATZY:
            w = np.stack(
                [
                    _lookup(table, nxt, uppers, np.zeros_like(jokers)),
                    50 + _lookup(table, nxt, uppers, np.ones_like(jokers)),
                ]
            )
            w[:, used] = NEG
            np.maximum(out, w[_YATZY_ROW], out=out)
        else:
            v = _lookup(table, nxt, uppers, jokers)
            v[used] = NEG
            np.maximum(out, BOXES_SCORE[b][:, None] + v[None, :], out=out)
    _apply_jokers(out, table, masks, uppers, jokers, rules)
    return out


def _apply_jokers(
    out: Floats, table: Table, masks: Ints, uppers: Ints, jokers: Ints, rules: Rules
) -> None:
    """Overwrite the five-alike rows of joker columns with the forced joker order's value."""
    yatzy_used = (masks & YATZY_BIT) != 0
    cols = np.flatnonzero(yatzy_used & ((jokers == 1) | rules.joker_after_scratch))
    if cols.size == 0:
        return
    ms, us, js = masks[cols], uppers[cols], jokers[cols]
    bonus = rules.yatzy_bonus * js
    nxt = np.full((YATZY, cols.size), NEG, dtype=DTYPE)  # V after each box but yatzy, if free
    for b in range(YATZY):
        free = (ms >> b & 1) == 0
        nxt[b, free] = _lookup(table, ms[free] | (1 << b), us[free], js[free])
    upper, lower = nxt[:6], nxt[6:]
    any_lower = (ms & LOWER_BITS) != LOWER_BITS
    for face in range(1, 7):
        b = face - 1
        pts = 5 * face
        lower_pts = np.array([JOKER_LOWER[lb](face) for lb in LOWER], dtype=DTYPE)
        lower_best = (lower + lower_pts[:, None]).max(axis=0)
        upper_best = upper.max(axis=0)  # scores 0 (its own face's box is used here)
        crossed = (us < rules.upper_threshold) & (us + pts >= rules.upper_threshold)
        own = (
            pts
            + rules.upper_bonus * crossed
            + _lookup(table, ms | (1 << b), np.minimum(us + pts, UPPER_CAP), js)
        )
        own_free = (ms >> b & 1) == 0
        value = np.where(own_free, own, np.where(any_lower, lower_best, upper_best))
        out[YATZY_ROLLS[b], cols] = value + bonus


def keeper_values(rolls: Floats) -> Floats:
    """``K[flat keeper, column]``: the value of holding each keeper and throwing the other dice
    once, given the value ``rolls[roll, column]`` of each resulting roll. Rows follow
    ``ai.yatzy.dice.ALL_KEEPERS``; the last 252 rows are ``rolls`` itself (all five held)."""
    n = rolls.shape[1]
    k = np.empty((NKEEPERS, n), dtype=DTYPE)
    k[KEEPER_OFFSET[NDICE] :] = rolls
    tmp = np.empty((len(CHILD[NDICE - 1]), n), dtype=DTYPE)
    for s in range(NDICE - 1, -1, -1):
        nxt = k[KEEPER_OFFSET[s + 1] : KEEPER_OFFSET[s + 2]]
        cur = k[KEEPER_OFFSET[s] : KEEPER_OFFSET[s + 1]]
        child = CHILD[s]
        np.take(nxt, child[:, 0], axis=0, out=cur, mode="clip")
        part = tmp[: cur.shape[0]]
        for f in range(1, 6):
            np.take(nxt, child[:, f], axis=0, out=part, mode="clip")
            cur += part
        cur *= DTYPE(1.0 / 6.0)
    return k


def best_keep(keepers: Floats, inplace: bool = False) -> Floats:
    """``R[roll, column]``: the value of each roll when one more throw is allowed: the best keeper
    it contains (``keepers`` from ``keeper_values``). With ``inplace``, ``keepers`` is overwritten
    (row k then holds the best keeper within keeper k) and the result is a view of its last rows."""
    n = keepers.shape[1]
    if not inplace:
        keepers = keepers.copy()
    prev = keepers[KEEPER_OFFSET[0] : KEEPER_OFFSET[1]]
    tmp = np.empty((NROLLS, n), dtype=DTYPE)
    for s in range(1, NDICE + 1):
        cur = keepers[KEEPER_OFFSET[s] : KEEPER_OFFSET[s + 1]]
        for start, stop, parents in PARENT_GROUPS[s]:
            block = cur[start:stop]
            part = tmp[: stop - start]
            for j in range(parents.shape[1]):
                np.take(prev, parents[:, j], axis=0, out=part, mode="clip")
                np.maximum(block, part, out=block)
        prev = cur
    return prev


def turn_values(
    table: Table, masks: Ints, uppers: Ints, jokers: Ints, rules: Rules = RULES
) -> tuple[Floats, Floats, Floats]:
    """``(R0, K1, K2)`` for a batch of state columns: final-roll values, and keeper values with one
    and with two throws left (``K2`` is what one weighs after the first roll)."""
    r0 = final_values(table, masks, uppers, jokers, rules)
    k1 = keeper_values(r0)
    k2 = keeper_values(best_keep(k1))
    return r0, k1, k2


def start_values(
    table: Table, masks: Ints, uppers: Ints, jokers: Ints, rules: Rules = RULES
) -> npt.NDArray[np.float64]:
    """``V`` of each state column: the mean, over the first throw, of the best choice after it."""
    r0 = final_values(table, masks, uppers, jokers, rules)
    r1 = best_keep(keeper_values(r0), inplace=True)
    r2 = best_keep(keeper_values(r1), inplace=True)
    return np.asarray(ROLL_PROB @ r2, dtype=np.float64)


@functools.cache
def _reachable(upper_mask: int) -> tuple[int, ...]:
    totals = {0}
    for b in range(6):
        if upper_mask >> b & 1:
            totals = {min(t + c * (b + 1), UPPER_CAP) for t in totals for c in range(NDICE + 1)}
    return tuple(sorted(totals))


def reachable_uppers(mask: int) -> tuple[int, ...]:
    """The capped upper totals a sheet with these used boxes can show (each upper box holds
    0 to 5 times its face). Other ``(mask, upper)`` entries of the table are never computed."""
    return _reachable(mask & 0b111111)


def _level_columns(level: int) -> tuple[Ints, Ints, Ints]:
    """The reachable states with ``level`` used boxes (joker 1 only where the yatzy box is used)."""
    cols = [
        (mask, upper, joker)
        for mask in range(NMASKS)
        if mask.bit_count() == level
        for joker in ((0, 1) if mask & YATZY_BIT else (0,))
        for upper in reachable_uppers(mask)
    ]
    ms, us, js = np.array(cols, dtype=np.int64).reshape(-1, 3).T.copy()
    return ms, us, js


def build_table(
    rules: Rules = RULES,
    workers: int | None = None,
    chunk: int = 512,
    progress: Callable[[int, float], None] | None = None,
) -> Table:
    """The whole table ``V[mask, upper, joker]`` (float32, 8192 x 64 x 2). A level's columns are
    independent: chunks run in ``workers`` threads (default: the CPUs, at most 4), as numpy
    releases the GIL in its loops. ``progress(level, seconds)`` after each level."""
    workers = workers or min(4, os.cpu_count() or 1)
    table = np.zeros(TABLE_SHAPE, dtype=np.float32)
    start = time.perf_counter()

    def run(cols: tuple[Ints, Ints, Ints]) -> None:
        ms, us, js = cols
        table[ms, us, js] = start_values(table, ms, us, js, rules)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for level in range(NBOXES - 1, -1, -1):
            ms, us, js = _level_columns(level)
            chunks = [
                (ms[i : i + chunk], us[i : i + chunk], js[i : i + chunk])
                for i in range(0, ms.size, chunk)
            ]
            list(pool.map(run, chunks))
            if progress is not None:
                progress(level, time.perf_counter() - start)
    # states whose yatzy box is free have no joker: mirror them into the joker=1 slot
    free = (np.arange(NMASKS) & YATZY_BIT) == 0
    table[free, :, 1] = table[free, :, 0]
    assert table[ALL_USED].max() == 0.0
    return table
