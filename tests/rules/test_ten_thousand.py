"""The Dés 10 000 engine: turns, hot dice, lost rounds, banking, last round, errors, wire forms."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from games.rules.base import RuleError
from games.rules.ten_thousand import (
    MAX_ROUNDS,
    TARGETS,
    Bank,
    Command,
    DiceRolled,
    DiceSetAside,
    Event,
    GameFinished,
    GameStarted,
    HotDice,
    LastRoundStarted,
    Roll,
    RoundLost,
    TenThousandOptions,
    TenThousandState,
    TurnBanked,
    WireError,
    apply,
    command_from_wire,
    decide,
    event_from_wire,
    farkle_probability,
    options_from_wire,
    places_for,
    preview_keep,
    replay,
    start,
    state_from_wire,
)

FARKLE_6 = (2, 3, 4, 4, 6, 6)
SIX_ONES = (1, 1, 1, 1, 1, 1)


class Dice:
    """A roller that hands out the given rolls in order and checks each one's size."""

    def __init__(self, *rolls: Sequence[int]) -> None:
        self.rolls = [tuple(r) for r in rolls]
        self.asked: list[int] = []

    def __call__(self, n: int) -> tuple[int, ...]:
        self.asked.append(n)
        assert self.rolls, f"no roll left for {n} dice"
        roll = self.rolls.pop(0)
        assert len(roll) == n, f"asked for {n} dice, scripted {roll}"
        return roll


def no_dice(n: int) -> tuple[int, ...]:
    raise AssertionError("a refused command must not roll")


def new_game(seats: int = 2, target: int = 10000) -> TenThousandState:
    return replay(start(seats, {"target": target}))


def play(
    state: TenThousandState, command: Command, *rolls: Sequence[int]
) -> tuple[list[Event], TenThousandState]:
    dice = Dice(*rolls)
    events = decide(state, command, dice)
    assert not dice.rolls, "scripted rolls left over"
    for event in events:
        state = apply(state, event)
    return events, state


def rolled(state: TenThousandState, dice: Sequence[int]) -> TenThousandState:
    """``state`` at the start of a turn, after its seat rolled ``dice``."""
    _, after = play(state, Roll(state.turn_seat), dice)
    assert after.roll == tuple(dice)
    return after


def refused(state: TenThousandState, command: Command) -> RuleError:
    before = state.to_wire()
    with pytest.raises(RuleError) as caught:
        decide(state, command, no_dice)
    assert state.to_wire() == before
    return caught.value


# --- start and options --------------------------------------------------------------------------


def test_start_opens_a_game() -> None:
    events = start(3)
    assert events == [
        GameStarted(seats=3, options=TenThousandOptions(target=10000), max_rounds=MAX_ROUNDS)
    ]
    state = replay(events)
    assert state == TenThousandState(
        seats=3,
        options=TenThousandOptions(),
        totals=(0, 0, 0),
        max_rounds=MAX_ROUNDS,
        rounds_played=0,
    )
    assert state.current_seat == 0
    assert state.roll == ()
    assert state.dice_in_play == 6
    assert state.farkle_risk == farkle_probability(6)
    assert not state.can_bank
    assert not state.finished
    assert state.places == ()


@pytest.mark.parametrize("target", TARGETS)
def test_each_target_is_accepted(target: int) -> None:
    assert new_game(2, target).target == target
    assert replay(start(1, TenThousandOptions(target))).target == target


def test_default_target_is_ten_thousand() -> None:
    assert TARGETS == (5000, 10000, 15000)
    assert options_from_wire({}) == options_from_wire(None) == TenThousandOptions(10000)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"target": 1234}, "options.target"),
        ({"target": "10000"}, "options.target"),
        ({"target": True}, "options.target"),
        ({"target": None}, "options.target"),
        ({"target": 5000, "goal": 5000}, "options.goal"),
        ([("target", 5000)], "options"),
    ],
)
def test_bad_options(options: Any, field: str) -> None:
    with pytest.raises(RuleError) as caught:
        options_from_wire(options)
    assert (caught.value.code, caught.value.field) == ("invalid_option", field)
    with pytest.raises(RuleError) as caught:
        start(2, options)
    assert caught.value.code == "invalid_option"


