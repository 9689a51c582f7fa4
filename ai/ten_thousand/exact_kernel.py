"""The compiled kernel of ``exact.build`` (numba): the whole table, by decreasing ``a + b``.

Imported by the build only, never by a move: a process that reads a built table compiles
nothing. The notation is ``exact``'s. ``throws`` is ``(farkle, starts, prob, first, cells)``,
``exact.Throws`` with each choice as one cell of a row-major ``(rows, 7)`` array:
``units * 7 + left``. Compiled on first use (cached beside this file when it is writable).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ai.ten_thousand.rolls import DICE, MAX_UNITS
from ai.ten_thousand.tables import Array

Ints = npt.NDArray[np.int64]
#: ``exact.Throws`` as the kernel takes it (see the module docstring).
Packed = tuple[Array, Ints, Array, Ints, Ints]

WIDE = DICE + 1


@njit(cache=True)
def _turn(
    bank: Array,
    last: Array,
    past: int,
    lead: int,
    lost: float,
    top: int,
    throws: Packed,
    after: Array,
    slope: Array,
) -> tuple[float, float]:
    """One turn for a lost turn worth ``lost``: ``(V(a, 6), dV/dlost)``, ``slope`` being the
    derivative of ``after`` (the chance of ending with a lost turn under the play chosen).
    ``bank[i]`` is ``bank(a + i)``; rows ``i >= top`` bank, and so do the rows ``i >= past``
    (past the target) whose lead ``lead + i`` has ``last <= farkle(n) * (1 - lost)``.
    """
    farkle, starts, prob, first, cells = throws
    reach = len(last) - 1
    for i in range(top, top + MAX_UNITS + 1):
        for n in range(1, WIDE):
            after[i * WIDE + n] = bank[i]
            slope[i * WIDE + n] = 0.0
    value = d = 0.0
    for i in range(top - 1, -1, -1):
        base = i * WIDE
        for n in range(1, WIDE):
            if i >= past and last[min(lead + i, reach)] <= farkle[n] * (1.0 - lost):
                after[base + n] = bank[i]
                slope[base + n] = 0.0
                continue
            v = farkle[n] * lost
            d = farkle[n]
            for g in range(starts[n], starts[n + 1]):
                best = -1.0
                best_slope = 0.0
                for o in range(first[g], first[g + 1]):
                    x = after[base + cells[o]]
                    if x > best:
                        best = x
                        best_slope = slope[base + cells[o]]
                v += prob[g] * best
                d += prob[g] * best_slope
            if bank[i] >= v:
                after[base + n] = bank[i]
                slope[base + n] = 0.0
            else:
                after[base + n] = v
                slope[base + n] = d
            value = v  # the last one computed is row 0, six dice
    return value, d


@njit(cache=True)
def solve(win: Array, last: Array, throws: Packed, tolerance: float) -> tuple[float, int]:
    """Fill ``win[a, b]`` (see ``exact``): ``(largest change of a sum's last iteration, turns
    solved)``."""
    farkle = throws[0]
    size = len(win)
    reach = len(last) - 1
    span = size + reach + MAX_UNITS + 2
    bank = np.zeros(span)
    after = np.zeros(span * WIDE)
    slope = np.zeros(span * WIDE)
    worst = 0.0
    turns = 0
    for total in range(2 * size - 2, -1, -1):
        lo = max(0, total - size + 1)
        count = min(total, size - 1) - lo + 1
        w = np.full(count, 0.5)
        for k in range(count):  # a first guess: the pair one step further, already solved
            a, b = lo + k, total - lo - k
            if b + 1 < size:
                w[k] = win[a, b + 1]
            elif a + 1 < size:
                w[k] = win[a + 1, b]
        c = np.zeros(count)
        p = np.zeros(count)
        change = 1.0
        while change > tolerance:
            for k in range(count):
                a, b = lo + k, total - lo - k
                lost = 1.0 - w[count - 1 - k]  # (b, a) is pair count - 1 - k
                floor = farkle[DICE] * (1.0 - lost)
                lead = 0
                while lead < reach and last[lead] > floor:
                    lead += 1
                top = max(b + lead, size, a + 1) - a
                for i in range(top + MAX_UNITS + 1):
                    u = a + i
                    bank[i] = 1.0 - (win[b, u] if u < size else last[min(u - b, reach)])
                v, d = _turn(bank, last, size - a, a - b, lost, top, throws, after, slope)
                c[k] = v - d * lost
                p[k] = d
                turns += 1
            change = 0.0
            for k in range(count):
                r = count - 1 - k
                new = (c[k] + p[k] * (1.0 - c[r] - p[r])) / (1.0 - p[k] * p[r])
                change = max(change, abs(new - w[k]))
                w[k] = new
        worst = max(worst, change)
        for k in range(count):
            win[lo + k, total - lo - k] = w[k]
    return worst, turns
