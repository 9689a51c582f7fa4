"""The staff's commands (moderation) in both rules engines: adjudicate (a winner of their choosing
or a draw, then the game's own game_finished with the totals as they stand) and the staff's abort
(at any point, no seat calling it off); refusals, replay and the wire forms."""

from __future__ import annotations

import pytest

from games.rules import ending
from tests.rules.test_ending import ENGINES, Game, ten_thousand_turn, yatzy_turn


def played(kind: str, seats: int) -> Game:
    """A game in which every seat has moved (an abort by a seat would come too late)."""
    game = Game(ENGINES[kind], seats, rolls=[(1, 1, 5, 2, 3, 4)[: 5 if kind == "yatzy" else 6]] * 9)
    for seat in range(seats):
        if kind == "yatzy":
            yatzy_turn(game, seat, "ones")
        else:
            ten_thousand_turn(game, seat)
    return game


@pytest.mark.parametrize("kind", ENGINES)
def test_the_staff_name_a_winner_the_others_follow_and_the_totals_stand(kind: str) -> None:
    game = played(kind, 3)
    totals = game.state.totals if kind == "ten_thousand" else None
    events = game.play(game.state.turn_seat, {"type": "adjudicate", "winner": 2})
    assert game.types(events) == ["game_adjudicated", "game_finished"]
    assert events[0].to_wire() == {"type": "game_adjudicated", "winner": 2}
    assert events[1].places == (2, 2, 1)
    if totals is not None:
        assert events[1].totals == totals
    else:
        assert events[1].totals == tuple(game.state.totals(s).total for s in range(3))
    assert game.state.finished and game.state.adjudicated and not game.state.aborted
    assert game.state.places == (2, 2, 1) and game.state.current_seat is None
    assert game.state.to_wire()["adjudicated"] is True


@pytest.mark.parametrize("kind", ENGINES)
def test_a_draw_puts_every_seat_still_playing_first_and_leavers_after(kind: str) -> None:
    game = Game(ENGINES[kind], 3)
    game.play(1, {"type": "resign"})
    events = game.play(game.state.turn_seat, {"type": "adjudicate", "winner": None})
    assert events[0].winner is None and events[1].places == (1, 3, 1)


@pytest.mark.parametrize("kind", ENGINES)
def test_only_a_seat_still_playing_can_win(kind: str) -> None:
    game = Game(ENGINES[kind], 3)
    game.play(1, {"type": "resign"})
    for winner in (1, 3, -1, "0", True):
        assert game.refused(0, {"type": "adjudicate", "winner": winner}) == "invalid_winner"
    assert not game.state.finished


@pytest.mark.parametrize("kind", ENGINES)
def test_the_staff_abort_a_game_every_seat_has_moved_in(kind: str) -> None:
    game = played(kind, 2)
    assert game.refused(game.state.turn_seat, {"type": "abort"}) == "abort_too_late"
    events = game.play(game.state.turn_seat, {"type": "staff_abort"})
    assert [event.to_wire() for event in events] == [{"type": "game_aborted", "seat": None}]
    assert game.state.finished and game.state.aborted and game.state.places == ()


@pytest.mark.parametrize("kind", ENGINES)
def test_a_finished_game_is_not_decided_again(kind: str) -> None:
    game = Game(ENGINES[kind], 2)
    game.play(0, {"type": "adjudicate", "winner": 0})
    assert game.refused(0, {"type": "adjudicate", "winner": 1}) == "game_finished"
    assert game.refused(0, {"type": "staff_abort"}) == "game_finished"


@pytest.mark.parametrize("kind", ENGINES)
def test_a_winner_that_cannot_win_is_no_event_to_fold(kind: str) -> None:
    game = Game(ENGINES[kind], 2)
    with pytest.raises(ValueError, match="cannot win"):
        ENGINES[kind].apply(game.state, ending.GameAdjudicated(winner=5))
    # game_finished only once the game is over or decided
    with pytest.raises(ValueError, match="game_finished before"):
        ENGINES[kind].apply(game.state, ENGINES[kind].GameFinished(totals=(0, 0), places=(1, 2)))


def test_the_staff_commands_are_among_those_the_public_move_path_refuses() -> None:
    assert {"adjudicate", "staff_abort"} <= ending.TYPES