def test_start_checks_options_given_as_a_dataclass() -> None:
    with pytest.raises(RuleError) as caught:
        start(2, TenThousandOptions(target=2000))
    assert (caught.value.code, caught.value.field) == ("invalid_option", "options.target")


@pytest.mark.parametrize("seats", [0, 8, -1, True, "2", 2.0])
def test_bad_seat_counts(seats: Any) -> None:
    with pytest.raises(RuleError) as caught:
        start(seats)
    assert (caught.value.code, caught.value.field) == ("invalid_seat_count", "seats")


@pytest.mark.parametrize("seats", range(1, 8))
def test_one_to_seven_seats(seats: int) -> None:
    assert new_game(seats).totals == (0,) * seats


# --- worked examples of RULES.md, played through the engine -------------------------------------


@pytest.mark.parametrize(
    ("roll", "keep", "points"),
    [
        ((1, 5, 3, 3, 6, 2), (0, 1), 150),
        ((1, 5, 3, 3, 6, 2), (0,), 100),
        ((3, 3, 3, 2, 4, 6), (0, 1, 2), 300),
        ((1, 1, 1, 5, 2, 2), (0, 1, 2, 3), 1050),
        ((2, 2, 3, 3, 6, 6), (0, 1, 2, 3, 4, 5), 750),
        ((1, 2, 3, 4, 5, 6), (0, 1, 2, 3, 4, 5), 1500),
        ((1, 2, 3, 4, 5, 6), (0, 4), 150),
        ((4, 4, 4, 4, 2, 6), (0, 1, 2, 3), 800),
        ((1, 1, 1, 1, 5, 5), (5, 4, 3, 2, 1, 0), 2100),
        ((2, 2, 2, 2, 3, 3), (0, 1, 2, 3), 400),
    ],
)
def test_worked_examples_bank(roll: tuple[int, ...], keep: tuple[int, ...], points: int) -> None:
    state = rolled(new_game(), roll)
    assert preview_keep(state, keep) == points
    events, after = play(state, Bank(0, keep))
    aside = events[0]
    assert isinstance(aside, DiceSetAside)
    assert aside.points == points
    assert aside.indices == tuple(sorted(keep))
    assert aside.dice == tuple(roll[i] for i in sorted(keep))
    assert events[-1] == TurnBanked(seat=0, points=points, total=points)
    assert after.totals == (points, 0)
    assert after.turn_seat == 1


@pytest.mark.parametrize(
    ("roll", "keep", "offending"),
    [
        ((1, 2, 3, 4, 6, 6), (0, 1), [1]),
        ((2, 2, 2, 2, 3, 3), (0, 1, 2, 3, 4, 5), [4, 5]),
        ((1, 5, 3, 3, 6, 2), (2,), [2]),
        ((6, 1, 6, 5, 2, 3), (0, 1, 2, 3), [0, 2]),
    ],
)
def test_worked_examples_refused(
    roll: tuple[int, ...], keep: tuple[int, ...], offending: list[int]
) -> None:
    state = rolled(new_game(), roll)
    assert preview_keep(state, keep) is None
    for command in (Roll(0, keep), Bank(0, keep)):
        error = refused(state, command)
        assert (error.code, error.field) == ("keep_not_scoring", "keep")
        assert error.params == {"indices": offending, "dice": [roll[i] for i in offending]}


def test_worked_example_lost_round() -> None:
    events, state = play(new_game(), Roll(0), FARKLE_6)
    assert events == [DiceRolled(0, FARKLE_6), RoundLost(0, 0)]
    assert state.turn_seat == 1
    assert state.roll == ()
    assert state.totals == (0, 0)


# --- a turn -------------------------------------------------------------------------------------


def test_roll_sets_aside_then_throws_the_rest() -> None:
    state = rolled(new_game(), (1, 5, 3, 3, 6, 2))
    events, state = play(state, Roll(0, (0,)), (5, 5, 2, 3, 4))
    assert events == [
        DiceSetAside(seat=0, indices=(0,), dice=(1,), points=100),
        DiceRolled(seat=0, dice=(5, 5, 2, 3, 4)),
    ]
    assert state.kept == ((1,),)
    assert state.kept_points == (100,)
    assert state.turn_points == 100
    assert state.dice_in_play == 5
    assert state.farkle_risk == farkle_probability(5)
    assert state.can_bank
    assert preview_keep(state, (0, 1)) == 100


