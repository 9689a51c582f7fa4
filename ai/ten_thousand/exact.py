"""The exact two-seat game of Dés 10 000: each seat's chance to win, both playing to win.

Units of 50 points. ``a`` is the mover's banked total, ``b`` the other seat's, ``T`` the target.
``W[a, b]`` (``0 <= a, b < T``) is the mover's chance to win at the start of its turn, a tie
counting half. Within the turn, ``u = a + t`` is what the mover would bank (``t``: turn points)
and ``A(u, n)`` the worth of a set-aside that reaches ``u`` leaving ``n`` dice to throw: the best
of banking, ``bank(u)``, and throwing on, ``V(u, n)``::

    V(u, n)  = farkle(n) * f + sum over scoring throws of n dice of the best A(u + x, left)
    f        = 1 - W[b, a]                     (a lost turn: the other seat moves)
    bank(u)  = 1 - W[b, u]                     if u < T
             = 1 - last(u - b)                 otherwise: the other seat's last turn
    W[a, b]  = V(a, 6)

``last(L)``: the best chance of one last turn to end above a lead ``L`` (a tie half:
``reach_table(0.5)``). Every set-aside is a choice (``keep_options``, not only the best per number
of dice: near the target fewer points can be worth more).

``W[a, b]`` needs ``W[b, a]`` (a lost turn keeps both totals) and larger sums ``a + b`` only:
solved by decreasing sum, each pair's turn for the current ``f`` giving ``W = c + p * f``, then
each pair ``(a, b), (b, a)`` its 2x2 system: policy iteration until nothing moves by more than
``TOLERANCE``. A lead ``L`` with ``last(L) <= farkle(6) * (1 - f)`` banks for certain, so each
turn is solved up to that lead only.

``build`` runs in a numba kernel (``exact_kernel``: 7 s for 5 000, 41 s for 10 000, 2 min for
15 000, a tenth of numpy's time); moves and the analysis solve one turn from the table
(``turn_values``, numpy, 2 to 3 ms) and compile nothing. Exact up to ``TOLERANCE`` and to
``last`` counting 0 beyond a lead of ``REACH`` (20 000 points), where it is below 1.5e-10.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from ai.ten_thousand.rolls import DICE, MAX_UNITS, UNIT, scoring_throws
from ai.ten_thousand.tables import REACH, Array, reach_table
from games.rules.ten_thousand_scoring import keep_options

#: Policy iteration stops when no chance of a sum's pairs moves by more than this.
TOLERANCE = 1e-12
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Throws:
    """The scoring throws of 1 to 6 dice, grouped by their choices: group ``g`` (of ``n`` dice
    when ``starts[n] <= g < starts[n + 1]``) has chance ``prob[g]`` and choices ``units[o],
    left[o]`` for ``first[g] <= o < first[g + 1]``."""

    farkle: Array
    starts: Ints
    prob: Array
    first: Ints
    units: Ints
    left: Ints


@cache
def throws() -> Throws:
    prob: list[float] = []
    starts, first, units, left = [0, 0], [0], list[int](), list[int]()
    for n in range(1, DICE + 1):
        groups: dict[tuple[tuple[int, int], ...], float] = defaultdict(float)
        for key, chance in scoring_throws(n):
            kept = {(p // UNIT, n - len(faces) or DICE) for faces, p in keep_options(key)}
            groups[tuple(sorted(kept))] += chance
        for options, chance in groups.items():
            prob.append(chance)
            units.extend(x for x, _ in options)
            left.extend(m for _, m in options)
            first.append(len(units))
        starts.append(len(prob))
    farkle = np.array([1.0, *(1.0 - sum(prob[starts[n] : starts[n + 1]]) for n in range(1, 7))])
    ints = [np.array(v, dtype=np.int64) for v in (starts, first, units, left)]
    return Throws(farkle, ints[0], np.array(prob), *ints[1:])


@cache
def last_chances() -> Array:
    """``last[L]``: the other seat's chance in its last turn against a lead of ``L`` units (0
    for ``L`` beyond ``REACH``: below 1e-14)."""
    table = reach_table(0.5)
    return np.array([table.chance(lead + 1, DICE) for lead in range(REACH + 1)] + [0.0])


def _bank(win: Array, a: int, b: int, top: int) -> Array:
    """``bank[u]`` for ``u`` from ``a`` to ``top + MAX_UNITS`` (index ``u - a``)."""
    units = len(win)
    u = np.arange(a, top + MAX_UNITS + 1)
    last = last_chances()
    lead = np.minimum(u - b, len(last) - 1)
    inside = u < units
    return np.where(inside, 1.0 - win[b, np.where(inside, u, 0)], 1.0 - last[lead])


def _top(a: int, b: int, units: int, lost: float) -> int:
    """The first ``u`` from which banking is certainly best (see the module docstring)."""
    last = last_chances()
    floor = throws().farkle[DICE] * (1.0 - lost)
    settled = np.flatnonzero(last <= floor)
    return max(b + int(settled[0]), units, a + 1)


@dataclass(frozen=True)
class TurnValues:
    """One turn of the mover at ``(a, b)``: ``after[u - a, n]`` is ``A(u, n)``, ``go[u - a, n]``
    is ``V(u, n)``, ``bank[u - a]`` is ``bank(u)``; from ``top`` on, banking is best."""

    a: int
    top: int
    bank: Array
    go: Array
    after: Array

    def worth(self, u: int, n: int, *, banks: bool | None = None) -> float:
        """Setting aside to ``u`` with ``n`` dice left, then banking (``banks``), throwing on (not
        ``banks``) or the better of the two (None)."""
        i = min(u, self.top) - self.a
        if banks or u >= self.top:
            return float(self.bank[min(u - self.a, len(self.bank) - 1)])
        return float((self.go if banks is False else self.after)[i, n])


def turn_values(win: Array, a: int, b: int) -> TurnValues:
    """The mover's turn at ``(a, b)`` from the table ``win`` (numpy, a few milliseconds)."""
    t = throws()
    lost = 1.0 - float(win[b, a])
    top = _top(a, b, len(win), lost)
    bank = _bank(win, a, b, top)
    after = np.repeat(bank[:, None], DICE + 1, axis=1)
    go = after.copy()
    heads = t.first[:-1]
    n_of = np.repeat(np.arange(1, DICE + 1), np.diff(t.starts[1:]))
    for i in range(top - a - 1, -1, -1):
        best = np.maximum.reduceat(after[i + t.units, t.left], heads)
        go[i, 1:] = np.bincount(n_of - 1, t.prob * best, DICE) + t.farkle[1:] * lost
        after[i, 1:] = np.maximum(go[i, 1:], bank[i])
    return TurnValues(a, top, bank, go, after)


def build(units: int) -> tuple[Array, float, int]:
    """``W`` for a target of ``units``, the largest change of a sum's last iteration (below
    ``TOLERANCE``) and the number of turns solved."""
    try:
        from ai.ten_thousand import exact_kernel
    except ImportError as missing:  # numba: the dev extra's, as the tables ship built
        raise RuntimeError(
            "the exact tables ship with the code (ai/ten_thousand/exact_data); rebuilding one "
            "needs numba: pip install -e '.[dev]'"
        ) from missing

    t = throws()
    win = np.zeros((units, units))
    packed = (t.farkle, t.starts, t.prob, t.first, t.units * (DICE + 1) + t.left)
    worst, turns = exact_kernel.solve(win, last_chances(), packed, TOLERANCE)
    return win, float(worst), int(turns)
