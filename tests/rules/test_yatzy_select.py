"""Marking a box without confirming it: what auto-confirm scores when the timer runs out."""

from __future__ import annotations

import pytest

from games.rules import yatzy
from games.rules.base import RuleError, fixed_roller


def rolled(*rolls: tuple[int, ...], selects: tuple[str | None, ...] = ()) -> yatzy.YatzyState:
    events = yatzy.start(2)
    state = yatzy.replay(events)
    roller = fixed_roller(*rolls)
    for number in range(len(rolls)):
        hold = (0,) if number else ()
        for event in yatzy.decide(state, yatzy.Roll(seat=0, hold=hold), roller):
            state = yatzy.apply(state, event)
    for box in selects:
        (event,) = yatzy.decide(state, yatzy.Select(seat=0, box=box), roller)
        assert event == yatzy.BoxSelected(seat=0, box=box)
        state = yatzy.apply(state, event)
    return state


def test_select_marks_and_clears_a_box() -> None:
    state = rolled((2, 2, 2, 5, 5), selects=("full_house",))
    assert state.selected == "full_house"
    assert yatzy.state_from_wire(state.to_wire()) == state
    assert rolled((2, 2, 2, 5, 5), selects=("full_house", None)).selected is None


def test_a_new_roll_clears_the_mark() -> None:
    state = rolled((2, 2, 2, 5, 5), selects=("chance",))
    (event,) = yatzy.decide(state, yatzy.Roll(seat=0, hold=(0,)), fixed_roller((1, 1, 1, 1)))
    assert yatzy.apply(state, event).selected is None


def test_scoring_clears_the_mark() -> None:
    state = rolled((2, 2, 2, 5, 5), selects=("chance",))
    events = yatzy.decide(state, yatzy.Score(seat=0, box="twos"), fixed_roller())
    for event in events:
        state = yatzy.apply(state, event)
    assert state.selected is None


@pytest.mark.parametrize(
    ("rolls", "box", "code"),
    [
        ((), "chance", "roll_first"),
        ((), None, "roll_first"),
        (((2, 2, 2, 5, 5),), "bogus", "unknown_box"),
    ],
)
def test_select_refusals(rolls: tuple[tuple[int, ...], ...], box: str | None, code: str) -> None:
    state = rolled(*rolls)
    with pytest.raises(RuleError) as error:
        yatzy.decide(state, yatzy.Select(seat=0, box=box), fixed_roller())
    assert error.value.code == code


def test_select_respects_the_joker_order() -> None:
    state = rolled((4, 4, 4, 4, 4))
    for event in yatzy.decide(state, yatzy.Score(seat=0, box="yatzy"), fixed_roller()):
        state = yatzy.apply(state, event)
    for event in yatzy.decide(state, yatzy.Roll(seat=1), fixed_roller((1, 2, 3, 4, 6))):
        state = yatzy.apply(state, event)
    for event in yatzy.decide(state, yatzy.Score(seat=1, box="chance"), fixed_roller()):
        state = yatzy.apply(state, event)
    for event in yatzy.decide(state, yatzy.Roll(seat=0), fixed_roller((4, 4, 4, 4, 4))):
        state = yatzy.apply(state, event)
    with pytest.raises(RuleError) as error:
        yatzy.decide(state, yatzy.Select(seat=0, box="chance"), fixed_roller())
    assert error.value.code == "box_not_allowed"
    with pytest.raises(RuleError) as error:
        yatzy.decide(state, yatzy.Select(seat=0, box="yatzy"), fixed_roller())
    assert error.value.code == "box_used"


def test_select_from_the_wire() -> None:
    assert yatzy.command_from_wire({"type": "select", "box": "chance"}, 1) == yatzy.Select(
        seat=1, box="chance"
    )
    assert yatzy.command_from_wire({"type": "select", "box": None}, 0) == yatzy.Select(0, None)
    with pytest.raises(RuleError) as error:
        yatzy.command_from_wire({"type": "select", "box": 3}, 0)
    assert error.value.code == "unknown_box"
    event = yatzy.BoxSelected(seat=0, box="chance")
    assert yatzy.event_from_wire(event.to_wire()) == event
