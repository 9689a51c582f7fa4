"""Games that end early, in both rules engines: resign, claim, abort, the clock's stand-in and its
forfeit, seats out skipped and placed last; replay and the wire forms of every new event."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest

from games.rules import ending, ten_thousand, yatzy
from games.rules.base import RuleError, fixed_roller

ENGINES = {"yatzy": yatzy, "ten_thousand": ten_thousand}


class Game:
    """A game of one engine, its events kept: every step is decided, folded and checked."""

    def __init__(self, engine: ModuleType, seats: int, rolls: Sequence[Sequence[int]] = ()):
        self.engine = engine
        self.events = list(engine.start(seats))
        self.state = engine.replay(self.events)
        self.roller = fixed_roller(*rolls)

    def play(self, seat: int, command: dict[str, Any]) -> list[Any]:
        parsed = self.engine.command_from_wire(command, seat)
        events: list[Any] = self.engine.decide(self.state, parsed, self.roller)
        for event in events:
            self.state = self.engine.apply(self.state, event)
            # Every event crosses the wire and back unchanged.
            assert self.engine.event_from_wire(event.to_wire()) == event
        self.events += events
        assert self.engine.replay(self.events) == self.state
        assert self.engine.state_from_wire(self.state.to_wire()) == self.state
        return events

    def refused(self, seat: int, command: dict[str, Any]) -> str:
        with pytest.raises(RuleError) as error:
            self.play(seat, command)
        return error.value.code

    def types(self, events: Sequence[Any]) -> list[str]:
        return [event.type for event in events]


def yatzy_turn(game: Game, seat: int, box: str) -> None:
    game.play(seat, {"type": "roll"})
    game.play(seat, {"type": "score", "box": box})


def ten_thousand_turn(game: Game, seat: int) -> None:
    game.play(seat, {"type": "roll"})
    game.play(seat, {"type": "bank", "keep": [0]})


@pytest.mark.parametrize("kind", ENGINES)
def test_two_seats_a_resignation_ends_the_game_and_the_other_seat_wins(kind: str) -> None:
    game = Game(ENGINES[kind], 2)
    events = game.play(1, {"type": "resign"})  # not its turn: a seat may resign any time
    assert game.types(events) == ["seat_left", "game_finished"]
    assert events[0] == ending.SeatLeft(seat=1, reason="resigned")
    assert game.state.finished and game.state.places == (1, 2)
    assert game.refused(0, {"type": "roll"}) == "game_finished"


@pytest.mark.parametrize("kind", ENGINES)
def test_a_one_seat_game_ends_when_its_seat_resigns(kind: str) -> None:
    game = Game(ENGINES[kind], 1)
    assert game.types(game.play(0, {"type": "resign"})) == ["seat_left", "game_finished"]
    assert game.state.places == (1,)


def test_yatzy_three_seats_the_leaver_is_skipped_frozen_and_placed_last() -> None:
    game = Game(yatzy, 3, rolls=[(6, 6, 6, 6, 6)] * 40)
    yatzy_turn(game, 0, "yatzy")  # 50: the best total when seat 0 leaves
    assert game.types(game.play(0, {"type": "resign"})) == ["seat_left"]
    assert game.state.out == (0,) and not game.state.finished
    assert game.refused(0, {"type": "resign"}) == "seat_out"
    boxes = [box for box in yatzy.BOXES]
    for turn in range(13):
        for seat in (1, 2):
            assert game.state.turn_seat == seat
            yatzy_turn(game, seat, boxes[turn])
            if turn == 12 and seat == 2:
                break
            assert game.state.turn_seat != 0
    assert game.state.finished
    assert game.state.sheets[0].count(None) == 12  # frozen as it was
    assert game.state.places == (3, 1, 1)


def test_yatzy_the_turn_seat_leaving_passes_the_turn_and_rounds_follow() -> None:
    game = Game(yatzy, 3, rolls=[(1, 2, 3, 4, 6)] * 10)
    yatzy_turn(game, 0, "chance")
    yatzy_turn(game, 1, "chance")
    game.play(2, {"type": "roll"})
    game.play(0, {"type": "claim"})  # the seat to play (2) is claimed by seat 0
    assert game.state.out == (2,) and game.state.turn_seat == 0 and game.state.round == 2
    assert game.state.dice == ()


@pytest.mark.parametrize("kind", ENGINES)
def test_claim_refusals(kind: str) -> None:
    game = Game(ENGINES[kind], 3)
    assert game.refused(0, {"type": "claim"}) == "claim_not_allowed"  # its own turn
    game.play(1, {"type": "resign"})
    assert game.refused(1, {"type": "claim"}) == "seat_out"


@pytest.mark.parametrize("kind", ENGINES)
def test_abort_before_any_dice_only(kind: str) -> None:
    engine = ENGINES[kind]
    dice = (1, 2, 3, 4, 6) if kind == "yatzy" else (1, 2, 3, 4, 6, 6)
    game = Game(engine, 2, rolls=[dice] * 4)
    events = game.play(1, {"type": "abort"})  # not the seat to play: any seat may, before dice
    assert game.types(events) == ["game_aborted"]
    assert game.state.finished and game.state.aborted and game.state.places == ()
    assert game.state.current_seat is None

    # One throw by one seat, and neither seat may call the game off: a bad first throw is no
    # free reroll.
    late = Game(engine, 2, rolls=[dice] * 4)
    late.play(0, {"type": "roll"})
    assert late.refused(0, {"type": "abort"}) == "abort_too_late"
    assert late.refused(1, {"type": "abort"}) == "abort_too_late"


def test_yatzy_stand_in_rolls_once_then_scores_the_lowest_legal_box() -> None:
    game = Game(yatzy, 2, rolls=[(6, 6, 6, 5, 5)])
    events = game.play(0, {"type": "time_out"})
    assert game.types(events) == ["dice_rolled", "box_scored", "turn_timed_out"]
    # 6 6 6 5 5: ones..fours score 0; the first of them in sheet order.
    assert events[1].box == "ones" and events[1].points == 0
    assert events[2] == ending.TurnTimedOut(seat=0, in_a_row=1)
    assert game.state.turn_seat == 1


def test_yatzy_stand_in_scores_the_marked_box() -> None:
    game = Game(yatzy, 2, rolls=[(6, 6, 6, 5, 5)])
    game.play(0, {"type": "roll"})
    game.play(0, {"type": "select", "box": "full_house"})
    events = game.play(0, {"type": "time_out"})
    assert [(e.box, e.points) for e in events if e.type == "box_scored"] == [("full_house", 25)]


def test_yatzy_stand_in_never_beats_the_worst_legal_box() -> None:
    game = Game(yatzy, 1, rolls=[(6, 6, 6, 6, 6), (1, 2, 3, 4, 5)] * 13)
    for _ in range(13):
        if game.state.finished:
            break
        game.play(0, {"type": "roll"})
        worst = min(game.state.legal_boxes().values())
        (scored, *_rest) = [e for e in game.play(0, {"type": "time_out"}) if e.type == "box_scored"]
        assert scored.points == worst


def test_ten_thousand_stand_in_banks_the_least_of_a_pending_roll() -> None:
    game = Game(ten_thousand, 2, rolls=[(1, 1, 5, 2, 3, 4)])
    game.play(0, {"type": "roll"})
    events = game.play(0, {"type": "time_out"})
    assert game.types(events) == ["dice_set_aside", "turn_banked", "turn_timed_out"]
    assert events[0].dice == (5,) and events[1].points == 50


def test_ten_thousand_stand_in_loses_a_turn_not_begun() -> None:
    game = Game(ten_thousand, 2)
    events = game.play(0, {"type": "time_out"})
    assert events == [
        ten_thousand.RoundLost(seat=0, lost_points=0),
        ending.TurnTimedOut(seat=0, in_a_row=1),
    ]
    assert game.state.totals == (0, 0) and game.state.turn_seat == 1


@pytest.mark.parametrize("kind", ENGINES)
def test_two_timed_out_turns_in_a_row_forfeit_when_the_game_says_so(kind: str) -> None:
    game = Game(ENGINES[kind], 2, rolls=[(6, 6, 6, 5, 5)] * 4 if kind == "yatzy" else [])
    game.play(0, {"type": "time_out", "forfeits": True})  # the first: the stand-in plays
    game.play(1, {"type": "time_out", "forfeits": True})
    assert game.state.timeouts == (1, 1)
    events = game.play(0, {"type": "time_out", "forfeits": True})
    assert events[0] == ending.SeatLeft(seat=0, reason="timed_out")
    assert game.state.finished and game.state.places == (2, 1)


@pytest.mark.parametrize("kind", ENGINES)
def test_a_turn_the_seat_ends_itself_starts_its_count_again(kind: str) -> None:
    rolls = [(6, 6, 6, 5, 5)] * 4 if kind == "yatzy" else [(1, 2, 3, 4, 6, 6)] * 4
    game = Game(ENGINES[kind], 2, rolls=rolls)
    game.play(0, {"type": "time_out", "forfeits": True})
    game.play(1, {"type": "time_out"})
    game.play(0, {"type": "roll"})
    game.play(
        0, {"type": "score", "box": "chance"} if kind == "yatzy" else {"type": "bank", "keep": [0]}
    )
    assert game.state.timeouts == (0, 1)
    game.play(1, {"type": "time_out"})  # without forfeits: the stand-in plays again
    assert game.state.timeouts == (0, 2) and not game.state.finished


def test_ten_thousand_the_last_round_ends_past_a_trigger_that_left() -> None:
    game = Game(ten_thousand, 3, rolls=[(1, 1, 1, 1, 1, 1), (2, 3, 4, 6, 6, 3)])
    target = game.state.target
    game.state = game.state.__class__(**{**vars(game.state), "totals": (target - 8000, 0, 0)})
    game.events = []  # from here on the state was set by hand: no replay
    parsed = ten_thousand.command_from_wire({"type": "roll"}, 0)
    for event in ten_thousand.decide(game.state, parsed, game.roller):
        game.state = ten_thousand.apply(game.state, event)
    events = ten_thousand.decide(
        game.state, ten_thousand.Bank(seat=0, keep=tuple(range(6))), game.roller
    )
    for event in events:
        game.state = ten_thousand.apply(game.state, event)
    assert game.state.last_round and game.state.last_round_trigger == 0
    (left,) = ten_thousand.decide(game.state, ending.Resign(seat=0), game.roller)
    game.state = ten_thousand.apply(game.state, left)
    assert not game.state.finished and game.state.turn_seat == 1
    for seat in (1, 2):
        events = ten_thousand.decide(game.state, ending.TimeOut(seat=seat), game.roller)
        for event in events:
            game.state = ten_thousand.apply(game.state, event)
    # Seat 2's turn ended: the turn passed seat 0's place, the last round is over.
    assert events[-1].type == "game_finished"
    assert game.state.places == (3, 1, 1)


def test_yatzy_a_turn_marks_at_most_so_many_boxes() -> None:
    game = Game(yatzy, 2, rolls=[(6, 6, 6, 5, 5)])
    game.play(0, {"type": "roll"})
    for number in range(yatzy.MAX_SELECTS_PER_TURN):
        game.play(0, {"type": "select", "box": "chance" if number % 2 else None})
    assert game.refused(0, {"type": "select", "box": "sixes"}) == "too_many_selects"
    game.play(0, {"type": "score", "box": "sixes"})
    assert game.state.selects == 0  # the next turn marks afresh


def test_places_with_leavers() -> None:
    assert ending.places_with_leavers([10, 50, 30, 30], out=[1]) == (3, 4, 1, 1)
    assert ending.places_with_leavers([10, 50, 30, 0], out=[1, 3]) == (2, 4, 1, 3)


@pytest.mark.parametrize("kind", ENGINES)
def test_the_server_s_reasons_only(kind: str) -> None:
    with pytest.raises(ValueError, match="reason"):
        ENGINES[kind].event_from_wire({"type": "seat_left", "seat": 0, "reason": "bored"})
