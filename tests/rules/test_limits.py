"""The limits of a game's length, in both rules engines: Dés 10 000 ends at the end of its last
round allowed (``MAX_ROUNDS``, written in its ``game_started``), and the server may end any game
at its events per game (``end_at_limit``); either way ``limit_reached`` then ``game_finished``,
the seats still playing placed by their totals as they stand (the leader wins, equal totals share
a place), seats that left after them. Games begun before the limits have none."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from games.rules import ending, ten_thousand, yatzy
from games.rules.base import fixed_roller
from tests.rules.test_ending import ENGINES, Game, ten_thousand_turn, yatzy_turn

#: A roll whose first die (a 1) sets aside for 100 and leaves five dice.
ONE = (1, 2, 3, 4, 6, 6)
#: A roll of five dice that loses the turn.
NOTHING = (2, 3, 4, 6, 6)


def limited(seats: int, max_rounds: int, rolls: Sequence[Sequence[int]] = ()) -> Game:
    """A Dés 10 000 game of ``seats`` whose limit is ``max_rounds`` rounds."""
    game = Game(ten_thousand, seats, rolls)
    game.events = list(ten_thousand.start(seats, {"target": 5000}, max_rounds=max_rounds))
    game.state = ten_thousand.replay(game.events)
    return game


def lose_turn(game: Game, seat: int) -> list[Any]:
    """The seat throws, sets aside the 1, throws again and loses the turn."""
    game.play(seat, {"type": "roll"})
    return game.play(seat, {"type": "roll", "keep": [0]})


def test_the_server_starts_every_game_with_the_limit_of_rounds() -> None:
    (started,) = ten_thousand.start(2)
    assert isinstance(started, ten_thousand.GameStarted)
    assert started.max_rounds == ten_thousand.MAX_ROUNDS == 300
    assert started.to_wire()["max_rounds"] == 300
    state = ten_thousand.replay([started])
    assert (state.max_rounds, state.rounds_played) == (300, 0)


def test_a_game_ends_at_the_end_of_its_last_round_the_leader_first() -> None:
    game = limited(3, max_rounds=2, rolls=[ONE, ONE, ONE, NOTHING, ONE, ONE, NOTHING, ONE, NOTHING])
    ten_thousand_turn(game, 0)  # 100
    ten_thousand_turn(game, 1)  # 100
    lose_turn(game, 2)
    assert game.state.rounds_played == 1 and not game.state.finished
    ten_thousand_turn(game, 0)  # 200: the leader
    lose_turn(game, 1)
    events = lose_turn(game, 2)  # the last turn of round 2
    assert game.types(events) == [
        "dice_set_aside", "dice_rolled", "round_lost", "limit_reached", "game_finished",
    ]  # fmt: skip
    assert events[3].to_wire() == {"type": "limit_reached", "limit": "rounds", "count": 2}
    assert events[4].totals == (200, 100, 0) and events[4].places == (1, 2, 3)
    assert game.state.finished and game.state.limit_reached
    assert game.state.rounds_played == 2 and game.state.current_seat is None
    assert game.state.places == (1, 2, 3)
    assert game.refused(0, {"type": "roll"}) == "game_finished"


def test_equal_leaders_share_the_first_place() -> None:
    game = limited(3, max_rounds=1, rolls=[ONE, ONE, ONE, NOTHING])
    ten_thousand_turn(game, 0)
    ten_thousand_turn(game, 1)
    events = lose_turn(game, 2)
    assert events[-1].places == (1, 1, 3)


def test_a_round_skips_the_seats_that_left_and_a_lone_seat_plays_one_a_turn() -> None:
    game = limited(3, max_rounds=3, rolls=[ONE, NOTHING] * 6)
    game.play(0, {"type": "resign"})
    assert game.state.turn_seat == 1 and game.state.rounds_played == 0
    lose_turn(game, 1)
    lose_turn(game, 2)  # round 1: the turn comes round to seat 1, seat 0 skipped
    assert game.state.rounds_played == 1
    alone = limited(1, max_rounds=2, rolls=[ONE, NOTHING] * 2)
    lose_turn(alone, 0)
    assert alone.state.rounds_played == 1
    events = lose_turn(alone, 0)
    assert game.types(events)[-2:] == ["limit_reached", "game_finished"]


def test_the_last_round_allowed_ends_a_last_round_under_way() -> None:
    # Seat 1 reaches the target in the last round allowed: seat 0 would have had one more turn.
    game = limited(2, max_rounds=1, rolls=[ONE, NOTHING, (1, 1, 1, 1, 1, 1)])
    lose_turn(game, 0)
    game.play(1, {"type": "roll"})
    events = game.play(1, {"type": "bank", "keep": [0, 1, 2, 3, 4, 5]})  # 8000
    assert game.types(events) == [
        "dice_set_aside", "hot_dice", "turn_banked", "last_round_started", "limit_reached",
        "game_finished",
    ]  # fmt: skip
    assert events[-1].places == (2, 1)


def test_a_game_over_by_its_rules_at_that_moment_ends_as_it_always_did() -> None:
    # The last round ends at the same turn as the last round allowed: no limit is reached.
    game = limited(1, max_rounds=1, rolls=[(1, 1, 1, 1, 1, 1)])
    game.play(0, {"type": "roll"})
    events = game.play(0, {"type": "bank", "keep": [0, 1, 2, 3, 4, 5]})
    assert game.types(events) == [
        "dice_set_aside", "hot_dice", "turn_banked", "last_round_started", "game_finished",
    ]  # fmt: skip
    assert not game.state.limit_reached


def test_a_stand_in_turn_counts_before_the_game_closes() -> None:
    game = limited(2, max_rounds=1, rolls=[ONE, NOTHING])
    lose_turn(game, 0)
    events = game.play(1, {"type": "time_out"})
    assert game.types(events) == ["round_lost", "turn_timed_out", "limit_reached", "game_finished"]


def test_a_game_begun_before_the_limit_has_none() -> None:
    """Its ``game_started`` carries no limit: it counts no rounds and plays on past any."""
    old = ten_thousand.GameStarted(seats=1, options=ten_thousand.TenThousandOptions(target=5000))
    assert "max_rounds" not in old.to_wire()
    state = ten_thousand.replay([old])
    for _ in range(ten_thousand.MAX_ROUNDS + 5):
        command = ending.TimeOut(seat=0)
        for event in ten_thousand.decide(state, command, fixed_roller()):
            state = ten_thousand.apply(state, event)
    assert not state.finished
    assert state.rounds_played is None and "rounds_played" not in state.to_wire()


def test_a_limit_of_rounds_is_a_positive_number() -> None:
    for bad in (0, -1, True, 2.5):
        with pytest.raises(ValueError, match="not a limit of rounds"):
            ten_thousand.start(2, max_rounds=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ENGINES)
def test_the_server_ends_a_game_at_its_events_the_totals_as_they_stand(kind: str) -> None:
    if kind == "yatzy":
        rolls = [(6, 6, 6, 6, 6), (1, 1, 1, 1, 2), (5, 5, 5, 5, 5), (2, 2, 3, 4, 6)]
        game = Game(yatzy, 3, rolls=rolls)
        yatzy_turn(game, 0, "sixes")  # 30
        yatzy_turn(game, 1, "ones")  # 4
        yatzy_turn(game, 2, "fives")  # 25
        game.play(0, {"type": "roll"})  # a turn under way
        totals: tuple[int, ...] = (30, 4, 25)
    else:
        game = Game(ten_thousand, 3, rolls=[ONE, ONE, (1, 1, 1, 2, 3, 4), ONE])
        ten_thousand_turn(game, 0)  # 100
        ten_thousand_turn(game, 1)  # 100
        game.play(2, {"type": "roll"})
        game.play(2, {"type": "bank", "keep": [0, 1, 2]})  # 1000
        game.play(0, {"type": "roll"})  # a roll waiting: its points are at risk, not banked
        totals = (100, 100, 1000)
    events = game.play(
        game.state.turn_seat, {"type": "end_at_limit", "limit": "events", "count": 2500}
    )
    assert game.types(events) == ["limit_reached", "game_finished"]
    assert events[0].to_wire() == {"type": "limit_reached", "limit": "events", "count": 2500}
    assert events[1].totals == totals
    assert events[1].places == ((1, 3, 2) if kind == "yatzy" else (2, 2, 1))
    assert game.state.finished and game.state.limit_reached and not game.state.aborted
    assert game.state.to_wire()["limit_reached"] is True


@pytest.mark.parametrize("kind", ENGINES)
def test_seats_that_left_come_after_the_seats_still_playing(kind: str) -> None:
    game = Game(ENGINES[kind], 3)
    game.play(1, {"type": "resign"})
    events = game.play(game.state.turn_seat, {"type": "end_at_limit"})
    assert events[-1].places == (1, 3, 1)


@pytest.mark.parametrize("kind", ENGINES)
def test_no_game_finishes_early_without_its_reason(kind: str) -> None:
    """``game_finished`` folds after ``limit_reached``, never before it in a game in play."""
    game = Game(ENGINES[kind], 2)
    finished = (
        yatzy.GameFinished(totals=(0, 0), places=(1, 1))
        if kind == "yatzy"
        else ten_thousand.GameFinished(totals=(0, 0), places=(1, 1))
    )
    with pytest.raises(ValueError, match="game_finished before"):
        ENGINES[kind].apply(game.state, finished)
    reached = ENGINES[kind].apply(game.state, ending.LimitReached(limit="events", count=9))
    assert ENGINES[kind].apply(reached, finished).finished


def test_a_limit_is_one_of_the_known_ones() -> None:
    with pytest.raises(ValueError, match="not a limit"):
        ten_thousand.event_from_wire({"type": "limit_reached", "limit": "time", "count": 1})


def test_the_rules_page_states_the_limit_of_rounds() -> None:
    page = (Path(__file__).resolve().parents[2] / "games" / "rules" / "README.md").read_text()
    assert f"A game lasts at most **{ten_thousand.MAX_ROUNDS} rounds**" in page
    assert f"At the end of round {ten_thousand.MAX_ROUNDS} the game" in page
