"""Dice by position: the computer players choose faces, the rules engines take positions (the
dice a move holds or keeps). A leaf module, so the players and the analysis both use it
without importing each other."""

from __future__ import annotations

from collections.abc import Sequence


def faces_to_indices(roll: Sequence[int], faces: Sequence[int]) -> tuple[int, ...]:
    """Positions in ``roll`` of the dice ``faces`` (first matching positions, ascending).

    The computer players choose faces; the engines take positions (the dice a move holds or
    keeps). ``ValueError`` if ``faces`` is not a sub-multiset of ``roll``.
    """
    free = list(enumerate(roll))
    taken: list[int] = []
    for face in faces:
        for slot, (index, die) in enumerate(free):
            if die == face:
                taken.append(index)
                del free[slot]
                break
        else:
            raise ValueError(f"{tuple(faces)!r} is not part of the roll {tuple(roll)!r}")
    return tuple(sorted(taken))