def test_combinations_come_from_one_roll_only() -> None:
    state = rolled(new_game(), (5, 5, 2, 3, 4, 6))
    _, state = play(state, Roll(0, (0, 1)), (5, 2, 3, 4))
    events, state = play(state, Bank(0, (0,)))
    assert events[0] == DiceSetAside(seat=0, indices=(0,), dice=(5,), points=50)
    assert events[1] == TurnBanked(seat=0, points=150, total=150)


def test_points_of_several_rolls_add_up_and_bank_passes_the_turn() -> None:
    state = rolled(new_game(3), (1, 2, 3, 4, 6, 6))
    _, state = play(state, Roll(0, (0,)), (3, 3, 3, 2, 4))
    _, state = play(state, Roll(0, (0, 1, 2)), (5, 2))
    assert state.kept == ((1,), (3, 3, 3))
    assert state.turn_points == 400
    assert state.dice_in_play == 2
    events, state = play(state, Bank(0, (0,)))
    assert events[-1] == TurnBanked(seat=0, points=450, total=450)
    assert state.totals == (450, 0, 0)
    assert (state.turn_seat, state.turn_points, state.kept, state.dice_in_play) == (1, 0, (), 6)
    # Banked totals accumulate over turns.
    _, state = play(state, Roll(1), FARKLE_6)
    _, state = play(state, Roll(2), FARKLE_6)
    state = rolled(state, (1, 2, 3, 4, 6, 6))
    events, state = play(state, Bank(0, (0,)))
    assert events[-1] == TurnBanked(seat=0, points=100, total=550)


def test_lost_round_loses_the_turn_points_only() -> None:
    state = replace(new_game(3), totals=(700, 300, 0))
    state = rolled(state, (1, 1, 1, 2, 3, 4))
    _, state = play(state, Roll(0, (0, 1, 2)), (5, 2, 3))
    events, state = play(state, Roll(0, (0,)), (2, 3))
    assert events == [
        DiceSetAside(seat=0, indices=(0,), dice=(5,), points=50),
        DiceRolled(seat=0, dice=(2, 3)),
        RoundLost(seat=0, lost_points=1050),
    ]
    assert state.totals == (700, 300, 0)
    assert state.turn_seat == 1
    assert (state.roll, state.kept, state.turn_points, state.dice_in_play) == ((), (), 0, 6)
    # The turn has passed: the old seat is refused, the next one simply starts its turn.
    assert refused(state, Roll(0)).code == "not_your_turn"
    events, _ = play(state, Roll(1), (1, 2, 3, 4, 6, 6))
    assert events == [DiceRolled(seat=1, dice=(1, 2, 3, 4, 6, 6))]


# --- hot dice -----------------------------------------------------------------------------------


def test_hot_dice_in_one_roll_throws_six_again() -> None:
    state = rolled(new_game(), (1, 1, 1, 5, 5, 5))
    events, state = play(state, Roll(0, (0, 1, 2, 3, 4, 5)), (1, 2, 3, 4, 6, 6))
    assert events == [
        DiceSetAside(seat=0, indices=(0, 1, 2, 3, 4, 5), dice=(1, 1, 1, 5, 5, 5), points=1500),
        HotDice(seat=0, turn_points=1500),
        DiceRolled(seat=0, dice=(1, 2, 3, 4, 6, 6)),
    ]
    assert state.hot_dice
    assert state.dice_in_play == 6
    assert state.turn_points == 1500
    _, state = play(state, Roll(0, (0,)), (5, 2, 3, 4, 6))
    assert not state.hot_dice
    assert state.kept == ((1, 1, 1, 5, 5, 5), (1,))
    assert state.turn_points == 1600


