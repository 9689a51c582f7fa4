"""Decisions for one position: the optimal strategy (from the table) and the casual level.

A position is the dice, the sheet and the rolls left. Values are *totals*: the sheet's points
(the upper bonus once reached) plus the expected points to come under optimal play, the +100 of the
current dice included; Yatzy bonuses of earlier turns are not on the sheet and not included.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

import numpy as np
import numpy.typing as npt

from ai.yatzy import batch
from ai.yatzy.casual import casual_moves
from ai.yatzy.dice import (
    ALL_KEEPERS,
    FLAT_KEEPER_INDEX,
    NDICE,
    SUBKEEPERS,
    SUBKEEPERS_PADDED,
    after_one_throw,
    roll_index,
)
from ai.yatzy.scoring import (
    ALL_USED,
    BOXES,
    RULES,
    UPPER_CAP,
    Rules,
    sheet_state,
)
from ai.yatzy.solver import Table, final_values
from ai.yatzy.table import forget_loaded, load_table

Level = Literal["optimal", "casual"]
LEVELS: tuple[Level, ...] = ("optimal", "casual")
Floats = npt.NDArray[np.float64]


class HoldMove(TypedDict):
    hold: list[int]


class BoxMove(TypedDict):
    box: str


Move = HoldMove | BoxMove

_SUBS = tuple(np.array(s[:-1], dtype=np.intp) for s in SUBKEEPERS)  # without "keep all"


class Strategy:
    """The optimal strategy of one table (``default_strategy()`` is the one on the shared table).
    Keeps the within-turn values of the last ``cache_size`` states it was asked about."""

    def __init__(self, table: Table, rules: Rules = RULES, cache_size: int = 4096) -> None:
        self.table = table
        self.rules = rules
        self._flat = table.reshape(-1)  # float32; sums with it come out float64
        self._keepers = functools.lru_cache(maxsize=2 * cache_size)(self._compute_keepers)

    def value(self, mask: int, upper: int, joker: int) -> float:
        """``V``: expected points still to come from the start of a turn in this state."""
        return float(self._flat[(mask * (UPPER_CAP + 1) + upper) * 2 + joker])

    def box_values(self, mask: int, upper: int, joker: int, roll: int) -> dict[int, float]:
        """Each legal box for this roll, with its points + bonuses + the value of what follows."""
        m, u, j, r = (np.array([x], dtype=np.int64) for x in (mask, upper, joker, roll))
        values = batch.box_values(self.table, r, m, u, j, self.rules)[:, 0]
        return {b: float(v) for b, v in enumerate(values) if v > -np.inf}

    def _compute_keepers(self, mask: int, upper: int, joker: int, throws: int) -> Floats:
        """``[flat keeper]``: the value of holding it with ``throws`` throws left in this state."""
        if throws == 2:  # the best keeper of each roll with one throw left, then one more throw
            rolls = self._keepers(mask, upper, joker, 1)[SUBKEEPERS_PADDED].max(axis=1)
        else:  # scoring each roll now in its best box
            m, u, j = (np.array([x], dtype=np.int64) for x in (mask, upper, joker))
            rolls = final_values(self.table, m, u, j, self.rules)[:, 0]
        return after_one_throw(rolls)

    def options(
        self, dice: Sequence[int], sheet: Mapping[str, int], rolls_left: int
    ) -> list[tuple[Move, float]]:
        """Every distinct choice with its value (a total, see the module), best first: the legal
        boxes, and with rolls left every hold but "all five" (that is scoring now or later)."""
        roll, mask, upper, joker, points = _position(dice, sheet, rolls_left)
        found: list[tuple[Move, float]] = [
            ({"box": BOXES[b]}, points + v)
            for b, v in self.box_values(mask, upper, joker, roll).items()
        ]
        if rolls_left:
            k = self._keepers(mask, upper, joker, rolls_left)
            found += [({"hold": list(ALL_KEEPERS[s])}, points + float(k[s])) for s in _SUBS[roll]]
        found.sort(key=lambda mv: -mv[1])
        return found

    def turn_value(self, sheet: Mapping[str, int]) -> float:
        """The value (a total) of the sheet before a turn's first roll."""
        mask, upper, joker, points = sheet_state(sheet)
        return points + self.value(mask, upper, joker)

    def hold_value(
        self, dice: Sequence[int], sheet: Mapping[str, int], rolls_left: int, held: Sequence[int]
    ) -> float:
        """The value (a total) of holding the faces ``held`` of ``dice`` and throwing the others
        (holding all five included: it uses up a roll)."""
        if not rolls_left:
            raise ValueError("no roll left to throw")
        _, mask, upper, joker, points = _position(dice, sheet, rolls_left)
        keeper = FLAT_KEEPER_INDEX[tuple(sorted(held))]
        return points + float(self._keepers(mask, upper, joker, rolls_left)[keeper])

    def box_value(self, dice: Sequence[int], sheet: Mapping[str, int], box: str) -> float:
        """The value (a total) of scoring ``dice`` in ``box`` (a legal box for them)."""
        roll, mask, upper, joker, points = _position(dice, sheet, 0)
        return points + self.box_values(mask, upper, joker, roll)[BOXES.index(box)]

    def best(
        self, dice: Sequence[int], sheet: Mapping[str, int], rolls_left: int
    ) -> tuple[Move, float]:
        """The optimal move and its value (a total)."""
        roll, mask, upper, joker, points = _position(dice, sheet, rolls_left)
        boxes = self.box_values(mask, upper, joker, roll)
        box = max(boxes, key=lambda b: boxes[b])
        best: tuple[Move, float] = ({"box": BOXES[box]}, points + boxes[box])
        if rolls_left:
            k = self._keepers(mask, upper, joker, rolls_left)
            subs = _SUBS[roll]
            values = k[subs]
            i = int(values.argmax())
            # scoring now wins ties: the same value, a shorter turn
            if values[i] > boxes[box] + 1e-9:
                best = ({"hold": list(ALL_KEEPERS[subs[i]])}, points + float(values[i]))
        return best


