"""``games.leaving.player_running_games_end``, the games' part of the cut-off (a ban, an account's
deletion): each game in play resigned through the move path, seat by seat, until the game is over
or none of the account's seats is left; open games cancelled or left; a game it already left
untouched."""

from __future__ import annotations

import pytest

from games import leaving
from games.ending import game_resign
from games.leaving import GamesLeft, player_running_games_end
from games.log.check import log_problems
from games.models import Game, GameEvent, GameStatus
from tests.factories import account, new_game

pytestmark = pytest.mark.django_db


def left_seats(game: Game) -> list[int]:
    rows = GameEvent.objects.filter(game=game, type="seat_left").order_by("seq")
    return [row.data["seat"] for row in rows]


def test_every_seat_it_plays_leaves_until_the_game_is_over() -> None:
    ann = account()
    hotseat = new_game(ann, "yatzy", ["me", "hotseat", "hotseat"])
    computer = new_game(ann, "ten_thousand", ["me", "computer"])
    solo = new_game(ann, "yatzy", ["me"])
    assert player_running_games_end(player=ann) == GamesLeft(resigned=3, left=0, cancelled=0)
    for game in (hotseat, computer, solo):
        game.refresh_from_db()
        assert game.status == GameStatus.FINISHED, game
        assert list(log_problems(game)) == []
    assert left_seats(hotseat) == [0, 1]  # then one seat is left: the game is over
    assert left_seats(computer) == [0]
    assert left_seats(solo) == [0]


def test_a_larger_game_plays_on_and_a_seat_already_out_is_left_alone() -> None:
    ann, bob, cara, dan = account(), account(), account(), account()
    four = new_game(ann, "yatzy", ["me", "open", "open", "open"], joiners=[bob, cara, dan])
    game_resign(game_id=four.pk, player=cara)
    before = GameEvent.objects.filter(game=four).count()
    assert player_running_games_end(player=cara) == GamesLeft(resigned=0, left=0, cancelled=0)
    assert GameEvent.objects.filter(game=four).count() == before

    assert player_running_games_end(player=bob).resigned == 1  # not his turn: still resigned
    four.refresh_from_db()
    assert four.state is not None
    assert four.status == GameStatus.ACTIVE and four.state["out"] == [2, 1]
    assert left_seats(four) == [2, 1]
    assert list(log_problems(four)) == []


def test_open_games_are_cancelled_or_left() -> None:
    ann, bob = account(), account()
    made = new_game(ann, "yatzy", ["me", "open"], start=False)
    joined = new_game(bob, "yatzy", ["me", "open"], joiners=[ann], start=False)
    finished = new_game(ann, "yatzy", ["me"])
    game_resign(game_id=finished.pk, player=ann)
    assert player_running_games_end(player=ann) == GamesLeft(resigned=0, left=1, cancelled=1)
    assert not Game.objects.filter(pk=made.pk).exists()
    assert not joined.seats.filter(player=ann).exists()
    assert Game.objects.get(pk=finished.pk).status == GameStatus.FINISHED


def test_a_game_that_ended_meanwhile_is_passed_over() -> None:
    """Listed in play, over by the time its turn comes (another move ended it): no refusal."""
    ann = account()
    game = new_game(ann, "yatzy", ["me"])
    game_resign(game_id=game.pk, player=ann)
    assert leaving._resign_every_seat(game.pk, ann) is False
    assert left_seats(game) == [0]
