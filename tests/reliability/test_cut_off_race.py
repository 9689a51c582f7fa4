"""A ban (the cut-off an account's deletion shares) racing a move that ends the same game, proved on
the real database: the cut-off waits for the game's lock, finds the game over and passes it by;
the log gets no second ending and still replays."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.ending import game_resign
from games.log.check import log_problems
from games.models import Game, GameEvent, GameStatus
from games.moderation.actions import player_ban
from tests.factories import account, new_game
from tests.races import Racer, until_one_waits_on_a_lock


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_ban_waiting_on_a_game_that_ends_meanwhile_passes_it_by() -> None:
    ann, bob = account("ann"), account("bob")
    game = new_game(ann, "yatzy", ["me", "open"], joiners=[bob])
    banning = Racer(lambda: player_ban(player_id=bob.pk))

    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)  # a move of ann's holds the game
        banning.start()
        until_one_waits_on_a_lock("the ban, on the game's lock (it listed the game in play)")
        game_resign(game_id=game.pk, player=ann)  # ann's move ends the game first
    ban = banning.finish()

    assert ban.games.resigned == 0
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    left = list(
        GameEvent.objects.filter(game=game, type="seat_left").values_list("actor", flat=True)
    )
    assert left == [ann.pk]
    assert list(log_problems(game)) == []
