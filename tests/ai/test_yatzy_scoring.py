"""The AI's own scoring tables agree with the rules library, box by box, over every roll.

``ai.yatzy.scoring`` is written independently of ``games.rules.yatzy`` (the table must be a pure
function of the rules); this is where the two meet. Plain pytest, no Django.
"""

from __future__ import annotations

import numpy as np
import pytest

from ai.yatzy.dice import ROLLS
from ai.yatzy.scoring import (
    BOXES,
    BOXES_SCORE,
    legal_scores,
    points_matrix,
    sheet_state,
    yatzy_bonus_for,
)
from games.rules.yatzy import BOXES as RULES_BOXES
from games.rules.yatzy import score_options, yatzy_bonus
from tests.ai.yatzy_sheets import SHEETS


def test_same_box_names_in_the_same_order() -> None:
    assert tuple(RULES_BOXES) == BOXES


def test_plain_box_scores_match_the_rules_library_on_every_roll() -> None:
    for r, dice in enumerate(ROLLS):
        expected = score_options(list(dice), {})
        assert expected == {box: int(BOXES_SCORE[b, r]) for b, box in enumerate(BOXES)}, dice


@pytest.mark.parametrize("sheet", SHEETS, ids=[str(i) for i in range(len(SHEETS))])
def test_legal_boxes_points_and_bonus_match_the_rules_library(sheet: dict[str, int]) -> None:
    mask, _, joker, _ = sheet_state(sheet)
    rolls = np.arange(len(ROLLS))
    points, bonus = points_matrix(
        np.full(rolls.size, mask), np.full(rolls.size, joker), rolls.astype(np.int64)
    )
    for r, dice in enumerate(ROLLS):
        for order in (list(dice), list(reversed(dice))):
            expected = score_options(order, sheet)
            ours = {BOXES[b]: p for b, p in legal_scores(mask, joker, r).items()}
            assert ours == expected, (dice, sheet)
            vector = {BOXES[b]: int(points[b, r]) for b in range(len(BOXES)) if points[b, r] >= 0}
            assert vector == expected, (dice, sheet)
            assert yatzy_bonus_for(mask, joker, r) == yatzy_bonus(order, sheet) == bonus[r]


def test_sheet_state_reads_mask_upper_joker_and_points() -> None:
    sheet = {"ones": 3, "sixes": 30, "fives": 25, "fours": 16, "yatzy": 50, "chance": 20}
    mask, upper, joker, points = sheet_state(sheet)
    assert mask == 0b1100000111001
    assert upper == 63  # 74, capped at the bonus threshold
    assert joker == 1
    assert points == 3 + 30 + 25 + 16 + 50 + 20 + 35  # the upper bonus is already earned
    assert sheet_state({"yatzy": 0})[2] == 0
    with pytest.raises(ValueError, match="unknown box"):
        sheet_state({"sevens": 7})
    with pytest.raises(ValueError, match="cannot hold"):
        sheet_state({"twos": 3})  # no dice give 3 in twos
