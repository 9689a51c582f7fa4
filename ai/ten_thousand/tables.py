"""Single-turn dynamic programs of Dés 10 000, in units of 50 points. Pure Python + numpy.

A turn walks over states ``(t, n)``: ``t`` turn points with ``n`` dice to throw; a throw loses the
turn or is answered by a set-aside (``rolls.choices``) leaving ``left`` dice, then the player banks
or throws again. Every set-aside scores at least one unit, so ``t`` only grows and each table is
filled in one sweep, with no iteration. Tables are kept for the process (``lazy``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from ai.disk import Kept
from ai.ten_thousand.rolls import (
    DICE,
    MAX_UNITS,
    OUTCOMES,
    UNIT,
    Choice,
    Key,
    Outcomes,
    scoring_throws,
)
from games.rules.ten_thousand_scoring import score_keep

#: Turn points (units) from which the score table banks: exact, as the optimum stops at 16 450.
CAP = 400
#: Needs (units) covered by the reach tables: 20 000 points in one turn never happens in practice.
REACH = 400
#: Row offset of the reach tables, so that needs down to ``-MAX_UNITS`` are addressable.
OFFSET = MAX_UNITS
#: The largest "play for k" of the turn menu (units): 10 000 points.
MENU_MAX = 200
#: Final turn points (units) told apart by ``score_outcome``: 20 000 points and more are one.
SPREAD = 400
#: Ties between set-asides of equal worth go to the one with more points.
_TIE_BREAK = 1e-9

Array = npt.NDArray[np.float64]
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class lazy(Generic[K, V]):
    """Memoise ``build(key)`` for the process; concurrent first calls build once."""

    def __init__(self, build: Callable[[K], V]) -> None:
        self._build = build
        self._kept = Kept[V]()

    def __call__(self, key: K) -> V:
        return self._kept.get(key, lambda: self._build(key))


def pick(values: Array, units: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Per throw (row), the column of the best choice; ties go to the most points."""
    best: npt.NDArray[np.int64] = np.argmax(values + _TIE_BREAK * units, axis=1)
    return best


def pick_first(worth: Sequence[float], options: Sequence[Choice]) -> int:
    """``pick`` for one throw: the index of the best of ``options`` worth ``worth``."""
    scores = [float(w) + _TIE_BREAK * c.units for w, c in zip(worth, options, strict=True)]
    return scores.index(max(scores))


def _throw(o: Outcomes, worth: Array, rows: npt.NDArray[np.int64]) -> float:
    """Mean over the throws of ``o`` of the best ``worth[rows, left]`` (a farkle is worth 0)."""
    return float(o.prob @ worth[rows, o.left].max(axis=1))


@dataclass(frozen=True)
class ScoreTable:
    #: ``value[t, n]``: mean points banked from ``t`` units with ``n`` dice to throw.
    value: Array
    #: ``after[t, n] = max(bank t, value[t, n])``: what a set-aside reaching that state is worth.
    after: Array

    def banks(self, t: int, left: int) -> bool:
        """The policy banks at ``t`` units with ``left`` dice to throw (ties bank)."""
        return t >= len(self.value) or t * UNIT >= float(self.value[t, left])


@lazy
def score_table(_: None) -> ScoreTable:
    span = CAP + MAX_UNITS + 1
    bank = np.arange(span, dtype=np.float64) * UNIT
    value = np.repeat(bank[:, None], DICE + 1, axis=1)
    after = value.copy()
    for t in range(CAP - 1, -1, -1):
        for n in range(1, DICE + 1):
            o = OUTCOMES[n]
            value[t, n] = _throw(o, after, t + o.units)
            after[t, n] = max(bank[t], value[t, n])
    return ScoreTable(value, after)


