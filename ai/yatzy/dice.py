"""Combinatorics of five six-sided dice: every roll, every keeper, and the maps between them.

A *roll* is a sorted 5-tuple of faces (252); a *keeper* a sorted tuple of 0 to 5 faces held
before a re-roll (462), grouped by size: the size-5 keepers are the rolls, in the same order.
Within a size, keepers are ordered by number of distinct faces, then lexicographically, so that
the solver treats each distinct-face group as one block. Computed at import (milliseconds).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import numpy.typing as npt

FACES = (1, 2, 3, 4, 5, 6)
NDICE = 5

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]


def _multisets(size: int) -> list[tuple[int, ...]]:
    found = itertools.combinations_with_replacement(FACES, size)
    return sorted(found, key=lambda k: (len(set(k)), k))


#: KEEPERS[s] lists the sorted keepers of s dice, s = 0..5.
KEEPERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_multisets(s)) for s in range(NDICE + 1)
)
#: The 252 rolls (sorted 5-tuples).
ROLLS: tuple[tuple[int, ...], ...] = KEEPERS[NDICE]
NROLLS = len(ROLLS)  # 252
KEEPER_INDEX: dict[tuple[int, ...], int] = {
    k: i for size in KEEPERS for i, k in enumerate(size)
}  # index within its size group
ROLL_INDEX: dict[tuple[int, ...], int] = {r: i for i, r in enumerate(ROLLS)}

#: Flat numbering of all 462 keepers: size groups in order 0..5 (the rolls are the last 252).
KEEPER_OFFSET = tuple(itertools.accumulate((len(g) for g in KEEPERS), initial=0))
NKEEPERS = KEEPER_OFFSET[-1]  # 462
ALL_KEEPERS: tuple[tuple[int, ...], ...] = tuple(k for g in KEEPERS for k in g)
FLAT_KEEPER_INDEX: dict[tuple[int, ...], int] = {k: i for i, k in enumerate(ALL_KEEPERS)}


def _counts(dice: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(dice.count(f) for f in FACES)


def _outcome_probability(dice: tuple[int, ...]) -> float:
    """Probability that throwing len(dice) dice shows exactly this multiset."""
    n = len(dice)
    ways = math.factorial(n)
    for c in _counts(dice):
        ways //= math.factorial(c)
    return ways / float(6) ** n


#: ROLL_COUNTS[r, f-1]: how many dice of roll r show face f.
ROLL_COUNTS: IntArray = np.array([_counts(r) for r in ROLLS], dtype=np.intp)
#: Probability of each roll when all five dice are thrown.
ROLL_PROB: FloatArray = np.array([_outcome_probability(r) for r in ROLLS])

#: CHILD[s][k, f-1]: index (among keepers of s+1 dice) of keeper k of s dice plus one die showing f.
CHILD: tuple[IntArray, ...] = tuple(
    np.array(
        [[KEEPER_INDEX[tuple(sorted((*k, f)))] for f in FACES] for k in KEEPERS[s]],
        dtype=np.intp,
    )
    for s in range(NDICE)
)


def _parent_groups(size: int) -> tuple[tuple[int, int, IntArray], ...]:
    """For keepers of ``size`` dice: ``(start, stop, parents)`` per block of keepers with the same
    number d of distinct faces; ``parents[i, j]`` is keeper ``start + i`` without one die of its
    j-th distinct face (an index among keepers one die smaller), shape ``(stop - start, d)``."""
    groups: list[tuple[int, int, IntArray]] = []
    start = 0
    for _, block in itertools.groupby(KEEPERS[size], key=lambda k: len(set(k))):
        rows = [[KEEPER_INDEX[_without(k, f)] for f in sorted(set(k))] for k in block]
        groups.append((start, start + len(rows), np.array(rows, dtype=np.intp)))
        start += len(rows)
    return tuple(groups)


def _without(k: tuple[int, ...], face: int) -> tuple[int, ...]:
    i = k.index(face)
    return k[:i] + k[i + 1 :]


#: PARENT_GROUPS[s] for s = 1..5 (PARENT_GROUPS[0] is empty): see ``_parent_groups``.
PARENT_GROUPS: tuple[tuple[tuple[int, int, IntArray], ...], ...] = (
    (),
    *tuple(_parent_groups(s) for s in range(1, NDICE + 1)),
)


def _sub_multisets(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    subs = {tuple(c) for s in range(NDICE + 1) for c in itertools.combinations(roll, s)}
    return sorted(subs, key=lambda k: (len(k), k))


#: SUBKEEPERS[r]: flat indices of the distinct keepers one may hold from roll r (2 to 32 of them).
SUBKEEPERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(FLAT_KEEPER_INDEX[k] for k in _sub_multisets(r)) for r in ROLLS
)
MAX_SUBKEEPERS = max(len(s) for s in SUBKEEPERS)  # 32
#: The same, padded to 32 columns by repeating the roll itself ("keep all"), for vector gathers.
SUBKEEPERS_PADDED: IntArray = np.array(
    [list(s) + [s[-1]] * (MAX_SUBKEEPERS - len(s)) for s in SUBKEEPERS], dtype=np.intp
)


def _transition_matrix() -> FloatArray:
    """TRANSITION[k, r]: probability of ending on roll r after holding flat keeper k and throwing
    the other dice once."""
    t = np.zeros((NKEEPERS, NROLLS))
    for ki, k in enumerate(ALL_KEEPERS):
        for thrown in KEEPERS[NDICE - len(k)]:
            t[ki, ROLL_INDEX[tuple(sorted(k + thrown))]] += _outcome_probability(thrown)
    return t


TRANSITION: FloatArray = _transition_matrix()
# the same, sparse (4368 non-zeros of 116424), row by row: one throw without BLAS and its threads
_T_ROWS, _T_COLS = np.nonzero(TRANSITION)
_T_PROB = TRANSITION[_T_ROWS, _T_COLS]
_T_STARTS = np.flatnonzero(np.r_[True, _T_ROWS[1:] != _T_ROWS[:-1]])


def after_one_throw(roll_values: FloatArray) -> FloatArray:
    """``TRANSITION @ roll_values``: for each flat keeper, the mean value of the roll it gives."""
    out: FloatArray = np.add.reduceat(_T_PROB * roll_values[_T_COLS], _T_STARTS)
    return out


def roll_index(dice: tuple[int, ...] | list[int]) -> int:
    """Index of five dice (any order) among the 252 rolls; ValueError if they are not five faces."""
    key = tuple(sorted(dice))
    try:
        return ROLL_INDEX[key]
    except (KeyError, TypeError):
        raise ValueError(f"not five dice faces 1-6: {dice!r}") from None
