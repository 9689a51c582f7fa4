"""Yatzy scoring: the boxes, their points, the forced joker and the sheet totals (re-exported by
``games.rules.yatzy``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from games.rules.base import WireForm, require_dice

UPPER_BOXES: tuple[str, ...] = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER_BOXES: tuple[str, ...] = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "chance",
    "yatzy",
)
#: The 13 wire names in sheet order.
BOXES: tuple[str, ...] = UPPER_BOXES + LOWER_BOXES

UPPER_BONUS = 35
UPPER_BONUS_THRESHOLD = 63
YATZY_BONUS = 100
YATZY_POINTS = 50
FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40

_BOX_INDEX = {box: i for i, box in enumerate(BOXES)}
_SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
_LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})

#: A sheet: used boxes to their points; ``None`` reads as free (as in the state's wire form).
SheetLike = Mapping[str, int | None]


def box_index(box: str) -> int:
    """Position of ``box`` in ``BOXES``; ``ValueError`` for a name that is not a box."""
    try:
        return _BOX_INDEX[box]
    except (KeyError, TypeError):
        raise ValueError(f"not a yatzy box: {box!r}") from None


def _faces(dice: Sequence[int]) -> tuple[int, ...]:
    return require_dice(dice, 5)


def _raw_points(box: str, faces: tuple[int, ...]) -> int:
    return _points_by_box(tuple(sorted(faces)))[box_index(box)]


@cache
def _points_by_box(faces: tuple[int, ...]) -> tuple[int, ...]:
    """What ``faces`` (sorted: 252 throws in all) score in each box, in ``BOXES`` order."""
    counts = sorted(Counter(faces).values())
    distinct = set(faces)
    total = sum(faces)
    lower = {
        "three_of_a_kind": total if counts[-1] >= 3 else 0,
        "four_of_a_kind": total if counts[-1] >= 4 else 0,
        "full_house": FULL_HOUSE_POINTS if counts == [2, 3] else 0,
        "small_straight": SMALL_STRAIGHT_POINTS
        if any(run <= distinct for run in _SMALL_RUNS)
        else 0,
        "large_straight": LARGE_STRAIGHT_POINTS if distinct in _LARGE_RUNS else 0,
        "chance": total,
        "yatzy": YATZY_POINTS if counts == [5] else 0,
    }
    upper = [face * faces.count(face) for face in range(1, len(UPPER_BOXES) + 1)]
    return (*upper, *(lower[box] for box in BOXES[len(UPPER_BOXES) :]))


def box_points(box: str, dice: Sequence[int]) -> int:
    """The points ``dice`` score in ``box`` by the box's own rule, ignoring the joker."""
    return _raw_points(box, _faces(dice))


def _used(sheet: SheetLike) -> dict[str, int]:
    used: dict[str, int] = {}
    for box, points in sheet.items():
        box_index(box)
        if points is not None:
            used[box] = points
    return used


def _is_joker(faces: tuple[int, ...], used: Mapping[str, int]) -> bool:
    return len(set(faces)) == 1 and used.get("yatzy") == YATZY_POINTS


def score_options(dice: Sequence[int], sheet: SheetLike) -> dict[str, int]:
    """The boxes the player may choose now (in sheet order), each with the points it adds: the
    joker's forced order applied, the +100 Yatzy bonus not included (``yatzy_bonus``)."""
    faces = _faces(dice)
    used = _used(sheet)
    free = [box for box in BOXES if box not in used]
    if not _is_joker(faces, used):
        points = _points_by_box(tuple(sorted(faces)))
        return {box: points[_BOX_INDEX[box]] for box in free}
    face_box = UPPER_BOXES[faces[0] - 1]
    if face_box not in used:
        return {face_box: _raw_points(face_box, faces)}
    free_lower = [box for box in free if box in LOWER_BOXES]
    if free_lower:
        return {box: _joker_lower_points(box, faces) for box in free_lower}
    return {box: 0 for box in free}


def _joker_lower_points(box: str, faces: tuple[int, ...]) -> int:
    # The joker stands in for the pattern these three boxes ask for; the others already fit.
    joker = {
        "full_house": FULL_HOUSE_POINTS,
        "small_straight": SMALL_STRAIGHT_POINTS,
        "large_straight": LARGE_STRAIGHT_POINTS,
    }
    return joker.get(box, _raw_points(box, faces))


def yatzy_bonus(dice: Sequence[int], sheet: SheetLike) -> int:
    """100 for five alike when the ``yatzy`` box already holds 50, else 0."""
    return YATZY_BONUS if _is_joker(_faces(dice), _used(sheet)) else 0


def must_sacrifice(dice: Sequence[int], sheet: SheetLike) -> bool:
    """True when boxes are left but none the player may choose scores more than 0."""
    options = score_options(dice, sheet)
    return bool(options) and max(options.values()) == 0


@dataclass(frozen=True)
class SheetTotals(WireForm):
    upper_sum: int
    upper_bonus: int
    lower_sum: int
    yatzy_bonus: int
    total: int


def sheet_totals(sheet: SheetLike, yatzy_bonus_points: int = 0) -> SheetTotals:
    """The totals of a sheet (used boxes to points) plus the Yatzy bonuses it has earned."""
    used = _used(sheet)
    upper = sum(used.get(box, 0) for box in UPPER_BOXES)
    lower = sum(used.get(box, 0) for box in LOWER_BOXES)
    bonus = UPPER_BONUS if upper >= UPPER_BONUS_THRESHOLD else 0
    return SheetTotals(
        upper_sum=upper,
        upper_bonus=bonus,
        lower_sum=lower,
        yatzy_bonus=yatzy_bonus_points,
        total=upper + bonus + lower + yatzy_bonus_points,
    )
