"""Scoring of Dés 10 000 (RULES.md, Game 2): what a set of dice from one roll is worth. Pure Python.

Every answer comes from tables built once at import over the 923 multisets of 1 to 6 dice, because
the computer player asks these questions millions of times while it searches.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement, product

from games.rules.base import require_dice

DICE = 6
FACES = (1, 2, 3, 4, 5, 6)
STRAIGHT_POINTS = 1500
THREE_PAIRS_POINTS = 750
_SINGLE_POINTS = {1: 100, 5: 50}
#: Four, five and six alike double the previous value each time.
_ALIKE_MULTIPLIER = {3: 1, 4: 2, 5: 4, 6: 8}

Counts = tuple[int, ...]
Key = tuple[int, ...]


def n_alike_points(face: int, count: int) -> int:
    """Points of ``count`` (3-6) dice showing ``face``: three 1s are 1000, three 4s 400 ..."""
    three = 1000 if face == 1 else 100 * face
    return three * _ALIKE_MULTIPLIER[count]


def _counts(faces: Iterable[int]) -> Counts:
    counts = [0] * len(FACES)
    for face in faces:
        counts[face - 1] += 1
    return tuple(counts)


def _faces(counts: Counts) -> Key:
    return tuple(face for face, n in zip(FACES, counts, strict=True) for _ in range(n))


@cache
def _best_split(counts: Counts) -> int | None:
    """The best split of every die into combinations, or ``None`` when some die fits none."""
    if not any(counts):
        return 0
    best: int | None = None
    if sum(counts) == DICE:
        if all(n == 1 for n in counts):
            best = STRAIGHT_POINTS
        # Exactly three faces twice each: four alike + a pair, or six alike, is not three pairs.
        elif sorted(counts) == [0, 0, 0, 2, 2, 2]:
            best = THREE_PAIRS_POINTS
    for index, n in enumerate(counts):
        face = index + 1
        takes = [(count, n_alike_points(face, count)) for count in range(3, n + 1)]
        if face in _SINGLE_POINTS and n:
            takes.append((1, _SINGLE_POINTS[face]))
        for count, points in takes:
            rest = _best_split((*counts[:index], n - count, *counts[index + 1 :]))
            if rest is not None and (best is None or points + rest > best):
                best = points + rest
    return best


def _build() -> tuple[
    dict[Key, int | None], dict[Key, tuple[tuple[Key, int], ...]], dict[Key, frozenset[int]]
]:
    scores: dict[Key, int | None] = {}
    options: dict[Key, tuple[tuple[Key, int], ...]] = {}
    faces: dict[Key, frozenset[int]] = {}
    for size in range(1, DICE + 1):
        for key in combinations_with_replacement(FACES, size):
            counts = _counts(key)
            scores[key] = _best_split(counts)
            found = []
            for sub in product(*(range(n + 1) for n in counts)):
                points = _best_split(sub) if any(sub) else None
                if points is not None:
                    found.append((_faces(sub), points))
            found.sort(key=lambda option: (-option[1], len(option[0]), option[0]))
            options[key] = tuple(found)
            faces[key] = frozenset(face for sub, _ in found for face in sub)
    return scores, options, faces


_SCORES, _OPTIONS, _SCORING_FACES = _build()


def _key(dice: Iterable[int]) -> Key:
    key = tuple(sorted(dice))
    if key not in _SCORES and key:
        # Only a programming error gets here; the check is kept off the fast path.
        require_dice(key)
        raise ValueError(f"one roll has 1 to {DICE} dice, got {len(key)}")
    return key


def score_keep(dice: Iterable[int]) -> int | None:
    """Points for setting aside exactly ``dice`` (any order) from one roll: the best split into
    combinations using every die; ``None`` when some die counts in none, or for no dice."""
    key = _key(dice)
    return _SCORES[key] if key else None


def keep_options(dice: Iterable[int]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every distinct set-aside that counts in this roll, as (sorted faces, points): best points
    first, then fewer dice (more left to roll); empty for a lost round."""
    key = _key(dice)
    return _OPTIONS[key] if key else ()


def is_farkle(dice: Iterable[int]) -> bool:
    """No die of this roll can be set aside: the turn is lost."""
    return not keep_options(dice)


def max_keep_points(dice: Iterable[int]) -> int:
    """The most one set-aside from this roll can score; 0 for a lost round."""
    options = keep_options(dice)
    return options[0][1] if options else 0


def scoring_indices(dice: Sequence[int]) -> frozenset[int]:
    """Positions of the dice in at least one set-aside that counts (dice of one face are all in
    or all out: it depends on the face and the whole roll only)."""
    key = _key(dice)
    faces = _SCORING_FACES[key] if key else frozenset()
    return frozenset(i for i, face in enumerate(dice) if face in faces)


@cache
def farkle_probability(n: int) -> float:
    """The exact chance that a throw of ``n`` dice (1-6) scores nothing, counted over all 6**n."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= DICE:
        raise ValueError(f"dice in play must be 1 to {DICE}, got {n!r}")
    rolls: int = len(FACES) ** n
    lost = sum(1 for roll in product(FACES, repeat=n) if is_farkle(roll))
    return lost / rolls