def test_hot_dice_over_several_rolls() -> None:
    state = rolled(new_game(), (1, 2, 3, 4, 6, 6))
    _, state = play(state, Roll(0, (0,)), (5, 5, 5, 2, 3))
    _, state = play(state, Roll(0, (0, 1, 2)), (1, 5))
    assert state.dice_in_play == 2
    events, state = play(state, Roll(0, (1, 0)), (2, 2, 3, 3, 4, 4))
    assert events[1:] == [HotDice(seat=0, turn_points=750), DiceRolled(0, (2, 2, 3, 3, 4, 4))]
    assert state.dice_in_play == 6
    # Three pairs still count after hot dice: all six set aside again.
    events, state = play(state, Bank(0, (0, 1, 2, 3, 4, 5)))
    assert events == [
        DiceSetAside(seat=0, indices=(0, 1, 2, 3, 4, 5), dice=(2, 2, 3, 3, 4, 4), points=750),
        HotDice(seat=0, turn_points=1500),
        TurnBanked(seat=0, points=1500, total=1500),
    ]
    assert not state.hot_dice
    assert state.dice_in_play == 6


def test_lost_round_after_hot_dice_loses_everything() -> None:
    state = rolled(new_game(), SIX_ONES)
    events, state = play(state, Roll(0, (0, 1, 2, 3, 4, 5)), FARKLE_6)
    assert events[-1] == RoundLost(seat=0, lost_points=8000)
    assert state.totals == (0, 0)
    assert not state.hot_dice


# --- errors: each stable code, nothing changes, no die is rolled --------------------------------


def test_game_finished() -> None:
    state = replace(new_game(1, 5000), totals=(4900,))
    state = rolled(state, (1, 2, 3, 4, 6, 6))
    _, state = play(state, Bank(0, (0,)))
    assert state.finished
    for command in (Roll(0), Bank(0), Roll(0, (0,)), Roll(1)):
        assert refused(state, command).code == "game_finished"
    assert preview_keep(state, (0,)) is None
    assert not state.can_bank
    assert state.current_seat is None


def test_not_your_turn() -> None:
    state = new_game(3)
    for seat in (1, 2, 3, -1):
        error = refused(state, Roll(seat))
        assert error.code == "not_your_turn"
        assert error.params == {"current_seat": 0}
    pending = rolled(state, (1, 2, 3, 4, 6, 6))
    assert refused(pending, Bank(1, (0,))).code == "not_your_turn"


@pytest.mark.parametrize("keep", [(0, 0), (6,), (-1,), (0, 7), (1, 1, 2)])
def test_invalid_dice_indices(keep: tuple[int, ...]) -> None:
    state = rolled(new_game(), (1, 1, 1, 5, 5, 5))
    for command in (Roll(0, keep), Bank(0, keep)):
        error = refused(state, command)
        assert (error.code, error.field) == ("invalid_dice_indices", "keep")
    assert preview_keep(state, keep) is None


def test_invalid_dice_indices_follow_the_current_roll_size() -> None:
    state = rolled(new_game(), (1, 2, 3, 4, 6, 6))
    _, state = play(state, Roll(0, (0,)), (5, 5, 5, 5, 5))
    assert refused(state, Bank(0, (5,))).code == "invalid_dice_indices"
    _, after = play(state, Bank(0, (4,)))
    assert after.totals == (150, 0)


def test_keep_required() -> None:
    state = rolled(new_game(), (1, 2, 3, 4, 6, 6))
    for command in (Roll(0), Bank(0)):
        error = refused(state, command)
        assert (error.code, error.field) == ("keep_required", "keep")


def test_keep_not_scoring() -> None:
    state = rolled(new_game(), (1, 2, 3, 4, 6, 6))
    error = refused(state, Roll(0, (1,)))
    assert (error.code, error.field, error.params) == (
        "keep_not_scoring",
        "keep",
        {"indices": [1], "dice": [2]},
    )


def test_nothing_to_keep() -> None:
    state = new_game()
    for command in (Roll(0, (0,)), Bank(0, (0, 1))):
        error = refused(state, command)
        assert (error.code, error.field) == ("nothing_to_keep", "keep")


def test_nothing_to_bank() -> None:
    state = new_game()
    assert refused(state, Bank(0)).code == "nothing_to_bank"
    _, state = play(state, Roll(0), FARKLE_6)
    assert refused(state, Bank(1)).code == "nothing_to_bank"


def test_unknown_move() -> None:
    with pytest.raises(RuleError) as caught:
        decide(new_game(), "roll", no_dice)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.field) == ("unknown_move", "type")


