"""Score sheets for the Yatzy AI tests: hand-picked corner cases (jokers, sacrifices) and random
sheets that could occur in a game."""

from __future__ import annotations

import random

from ai.yatzy.scoring import BOXES

LOWER_POINTS = {
    "three_of_a_kind": [0, 7, 18, 30],
    "four_of_a_kind": [0, 9, 26],
    "full_house": [0, 25],
    "small_straight": [0, 30],
    "large_straight": [0, 40],
    "chance": [5, 23, 30],
    "yatzy": [0, 50],
}


def random_sheet(rng: random.Random, used: int | None = None) -> dict[str, int]:
    """A sheet that could occur: any used boxes, each holding points its dice could give."""
    count = rng.randint(0, 12) if used is None else used
    sheet = {}
    for box in rng.sample(BOXES, count):
        i = BOXES.index(box)
        sheet[box] = (i + 1) * rng.randint(0, 5) if i < 6 else rng.choice(LOWER_POINTS[box])
    return sheet


def _all_but(*free: str, yatzy: int = 50) -> dict[str, int]:
    sheet = {box: 0 for box in BOXES if box not in free}
    if "yatzy" not in free:
        sheet["yatzy"] = yatzy
    return sheet


SHEETS = [
    {},
    {"yatzy": 50},
    {"yatzy": 0},
    {"yatzy": 50, "fours": 12},
    {"yatzy": 0, "fours": 12},
    {"yatzy": 50, "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18},
    _all_but("ones", "chance"),
    _all_but("ones", "large_straight"),
    _all_but("ones", "twos"),
    _all_but("ones", "twos", yatzy=0),
    _all_but("sixes"),
    _all_but("yatzy"),
    _all_but("full_house", "small_straight", "large_straight"),
    {"ones": 3, "threes": 6, "fours": 8, "sixes": 12, "chance": 20},
    *(random_sheet(random.Random(seed)) for seed in range(60)),
]
