"""Yatzy rules (RULES.md, Game 1): scoring, the forced joker, the engine's commands and errors."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest

from games.rules.base import RuleError, fixed_roller
from games.rules.yatzy import (
    BOXES,
    LOWER_BOXES,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    UPPER_BOXES,
    YATZY_BONUS,
    BoxScored,
    Command,
    DiceRolled,
    Event,
    GameFinished,
    GameStarted,
    Roll,
    Score,
    SheetTotals,
    WireError,
    YatzyOptions,
    YatzyState,
    apply,
    box_points,
    command_from_wire,
    decide,
    event_from_wire,
    must_sacrifice,
    options_from_wire,
    places_for,
    replay,
    score_options,
    sheet_totals,
    start,
    state_from_wire,
    yatzy_bonus,
)


def no_dice(n: int) -> tuple[int, ...]:
    raise AssertionError(f"the roller must not be called (asked for {n} dice)")


def make_state(
    sheet: Mapping[str, int] | None = None,
    dice: Sequence[int] = (),
    *,
    seats: int = 1,
    rolls_used: int | None = None,
    bonus: int = 0,
) -> YatzyState:
    """Seat 0 to play with ``sheet`` used and ``dice`` on the table; other seats untouched."""
    used = sheet or {}
    first = tuple(used.get(box) for box in BOXES)
    empty: tuple[int | None, ...] = (None,) * len(BOXES)
    return YatzyState(
        seats=seats,
        options=YatzyOptions(),
        sheets=(first,) + (empty,) * (seats - 1),
        yatzy_bonus_points=(bonus,) + (0,) * (seats - 1),
        dice=tuple(dice),
        rolls_used=(1 if dice else 0) if rolls_used is None else rolls_used,
    )


def used_except(*free: str, **points: int) -> dict[str, int]:
    """A sheet with every box used (0 unless given) except ``free``."""
    return {box: points.get(box, 0) for box in BOXES if box not in free}


def expect_error(
    state: YatzyState, command: Command, code: str, field: str | None = None
) -> RuleError:
    before = state.to_wire()
    with pytest.raises(RuleError) as info:
        decide(state, command, no_dice)
    assert info.value.code == code
    assert info.value.field == field
    assert state.to_wire() == before
    assert state_from_wire(before) == state
    return info.value


# --- the vocabulary -----------------------------------------------------------------------------


def test_boxes_in_sheet_order() -> None:
    assert BOXES == (
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
    assert UPPER_BOXES + LOWER_BOXES == BOXES
    assert (UPPER_BONUS, UPPER_BONUS_THRESHOLD, YATZY_BONUS) == (35, 63, 100)


# --- RULES.md worked examples -------------------------------------------------------------------

SACRIFICE_SHEET = {"ones": 2, "threes": 9, "fours": 8, "sixes": 18, "chance": 22}
ALL_LOWER_USED = {box: 10 for box in LOWER_BOXES} | {"yatzy": 50, "fours": 12}

WORKED_EXAMPLES = [
    # dice, sheet before, box, points, bonus
    pytest.param((1, 1, 1, 3, 6), {}, "ones", 3, 0, id="ones"),
    pytest.param((1, 1, 1, 3, 6), {}, "sixes", 6, 0, id="sixes"),
    pytest.param((2, 2, 2, 5, 5), {}, "full_house", 25, 0, id="full-house"),
    pytest.param((4, 4, 4, 4, 4), {}, "full_house", 0, 0, id="five-alike-not-full-house"),
    pytest.param((1, 2, 3, 4, 6), {}, "small_straight", 30, 0, id="small-1234"),
    pytest.param((3, 4, 5, 6, 6), {}, "small_straight", 30, 0, id="small-3456"),
    pytest.param((1, 2, 3, 5, 6), {}, "small_straight", 0, 0, id="small-none"),
    pytest.param((2, 3, 4, 5, 6), {}, "large_straight", 40, 0, id="large"),
    pytest.param((6, 6, 6, 6, 2), {}, "four_of_a_kind", 26, 0, id="four-of-a-kind"),
    pytest.param((1, 1, 3, 4, 6), SACRIFICE_SHEET, "twos", 0, 0, id="must-sacrifice"),
    pytest.param((4, 4, 4, 4, 4), {"yatzy": 50}, "fours", 20, 100, id="joker-step-1"),
    pytest.param(
        (4, 4, 4, 4, 4), {"yatzy": 50, "fours": 12}, "large_straight", 40, 100, id="joker-step-2"
    ),
    pytest.param((4, 4, 4, 4, 4), ALL_LOWER_USED, "ones", 0, 100, id="joker-step-3"),
    pytest.param((4, 4, 4, 4, 4), {"yatzy": 0, "fours": 12}, "large_straight", 0, 0, id="no-joker"),
]


@pytest.mark.parametrize(("dice", "sheet", "box", "points", "bonus"), WORKED_EXAMPLES)
def test_worked_example(
    dice: tuple[int, ...], sheet: dict[str, int], box: str, points: int, bonus: int
) -> None:
    assert score_options(dice, sheet)[box] == points
    assert yatzy_bonus(dice, sheet) == bonus
    # The engine scores the same: the box gets ``points``, the seat gets ``bonus`` on top.
    state = make_state(sheet, dice)
    events = decide(state, Score(0, box), no_dice)
    assert events[0] == BoxScored(seat=0, box=box, points=points, yatzy_bonus=bonus)
    after = apply(state, events[0])
    assert after.sheet(0)[box] == points
    assert after.yatzy_bonus_points == (bonus,)


def test_example_must_sacrifice() -> None:
    options = score_options((1, 1, 3, 4, 6), SACRIFICE_SHEET)
    assert set(options) == set(BOXES) - set(SACRIFICE_SHEET)
    assert set(options.values()) == {0}
    assert must_sacrifice((1, 1, 3, 4, 6), SACRIFICE_SHEET)
    assert make_state(SACRIFICE_SHEET, (6, 4, 1, 3, 1)).must_sacrifice
    assert not must_sacrifice((1, 1, 3, 4, 6), {})


def test_example_joker_step_1_only_the_face_box() -> None:
    assert score_options((4, 4, 4, 4, 4), {"yatzy": 50}) == {"fours": 20}
    state = make_state({"yatzy": 50}, (4, 4, 4, 4, 4))
    assert state.legal_boxes() == {"fours": 20}
    assert state.yatzy_bonus_now == 100
    error = expect_error(state, Score(0, "large_straight"), "box_not_allowed", "box")
    assert error.params["allowed"] == ["fours"]


def test_example_joker_step_2_every_free_lower_box_in_full() -> None:
    options = score_options((4, 4, 4, 4, 4), {"yatzy": 50, "fours": 12})
    assert options == {
        "three_of_a_kind": 20,
        "four_of_a_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 20,
    }
    state = make_state({"yatzy": 50, "fours": 12}, (4, 4, 4, 4, 4))
    expect_error(state, Score(0, "ones"), "box_not_allowed", "box")


def test_joker_step_2_only_the_free_lower_boxes() -> None:
    sheet = {"yatzy": 50, "sixes": 18, "full_house": 25, "chance": 20, "ones": 1}
    assert score_options((6,) * 5, sheet) == {
        "three_of_a_kind": 30,
        "four_of_a_kind": 30,
        "small_straight": 30,
        "large_straight": 40,
    }


def test_example_joker_step_3_free_upper_boxes_score_zero() -> None:
    sheet = ALL_LOWER_USED | {"twos": 6}
    assert score_options((4, 4, 4, 4, 4), sheet) == {"ones": 0, "threes": 0, "fives": 0, "sixes": 0}
    assert yatzy_bonus((4, 4, 4, 4, 4), sheet) == 100
    assert must_sacrifice((4, 4, 4, 4, 4), sheet)


def test_example_sacrificed_yatzy_makes_five_alike_ordinary() -> None:
    sheet = {"yatzy": 0, "fours": 12}
    options = score_options((4, 4, 4, 4, 4), sheet)
    assert set(options) == set(BOXES) - set(sheet)
    assert options["full_house"] == options["small_straight"] == options["large_straight"] == 0
    assert options["threes"] == 0
    assert options["chance"] == options["three_of_a_kind"] == options["four_of_a_kind"] == 20
    assert yatzy_bonus((4, 4, 4, 4, 4), sheet) == 0


def test_five_alike_with_yatzy_free_is_ordinary() -> None:
    options = score_options((5, 5, 5, 5, 5), {"fives": 15})
    assert set(options) == set(BOXES) - {"fives"}
    assert options["yatzy"] == 50
    assert options["full_house"] == options["large_straight"] == 0
    assert yatzy_bonus((5, 5, 5, 5, 5), {"fives": 15}) == 0


def test_no_bonus_without_five_alike() -> None:
    assert yatzy_bonus((4, 4, 4, 4, 3), {"yatzy": 50}) == 0
    assert score_options((4, 4, 4, 4, 3), {"yatzy": 50})["fours"] == 16
    assert score_options((4, 4, 4, 4, 3), {"yatzy": 50})["full_house"] == 0


# --- the boxes, one by one ----------------------------------------------------------------------

BOX_CASES = [
    ("ones", (1, 2, 1, 3, 1), 3),
    ("ones", (2, 3, 4, 5, 6), 0),
    ("twos", (2, 2, 2, 2, 2), 10),
    ("threes", (3, 1, 3, 6, 6), 6),
    ("fours", (4, 4, 4, 4, 1), 16),
    ("fives", (5, 1, 1, 1, 1), 5),
    ("sixes", (6, 6, 6, 6, 6), 30),
    ("three_of_a_kind", (2, 2, 2, 3, 3), 12),
    ("three_of_a_kind", (3, 3, 3, 3, 3), 15),
    ("three_of_a_kind", (5, 1, 5, 6, 5), 22),
    ("three_of_a_kind", (2, 2, 3, 3, 4), 0),
    ("four_of_a_kind", (5, 5, 5, 5, 5), 25),
    ("four_of_a_kind", (1, 6, 6, 6, 6), 25),
    ("four_of_a_kind", (5, 5, 5, 2, 2), 0),
    ("full_house", (5, 5, 2, 2, 2), 25),
    ("full_house", (3, 6, 3, 6, 3), 25),
    ("full_house", (4, 4, 4, 4, 1), 0),
    ("full_house", (1, 1, 2, 2, 3), 0),
    ("full_house", (6, 6, 6, 6, 6), 0),
    ("small_straight", (1, 2, 3, 4, 5), 30),
    ("small_straight", (2, 3, 4, 5, 2), 30),
    ("small_straight", (6, 5, 4, 3, 1), 30),
    ("small_straight", (3, 4, 4, 5, 6), 30),
    ("small_straight", (1, 1, 2, 2, 3), 0),
    ("small_straight", (1, 2, 4, 5, 6), 0),
    ("large_straight", (1, 2, 3, 4, 5), 40),
    ("large_straight", (5, 4, 3, 2, 1), 40),
    ("large_straight", (6, 2, 4, 3, 5), 40),
    ("large_straight", (1, 2, 3, 4, 6), 0),
    ("large_straight", (1, 3, 4, 5, 6), 0),
    ("large_straight", (2, 3, 4, 5, 5), 0),
    ("chance", (1, 1, 1, 1, 1), 5),
    ("chance", (6, 6, 6, 6, 6), 30),
    ("chance", (1, 3, 4, 5, 2), 15),
    ("yatzy", (6, 6, 6, 6, 6), 50),
    ("yatzy", (1, 1, 1, 1, 1), 50),
    ("yatzy", (6, 6, 6, 6, 5), 0),
]


@pytest.mark.parametrize(("box", "dice", "points"), BOX_CASES)
def test_box_points(box: str, dice: tuple[int, ...], points: int) -> None:
    assert box_points(box, dice) == points
    assert box_points(box, list(reversed(dice))) == points
    assert score_options(dice, {})[box] == points


@pytest.mark.parametrize(
    "dice", [(1, 2, 3, 4), (1, 2, 3, 4, 5, 6), (0, 1, 2, 3, 4), (1, 2, 3, 4, 7), (1, 2, 3, 4, True)]
)
def test_bad_dice_are_programming_errors(dice: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"dice|die face"):
        box_points("chance", dice)
    with pytest.raises(ValueError, match=r"dice|die face"):
        score_options(dice, {})


def test_unknown_box_names_are_programming_errors() -> None:
    with pytest.raises(ValueError, match="not a yatzy box"):
        box_points("bonus", (1, 2, 3, 4, 5))
    with pytest.raises(ValueError, match="not a yatzy box"):
        score_options((1, 2, 3, 4, 5), {"bonus": 35})


def test_sheet_may_list_free_boxes_as_none() -> None:
    sheet = {box: None for box in BOXES} | {"yatzy": 50}
    assert score_options((3,) * 5, sheet) == {"threes": 15}
    assert yatzy_bonus((3,) * 5, sheet) == 100


def test_full_sheet_has_no_options() -> None:
    assert score_options((1, 2, 3, 4, 5), used_except()) == {}
    assert not must_sacrifice((1, 2, 3, 4, 5), used_except())


# --- totals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("upper", "bonus"), [(62, 0), (63, 35), (64, 35), (0, 0), (105, 35)])
def test_upper_bonus_threshold(upper: int, bonus: int) -> None:
    # Spread ``upper`` over the boxes; only the sum matters.
    sheet = {"sixes": min(upper, 30)}
    rest = upper - sheet["sixes"]
    for box, most in (("fives", 25), ("fours", 20), ("threes", 15), ("twos", 10), ("ones", 5)):
        sheet[box] = min(rest, most)
        rest -= sheet[box]
    assert rest == 0
    totals = sheet_totals(sheet)
    assert totals == SheetTotals(upper, bonus, 0, 0, upper + bonus)


def test_upper_bonus_at_exactly_63_with_three_of_each() -> None:
    sheet = {box: 3 * (i + 1) for i, box in enumerate(UPPER_BOXES)}
    assert sum(sheet.values()) == 63
    assert sheet_totals(sheet).upper_bonus == 35
    sheet["ones"] = 2
    assert sheet_totals(sheet).upper_bonus == 0


def test_sheet_totals_sum_of_parts() -> None:
    sheet = {"ones": 3, "sixes": 24, "yatzy": 50, "chance": 22, "full_house": 25}
    totals = sheet_totals(sheet, 200)
    assert totals == SheetTotals(
        upper_sum=27, upper_bonus=0, lower_sum=97, yatzy_bonus=200, total=324
    )
    assert totals.to_wire()["total"] == 324


def test_places_share_equal_totals() -> None:
    assert places_for([200, 200]) == (1, 1)
    assert places_for([100, 200, 200, 50]) == (3, 1, 1, 4)
    assert places_for([10, 20, 30]) == (3, 2, 1)
    assert places_for([7]) == (1,)


# --- options ------------------------------------------------------------------------------------


def test_options_defaults_and_values() -> None:
    assert options_from_wire({}) == YatzyOptions(auto_confirm_seconds=3.0)
    assert options_from_wire(None) == YatzyOptions()
    assert options_from_wire({"auto_confirm_seconds": 0}) == YatzyOptions(0.0)
    assert options_from_wire({"auto_confirm_seconds": 60}) == YatzyOptions(60.0)
    assert options_from_wire({"auto_confirm_seconds": 2.5}).auto_confirm_seconds == 2.5
    assert isinstance(options_from_wire({"auto_confirm_seconds": 5}).auto_confirm_seconds, float)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"auto_confirm_seconds": -1}, "options.auto_confirm_seconds"),
        ({"auto_confirm_seconds": 60.5}, "options.auto_confirm_seconds"),
        ({"auto_confirm_seconds": "3"}, "options.auto_confirm_seconds"),
        ({"auto_confirm_seconds": True}, "options.auto_confirm_seconds"),
        ({"auto_confirm_seconds": None}, "options.auto_confirm_seconds"),
        ({"auto_confirm_seconds": math.nan}, "options.auto_confirm_seconds"),
        ({"auto_confirm_seconds": math.inf}, "options.auto_confirm_seconds"),
        ({"target": 10000}, "options.target"),
        ([1, 2], "options"),
    ],
)
def test_bad_options(data: object, field: str) -> None:
    with pytest.raises(RuleError) as info:
        options_from_wire(data)  # type: ignore[arg-type]
    assert (info.value.code, info.value.field) == ("invalid_option", field)
    with pytest.raises(RuleError) as info:
        start(2, data)  # type: ignore[arg-type]
    assert info.value.code == "invalid_option"


# --- start --------------------------------------------------------------------------------------


def test_start() -> None:
    events = start(2)
    assert events == [GameStarted(seats=2, options=YatzyOptions())]
    state = replay(events)
    assert state.seats == 2
    assert state.current_seat == 0
    assert state.round == 1
    assert state.rolls_left == 3
    assert state.dice == ()
    assert state.legal_boxes() == {}
    assert not state.must_sacrifice
    assert state.sheet(1) == {}
    assert state.totals(0).total == 0
    assert state.places == ()
    assert not state.finished


def test_start_with_options() -> None:
    assert replay(start(1, {"auto_confirm_seconds": 0})).options.auto_confirm_seconds == 0.0
    assert replay(start(6, YatzyOptions(10))).options == YatzyOptions(10.0)
    with pytest.raises(RuleError) as info:
        start(1, YatzyOptions(-3))
    assert info.value.code == "invalid_option"


@pytest.mark.parametrize("seats", [0, 7, -1, True, "2", 2.0, None])
def test_start_bad_seat_count(seats: object) -> None:
    with pytest.raises(RuleError) as info:
        start(seats)  # type: ignore[arg-type]
    assert (info.value.code, info.value.field) == ("invalid_seat_count", "seats")


# --- commands from the wire ---------------------------------------------------------------------


def test_command_from_wire() -> None:
    assert command_from_wire({"type": "roll"}, 1) == Roll(seat=1)
    assert command_from_wire({"type": "roll", "hold": []}, 0) == Roll(seat=0, hold=())
    assert command_from_wire({"type": "roll", "hold": [0, 3]}, 2) == Roll(2, (0, 3))
    assert command_from_wire({"type": "roll", "hold": [4, 3, 2, 1, 0]}, 0) == Roll(
        0, (4, 3, 2, 1, 0)
    )
    assert command_from_wire({"type": "score", "box": "chance"}, 3) == Score(3, "chance")


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({}, "unknown_move", "type"),
        ({"type": "bank"}, "unknown_move", "type"),
        ({"type": None}, "unknown_move", "type"),
        ({"type": "ROLL"}, "unknown_move", "type"),
        ("roll", "unknown_move", "type"),
        ({"type": "roll", "hold": [5]}, "invalid_dice_indices", "hold"),
        ({"type": "roll", "hold": [-1]}, "invalid_dice_indices", "hold"),
        ({"type": "roll", "hold": [0, 0]}, "invalid_dice_indices", "hold"),
        ({"type": "roll", "hold": [0, 1, 2, 3, 0]}, "invalid_dice_indices", "hold"),
        # Six positions of five dice: refused by its length, before any position is read.
        ({"type": "roll", "hold": [0, 1, 2, 3, 4, 0]}, "too_many_dice", "hold"),
        ({"type": "roll", "hold": "01"}, "invalid_dice_indices", "hold"),
        ({"type": "roll", "hold": [True]}, "invalid_dice_indices", "hold"),
        ({"type": "roll", "hold": [1.0]}, "invalid_dice_indices", "hold"),
        ({"type": "roll", "hold": None}, "invalid_dice_indices", "hold"),
        ({"type": "roll", "hold": {"0": 1}}, "invalid_dice_indices", "hold"),
        ({"type": "score"}, "unknown_box", "box"),
        ({"type": "score", "box": "bonus"}, "unknown_box", "box"),
        ({"type": "score", "box": "Chance"}, "unknown_box", "box"),
        ({"type": "score", "box": 12}, "unknown_box", "box"),
    ],
)
def test_bad_commands_from_wire(data: object, code: str, field: str) -> None:
    with pytest.raises(RuleError) as info:
        command_from_wire(data, 0)  # type: ignore[arg-type]
    assert (info.value.code, info.value.field) == (code, field)


# --- decide: rolling ----------------------------------------------------------------------------


def test_first_roll_throws_five() -> None:
    state = replay(start(2))
    events = decide(state, Roll(0), fixed_roller([3, 1, 4, 1, 5]))
    assert events == [DiceRolled(seat=0, roll_number=1, held=(), dice=(3, 1, 4, 1, 5))]
    state = apply(state, events[0])
    assert (state.dice, state.rolls_used, state.rolls_left) == ((3, 1, 4, 1, 5), 1, 2)
    assert state.current_seat == 0
    assert state.legal_boxes() == score_options((3, 1, 4, 1, 5), {})


def test_reroll_replaces_the_other_positions_in_index_order() -> None:
    state = make_state({}, (1, 2, 3, 4, 5))
    events = decide(state, Roll(0, (3, 0)), fixed_roller([6, 5, 4]))
    assert events == [DiceRolled(seat=0, roll_number=2, held=(0, 3), dice=(1, 6, 5, 4, 4))]
    state = apply(state, events[0])
    events = decide(state, Roll(0, ()), fixed_roller([2, 2, 2, 2, 2]))
    assert events[0].dice == (2, 2, 2, 2, 2)  # type: ignore[union-attr]
    state = apply(state, events[0])
    assert (state.rolls_used, state.rolls_left) == (3, 0)


def test_holding_all_five_uses_a_roll_without_throwing() -> None:
    state = make_state({}, (6, 6, 6, 6, 5))
    events = decide(state, Roll(0, (0, 1, 2, 3, 4)), no_dice)
    assert events == [DiceRolled(0, 2, (0, 1, 2, 3, 4), (6, 6, 6, 6, 5))]
    assert apply(state, events[0]).rolls_left == 1


def test_roller_returning_bad_dice_is_a_programming_error() -> None:
    state = make_state({}, (1, 2, 3, 4, 5))
    with pytest.raises(ValueError, match="not a die face"):
        decide(state, Roll(0, (0,)), lambda n: (7,) * n)
    with pytest.raises(ValueError, match="expected 4 dice"):
        decide(state, Roll(0, (0,)), lambda n: (1,) * (n + 1))


def test_score_after_the_first_roll_ends_the_turn() -> None:
    state = replay(start(2))
    state = apply(state, decide(state, Roll(0), fixed_roller([2, 2, 2, 5, 5]))[0])
    events = decide(state, Score(0, "full_house"), no_dice)
    assert events == [BoxScored(seat=0, box="full_house", points=25, yatzy_bonus=0)]
    state = apply(state, events[0])
    assert (state.current_seat, state.round, state.dice, state.rolls_left) == (1, 1, (), 3)
    assert state.sheet(0) == {"full_house": 25}
    state = apply(state, decide(state, Roll(1), fixed_roller([1, 1, 1, 1, 1]))[0])
    state = apply(state, decide(state, Score(1, "chance"), no_dice)[0])
    assert (state.current_seat, state.round) == (0, 2)


def test_one_seat_game_advances_the_round_every_turn() -> None:
    state = replay(start(1))
    state = apply(state, decide(state, Roll(0), fixed_roller([1, 2, 3, 4, 5]))[0])
    state = apply(state, decide(state, Score(0, "large_straight"), no_dice)[0])
    assert (state.current_seat, state.round) == (0, 2)


def test_yatzy_bonus_goes_to_the_seat() -> None:
    state = make_state({"yatzy": 50, "fours": 12}, (4, 4, 4, 4, 4), bonus=100)
    events = decide(state, Score(0, "chance"), no_dice)
    assert events == [BoxScored(0, "chance", 20, 100)]
    after = apply(state, events[0])
    assert after.yatzy_bonus_points == (200,)
    assert after.totals(0) == SheetTotals(12, 0, 70, 200, 282)


# --- decide: every error, and nothing changes ---------------------------------------------------


def test_error_game_finished() -> None:
    state = replace(make_state(used_except(), seats=1), finished=True, places=(1,))
    expect_error(state, Roll(0), "game_finished")
    expect_error(state, Score(0, "chance"), "game_finished")
    assert state.current_seat is None
    assert state.rolls_left == 0
    assert state.legal_boxes() == {}


def test_error_not_your_turn() -> None:
    state = replay(start(3))
    error = expect_error(state, Roll(1), "not_your_turn")
    assert error.params == {"current_seat": 0}
    expect_error(state, Score(2, "chance"), "not_your_turn")
    expect_error(state, Roll(7), "not_your_turn")


def test_error_no_rolls_left() -> None:
    state = make_state({}, (1, 2, 3, 4, 5), rolls_used=3)
    assert state.rolls_left == 0
    expect_error(state, Roll(0), "no_rolls_left")
    expect_error(state, Roll(0, (1, 2)), "no_rolls_left")


def test_error_hold_before_first_roll() -> None:
    state = replay(start(2))
    expect_error(state, Roll(0, (0,)), "hold_before_first_roll", "hold")


@pytest.mark.parametrize("hold", [(5,), (-1,), (0, 0), (0, 1, 2, 3, 4, 4), (True,)])
def test_error_invalid_dice_indices(hold: tuple[int, ...]) -> None:
    expect_error(make_state({}, (1, 2, 3, 4, 5)), Roll(0, hold), "invalid_dice_indices", "hold")


def test_error_roll_first() -> None:
    state = replay(start(2))
    expect_error(state, Score(0, "chance"), "roll_first")


def test_error_unknown_box() -> None:
    expect_error(make_state({}, (1, 2, 3, 4, 5)), Score(0, "bonus"), "unknown_box", "box")


def test_error_box_used() -> None:
    state = make_state({"chance": 17}, (1, 2, 3, 4, 5))
    error = expect_error(state, Score(0, "chance"), "box_used", "box")
    assert error.params == {"box": "chance"}


def test_error_box_not_allowed_step_2() -> None:
    state = make_state({"yatzy": 50, "twos": 4}, (2, 2, 2, 2, 2))
    expect_error(state, Score(0, "sixes"), "box_not_allowed", "box")
    assert decide(state, Score(0, "small_straight"), no_dice)[0] == BoxScored(
        0, "small_straight", 30, 100
    )


def test_error_box_not_allowed_step_1() -> None:
    state = make_state({"yatzy": 50}, (2, 2, 2, 2, 2))
    for box in set(BOXES) - {"twos", "yatzy"}:
        expect_error(state, Score(0, box), "box_not_allowed", "box")
    expect_error(state, Score(0, "yatzy"), "box_used", "box")


# --- apply refuses events that cannot follow ----------------------------------------------------


def test_apply_refuses_out_of_order_events() -> None:
    state = replay(start(2))
    with pytest.raises(ValueError, match="before game_started"):
        apply(None, DiceRolled(0, 1, (), (1, 2, 3, 4, 5)))
    with pytest.raises(ValueError, match="must be the first"):
        apply(state, GameStarted(2))
    with pytest.raises(ValueError, match="unexpected roll"):
        apply(state, DiceRolled(1, 1, (), (1, 2, 3, 4, 5)))
    with pytest.raises(ValueError, match="unexpected score"):
        apply(state, BoxScored(0, "chance", 15, 0))
    with pytest.raises(ValueError, match="before every box"):
        apply(state, GameFinished((0, 0), (1, 1)))
    rolled = apply(state, DiceRolled(0, 1, (), (1, 2, 3, 4, 5)))
    with pytest.raises(ValueError, match="does not follow"):
        apply(rolled, DiceRolled(0, 2, (0,), (6, 2, 3, 4, 5)))
    with pytest.raises(ValueError, match="bad seat count"):
        apply(None, GameStarted(0))


# --- wire forms ---------------------------------------------------------------------------------

EVENTS: list[Event] = [
    GameStarted(seats=2, options=YatzyOptions(0.0)),
    DiceRolled(seat=1, roll_number=2, held=(0, 4), dice=(6, 1, 2, 3, 6)),
    BoxScored(seat=0, box="yatzy", points=50, yatzy_bonus=0),
    GameFinished(totals=(230, 230, 190), places=(1, 1, 3)),
]


def test_event_wire_shapes() -> None:
    assert [e.to_wire() for e in EVENTS] == [
        {"type": "game_started", "seats": 2, "options": {"auto_confirm_seconds": 0.0}},
        {
            "type": "dice_rolled",
            "seat": 1,
            "roll_number": 2,
            "held": [0, 4],
            "dice": [6, 1, 2, 3, 6],
        },
        {"type": "box_scored", "seat": 0, "box": "yatzy", "points": 50, "yatzy_bonus": 0},
        {"type": "game_finished", "totals": [230, 230, 190], "places": [1, 1, 3]},
    ]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.type)
def test_event_wire_round_trip(event: Event) -> None:
    assert event_from_wire(json.loads(json.dumps(event.to_wire()))) == event


@pytest.mark.parametrize(
    "data",
    [
        {"type": "farkled"},
        {},
        {"type": "game_started", "seats": "2"},
        {"type": "game_started", "seats": 2, "options": {"auto_confirm_seconds": -1}},
        {"type": "dice_rolled", "seat": 0, "roll_number": 1, "held": [], "dice": "12345"},
        {"type": "box_scored", "seat": 0, "box": None, "points": 1, "yatzy_bonus": 0},
        {"type": "game_finished", "totals": [1], "places": None},
    ],
)
def test_bad_event_wire(data: dict[str, object]) -> None:
    with pytest.raises(WireError):
        event_from_wire(data)


def test_state_wire_round_trip() -> None:
    state = make_state({"yatzy": 50, "ones": 0}, (1, 1, 1, 1, 1), seats=3, bonus=100)
    wire = state.to_wire()
    assert wire["sheets"][0]["yatzy"] == 50
    assert wire["sheets"][1]["ones"] is None
    assert state_from_wire(json.loads(json.dumps(wire))) == state
    assert hash(state_from_wire(wire)) == hash(state)


@pytest.mark.parametrize(
    "change",
    [
        {"seats": 0},
        {"seats": 2},
        {"turn_seat": 1},
        {"round": 14},
        {"rolls_used": 0},
        {"rolls_used": 4},
        {"dice": [1, 2, 3]},
        {"dice": [1, 2, 3, 4, 9]},
        {"finished": "no"},
        {"places": [1]},
        {"sheets": "none"},
        {"sheets": [{"ones": 1}]},
        {"sheets": [{box: -1 for box in BOXES}]},
        {"options": {"speed": 2}},
    ],
)
def test_bad_state_wire(change: dict[str, object]) -> None:
    wire = make_state({}, (1, 2, 3, 4, 5)).to_wire() | change
    with pytest.raises(WireError):
        state_from_wire(wire)


# --- whole games --------------------------------------------------------------------------------

# Seat 0 takes the upper bonus at exactly 63, a Yatzy, then a joker (step 2) worth 40 + 100.
SEAT_0_TURNS: list[tuple[list[tuple[tuple[int, ...], list[int]]], str]] = [
    ([((), [1, 1, 1, 2, 3])], "ones"),
    ([((), [2, 2, 2, 5, 6])], "twos"),
    ([((), [3, 3, 3, 1, 2])], "threes"),
    ([((), [4, 4, 4, 1, 2])], "fours"),
    ([((), [5, 5, 5, 1, 2])], "fives"),
    ([((), [6, 6, 6, 1, 2])], "sixes"),
    ([((), [6, 6, 1, 2, 3]), ((0, 1), [6, 6, 6])], "yatzy"),
    ([((), [5, 5, 5, 5, 5])], "large_straight"),
    ([((), [2, 3, 4, 5, 5])], "small_straight"),
    ([((), [3, 3, 5, 5, 5])], "full_house"),
    ([((), [1, 1, 1, 1, 6])], "four_of_a_kind"),
    ([((), [2, 2, 2, 6, 6])], "three_of_a_kind"),
    ([((), [1, 2, 3, 4, 6]), ((0, 1, 2, 3, 4), [])], "chance"),
]
# Seat 1 sacrifices its Yatzy box, so its later five 4s are an ordinary roll, and misses the bonus.
SEAT_1_TURNS: list[tuple[list[tuple[tuple[int, ...], list[int]]], str]] = [
    ([((), [1, 2, 3, 4, 5])], "large_straight"),
    ([((), [1, 1, 3, 4, 6])], "yatzy"),
    ([((), [4, 4, 4, 4, 4])], "full_house"),
    ([((), [1, 2, 3, 4, 4])], "small_straight"),
    ([((), [6, 6, 6, 6, 1])], "four_of_a_kind"),
    ([((), [5, 5, 5, 2, 2])], "three_of_a_kind"),
    ([((), [6, 5, 4, 3, 3])], "chance"),
    ([((), [1, 1, 2, 2, 3])], "ones"),
    ([((), [2, 2, 2, 3, 3])], "twos"),
    ([((), [3, 3, 1, 1, 1])], "threes"),
    ([((), [4, 4, 4, 4, 1])], "fours"),
    ([((), [5, 5, 1, 1, 1])], "fives"),
    ([((), [1, 2, 6, 3, 4]), ((2,), [6, 6, 5, 5]), ((0, 1, 2), [5, 5])], "sixes"),
]


def play_script(
    seats_turns: list[list[tuple[list[tuple[tuple[int, ...], list[int]]], str]]],
) -> tuple[list[Event], YatzyState]:
    events: list[Event] = list(start(len(seats_turns)))
    state = replay(events)
    for round_index in range(len(BOXES)):
        for seat, turns in enumerate(seats_turns):
            rolls, box = turns[round_index]
            for hold, faces in rolls:
                roller = fixed_roller(faces) if faces else no_dice
                events += decide(state, Roll(seat, hold), roller)
                state = apply(state, events[-1])
            new = decide(state, Score(seat, box), no_dice)
            for event in new:
                state = apply(state, event)
            events += new
    return events, state


def test_full_two_seat_game() -> None:
    events, state = play_script([SEAT_0_TURNS, SEAT_1_TURNS])
    assert state.finished
    assert state.current_seat is None
    assert events[-1] == GameFinished(totals=(387, 193), places=(1, 2))
    assert state.places == (1, 2)
    assert state.totals(0) == SheetTotals(
        upper_sum=63, upper_bonus=35, lower_sum=189, yatzy_bonus=100, total=387
    )
    assert state.totals(1) == SheetTotals(
        upper_sum=58, upper_bonus=0, lower_sum=135, yatzy_bonus=0, total=193
    )
    scored = [e for e in events if isinstance(e, BoxScored)]
    assert len(scored) == 26
    assert [e.seat for e in scored] == [0, 1] * 13
    assert BoxScored(0, "large_straight", 40, 100) in scored
    assert BoxScored(1, "full_house", 0, 0) in scored
    assert BoxScored(1, "sixes", 18, 0) in scored
    assert sum(isinstance(e, GameFinished) for e in events) == 1
    assert replay(events) == state
    assert state_from_wire(state.to_wire()) == state
    expect_error(state, Roll(0), "game_finished")


def test_game_finished_comes_with_the_last_score_only() -> None:
    state = make_state(used_except("chance"), (1, 2, 3, 4, 5), seats=1)
    events = decide(state, Score(0, "chance"), no_dice)
    assert events == [BoxScored(0, "chance", 15, 0), GameFinished(totals=(15,), places=(1,))]
    state = make_state(used_except("chance", "ones"), (1, 2, 3, 4, 5), seats=1)
    assert len(decide(state, Score(0, "chance"), no_dice)) == 1


def test_equal_totals_share_the_place() -> None:
    events, _ = play_script([SEAT_1_TURNS, SEAT_0_TURNS, SEAT_1_TURNS])
    assert events[-1] == GameFinished(totals=(193, 387, 193), places=(2, 1, 2))
    _, draw = play_script([SEAT_0_TURNS, SEAT_0_TURNS])
    assert draw.places == (1, 1)