@functools.cache
def default_strategy() -> Strategy:
    """The strategy on ``load_table()``, made on first use (the table is loaded or built then)."""
    return Strategy(load_table())


def reset_default() -> None:
    """Forget the default strategy and the loaded tables (tests; a new ``DICE_AI_CACHE_DIR``)."""
    default_strategy.cache_clear()
    forget_loaded()


def _position(
    dice: Sequence[int], sheet: Mapping[str, int], rolls_left: int
) -> tuple[int, int, int, int, int]:
    """``(roll, mask, upper, joker, points)``; ValueError for an impossible position."""
    if rolls_left not in (0, 1, 2) or isinstance(rolls_left, bool):
        raise ValueError(f"rolls_left must be 0, 1 or 2, not {rolls_left!r}")
    if len(dice) != NDICE or not all(
        isinstance(d, int | np.integer) and not isinstance(d, bool) for d in dice
    ):
        raise ValueError(f"not five dice: {dice!r}")
    roll = roll_index(list(dice))
    mask, upper, joker, points = sheet_state(sheet)
    if mask == ALL_USED:
        raise ValueError("the sheet is full")
    return roll, mask, upper, joker, points


def best_move(
    dice: Sequence[int], sheet: Mapping[str, int], rolls_left: int, level: str = "optimal"
) -> Move:
    """The computer player's move: ``{"hold": [faces kept, ascending]}`` (with rolls left, never
    all five) or ``{"box": name}`` (legal: the forced joker order is respected). ``dice``: any
    order; ``sheet``: used box -> points; ``rolls_left``: 0, 1 or 2."""
    if level == "optimal":
        return default_strategy().best(dice, sheet, rolls_left)[0]
    if level == "casual":
        roll, mask, upper, joker, _ = _position(dice, sheet, rolls_left)
        one = [np.array([x], dtype=np.int64) for x in (roll, mask, upper, joker)]
        box, keep = casual_moves(one[0], one[1], one[2], one[3], rolls_left)
        if box[0] >= 0:
            return {"box": BOXES[int(box[0])]}
        return {"hold": list(ALL_KEEPERS[int(keep[0])])}
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


def expected_value(dice: Sequence[int], sheet: Mapping[str, int], rolls_left: int) -> float:
    """The value (a total, see the module) of the optimal choice here: at the start of a game,
    averaged over the first roll, 254.4848."""
    return default_strategy().best(dice, sheet, rolls_left)[1]


def option_values(
    dice: Sequence[int], sheet: Mapping[str, int], rolls_left: int
) -> list[tuple[Move, float]]:
    """Every choice with its value (as ``expected_value``), best first: for hints and analysis."""
    return default_strategy().options(dice, sheet, rolls_left)


def start_value() -> float:
    """The expected final score of a whole game under optimal play (254.4848 under our rules)."""
    return default_strategy().value(0, 0, 0)
