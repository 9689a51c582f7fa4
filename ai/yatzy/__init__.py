"""The Yatzy computer player: the optimal expected-score strategy and a casual level.

``best_move(dice, sheet, rolls_left, level="optimal")`` is the contract the server uses (see
``ai.yatzy.policy``); its table is built once by ``build_table`` (a few seconds) and cached on disk
by ``load_table`` (``ai.yatzy.table``). Pure Python + numpy, no Django.
"""

from ai.yatzy.policy import (
    LEVELS,
    Strategy,
    best_move,
    default_strategy,
    expected_value,
    option_values,
    start_value,
)
from ai.yatzy.scoring import HASBRO_RULES
from ai.yatzy.solver import build_table
from ai.yatzy.table import load_table

__all__ = [
    "HASBRO_RULES",
    "LEVELS",
    "Strategy",
    "best_move",
    "build_table",
    "default_strategy",
    "expected_value",
    "load_table",
    "option_values",
    "start_value",
]
