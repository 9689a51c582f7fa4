"""Random Dés 10 000 games with random legal (and illegal) moves: the engine's invariants hold."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import RuleError
from games.rules.ten_thousand import (
    TARGETS,
    Bank,
    Command,
    DiceRolled,
    DiceSetAside,
    Event,
    GameFinished,
    HotDice,
    LastRoundStarted,
    Roll,
    RoundLost,
    TenThousandOptions,
    TenThousandState,
    TurnBanked,
    apply,
    command_from_wire,
    decide,
    event_from_wire,
    is_farkle,
    places_for,
    preview_keep,
    replay,
    score_keep,
    start,
    state_from_wire,
)

MAX_COMMANDS = 20_000


def no_dice(n: int) -> tuple[int, ...]:
    raise AssertionError("a refused command must not roll")


def scoring_keeps(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [
        idx
        for k in range(1, len(roll) + 1)
        for idx in combinations(range(len(roll)), k)
        if score_keep(roll[i] for i in idx) is not None
    ]


def check_refusals(state: TenThousandState, rng: random.Random) -> None:
    """A few commands that must be refused, each with its code, without rolling or changing."""
    seat = state.turn_seat
    before = state.to_wire()
    wrong: list[tuple[Command, str]] = []
    if state.seats > 1:
        wrong.append((Roll((seat + rng.randrange(1, state.seats)) % state.seats), "not_your_turn"))
    if state.roll:
        n = len(state.roll)
        wrong += [
            (Roll(seat), "keep_required"),
            (Bank(seat), "keep_required"),
            (Bank(seat, (n,)), "invalid_dice_indices"),
            (Roll(seat, (0, 0)), "invalid_dice_indices"),
        ]
        idx = tuple(i for i in range(n) if rng.random() < 0.5)
        if idx and score_keep(state.roll[i] for i in idx) is None:
            wrong.append((Roll(seat, idx), "keep_not_scoring"))
    else:
        wrong += [(Roll(seat, (0,)), "nothing_to_keep"), (Bank(seat), "nothing_to_bank")]
    for command, code in wrong:
        with pytest.raises(RuleError) as caught:
            decide(state, command, no_dice)
        assert caught.value.code == code, command
    assert state.to_wire() == before


def check_state(state: TenThousandState) -> None:
    wire = state.to_wire()
    assert state_from_wire(json.loads(json.dumps(wire))) == state
    assert sum(state.kept_points) == state.turn_points
    assert [score_keep(group) for group in state.kept] == list(state.kept_points)
    if state.finished:
        assert state.places == places_for(state.totals)
        return
    # Between commands a turn is never half done: either it starts or a live roll waits.
    if state.roll:
        assert not is_farkle(state.roll)
        assert len(state.roll) == state.dice_in_play
        assert state.can_bank
    else:
        assert (state.kept, state.turn_points, state.dice_in_play) == ((), 0, 6)
        assert not state.can_bank
    assert 0 < state.farkle_risk < 1


@settings(max_examples=100, deadline=None)
@given(
    seats=st.integers(1, 7),
    target=st.sampled_from(TARGETS),
    seed=st.integers(0, 2**32),
    bank_at=st.sampled_from([0, 300, 600, 2000]),
)
def test_random_games(seats: int, target: int, seed: int, bank_at: int) -> None:
    rng = random.Random(seed)

    def roller(n: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(n))

    log: list[Event] = list(start(seats, {"target": target}))
    state = replay(log)
    banked = [0] * seats
    turns_after_trigger = 0
    for _ in range(MAX_COMMANDS):
        if state.finished:
            break
        check_state(state)
        if rng.random() < 0.2:
            check_refusals(state, rng)
        seat = state.turn_seat
        command: Command
        if not state.roll:
            command = Roll(seat)
        else:
            keep = rng.choice(scoring_keeps(state.roll))
            points = preview_keep(state, keep)
            assert points is not None
            want_bank = state.turn_points + points >= bank_at
            if rng.random() < 0.1:
                want_bank = not want_bank
            command = (Bank if want_bank else Roll)(seat, keep)
        assert command_from_wire(json.loads(json.dumps(command.to_wire())), seat) == command
        before = state
        events = decide(state, command, roller)
        assert events
        for event in events:
            assert event_from_wire(json.loads(json.dumps(event.to_wire()))) == event
            state = apply(state, event)
        log += events

        # What each event says agrees with the state it came from.
        for event in events:
            if isinstance(event, DiceSetAside):
                assert event.points == preview_keep(before, event.indices)
            if isinstance(event, HotDice):
                assert sum(len(g) for g in before.kept) + len(command.keep) >= 6
            if isinstance(event, RoundLost):
                assert event.lost_points == before.turn_points + sum(
                    e.points for e in events if isinstance(e, DiceSetAside)
                )
                assert state.totals == before.totals or state.finished
            if isinstance(event, TurnBanked):
                banked[event.seat] += event.points
                assert event.total == before.totals[event.seat] + event.points
                assert isinstance(command, Bank)
            if isinstance(event, LastRoundStarted):
                assert not before.last_round
                assert max(before.totals) < target <= state.totals[event.seat]
                assert event.seat == seat
        if before.last_round and any(isinstance(e, TurnBanked | RoundLost) for e in events):
            turns_after_trigger += 1
        ended_turn = any(isinstance(e, TurnBanked | RoundLost) for e in events)
        assert (state.turn_seat == (seat + 1) % seats) == ended_turn or seats == 1
        assert list(state.totals) == banked
        if isinstance(events[-1], DiceRolled):
            assert state.roll == events[-1].dice
    else:
        pytest.fail("the game did not finish")

    assert state.finished
    check_state(state)
    assert isinstance(log[-1], GameFinished)
    assert sum(isinstance(e, GameFinished) for e in log) == 1
    assert sum(isinstance(e, LastRoundStarted) for e in log) == 1
    assert state.last_round_trigger is not None
    # Every other seat played exactly one more turn, then the game ended.
    assert turns_after_trigger == seats - 1
    assert state.turn_seat == state.last_round_trigger
    assert max(state.totals) >= target
    assert replay(log) == state
    with pytest.raises(RuleError) as caught:
        decide(state, Roll(state.turn_seat), no_dice)
    assert caught.value.code == "game_finished"


@settings(max_examples=200, deadline=None)
@given(
    roll=st.lists(st.integers(1, 6), min_size=1, max_size=6),
    keep=st.lists(st.integers(-1, 6), max_size=7),
)
def test_any_keep_is_accepted_exactly_when_it_scores(roll: list[int], keep: list[int]) -> None:
    state = TenThousandState(
        seats=2,
        options=TenThousandOptions(),
        totals=(0, 0),
        roll=tuple(roll),
        dice_in_play=len(roll),
    )
    if is_farkle(roll):
        return
    valid = len(set(keep)) == len(keep) and all(0 <= i < len(roll) for i in keep)
    expected = score_keep(roll[i] for i in keep) if valid and keep else None
    assert preview_keep(state, keep) == expected
    if expected is None:
        with pytest.raises(RuleError) as caught:
            decide(state, Bank(0, tuple(keep)), no_dice)
        if not keep:
            assert caught.value.code == "keep_required"
        elif not valid:
            assert caught.value.code == "invalid_dice_indices"
        else:
            assert caught.value.code == "keep_not_scoring"
            offending = caught.value.params["indices"]
            assert offending
            assert set(offending) <= set(keep)
            # Setting aside only the dice that count would be accepted.
            rest = [i for i in keep if i not in offending]
            assert not rest or score_keep(roll[i] for i in rest) is not None
        return
    events = decide(state, Bank(0, tuple(keep)), no_dice)
    assert events[0] == DiceSetAside(
        0, tuple(sorted(keep)), tuple(roll[i] for i in sorted(keep)), expected
    )
    assert isinstance(events[-1], TurnBanked)
    assert events[-1].points == expected
