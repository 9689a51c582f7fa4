"""Yatzy scoring as lookup tables over the 252 rolls, for the solver and the policies.

Deliberately independent of ``games.rules.yatzy``: the table is a pure function of these rules,
and ``tests/ai`` cross-checks the two box by box over every roll. A player's *state* between turns
is ``(mask, upper, joker)``: the used boxes (bit ``i`` for ``BOXES[i]``), the upper boxes' sum
capped at 63 (the bonus threshold), and 1 when the ``yatzy`` box holds 50 (five alike then earns
+100 and is a forced joker).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass

import numpy as np
import numpy.typing as npt

from ai.yatzy.dice import NROLLS, ROLL_COUNTS, ROLLS

BOXES = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "chance",
    "yatzy",
)
NBOXES = len(BOXES)
BOX_INDEX = {name: i for i, name in enumerate(BOXES)}
LOWER = tuple(range(6, 12))  # the lower boxes other than yatzy
THREE_KIND, FOUR_KIND, FULL_HOUSE, SMALL_STRAIGHT, LARGE_STRAIGHT, CHANCE, YATZY = range(6, 13)
YATZY_BIT = 1 << YATZY
LOWER_BITS = sum(1 << b for b in LOWER)
ALL_USED = (1 << NBOXES) - 1
NMASKS = 1 << NBOXES  # 8192
UPPER_CAP = 63
NUPPER = UPPER_CAP + 1  # 64


@dataclass(frozen=True)
class Rules:
    """The numbers of the rules that the strategy depends on. ``joker_after_scratch``: the
    official Hasbro joker (also after a scratched Yatzy box, without the bonus), not ours
    (RULES.md), a known reference point (254.5877) to check the solver."""

    upper_threshold: int = 63
    upper_bonus: int = 35
    yatzy_bonus: int = 100
    joker_after_scratch: bool = False

    def __post_init__(self) -> None:
        if not 0 < self.upper_threshold <= UPPER_CAP:  # the state caps the upper total at 63
            raise ValueError(f"upper_threshold must be 1..{UPPER_CAP}")

    def checksum(self) -> str:
        """A digest of these numbers and of the whole score table: any scoring change shows here."""
        h = hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode())
        h.update(BOXES_SCORE.tobytes())
        return h.hexdigest()


RULES = Rules()
HASBRO_RULES = Rules(joker_after_scratch=True)


def _box_scores(roll: tuple[int, ...]) -> list[int]:
    counts = [roll.count(f) for f in range(1, 7)]
    total = sum(roll)
    faces = set(roll)
    most = max(counts)
    small = any({a, a + 1, a + 2, a + 3} <= faces for a in (1, 2, 3))
    large = faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})
    return [
        *(counts[f - 1] * f for f in range(1, 7)),
        total if most >= 3 else 0,
        total if most >= 4 else 0,
        25 if sorted(counts)[-2:] == [2, 3] else 0,
        30 if small else 0,
        40 if large else 0,
        total,
        50 if most == 5 else 0,
    ]


#: BOXES_SCORE[b, r]: points box b takes for roll r, no joker (five alike is not a full house).
BOXES_SCORE: npt.NDArray[np.int64] = np.array([_box_scores(r) for r in ROLLS], dtype=np.int64).T
#: YATZY_ROLLS[f-1]: roll index of five dice showing f.
YATZY_ROLLS = tuple(ROLLS.index((f,) * 5) for f in range(1, 7))
IS_YATZY: npt.NDArray[np.bool_] = ROLL_COUNTS.max(axis=1) == 5
#: ROLL_LOW_FACE[r]: the lowest face of roll r (the face of five alike).
ROLL_LOW_FACE: npt.NDArray[np.int64] = np.array([r[0] for r in ROLLS], dtype=np.int64)
#: Points of each lower box (yatzy excluded) when five alike of face f is played as a joker.
JOKER_LOWER: dict[int, Callable[[int], int]] = {
    THREE_KIND: lambda f: 5 * f,
    FOUR_KIND: lambda f: 5 * f,
    FULL_HOUSE: lambda f: 25,
    SMALL_STRAIGHT: lambda f: 30,
    LARGE_STRAIGHT: lambda f: 40,
    CHANCE: lambda f: 5 * f,
}
assert BOXES_SCORE.shape == (NBOXES, NROLLS)


def legal_scores(mask: int, joker: int, roll: int, rules: Rules = RULES) -> dict[int, int]:
    """The boxes that may take this roll now, each with the points it scores (bonus excluded)."""
    free = [b for b in range(NBOXES) if not mask >> b & 1]
    if not (mask & YATZY_BIT and IS_YATZY[roll] and (joker or rules.joker_after_scratch)):
        return {b: int(BOXES_SCORE[b, roll]) for b in free}
    face = int(ROLLS[roll][0])
    if not mask >> (face - 1) & 1:
        return {face - 1: 5 * face}
    lower = [b for b in free if b in JOKER_LOWER]
    if lower:
        return {b: JOKER_LOWER[b](face) for b in lower}
    return {b: 0 for b in free}


def yatzy_bonus_for(mask: int, joker: int, roll: int, rules: Rules = RULES) -> int:
    """The +100 earned by this roll: five alike while the ``yatzy`` box holds 50."""
    return rules.yatzy_bonus if joker and mask & YATZY_BIT and IS_YATZY[roll] else 0


Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


def joker_columns(
    masks: Ints, jokers: Ints, rolls: Ints, rules: Rules = RULES
) -> npt.NDArray[np.bool_]:
    """Whether each column's roll is played under the forced joker order."""
    scratched_ok = (jokers == 1) | rules.joker_after_scratch
    joker: npt.NDArray[np.bool_] = IS_YATZY[rolls] & ((masks & YATZY_BIT) != 0) & scratched_ok
    return joker