@cache
def threshold_turn_value(threshold: int) -> float:
    """Exact mean points of a turn that banks once it has ``threshold`` points, with the best
    set-asides for that rule (the usual "bank at 300")."""
    h = -(-threshold // UNIT)
    worth = np.zeros((h + MAX_UNITS + 1, DICE + 1))
    worth[h:] = np.arange(h, h + MAX_UNITS + 1, dtype=np.float64)[:, None] * UNIT
    for t in range(h - 1, -1, -1):
        for n in range(1, DICE + 1):
            o = OUTCOMES[n]
            worth[t, n] = _throw(o, worth, t + o.units)
    return float(worth[0, DICE])


def policy_turn_value(move: Callable[[Key, int], tuple[Key, bool]]) -> float:
    """Exact mean points of a fresh turn played by ``move(throw, turn_points) -> (faces, bank)``:
    a memoised recursion, for policies that bank within a few thousand points (``classic``)."""
    memo: dict[tuple[int, int], float] = {}

    def value(points: int, n: int) -> float:
        if (points, n) not in memo:
            total = 0.0
            for key, chance in scoring_throws(n):
                faces, bank = move(key, points)
                reached = points + (score_keep(faces) or 0)
                left = n - len(faces) or DICE
                total += chance * (reached if bank else value(reached, left))
            memo[points, n] = total
        return memo[points, n]

    return value(0, DICE)


@dataclass(frozen=True)
class ReachTable:
    """``cont[i + OFFSET, n]``: the best chance, throwing ``n`` dice, to gain ``i`` more units;
    ``after``: the worth of a set-aside leaving need ``i`` with ``n`` dice (1 once ``i <= 0``,
    ``tie`` for banking one unit short). Needs above ``REACH`` count 0."""

    tie: float
    cont: Array
    after: Array

    def chance(self, need: int, n: int) -> float:
        """``cont`` for any need (units; 1 when ``need <= 0``, 0 beyond the table)."""
        if need <= 0:
            return 1.0
        return float(self.cont[need + OFFSET, n]) if need <= REACH else 0.0


@lazy
def reach_table(tie: float) -> ReachTable:
    size = OFFSET + REACH + 1
    cont = np.zeros((size, DICE + 1))
    cont[: OFFSET + 1] = 1.0
    after = cont.copy()
    for i in range(1, REACH + 1):
        for n in range(1, DICE + 1):
            o = OUTCOMES[n]
            cont[i + OFFSET, n] = _throw(o, after, i + OFFSET - o.units)
            after[i + OFFSET, n] = max(cont[i + OFFSET, n], tie if i == 1 else 0.0)
    return ReachTable(tie, cont, after)


@lazy
def overshoot(_: None) -> Array:
    """``over[i, n, e]``: chance that "play for ``i`` units, then bank" ends with ``i + e`` units,
    with ``reach_table(0.0)``'s set-asides; ``1 - sum`` over ``e``: the turn is lost."""
    after = reach_table(0.0).after
    over = np.zeros((OFFSET + MENU_MAX + 1, DICE + 1, MAX_UNITS))
    for i in range(-MAX_UNITS + 1, 1):
        over[i + OFFSET, :, -i] = 1.0
    for i in range(1, MENU_MAX + 1):
        for n in range(1, DICE + 1):
            o = OUTCOMES[n]
            rows = i + OFFSET - o.units
            best = pick(after[rows, o.left], o.units)
            r = np.arange(len(o.prob))
            over[i + OFFSET, n] = o.prob @ over[rows[r, best], o.left[r, best]]
    return over[OFFSET:]


@lazy
def score_outcome(_: None) -> Array:
    """``dist[t, n, x]``: chance that the ``score_table`` policy banks ``x`` units in the end, from
    ``t`` units just after a set-aside leaving ``n`` dice; ``x = 0``: lost, the last column: from
    ``SPREAD - 1`` on. A fresh turn is ``dist[0, DICE]``."""
    table = score_table(None)
    span = len(table.value)
    dist = np.zeros((span, DICE + 1, SPREAD))
    for t in range(span - 1, -1, -1):
        for n in range(1, DICE + 1):
            if t > 0 and table.banks(t, n):
                dist[t, n, min(t, SPREAD - 1)] = 1.0
                continue
            o = OUTCOMES[n]
            r = np.arange(len(o.prob))
            best = pick(table.after[t + o.units, o.left], o.units)
            dist[t, n] = o.prob @ dist[t + o.units[r, best], o.left[r, best]]
            dist[t, n, 0] += o.farkle
    return dist