def test_roller_returning_bad_dice_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="expected 6 dice"):
        decide(new_game(), Roll(0), lambda n: (1,) * (n - 1))
    with pytest.raises(ValueError, match="not a die face"):
        decide(new_game(), Roll(0), lambda n: (0,) * n)


# --- the last round -----------------------------------------------------------------------------


def test_last_round_triggered_by_a_seat_other_than_the_first() -> None:
    state = new_game(3, 5000)
    _, state = play(state, Roll(0), FARKLE_6)
    state = rolled(state, SIX_ONES)
    events, state = play(state, Bank(1, (0, 1, 2, 3, 4, 5)))
    assert events[-2:] == [TurnBanked(1, 8000, 8000), LastRoundStarted(1)]
    assert (state.last_round, state.last_round_trigger, state.turn_seat) == (True, 1, 2)
    # Seat 2 passes the target too: it changes nothing, the round still ends at seat 1.
    state = rolled(state, SIX_ONES)
    events, state = play(state, Roll(2, (0, 1, 2, 3, 4, 5)), (1, 1, 2, 3, 4, 6))
    events, state = play(state, Bank(2, (0, 1)))
    assert events[-1] == TurnBanked(2, 8200, 8200)
    assert not state.finished
    assert state.turn_seat == 0
    # Seat 0's last turn: when it ends the turn would come back to seat 1, so the game ends.
    state = rolled(state, (1, 2, 3, 4, 6, 6))
    events, state = play(state, Bank(0, (0,)))
    assert events == [
        DiceSetAside(0, (0,), (1,), 100),
        TurnBanked(0, 100, 100),
        GameFinished(totals=(100, 8000, 8200), places=(3, 2, 1)),
    ]
    assert state.finished
    assert state.places == (3, 2, 1)
    assert state.current_seat is None


def test_last_round_ends_on_a_lost_round_too() -> None:
    state = replace(new_game(2, 5000), totals=(4950, 0))
    state = rolled(state, (5, 2, 3, 4, 6, 6))
    events, state = play(state, Bank(0, (0,)))
    assert events[-1] == LastRoundStarted(0)
    events, state = play(state, Roll(1), FARKLE_6)
    assert events == [
        DiceRolled(1, FARKLE_6),
        RoundLost(1, 0),
        GameFinished(totals=(5000, 0), places=(1, 2)),
    ]


def test_last_seat_triggering_lets_everyone_before_it_play_once() -> None:
    state = replace(new_game(4, 5000), totals=(100, 200, 300, 4900), turn_seat=3)
    state = rolled(state, (1, 2, 3, 4, 6, 6))
    events, state = play(state, Bank(3, (0,)))
    assert events[-1] == LastRoundStarted(3)
    finished_after = []
    for seat in (0, 1, 2):
        events, state = play(state, Roll(seat), FARKLE_6)
        finished_after.append(state.finished)
    assert finished_after == [False, False, True]
    assert events[-1] == GameFinished(totals=(100, 200, 300, 5000), places=(4, 3, 2, 1))


@pytest.mark.parametrize("target", TARGETS)
def test_reaching_each_target_exactly_triggers_the_last_round(target: int) -> None:
    state = replace(new_game(2, target), totals=(target - 100, 0))
    state = rolled(state, (1, 2, 3, 4, 6, 6))
    events, state = play(state, Bank(0, (0,)))
    assert events[-1] == LastRoundStarted(0)
    assert state.last_round


@pytest.mark.parametrize("target", TARGETS)
def test_stopping_short_of_each_target_does_not(target: int) -> None:
    state = replace(new_game(2, target), totals=(target - 150, 0))
    state = rolled(state, (1, 2, 3, 4, 6, 6))
    events, state = play(state, Bank(0, (0,)))
    assert isinstance(events[-1], TurnBanked)
    assert not state.last_round


def test_one_seat_game_ends_when_it_reaches_the_target() -> None:
    state = new_game(1, 5000)
    events, state = play(state, Roll(0), FARKLE_6)
    assert events == [DiceRolled(0, FARKLE_6), RoundLost(0, 0)]
    assert state.turn_seat == 0
    assert not state.finished
    state = rolled(state, SIX_ONES)
    events, state = play(state, Bank(0, (0, 1, 2, 3, 4, 5)))
    assert events[-3:] == [
        TurnBanked(0, 8000, 8000),
        LastRoundStarted(0),
        GameFinished(totals=(8000,), places=(1,)),
    ]
    assert state.finished


