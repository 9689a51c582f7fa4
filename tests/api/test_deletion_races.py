"""A deletion blanking its seats on PostgreSQL (docs/writes.md): a rematch offer holding a
finished game of the account (its row and seats) and then asking for the account's row, as the
last offer does, meets a deletion without a deadlock: the deletion commits without waiting for
the game, and blanks the game's seats once the offer is done."""

from __future__ import annotations

import pytest
from django.db import transaction

from config.vocabulary.errors import ApiError
from games.loading import game_with_seats
from games.models import Seat
from players.models import Player
from players.services import player_hold
from tests.factories import api_client, api_game, game_url
from tests.races import Racer, until_one_waits_on_a_lock

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

PASSWORD = "correct-horse-battery"


def test_a_rematch_offer_on_its_finished_game_and_the_deletion_both_go_through() -> None:
    zelda, bob = api_client("zelda"), api_client("bob")
    game = api_game(zelda, seats=[{"type": "me", "client_seed": "zelda-seed"}, "open"], start=False)
    bob.ok("post", game_url(game["id"], "join/"))
    zelda.ok("post", game_url(game["id"], "start/"))
    bob.ok("post", game_url(game["id"], "resign/"), {}, status=201)  # finished
    player = Player.objects.get(username="zelda")

    def delete() -> int:
        return zelda.delete("/api/v1/accounts/me/", {"password": PASSWORD}).status_code

    racer = Racer(delete)
    with transaction.atomic():
        game_with_seats(game["id"], lock=True)  # as a rematch offer holds the finished game
        racer.start()
        until_one_waits_on_a_lock("the deletion, blanking the game's seats")
        # The last offer then holds every seated account's row: the deleted one's is free (the
        # deletion committed), and refused as inactive.
        with pytest.raises(ApiError):
            player_hold(player=Player(pk=player.pk))
        assert Player.objects.get(pk=player.pk).deleted_at is not None
    assert racer.finish() == 204
    assert Seat.objects.get(game_id=game["id"], index=0).client_seed == ""