def points_matrix(
    masks: Ints, jokers: Ints, rolls: Ints, rules: Rules = RULES
) -> tuple[Ints, Ints]:
    """Vectorised ``legal_scores`` over columns: ``(points, bonus)`` where ``points[b, i]`` is what
    box b scores for column i (``-1`` when b may not take the roll) and ``bonus[i]`` the Yatzy
    bonus the roll earns."""
    pts = BOXES_SCORE[:, rolls].copy()
    used = (masks[None, :] >> np.arange(NBOXES)[:, None] & 1).astype(bool)
    pts[used] = -1
    joker = joker_columns(masks, jokers, rolls, rules)
    bonus = np.where(joker & (jokers == 1), rules.yatzy_bonus, 0)
    cols = np.flatnonzero(joker)
    if cols.size:
        faces = ROLL_LOW_FACE[rolls[cols]]
        sub = pts[:, cols]
        free = sub >= 0
        own = free[faces - 1, np.arange(cols.size)]
        lower = free[list(LOWER)].any(axis=0) & ~own
        rest = ~own & ~lower
        joker_pts = np.full_like(sub, -1)
        joker_pts[faces[own] - 1, np.flatnonzero(own)] = 5 * faces[own]
        for b, points in JOKER_LOWER.items():
            take = lower & free[b]
            joker_pts[b, take] = [points(int(f)) for f in faces[take]]
        joker_pts[:6][free[:6] & rest[None, :]] = 0
        pts[:, cols] = joker_pts
    return pts, bonus


def sheet_state(sheet: Mapping[str, int | None]) -> tuple[int, int, int, int]:
    """``(mask, upper, joker, points)`` of a sheet (used box -> points), ``points`` its boxes plus
    the upper bonus if reached; ValueError for an unknown box or upper points no dice can give."""
    mask = 0
    upper = 0
    points = 0
    for name, value in sheet.items():
        if value is None:  # a free box, as some sheets spell it
            continue
        try:
            b = BOX_INDEX[name]
        except KeyError:
            raise ValueError(f"unknown box {name!r}") from None
        if not isinstance(value, int) or value < 0:
            raise ValueError(f"box {name!r} holds {value!r}, not points")
        mask |= 1 << b
        points += value
        if b < 6:
            if value % (b + 1) or value > 5 * (b + 1):  # only such sheets are in the table
                raise ValueError(f"box {name!r} cannot hold {value}")
            upper += value
    joker = 1 if sheet.get("yatzy") else 0
    if upper >= RULES.upper_threshold:
        points += RULES.upper_bonus
    return mask, min(upper, UPPER_CAP), joker, points
