"""What a throw of 1 to 6 dice can give, for the Dés 10 000 players. Pure Python + numpy.

Every score is a multiple of 50, so the players count in ``UNIT``s: small integers that index
numpy tables. ``choices`` of a throw: for each number of dice set aside, the set-aside that scores
most (the rules' ``keep_options``; scoring is never re-implemented here), since with as many dice
set aside more points are never worse. ``OUTCOMES[n]``: the same as arrays over the scoring throws
of ``n`` dice, padded by repeating a throw's first choice (a maximum over choices is unchanged).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import numpy.typing as npt

from games.rules.ten_thousand_scoring import DICE as DICE
from games.rules.ten_thousand_scoring import FACES, farkle_probability, keep_options

#: Points per table step: every combination scores a multiple of 50.
UNIT = 50
#: The most one set-aside can score, in units (six 1s: 8000 points).
MAX_UNITS = 8000 // UNIT

Key = tuple[int, ...]


@dataclass(frozen=True)
class Choice:
    """One way to set dice aside from a throw."""

    #: The dice set aside, ascending.
    faces: Key
    points: int
    #: ``points`` in units of 50.
    units: int
    #: The dice thrown next if the turn goes on: the others, or all six after hot dice.
    left: int


@dataclass(frozen=True)
class Outcomes:
    """The scoring throws of ``n`` dice, as arrays for the dynamic programs."""

    n: int
    #: Chance of each scoring throw (they sum to ``1 - farkle``).
    prob: npt.NDArray[np.float64]
    #: ``units[r, j]`` and ``left[r, j]``: points and dice left of choice ``j`` of throw ``r``.
    units: npt.NDArray[np.int64]
    left: npt.NDArray[np.int64]
    farkle: float


def roll_key(roll: Iterable[int]) -> Key:
    return tuple(sorted(roll))


def _choices_of(key: Key) -> tuple[Choice, ...]:
    best: dict[int, Choice] = {}
    # keep_options lists the most points first, so the first set-aside of each size is its best.
    for faces, points in keep_options(key):
        if len(faces) not in best:
            left = len(key) - len(faces)
            best[len(faces)] = Choice(faces, points, points // UNIT, left or DICE)
    return tuple(best[size] for size in sorted(best))


def _multiplicity(key: Key) -> int:
    ways = factorial(len(key))
    for count in Counter(key).values():
        ways //= factorial(count)
    return ways


_KEYS: tuple[Key, ...] = tuple(
    key for n in range(1, DICE + 1) for key in combinations_with_replacement(FACES, n)
)
_CHOICES: dict[Key, tuple[Choice, ...]] = {key: _choices_of(key) for key in _KEYS}
_THROWS: dict[int, tuple[tuple[Key, float], ...]] = {
    n: tuple((key, _multiplicity(key) / 6**n) for key in _KEYS if len(key) == n and _CHOICES[key])
    for n in range(1, DICE + 1)
}


def choices(key: Key) -> tuple[Choice, ...]:
    """The set-asides worth considering for the throw ``key`` (sorted faces), fewest dice first;
    empty for a lost round, ``KeyError`` for anything that is not 1 to 6 faces, sorted."""
    return _CHOICES[key]


def scoring_throws(n: int) -> tuple[tuple[Key, float], ...]:
    """The throws of ``n`` dice that score, as (sorted faces, chance), in ``OUTCOMES[n]`` order."""
    return _THROWS[n]


def _outcomes(n: int) -> Outcomes:
    keys = [key for key, _ in _THROWS[n]]
    width = max(len(_CHOICES[key]) for key in keys)
    units = np.empty((len(keys), width), dtype=np.int64)
    left = np.empty((len(keys), width), dtype=np.int64)
    for r, key in enumerate(keys):
        row = _CHOICES[key]
        padded = row + (row[0],) * (width - len(row))
        units[r] = [choice.units for choice in padded]
        left[r] = [choice.left for choice in padded]
    prob = np.array([chance for _, chance in _THROWS[n]], dtype=np.float64)
    return Outcomes(n, prob, units, left, farkle_probability(n))


#: ``OUTCOMES[n]`` for n = 1..6 (index 0 unused).
OUTCOMES: tuple[Outcomes, ...] = (
    Outcomes(0, np.zeros(0), np.zeros((0, 1), np.int64), np.zeros((0, 1), np.int64), 1.0),
    *(_outcomes(n) for n in range(1, DICE + 1)),
)


@dataclass(frozen=True)
class AllOutcomes:
    """``OUTCOMES[1..6]`` stacked, for a sweep that serves every number of dice at once."""

    prob: npt.NDArray[np.float64]
    units: npt.NDArray[np.int64]
    left: npt.NDArray[np.int64]
    #: First row of each ``n`` (for ``np.add.reduceat``) and the farkle chance of each ``n``.
    starts: npt.NDArray[np.int64]
    farkle: npt.NDArray[np.float64]


def _stack() -> AllOutcomes:
    parts = OUTCOMES[1:]
    width = max(o.units.shape[1] for o in parts)

    def pad(a: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return np.hstack([a, np.repeat(a[:, :1], width - a.shape[1], axis=1)])

    sizes = [len(o.prob) for o in parts]
    return AllOutcomes(
        np.concatenate([o.prob for o in parts]),
        np.vstack([pad(o.units) for o in parts]),
        np.vstack([pad(o.left) for o in parts]),
        np.cumsum([0, *sizes[:-1]]),
        np.array([o.farkle for o in parts]),
    )


#: Every scoring throw of 1 to 6 dice, ``n`` by ``n``.
ALL_OUTCOMES = _stack()