def test_equal_totals_share_the_place() -> None:
    state = new_game(3, 5000)
    for seat in (0, 1):
        state = rolled(state, SIX_ONES)
        _, state = play(state, Bank(seat, (0, 1, 2, 3, 4, 5)))
    events, state = play(state, Roll(2), FARKLE_6)
    assert events[-1] == GameFinished(totals=(8000, 8000, 0), places=(1, 1, 3))
    assert places_for((5, 7, 7, 1)) == (3, 1, 1, 4)
    assert places_for((0, 0)) == (1, 1)


def test_a_full_game_through_its_events() -> None:
    state = new_game(2, 5000)
    log = list(start(2, {"target": 5000}))
    script: list[tuple[Command, tuple[tuple[int, ...], ...]]] = [
        (Roll(0), (FARKLE_6,)),
        (Roll(1), (SIX_ONES,)),
        (Bank(1, (0, 1, 2, 3, 4, 5)), ()),
        (Roll(0), (SIX_ONES,)),
        (Roll(0, (0, 1, 2, 3, 4, 5)), ((1, 1, 1, 1, 1, 2),)),
        (Bank(0, (0, 1, 2, 3, 4)), ()),
    ]
    for command, rolls in script:
        events, state = play(state, command, *rolls)
        log += events
    assert log[-1] == GameFinished(totals=(12000, 8000), places=(1, 2))
    assert replay(log) == state
    assert [type(e).type for e in log].count("last_round_started") == 1


# --- state helpers ------------------------------------------------------------------------------


def test_can_bank_and_preview() -> None:
    state = new_game()
    assert not state.can_bank
    assert preview_keep(state, (0,)) is None
    state = rolled(state, (1, 5, 3, 3, 6, 2))
    assert state.can_bank
    assert state.risk_after_keep(2) == farkle_probability(4)
    assert state.risk_after_keep(6) == farkle_probability(6)
    assert preview_keep(state, ()) is None
    assert preview_keep(state, (1,)) == 50
    assert preview_keep(state, (2, 3)) is None
    assert preview_keep(state, (True,)) is None


# --- wire forms ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "command"),
    [
        ({"type": "roll"}, Roll(2)),
        ({"type": "roll", "keep": []}, Roll(2)),
        ({"type": "roll", "keep": [0, 2]}, Roll(2, (0, 2))),
        ({"type": "bank", "keep": [3]}, Bank(2, (3,))),
        ({"type": "bank"}, Bank(2)),
    ],
)
def test_command_from_wire(data: dict[str, Any], command: Command) -> None:
    assert command_from_wire(data, 2) == command
    assert command_from_wire(command.to_wire(), 2) == command


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({"type": "score"}, "unknown_move", "type"),
        ({}, "unknown_move", "type"),
        ({"type": None}, "unknown_move", "type"),
        ("roll", "unknown_move", "type"),
        ({"type": "roll", "keep": [0, 0]}, "invalid_dice_indices", "keep"),
        ({"type": "bank", "keep": "0"}, "invalid_dice_indices", "keep"),
        ({"type": "bank", "keep": [0, "1"]}, "invalid_dice_indices", "keep"),
        ({"type": "bank", "keep": [True]}, "invalid_dice_indices", "keep"),
        ({"type": "bank", "keep": [1.0]}, "invalid_dice_indices", "keep"),
        ({"type": "roll", "keep": None}, "invalid_dice_indices", "keep"),
    ],
)
def test_bad_commands(data: Any, code: str, field: str) -> None:
    with pytest.raises(RuleError) as caught:
        command_from_wire(data, 0)
    assert (caught.value.code, caught.value.field) == (code, field)


EVENTS: list[Event] = [
    GameStarted(seats=3, options=TenThousandOptions(target=5000)),
    DiceRolled(seat=1, dice=(1, 2, 3, 4, 6, 6)),
    DiceSetAside(seat=1, indices=(0, 4), dice=(1, 6), points=100),
    HotDice(seat=2, turn_points=1500),
    RoundLost(seat=0, lost_points=350),
    TurnBanked(seat=2, points=400, total=5100),
    LastRoundStarted(seat=2),
    GameFinished(totals=(10, 5100, 20), places=(3, 1, 2)),
]


def test_event_wire_forms() -> None:
    assert [e.to_wire() for e in EVENTS] == [
        {"type": "game_started", "seats": 3, "options": {"target": 5000}},
        {"type": "dice_rolled", "seat": 1, "dice": [1, 2, 3, 4, 6, 6]},
        {"type": "dice_set_aside", "seat": 1, "indices": [0, 4], "dice": [1, 6], "points": 100},
        {"type": "hot_dice", "seat": 2, "turn_points": 1500},
        {"type": "round_lost", "seat": 0, "lost_points": 350},
        {"type": "turn_banked", "seat": 2, "points": 400, "total": 5100},
        {"type": "last_round_started", "seat": 2},
        {"type": "game_finished", "totals": [10, 5100, 20], "places": [3, 1, 2]},
    ]
    for event in EVENTS:
        assert event_from_wire(json.loads(json.dumps(event.to_wire()))) == event


@pytest.mark.parametrize(
    "data",
    [
        {"type": "box_scored"},
        {"type": "dice_rolled", "seat": "1", "dice": [1]},
        {"type": "dice_rolled", "seat": 1, "dice": [7]},
        {"type": "game_started", "seats": 2, "options": {"target": 1}},
        {"type": "turn_banked", "seat": 0, "points": 100},
    ],
)
def test_bad_stored_events(data: dict[str, Any]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - WireError, or require_dice's ValueError
        event_from_wire(data)


def test_state_wire_round_trip() -> None:
    state = rolled(new_game(3, 15000), (1, 1, 1, 5, 5, 5))
    _, state = play(state, Roll(0, (0, 1, 2, 3, 4, 5)), (1, 2, 3, 4, 6, 6))
    _, state = play(state, Roll(0, (0,)), (5, 2, 3, 4, 6))
    state = replace(state, totals=(15000, 200, 0), last_round=True, last_round_trigger=0)
    wire = state.to_wire()
    assert json.loads(json.dumps(wire)) == wire
    assert state_from_wire(wire) == state
    assert hash(state_from_wire(wire)) == hash(state)
    assert wire["kept"] == [[1, 1, 1, 5, 5, 5], [1]]
    assert wire["last_round_trigger"] == 0


@pytest.mark.parametrize(
    "change",
    [
        {"seats": 0},
        {"totals": [0]},
        {"turn_seat": 5},
        {"roll": [1, 2]},
        {"roll": [0, 1, 2, 3, 4, 5]},
        {"kept": [[1]]},
        {"kept": "x"},
        {"turn_points": 50},
        {"hot_dice": 1},
        {"last_round": True},
        {"last_round_trigger": "0"},
        {"finished": True},
        {"places": [1, 2]},
        {"options": {"target": 7}},
    ],
)
def test_bad_state_wire(change: dict[str, Any]) -> None:
    wire = rolled(new_game(2), (1, 5, 3, 3, 6, 2)).to_wire() | change
    with pytest.raises(ValueError):  # noqa: PT011 - WireError, or require_dice's ValueError
        state_from_wire(wire)


def test_wire_error_is_a_value_error() -> None:
    with pytest.raises(WireError, match="not a ten_thousand event"):
        event_from_wire({"type": "nope"})


def test_apply_refuses_out_of_order_events() -> None:
    state = new_game(2)
    bad: list[tuple[TenThousandState | None, Event]] = [
        (None, DiceRolled(0, SIX_ONES)),
        (state, GameStarted(2)),
        (state, DiceRolled(1, SIX_ONES)),
        (state, DiceRolled(0, (1, 2))),
        (state, DiceSetAside(0, (0,), (1,), 100)),
        (state, GameFinished((0, 0), (1, 1))),
        (state, TurnBanked(0, 100, 100)),
        (rolled(state, SIX_ONES), DiceSetAside(0, (0,), (5,), 50)),
        (rolled(state, SIX_ONES), DiceRolled(0, SIX_ONES)),
        (None, GameStarted(0)),
    ]
    for before, event in bad:
        with pytest.raises(ValueError):  # noqa: PT011 - each message differs
            apply(before, event)
